/**
 * Receiving the "Restocking shipment status updated" webhook in a Next.js App Router route handler:
 * save as `app/webhooks/fulfillment/route.ts` and set `FULFILLMENT_API_TOKEN`. It runs on the
 * Node.js and the Edge runtime alike (add `export const runtime = 'edge'` for the latter).
 *
 * `handler.fetch` reads the raw body itself (the signature covers the exact bytes) and is a plain
 * function: with the token at hand, `export const POST = createWebhookHandler({ … }).fetch` is the
 * whole route. Here the handler is created on the first call instead, because `next build` loads
 * route modules and the build environment may not hold the token: a missing token then fails that
 * call (Next.js answers 500) with a message naming the option, and the provider retries it.
 *
 * Next.js only allows route exports (`POST`, `runtime`, …) in `route.ts`: in an app, move
 * `createPostHandler` into a module of its own (e.g. `lib/webhooks.ts`). It is exported here so
 * that tests can build a handler with their own secret.
 */
import {
  createWebhookHandler,
  type WebhookHandler,
  type WebhookHandlerOptions,
  type WebhookStatusHandlers,
} from 'merchant-fulfillment';

/** A route handler for webhook calls (see `createWebhookHandler` for its answers). */
export function createPostHandler(options: WebhookHandlerOptions): (request: Request) => Promise<Response> {
  return createWebhookHandler(options).fetch;
}

/** What this route does with each status: your code goes here. */
const on: WebhookStatusHandlers = {
  // The webhook body is the version 1 view: a version 2 shipment moving to `received` arrives here.
  delivered: (shipment) => console.log(`restocking shipment ${shipment.id} is at the warehouse`),
  restocked: (shipment) => console.log(`restocking shipment ${shipment.id} is in stock`),
};

let handler: WebhookHandler | undefined;

/** `POST /webhooks/fulfillment`: verifies with `FULFILLMENT_API_TOKEN` (read on the first call). */
export async function POST(request: Request): Promise<Response> {
  handler ??= createWebhookHandler({
    secret: process.env.FULFILLMENT_API_TOKEN ?? '',
    on,
    onEvent: (shipment) => console.log(`restocking shipment ${shipment.id} is now ${shipment.status}`),
  });
  return handler.fetch(request);
}
