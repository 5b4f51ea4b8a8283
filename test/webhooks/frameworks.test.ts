/**
 * The webhook examples (`examples/webhooks/`) and `handler.node` on plain `node:http`, on real
 * servers (127.0.0.1, port 0), receiving the deliveries of the mock API: a version 2 shipment moved
 * by the warehouse reaches the handler of its version 1 status, a failed handler makes the mock
 * retry with the same event id and the retry is handled once, and the mock's delivery records show
 * the answers. The Next.js route is called with real `Request`s built from the mock's deliveries.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as expressExample from '../../examples/webhooks/express.js';
import * as fastifyExample from '../../examples/webhooks/fastify.js';
import * as honoExample from '../../examples/webhooks/hono.js';
import * as nextExample from '../../examples/webhooks/nextjs-route.js';
import {
  createWebhookHandler,
  createWebhookHeaders,
  FulfillmentClient,
  SIGNATURE_HEADER,
  type WebhookHandlerOptions,
} from '../../src/index.js';
import { createMockApi, type MockApi } from '../../src/testing/index.js';
import { ROTATED_TOKEN, SHIPMENT_BODY, shipment, TOKEN } from './fixtures.js';

const PATH = '/webhooks/fulfillment';
/** Quick retries, so that a failed delivery is retried within the test. */
const FAST_RETRY = { attempts: 3, initialDelayMs: 1 };

type Listen = (
  options: WebhookHandlerOptions & { port?: number; hostname?: string },
) => Promise<{ url: string; close: () => Promise<void> }>;

