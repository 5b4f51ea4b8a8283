/**
 * Receiving the "Restocking shipment status updated" webhook with Hono, served on Node by
 * `@hono/node-server` (the same `createApp` runs unchanged on Bun, Deno and Cloudflare Workers:
 * `export default createApp({ secret, on: { … } })`).
 *
 *   FULFILLMENT_API_TOKEN=… npx tsx examples/webhooks/hono.ts
 *
 * The signature covers the raw body: hand the untouched request (`c.req.raw`) to `handler.fetch`,
 * which reads its bytes; do not read the body before (`c.req.json()`, a validator middleware).
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createWebhookHandler, type WebhookHandlerOptions } from 'merchant-fulfillment';

/** Where the provider posts the webhook (the URL you register with them). */
export const WEBHOOK_PATH = '/webhooks/fulfillment';

/** A Hono app answering webhook calls on {@link WEBHOOK_PATH}. */
export function createApp(options: WebhookHandlerOptions): Hono {
  const handler = createWebhookHandler(options);
  const app = new Hono();
  app.post(WEBHOOK_PATH, (c) => handler.fetch(c.req.raw));
  return app;
}

/** Serves the app on Node; resolves once it listens. Port 0 picks a free port. */
export function listen(
  options: WebhookHandlerOptions & { port?: number | undefined; hostname?: string | undefined },
): Promise<{ url: string; close: () => Promise<void> }> {
  const { port, hostname, ...handlerOptions } = options;
  const app = createApp(handlerOptions);
  return new Promise((resolve) => {
    const server = serve(
      { fetch: app.fetch, port: port ?? 3000, hostname: hostname ?? '127.0.0.1' },
      (info: AddressInfo) => {
        resolve({
          url: `http://${info.address}:${info.port}`,
          close: () =>
            new Promise<void>((done, fail) => {
              server.close((err) => (err ? fail(err) : done()));
              if ('closeAllConnections' in server) server.closeAllConnections();
            }),
        });
      },
    );
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.FULFILLMENT_API_TOKEN;
  if (!secret) throw new Error('Set FULFILLMENT_API_TOKEN to the API token of the sales channel.');
  const { url } = await listen({
    secret,
    on: {
      // The webhook body is the version 1 view: a version 2 shipment moving to `received` arrives here.
      delivered: (shipment) => console.log(`restocking shipment ${shipment.id} is at the warehouse`),
      restocked: (shipment) => console.log(`restocking shipment ${shipment.id} is in stock`),
    },
    onEvent: (shipment) => console.log(`restocking shipment ${shipment.id} is now ${shipment.status}`),
    port: Number(process.env.PORT ?? 3000),
    hostname: process.env.HOST,
  });
  console.log(`Listening for webhooks on ${url}${WEBHOOK_PATH}`);
}
