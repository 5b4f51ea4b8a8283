/**
 * Receiving the "Restocking shipment status updated" webhook with Hono, served on Node by
 * `@hono/node-server` (the same `createApp` runs unchanged on Bun, Deno and Cloudflare Workers:
 * `export default createApp({ secret })`).
 *
 *   FULFILLMENT_API_TOKEN=… npx tsx examples/webhooks/hono.ts
 *
 * The signature covers the raw body: read its bytes with `await c.req.arrayBuffer()` (`text()`
 * decodes them, dropping a byte-order mark and replacing invalid UTF-8, which breaks the signature),
 * never `c.req.json()`.
 */
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
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

/** A Hono app answering webhook calls on {@link WEBHOOK_PATH}. */
export function createApp(options: WebhookAppOptions): Hono {
  const deduplicator = options.deduplicator ?? new InMemoryWebhookDeduplicator();
  const onEvent =
    options.onEvent ??
    ((event: RestockingShipmentStatusUpdatedEvent) =>
      console.log(`restocking shipment ${event.data.id} is now ${event.data.status}`));

  const app = new Hono();
  app.post(WEBHOOK_PATH, async (c) => {
    let event: RestockingShipmentStatusUpdatedEvent;
    try {
      event = await verifyWebhook({
        body: new Uint8Array(await c.req.arrayBuffer()),
        headers: c.req.raw.headers,
        secret: options.secret,
      });
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      // A missing secret is our misconfiguration, not the sender's fault.
      return c.json({ error: err.reason, message: err.message }, err.reason === 'missing_secret' ? 500 : 400);
    }
    // Retries carry the same event id: acknowledge them without handling the event twice.
    if (await deduplicator.seen(event.id)) return c.json({ received: true, duplicate: true });
    try {
      await onEvent(event);
    } catch (err) {
      await deduplicator.forget?.(event.id); // let the provider's retry be processed
      throw err; // Hono answers 500
    }
    return c.json({ received: true });
  });
  return app;
}

/** Serves the app on Node; resolves once it listens. Port 0 picks a free port. */
export function listen(
  options: WebhookAppOptions & { port?: number | undefined; hostname?: string | undefined },
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = createApp(options);
  return new Promise((resolve) => {
    const server = serve(
      { fetch: app.fetch, port: options.port ?? 3000, hostname: options.hostname ?? '127.0.0.1' },
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
    port: Number(process.env.PORT ?? 3000),
    hostname: process.env.HOST,
  });
  console.log(`Listening for webhooks on ${url}${WEBHOOK_PATH}`);
}