/** `handler.node` on a plain `node:http` server (every path). */
const listenNodeHttp: Listen = async ({ port, hostname, ...options }) => {
  const handler = createWebhookHandler(options);
  const server = createServer(handler.node);
  await new Promise<void>((resolve) => server.listen(port ?? 0, hostname ?? '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** Records which handler saw which status and event id; can be told to fail the next `restocked` calls. */
function recorder() {
  const calls: [handler: string, status: string, eventId: string][] = [];
  let failures = 0;
  const options = {
    on: {
      // The webhook carries the version 1 view: a version 2 `received` arrives at `delivered`.
      delivered: (s, e) => void calls.push(['delivered', s.status, e.id]),
      on_hold: (s, e) => void calls.push(['on_hold', s.status, e.id]),
      restocked: (s, e) => {
        if (failures > 0) {
          failures--;
          throw new Error('handler failed');
        }
        calls.push(['restocked', s.status, e.id]);
      },
    },
    onEvent: (s, e) => void calls.push(['onEvent', s.status, e.id]),
    onError: () => {},
  } satisfies Partial<WebhookHandlerOptions>;
  return {
    calls,
    options,
    failNext(n: number) {
      failures = n;
    },
  };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  vi.unstubAllEnvs();
});

/** A mock delivering its webhooks to `receiver`, and an SDK client on it. */
function mockFor(receiver: string, options: Parameters<typeof createMockApi>[0] = {}) {
  const api = createMockApi({ tokens: [TOKEN], webhooks: [receiver], webhookRetry: FAST_RETRY, ...options });
  closers.push(() => api.close());
  const client = new FulfillmentClient({ apiToken: api.token, baseUrl: api.baseUrl, fetch: api.fetch });
  return { api, client };
}

/** A version 2 restocking shipment of one SKU, created through the SDK. */
async function v2Shipment(client: FulfillmentClient) {
  const sku = await client.skus.create({ name: 'Mug', merchant_sku_id: 'MUG-1' });
  return client.restockingShipments.v2.create({
    delivery_option: 'courier',
    estimated_arrival_date: '2025-03-01',
    warehouse_id: 1,
    restocking_shipment_items: [{ sku_id: sku.id, announced_quantity: 5 }],
  });
}

/** Moves the shipment and waits until the mock has delivered (or given up on) the webhook. */
async function advance(
  api: MockApi,
  id: number,
  status: Parameters<MockApi['advanceRestockingShipment']>[1],
) {
  api.advanceRestockingShipment(id, status);
  await api.flushWebhooks();
}

describe.each([
  ['Express', expressExample.listen as Listen],
  ['Fastify', fastifyExample.listen as Listen],
  ['Hono (@hono/node-server)', honoExample.listen as Listen],
  ['node:http', listenNodeHttp],
])('%s receiving the mock API', (_name, listen) => {
  async function start(secret: string | readonly string[] = TOKEN) {
    const rec = recorder();
    const server = await listen({ secret, ...rec.options, port: 0, hostname: '127.0.0.1' });
    closers.push(server.close);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    return { rec, receiver: `${server.url}${PATH}` };
  }

  it('routes each delivery to the handler of its version 1 status (v2 received → delivered)', async () => {
    const { rec, receiver } = await start();
    const { api, client } = mockFor(receiver);
    const created = await v2Shipment(client);

    await advance(api, created.id, 'received');
    expect((await client.restockingShipments.v2.retrieve(created.id)).status).toBe('received');
    await advance(api, created.id, 'arrived');
    await advance(api, created.id, 'on_hold');
    expect((await client.restockingShipments.v2.retrieve(created.id)).status).toBe('processing');
    await advance(api, created.id, 'restocked');

    const deliveries = api.deliveries;
    expect(deliveries.map((d) => d.status)).toEqual(['delivered', 'arrived', 'on_hold', 'restocked']);
    for (const d of deliveries) {
      expect(d).toMatchObject({
        url: receiver,
        delivered: true,
        attempts: 1,
        statusCodes: [200],
        error: null,
      });
    }
    expect(rec.calls).toEqual([
      ['delivered', 'delivered', deliveries[0]!.eventId],
      ['onEvent', 'arrived', deliveries[1]!.eventId],
      ['on_hold', 'on_hold', deliveries[2]!.eventId],
      ['restocked', 'restocked', deliveries[3]!.eventId],
    ]);
  });

  it('a failing handler answers 500, the mock retries with the same event id, and the retry is handled once', async () => {
    const { rec, receiver } = await start();
    const { api, client } = mockFor(receiver);
    const created = await v2Shipment(client);
    rec.failNext(1);
    await advance(api, created.id, 'restocked');

    const [delivery] = api.deliveries;
    expect(delivery).toMatchObject({
      status: 'restocked',
      attempts: 2,
      statusCodes: [500, 200],
      delivered: true,
      error: null,
    });
    expect(rec.calls).toEqual([['restocked', 'restocked', delivery!.eventId]]);
  });

  it('acknowledges a delivery the mock repeats (same event id) without handling it twice', async () => {
    const { rec, receiver } = await start();
    const { api, client } = mockFor(receiver);
    const created = await v2Shipment(client);
    await advance(api, created.id, 'received');
    const [delivery] = api.deliveries;
    // Replay the recorded delivery byte for byte, as a provider retry would.
    const response = await fetch(receiver, {
      method: 'POST',
      body: delivery!.body,
      headers: {
        'content-type': 'application/json',
        'x-service-signature': delivery!.signature,
        'x-service-event-id': delivery!.eventId,
      },
    });
    expect([response.status, await response.json()]).toEqual([200, { received: true, duplicate: true }]);
    expect(rec.calls).toHaveLength(1);
  });

  it('verifies deliveries signed by either token of a rotation, and rejects a foreign one', async () => {
    const { rec, receiver } = await start([TOKEN, ROTATED_TOKEN]);
    // The mock signs with its oldest token.
    const older = mockFor(receiver, { tokens: [ROTATED_TOKEN] });
    await advance(older.api, (await v2Shipment(older.client)).id, 'received');
    const foreign = mockFor(receiver, { tokens: ['not-our-token'], webhookRetry: { attempts: 1 } });
    await advance(foreign.api, (await v2Shipment(foreign.client)).id, 'received');
    expect(older.api.deliveries[0]).toMatchObject({ delivered: true, statusCodes: [200] });
    expect(foreign.api.deliveries[0]).toMatchObject({ delivered: false, statusCodes: [400] });
    expect(rec.calls.map(([handler]) => handler)).toEqual(['delivered']);
  });

  it('verifies the exact bytes: non-ASCII, a byte-order mark, a shipment of 4 000 items', async () => {
    const { rec, receiver } = await start();
    const json = new TextEncoder().encode(
      JSON.stringify(shipment({ id: 8, status: 'cancelled', supplier_name: 'Ünïcødé ☕ 東京' })),
    );
    const items = Array.from({ length: 4000 }, (_, i) => ({
      id: i + 1,
      sku_id: 1000 + i,
      announced_quantity: 10,
    }));
    const bodies = [
      new Uint8Array([0xef, 0xbb, 0xbf, ...json]),
      new TextEncoder().encode(
        JSON.stringify(shipment({ id: 77, status: 'shipped', restocking_shipment_items: items })),
      ),
    ];
    for (const body of bodies) {
      const headers = await createWebhookHeaders({ body, secret: TOKEN });
      expect((await fetch(receiver, { method: 'POST', body, headers })).status).toBe(200);
    }
    expect(rec.calls.map(([handler, status]) => [handler, status])).toEqual([
      ['onEvent', 'cancelled'],
      ['onEvent', 'shipped'],
    ]);
  });

  it('answers 400 with the reason to a tampered or unsigned delivery and handles nothing', async () => {
    const { rec, receiver } = await start();
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN });
    const tampered = await fetch(receiver, {
      method: 'POST',
      body: SHIPMENT_BODY.replace('"arrived"', '"restocked"'),
      headers,
    });
    expect([tampered.status, ((await tampered.json()) as { error: string }).error]).toEqual([
      400,
      'signature_mismatch',
    ]);
    const { [SIGNATURE_HEADER]: _dropped, ...unsigned } = headers;
    const missing = await fetch(receiver, { method: 'POST', body: SHIPMENT_BODY, headers: unsigned });
    expect([missing.status, ((await missing.json()) as { error: string }).error]).toEqual([
      400,
      'missing_signature',
    ]);
    expect(rec.calls).toEqual([]);
  });
});

