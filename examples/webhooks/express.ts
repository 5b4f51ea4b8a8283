/**
 * Receiving the "Restocking shipment status updated" webhook with Express 5.
 *
 *   FULFILLMENT_API_TOKEN=… npx tsx examples/webhooks/express.ts
 *
 * `handler.node` reads the raw body itself (the signature covers the exact bytes), so the webhook
 * route needs no body parser. Do not let `express.json()` run before it (mount it after this route,
 * or on other routes only): a parsed body is refused with a 500 that names the fix. A route that
 * already uses `express.raw({ type: 'application/json' })` works too.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import express, { type Express } from 'express';
import { createWebhookHandler, type WebhookHandlerOptions } from 'merchant-fulfillment';

/** Where the provider posts the webhook (the URL you register with them). */
export const WEBHOOK_PATH = '/webhooks/fulfillment';

/** An Express app answering webhook calls on {@link WEBHOOK_PATH}. */
export function createApp(options: WebhookHandlerOptions): Express {
  const handler = createWebhookHandler(options);
  const app = express();
  app.post(WEBHOOK_PATH, handler.node);
  return app;
}

/** Starts the app; resolves once it listens. Port 0 picks a free port. */
export async function listen(
  options: WebhookHandlerOptions & { port?: number | undefined; hostname?: string | undefined },
): Promise<{ url: string; close: () => Promise<void> }> {
  const { port, hostname, ...handlerOptions } = options;
  const server = createApp(handlerOptions).listen(port ?? 3000, hostname ?? '127.0.0.1');
  await once(server, 'listening');
  const { address, port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${bound}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
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
