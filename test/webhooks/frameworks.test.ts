import { afterEach, describe, expect, it, vi } from 'vitest';
import * as expressExample from '../../examples/webhooks/express.js';
import * as fastifyExample from '../../examples/webhooks/fastify.js';
import * as honoExample from '../../examples/webhooks/hono.js';
import * as nextExample from '../../examples/webhooks/nextjs-route.js';
import type { RestockingShipmentStatusUpdatedEvent } from '../../src/webhooks/index.js';
import { createWebhookHeaders, SIGNATURE_HEADER } from '../../src/webhooks/index.js';
import { ROTATED_TOKEN, SHIPMENT_BODY, shipment, TOKEN } from './fixtures.js';

const PATH = '/webhooks/fulfillment';

/** Records the events an example handles; can be told to fail the next ones. */
function recorder() {
  const events: RestockingShipmentStatusUpdatedEvent[] = [];
  let failures = 0;
  return {
    events,
    failNext(n: number) {
      failures = n;
    },
    onEvent(event: RestockingShipmentStatusUpdatedEvent) {
      if (failures > 0) {
        failures--;
        throw new Error('handler failed');
      }
      events.push(event);
    },
  };
}

const servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe.each([
  ['Express', expressExample.listen],
  ['Fastify', fastifyExample.listen],
  ['Hono (@hono/node-server)', honoExample.listen],
])('%s example on a real server', (_name, listen) => {
  async function start(secret: string | readonly string[] = TOKEN) {
    const rec = recorder();
    const server = await listen({ secret, onEvent: rec.onEvent, port: 0, hostname: '127.0.0.1' });
    servers.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const post = async (body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>) => {
      const res = await fetch(`${server.url}${PATH}`, { method: 'POST', body, headers });
      const text = await res.text();
      const json = res.headers.get('content-type')?.includes('json')
        ? (JSON.parse(text) as Record<string, unknown>)
        : {};
      return { status: res.status, json };
    };
    return { rec, post };
  }

  it('answers 200 to a signed delivery and hands over the shipment', async () => {
    const { rec, post } = await start();
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: 'evt-1' });
    expect(await post(SHIPMENT_BODY, headers)).toEqual({ status: 200, json: { received: true } });
    expect(rec.events).toHaveLength(1);
    expect(rec.events[0]).toMatchObject({ id: 'evt-1', data: { id: 42, status: 'arrived' } });
  });

  it('verifies the exact bytes of a non-ASCII body', async () => {
    const { rec, post } = await start();
    const body = JSON.stringify(shipment({ id: 7, status: 'restocked', supplier_name: 'Ünïcødé ☕ 東京' }));
    const bytes = new TextEncoder().encode(body);
    const headers = await createWebhookHeaders({ body, secret: TOKEN });
    expect(
      (await post(bytes, { ...headers, 'content-type': 'application/json; charset=utf-8' })).status,
    ).toBe(200);
    expect(rec.events[0]?.data.supplier_name).toBe('Ünïcødé ☕ 東京');
  });

  it('verifies a large delivery (a shipment with 4 000 items, ~200 kB)', async () => {
    const { rec, post } = await start();
    const items = Array.from({ length: 4000 }, (_, i) => ({
      id: i + 1,
      sku_id: 1000 + i,
      announced_quantity: 10,
    }));
    const body = JSON.stringify(shipment({ id: 77, status: 'shipped', restocking_shipment_items: items }));
    expect(body.length).toBeGreaterThan(150_000);
    const headers = await createWebhookHeaders({ body, secret: TOKEN });
    expect((await post(body, headers)).status).toBe(200);
    expect(rec.events[0]?.data.restocking_shipment_items).toHaveLength(4000);
  });

  it('verifies the exact bytes of a body that starts with a byte-order mark', async () => {
    const { rec, post } = await start();
    const json = new TextEncoder().encode(JSON.stringify(shipment({ id: 8, status: 'arrived' })));
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...json]);
    const headers = await createWebhookHeaders({ body: bytes, secret: TOKEN });
    // The signature is checked over the bytes as sent (BOM included); the payload then parses.
    expect((await post(bytes, headers)).status).toBe(200);
    expect(rec.events[0]?.data.id).toBe(8);
  });

  it('answers 400 with the reason to a tampered delivery and does not process it', async () => {
    const { rec, post } = await start();
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN });
    const tampered = SHIPMENT_BODY.replace('"arrived"', '"restocked"');
    const res = await post(tampered, headers);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('signature_mismatch');
    expect(rec.events).toHaveLength(0);
  });

  it('answers 400 with the reason when a header is missing', async () => {
    const { post } = await start();
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN });
    delete headers[SIGNATURE_HEADER];
    const res = await post(SHIPMENT_BODY, headers);
    expect(res).toMatchObject({ status: 400, json: { error: 'missing_signature' } });
  });

  it('acknowledges a repeated event id with 200 but processes it once', async () => {
    const { rec, post } = await start();
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: 'evt-dup' });
    expect((await post(SHIPMENT_BODY, headers)).status).toBe(200);
    expect(await post(SHIPMENT_BODY, headers)).toEqual({
      status: 200,
      json: { received: true, duplicate: true },
    });
    expect(rec.events).toHaveLength(1);
    const other = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: 'evt-other' });
    expect((await post(SHIPMENT_BODY, other)).status).toBe(200);
    expect(rec.events.map((e) => e.id)).toEqual(['evt-dup', 'evt-other']);
  });

  it('answers 500 when handling fails, and processes the retry', async () => {
    const { rec, post } = await start();
    rec.failNext(1);
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: 'evt-retry' });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect((await post(SHIPMENT_BODY, headers)).status).toBe(500);
    error.mockRestore();
    expect((await post(SHIPMENT_BODY, headers)).status).toBe(200);
    expect(rec.events.map((e) => e.id)).toEqual(['evt-retry']);
  });

  it('accepts deliveries signed with any of the rotated tokens', async () => {
    const { rec, post } = await start([TOKEN, ROTATED_TOKEN]);
    for (const secret of [ROTATED_TOKEN, TOKEN]) {
      expect(
        (await post(SHIPMENT_BODY, await createWebhookHeaders({ body: SHIPMENT_BODY, secret }))).status,
      ).toBe(200);
    }
    expect(rec.events).toHaveLength(2);
  });
});