describe('Fastify: what the route must do', () => {
  it("without a parseAs: 'buffer' parser, the parsed body is refused with 500; onError gets the fix", async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, onEvent: () => {}, onError });
    const app = Fastify();
    app.post(PATH, (request, reply) => {
      reply.hijack();
      return handler.node(request, reply.raw);
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN });
    const response = await fetch(`${url}${PATH}`, { method: 'POST', body: SHIPMENT_BODY, headers });
    // The answer goes to whoever called: the reason only; the setup help goes to onError.
    expect([response.status, await response.json()]).toEqual([500, { error: 'parsed_body' }]);
    expect(String(onError.mock.calls[0]![0].message)).toContain("parseAs: 'buffer'");
    expect(onError.mock.calls[0]![1]).toEqual({ stage: 'configuration', responseStatus: 500 });
  });
});

describe('Next.js route handler example', () => {
  /** The route module, loaded afresh (its handler is created on the first call). */
  async function route() {
    vi.resetModules();
    return (await import('../../examples/webhooks/nextjs-route.js')) as typeof nextExample;
  }

  it('createPostHandler answers the mock deliveries, passed as real Requests', async () => {
    const rec = recorder();
    rec.failNext(1);
    const POST = nextExample.createPostHandler({ secret: TOKEN, ...rec.options });
    const { api, client } = mockFor('https://shop.example/webhooks/fulfillment', {
      webhookFetch: (url, init) => POST(new Request(url, init)),
    });
    const created = await v2Shipment(client);
    await advance(api, created.id, 'received');
    await advance(api, created.id, 'restocked');
    const [delivered, restocked] = api.deliveries;
    expect(delivered).toMatchObject({ status: 'delivered', statusCodes: [200], delivered: true });
    expect(restocked).toMatchObject({ status: 'restocked', statusCodes: [500, 200], delivered: true });
    expect(rec.calls).toEqual([
      ['delivered', 'delivered', delivered!.eventId],
      ['restocked', 'restocked', restocked!.eventId],
    ]);
  });

  it('exported POST verifies with FULFILLMENT_API_TOKEN and routes the statuses', async () => {
    vi.stubEnv('FULFILLMENT_API_TOKEN', TOKEN);
    const { POST } = await route();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { api, client } = mockFor('https://shop.example/webhooks/fulfillment', {
      webhookFetch: (url, init) => POST(new Request(url, init)),
    });
    const created = await v2Shipment(client);
    await advance(api, created.id, 'received');
    await advance(api, created.id, 'arrived');
    expect(api.deliveries.map((d) => d.statusCodes)).toEqual([[200], [200]]);
    expect(log.mock.calls).toEqual([
      [`restocking shipment ${created.id} is at the warehouse`],
      [`restocking shipment ${created.id} is now arrived`],
    ]);
    log.mockRestore();
  });

  it('exported POST fails (Next.js answers 500) naming the option while the token is not configured', async () => {
    vi.stubEnv('FULFILLMENT_API_TOKEN', '');
    const { POST } = await route();
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN });
    const request = () =>
      new Request(`http://localhost${PATH}`, { method: 'POST', body: SHIPMENT_BODY, headers });
    await expect(POST(request())).rejects.toMatchObject({
      reason: 'missing_secret',
      message: expect.stringContaining("'secret'"),
    });
    // Once configured, the next call (the provider's retry) is handled.
    vi.stubEnv('FULFILLMENT_API_TOKEN', TOKEN);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    expect((await POST(request())).status).toBe(200);
    expect(log).toHaveBeenCalledWith('restocking shipment 42 is now arrived');
  });
});
