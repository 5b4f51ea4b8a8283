/**
 * Receiving the "Restocking shipment status updated" webhook in a Next.js App Router route handler:
 * save as `app/webhooks/fulfillment/route.ts` and set `FULFILLMENT_API_TOKEN`. It runs on the
 * Node.js and the Edge runtime alike (add `export const runtime = 'edge'` for the latter).
 *
 * The signature covers the raw body: read its bytes with `await req.arrayBuffer()`, never
 * `req.json()` (and not `req.text()`, which drops a byte-order mark and replaces invalid UTF-8).
 *
 * Next.js only allows route exports (`POST`, `runtime`, …) in `route.ts`: in an app, move
 * `createPostHandler` into a module of its own (e.g. `lib/webhooks.ts`). It is exported here so
 * that tests can build a handler with their own secret.
 */
import {
  InMemoryWebhookDeduplicator,
  type RestockingShipmentStatusUpdatedEvent,
  verifyWebhook,
  type WebhookDeduplicator,
  WebhookVerificationError,
} from 'merchant-fulfillment';

/** Options of {@link createPostHandler}. */
export interface WebhookHandlerOptions {
  /** The sales channel's API token, or all of its tokens during a rotation. */
  secret: string | readonly string[];
  /** Remembers handled event ids. Default: an in-memory one (per server instance). */
  deduplicator?: WebhookDeduplicator;
  /** Your handling of a new event. Default: logs the new status. */
  onEvent?: (event: RestockingShipmentStatusUpdatedEvent) => unknown;
}

/** A route handler for webhook calls: 200 when verified (once per event id), 400 when not. */
export function createPostHandler(options: WebhookHandlerOptions): (req: Request) => Promise<Response> {
  const deduplicator = options.deduplicator ?? new InMemoryWebhookDeduplicator();
  const onEvent =
    options.onEvent ??
    ((event: RestockingShipmentStatusUpdatedEvent) =>
      console.log(`restocking shipment ${event.data.id} is now ${event.data.status}`));

  return async (req) => {
    let event: RestockingShipmentStatusUpdatedEvent;
    try {
      const body = new Uint8Array(await req.arrayBuffer());
      event = await verifyWebhook({ body, headers: req.headers, secret: options.secret });
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      // A missing secret is our misconfiguration, not the sender's fault.
      const status = err.reason === 'missing_secret' ? 500 : 400;
      return Response.json({ error: err.reason, message: err.message }, { status });
    }
    // Retries carry the same event id: acknowledge them without handling the event twice.
    if (await deduplicator.seen(event.id)) return Response.json({ received: true, duplicate: true });
    try {
      await onEvent(event);
    } catch (err) {
      await deduplicator.forget?.(event.id); // let the provider's retry be processed
      console.error(err);
      return Response.json({ error: 'handler_failed' }, { status: 500 });
    }
    return Response.json({ received: true });
  };
}

const deduplicator = new InMemoryWebhookDeduplicator();

/** `POST /webhooks/fulfillment`: verifies with `FULFILLMENT_API_TOKEN` (read on each call). */
export async function POST(req: Request): Promise<Response> {
  const secret = process.env.FULFILLMENT_API_TOKEN ?? '';
  return createPostHandler({ secret, deduplicator })(req);
}