describe('Next.js route handler example', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const request = (body: string, headers: Record<string, string>) =>
    new Request(`http://localhost${PATH}`, { method: 'POST', body, headers });

  it('createPostHandler: 200 once per event id, 400 with the reason on tampering', async () => {
    const rec = recorder();
    const POST = nextExample.createPostHandler({ secret: TOKEN, onEvent: rec.onEvent });
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: 'n-1' });

    const ok = await POST(request(SHIPMENT_BODY, headers));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ received: true });
    const again = await POST(request(SHIPMENT_BODY, headers));
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(rec.events).toHaveLength(1);

    const bad = await POST(request(`${SHIPMENT_BODY} `, headers));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'signature_mismatch' });
    expect(rec.events).toHaveLength(1);
  });

  it('createPostHandler verifies the exact bytes of a body with a byte-order mark', async () => {
    const rec = recorder();
    const POST = nextExample.createPostHandler({ secret: TOKEN, onEvent: rec.onEvent });
    const bytes = new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode(JSON.stringify(shipment({ id: 9, status: 'arrived' }))),
    ]);
    const headers = await createWebhookHeaders({ body: bytes, secret: TOKEN });
    const res = await POST(new Request(`http://localhost${PATH}`, { method: 'POST', body: bytes, headers }));
    expect(res.status).toBe(200);
    expect(rec.events[0]?.data.id).toBe(9);
  });

  it('createPostHandler: 500 when handling fails, then the retry is processed', async () => {
    const rec = recorder();
    rec.failNext(1);
    const POST = nextExample.createPostHandler({ secret: TOKEN, onEvent: rec.onEvent });
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: 'n-retry' });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect((await POST(request(SHIPMENT_BODY, headers))).status).toBe(500);
    error.mockRestore();
    expect((await POST(request(SHIPMENT_BODY, headers))).status).toBe(200);
    expect(rec.events).toHaveLength(1);
  });

  it('exported POST reads FULFILLMENT_API_TOKEN', async () => {
    vi.stubEnv('FULFILLMENT_API_TOKEN', TOKEN);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: 'n-env' });
    const res = await nextExample.POST(request(SHIPMENT_BODY, headers));
    expect(res.status).toBe(200);
    expect(log).toHaveBeenCalledWith('restocking shipment 42 is now arrived');
    expect(await (await nextExample.POST(request(SHIPMENT_BODY, headers))).json()).toMatchObject({
      duplicate: true,
    });
    log.mockRestore();
  });

  it('exported POST answers 500 when the token is not configured', async () => {
    vi.stubEnv('FULFILLMENT_API_TOKEN', '');
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN });
    const res = await nextExample.POST(request(SHIPMENT_BODY, headers));
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: 'missing_secret' });
  });
});
