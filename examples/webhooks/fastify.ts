/**
 * Receiving the "Restocking shipment status updated" webhook with Fastify 5.
 *
 *   FULFILLMENT_API_TOKEN=… npx tsx examples/webhooks/fastify.ts
 *
 * The signature covers the raw body: inside an encapsulated plugin, the webhook route replaces
 * Fastify's JSON parser with one that keeps the body as a Buffer (`parseAs: 'buffer'`). Other
 * routes of the app keep parsing JSON as usual.
 */
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
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

/** A Fastify app answering webhook calls on {@link WEBHOOK_PATH}. */
export function createApp(options: WebhookAppOptions): FastifyInstance {
  const deduplicator = options.deduplicator ?? new InMemoryWebhookDeduplicator();
  const onEvent =
    options.onEvent ??
    ((event: RestockingShipmentStatusUpdatedEvent) =>
      console.log(`restocking shipment ${event.data.id} is now ${event.data.status}`));

  const app = Fastify();
  app.register(async (webhooks) => {
    // Keep the raw bytes for this plugin's routes only.
    webhooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });

    webhooks.post<{ Body: Uint8Array | undefined }>(WEBHOOK_PATH, async (request, reply) => {
      let event: RestockingShipmentStatusUpdatedEvent;
      try {
        event = await verifyWebhook({
          body: request.body ?? '',
          headers: request.headers,
          secret: options.secret,
        });
      } catch (err) {
        if (!(err instanceof WebhookVerificationError)) throw err;
        // A missing secret is our misconfiguration, not the sender's fault.
        return reply
          .code(err.reason === 'missing_secret' ? 500 : 400)
          .send({ error: err.reason, message: err.message });
      }
      // Retries carry the same event id: acknowledge them without handling the event twice.
      if (await deduplicator.seen(event.id)) return { received: true, duplicate: true };
      try {
        await onEvent(event);
      } catch (err) {
        await deduplicator.forget?.(event.id); // let the provider's retry be processed
        throw err; // Fastify answers 500
      }
      return { received: true };
    });
  });
  return app;
}

/** Starts the app; resolves once it listens. Port 0 picks a free port. */
export async function listen(
  options: WebhookAppOptions & { port?: number | undefined; hostname?: string | undefined },
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = createApp(options);
  const url = await app.listen({ port: options.port ?? 3000, host: options.hostname ?? '127.0.0.1' });
  return { url, close: () => app.close() };
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
