/**
 * Receiving the "Restocking shipment status updated" webhook with Express 5.
 *
 *   FULFILLMENT_API_TOKEN=… npx tsx examples/webhooks/express.ts
 *
 * The signature covers the raw body: the webhook route reads it with
 * `express.raw({ type: 'application/json', limit: '1mb' })` (the default 100 kB limit would refuse a
 * shipment with many items, and the provider would retry it forever). Do not let a global `app.use(express.json())` run
 * before it (mount it after this route, or on other routes only): `verifyWebhook` refuses a parsed
 * body with reason `parsed_body`.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import express, { type Express } from 'express';
import {
  InMemoryWebhookDeduplicator,
  type RestockingShipmentStatusUpdatedEvent,
  verifyWebhook,
  type WebhookDeduplicator,
  WebhookVerificationError,
} from 'merchant-fulfillment';

/** Where the provider posts the webhook (the URL you register with them). */
export const WEBHOOK_PATH = '/webhooks/fulfillment';

/** Options of {@link createApp}. */
export interface WebhookAppOptions {
  /** The sales channel's API token, or all of its tokens during a rotation. */
  secret: string | readonly string[];
  /** Remembers handled event ids. Default: an in-memory one (a single process). */
  deduplicator?: WebhookDeduplicator;
  /** Your handling of a new event. Default: logs the new status. */
  onEvent?: (event: RestockingShipmentStatusUpdatedEvent) => unknown;
}

/** An Express app answering webhook calls on {@link WEBHOOK_PATH}. */
export function createApp(options: WebhookAppOptions): Express {
  const deduplicator = options.deduplicator ?? new InMemoryWebhookDeduplicator();
  const onEvent =
    options.onEvent ??
    ((event: RestockingShipmentStatusUpdatedEvent) =>
      console.log(`restocking shipment ${event.data.id} is now ${event.data.status}`));

  const app = express();
  app.post(WEBHOOK_PATH, express.raw({ type: 'application/json', limit: '1mb' }), async (req, res) => {
    let event: RestockingShipmentStatusUpdatedEvent;
    try {
      // req.body is a Buffer here (or undefined when the content type is not JSON).
      event = await verifyWebhook({ body: req.body, headers: req.headers, secret: options.secret });
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      // A missing secret is our misconfiguration, not the sender's fault.
      res
        .status(err.reason === 'missing_secret' ? 500 : 400)
        .json({ error: err.reason, message: err.message });
      return;
    }
    // Retries carry the same event id: acknowledge them without handling the event twice.
    if (await deduplicator.seen(event.id)) {
      res.status(200).json({ received: true, duplicate: true });
      return;
    }
    try {
      await onEvent(event);
    } catch (err) {
      await deduplicator.forget?.(event.id); // let the provider's retry be processed
      throw err; // Express 5 answers 500
    }
    res.status(200).json({ received: true });
  });
  return app;
}

/** Starts the app; resolves once it listens. Port 0 picks a free port. */
export async function listen(
  options: WebhookAppOptions & { port?: number | undefined; hostname?: string | undefined },
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createApp(options).listen(options.port ?? 3000, options.hostname ?? '127.0.0.1');
  await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
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
    port: Number(process.env.PORT ?? 3000),
    hostname: process.env.HOST,
  });
  console.log(`Listening for webhooks on ${url}${WEBHOOK_PATH}`);
}
