/**
 * Runs one README block against a fresh mock of the API, offline:
 *
 *   node run.js <compiled block> [fixture]
 *
 * - The mock answers on `FULFILLMENT_BASE_URL` with the token `FULFILLMENT_API_TOKEN` (both set by
 *   scripts/readme-blocks.mjs), so a block that builds its client from the environment, or names
 *   that service root, talks to the mock.
 * - The global `fetch` is replaced: the mock's origin and the fixtures' routes are answered in
 *   process, 127.0.0.1 goes to the network, anything else is refused (and fails the run).
 * - A fixture (`<!-- readme: with=NAME -->`) prepares the mock before the block runs (`before`), or
 *   checks what the block did or built (`after`, given the block's module).
 * - The process must then exit by itself: a socket or timer the block leaves open is a failure
 *   (the runner's timeout).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Express } from 'express';
import { FulfillmentClient, verifyWebhook } from 'merchant-fulfillment';
import { createMockApi } from 'merchant-fulfillment/testing';

const TOKEN = process.env.FULFILLMENT_API_TOKEN ?? '';
const BASE_URL = process.env.FULFILLMENT_BASE_URL ?? '';
if (!TOKEN || !BASE_URL) throw new Error('run.js needs FULFILLMENT_API_TOKEN and FULFILLMENT_BASE_URL');

const api = createMockApi({ baseUrl: BASE_URL, tokens: [TOKEN] });

type Route = (request: Request) => Promise<Response>;
/** Origins answered in process: the mock's, and whatever a fixture adds. */
const routes = new Map<string, Route>([[new URL(BASE_URL).origin, (request) => api.fetch(request)]]);
const refused: string[] = [];
const networkFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  const route = routes.get(url.origin);
  if (route) return route(request);
  if (url.hostname === '127.0.0.1') return networkFetch(request);
  refused.push(url.origin);
  throw new TypeError(`fetch failed: ${url.origin} is off limits (README blocks run offline)`);
};

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`fixture check failed: ${message}`);
}

interface Fixture {
  before?(): Promise<void>;
  after?(block: Record<string, unknown>): Promise<void>;
}

/** A client of the mock for the fixtures' own set-up (not the block's). */
const seedClient = () => new FulfillmentClient({ apiToken: TOKEN, baseUrl: BASE_URL, fetch: api.fetch });

/** What the mock must hold, or what must be checked, for a block to show what it says. */
const fixtures: Record<string, Fixture> = {
  /** The prelude's `order` was created already: the block's second try is the API's 422, logged. */
  'order-taken': (() => {
    const logged: unknown[][] = [];
    const consoleError = console.error;
    return {
      async before() {
        const { order } = await import('./prelude.js');
        const client = seedClient();
        await client.skus.create({ name: 'T-shirt M', merchant_sku_id: 'TSHIRT-M' });
        await client.orders.create(order);
        console.error = (...args: unknown[]) => {
          logged.push(args);
          consoleError(...args);
        };
      },
      async after() {
        console.error = consoleError;
        const errors = JSON.stringify(logged);
        check(errors === '[[["Merchant order has already been taken"]]]', `logged ${errors}`);
      },
    };
  })(),

  /** The provider has shipped an order and recorded a return for it (returns are the provider's to create). */
  returns: {
    async before() {
      const client = seedClient();
      const sku = await client.skus.create({ name: 'Seed mug', merchant_sku_id: 'SEED-MUG' });
      const inbound = await client.restockingShipments.v1.create({
        warehouse_id: 1,
        restocking_shipment_items: [{ sku_id: sku.id, announced_quantity: 5 }],
      });
      api.advanceRestockingShipment(inbound.id, 'restocked');
      const order = await client.orders.create({
        merchant_order_id: 'SEED-1',
        shipping_address: {
          full_name: 'Sam Seed',
          last_name: 'Seed',
          line1: 'Main St 1',
          city: 'Berlin',
          postal_code: '10115',
          country_code: 'DE',
        },
        items: [{ merchant_item_id: '1', sku_id: sku.id, quantity: 1, price_per_unit_in_cents: 900 }],
      });
      api.fulfillOrder(order.id);
      api.createReturn(order.id);
    },
  },

  /** The block's Express `app`, served on 127.0.0.1, gets a signed call, its retry, and a forgery. */
  'express-webhook': {
    async after(block) {
      const app = block.app as Express;
      const { body, headers, handledShipments } = await import('./prelude.js');
      const server = app.listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const { port } = server.address() as AddressInfo;
        const post = (text: string, extra: Record<string, string> = {}) =>
          fetch(`http://127.0.0.1:${port}/webhooks/fulfillment`, {
            method: 'POST',
            body: text,
            headers: { ...headers, ...extra },
          });
        check((await post(body)).status === 200, 'a signed call is answered 200');
        check((await post(body)).status === 200, 'its retry is answered 200');
        check(
          handledShipments.length === 1,
          `the retry is not handled again (${handledShipments.length} handled)`,
        );
        const forged = await post(body.replace('"restocked"', '"cancelled"'), {
          'x-service-event-id': 'forged',
        });
        check(forged.status === 400, `a forged call is answered 400, not ${forged.status}`);
        const answer = (await forged.json()) as { error?: unknown };
        check(answer.error === 'signature_mismatch', `the forgery's reason, not ${String(answer.error)}`);
        check(handledShipments.length === 1, 'a forged call is not handled');
      } finally {
        server.closeAllConnections();
        server.close();
      }
    },
  },

  /** The webhook endpoint on http://localhost:3000 verifies what the block sends it. */
  endpoint: (() => {
    const results: string[] = [];
    return {
      async before() {
        routes.set('http://localhost:3000', async (request) => {
          try {
            const event = await verifyWebhook({
              body: new Uint8Array(await request.arrayBuffer()),
              headers: request.headers,
              secret: TOKEN,
            });
            results.push(`verified ${event.id}`);
            return new Response(null, { status: 200 });
          } catch (error) {
            results.push(String(error));
            return Response.json({ error: String(error) }, { status: 400 });
          }
        });
      },
      async after() {
        check(
          results.length === 1 && results[0]?.startsWith('verified'),
          `the endpoint got one verified call: ${results.join('; ') || 'none'}`,
        );
      },
    };
  })(),
};

const [blockFile, fixtureName] = process.argv.slice(2);
if (!blockFile) throw new Error('usage: node run.js <compiled block> [fixture]');
const fixture = fixtureName === undefined ? {} : fixtures[fixtureName];
if (!fixture) throw new Error(`unknown fixture ${fixtureName}`);
await fixture.before?.();
const block = (await import(pathToFileURL(blockFile).href)) as Record<string, unknown>;
await fixture.after?.(block);
if (refused.length > 0)
  throw new Error(`the block fetched off-limits origins: ${[...new Set(refused)].join(', ')}`);
