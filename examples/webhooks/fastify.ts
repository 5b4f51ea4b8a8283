/**
 * Receiving the "Restocking shipment status updated" webhook with Fastify 5.
 *
 *   FULFILLMENT_API_TOKEN=… npx tsx examples/webhooks/fastify.ts
 *
 * The signature covers the raw body: inside an encapsulated plugin, the webhook route replaces
 * Fastify's JSON parser with one that keeps the body as a Buffer (`parseAs: 'buffer'`; other routes
 * of the app keep parsing JSON as usual). The route hands Fastify's `request` (its `body` is that
 * Buffer) and the raw response to `handler.node`, after `reply.hijack()` tells Fastify that the
 * handler answers. Fastify's own `bodyLimit` (1 MiB by default, like the handler's `maxBodyBytes`)
 * applies first: raise both together.
 */
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { createWebhookHandler, type WebhookHandlerOptions } from 'merchant-fulfillment';

/** Where the provider posts the webhook (the URL you register with them). */
export const WEBHOOK_PATH = '/webhooks/fulfillment';

/** A Fastify app answering webhook calls on {@link WEBHOOK_PATH}. */
export function createApp(options: WebhookHandlerOptions): FastifyInstance {
  const handler = createWebhookHandler(options);
  const app = Fastify();
  app.register(async (webhooks) => {
    // Keep the raw bytes for this plugin's routes only.
    webhooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });
    webhooks.post(WEBHOOK_PATH, (request, reply) => {
      reply.hijack();
      return handler.node(request, reply.raw);
    });
  });
  return app;
}

/** Starts the app; resolves once it listens. Port 0 picks a free port. */
export async function listen(
  options: WebhookHandlerOptions & { port?: number | undefined; hostname?: string | undefined },
): Promise<{ url: string; close: () => Promise<void> }> {
  const { port, hostname, ...handlerOptions } = options;
  const app = createApp(handlerOptions);
  const url = await app.listen({ port: port ?? 3000, host: hostname ?? '127.0.0.1' });
  return { url, close: () => app.close() };
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
