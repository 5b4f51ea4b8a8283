/**
 * The control routes under /__mock/ (`faces/control.ts`), driven over the real HTTP server with
 * plain fetch — as a client in any language would.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { MockServer } from '../../../src/testing/index.js';
import { verifyWebhook } from '../../../src/webhooks/index.js';
import { ADDRESS, mockRequest, orderBody, skuBody, TOKEN, testApi } from '../helpers.js';

const received: { body: string; headers: Headers }[] = [];
const api = testApi({
  tokens: [TOKEN, 'second-token'],
  blockedCountries: ['CH'],
  webhooks: ['https://shop.example/hooks'],
  webhookRetry: { attempts: 2, initialDelayMs: 1 },
  webhookFetch: async (_url, init) => {
    received.push({ body: String(init.body), headers: new Headers(init.headers) });
    return new Response(null, { status: 204 });
  },
});
let server: MockServer;
let url = '';
const send = (method: string, path: string, body?: unknown, token: string | null = TOKEN) =>
  mockRequest(url, method, path, body, token);

beforeAll(async () => {
  server = await api.listen({ host: '127.0.0.1', port: 0 });
  url = server.url;
});
afterAll(() => api.close());
beforeEach(async () => {
  received.length = 0;
  expect((await send('POST', '/__mock/reset')).status).toBe(204);
});

/** A SKU and a restocking shipment of 10 units of it, created through the API. */
async function inbound(): Promise<{ skuId: number; shipmentId: number }> {
  const sku = await send('POST', '/merchant_api/v1/skus', skuBody('MUG'));
  const shipment = await send('POST', '/merchant_api/v1/restocking_shipments', {
    warehouse_id: 1,
    restocking_shipment_items: [{ sku_id: sku.body.id, announced_quantity: 10 }],
  });
  expect(shipment.status).toBe(201);
  return { skuId: sku.body.id, shipmentId: shipment.body.id };
}

describe('authentication', () => {
  test('control routes need a valid Bearer token like the API (401 with WWW-Authenticate)', async () => {
    for (const token of [null, 'wrong']) {
      const answer = await send('GET', '/__mock/state', undefined, token);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ success: false, errors: ['authentication required'] });
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await send('POST', '/__mock/reset', undefined, null)).status).toBe(401);
    expect((await send('GET', '/__mock/state', undefined, 'second-token')).status).toBe(200);
  });
});

describe('restocking shipments', () => {
  test('advance moves the shipment (either version name), sends the webhook and restocks what arrived', async () => {
    const { skuId, shipmentId } = await inbound();
    const received1 = await send('POST', `/__mock/restocking_shipments/${shipmentId}/advance`, {
      status: 'received',
    });
    expect(received1.status).toBe(200);
    expect(received1.body).toMatchObject({ id: shipmentId, status: 'delivered' });
    const restocked = await send('POST', `/__mock/restocking_shipments/${shipmentId}/advance`, {
      status: 'restocked',
      damaged: { [skuId]: 1 },
      missing: 2,
    });
    expect(restocked.status).toBe(200);
    expect(restocked.body.restocking_shipment_items[0]).toMatchObject({
      arrived_quantity: 7,
      damaged_quantity: 1,
      missing_quantity: 2,
    });
    const skus = await send('GET', '/merchant_api/v1/skus');
    expect(skus.body.data[0].inventory).toEqual({ reserved: 0, stocked: 7, total: 7 });

    const flushed = await send('POST', '/__mock/webhooks/flush');
    expect(flushed.status).toBe(200);
    expect(
      flushed.body.data.map((d: { status: string; delivered: boolean }) => [d.status, d.delivered]),
    ).toEqual([
      ['delivered', true],
      ['restocked', true],
    ]);
    expect((await send('GET', '/__mock/deliveries')).body).toEqual(flushed.body);
    const event = await verifyWebhook({
      body: received[1]!.body,
      headers: received[1]!.headers,
      secret: TOKEN,
    });
    expect(event.data).toMatchObject({ id: shipmentId, status: 'restocked' });
  });

  test('errors: unknown shipment 404, missing or unknown status 422, quantities before restocked 422', async () => {
    const { shipmentId } = await inbound();
    const path = `/__mock/restocking_shipments/${shipmentId}/advance`;
    expect(
      await send('POST', '/__mock/restocking_shipments/99/advance', { status: 'arrived' }),
    ).toMatchObject({
      status: 404,
      body: { success: false, errors: ['No restocking shipment with id 99'] },
    });
    expect(await send('POST', path, {})).toMatchObject({
      status: 422,
      body: { success: false, errors: [expect.stringMatching(/^status: Invalid option: expected one of /)] },
    });
    const unknown = await send('POST', path, { status: 'teleported' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatch(
      /^status: Invalid option: expected one of "created"\|"shipped"\|"delivered"\|"received"\|.*"cancelled"$/,
    );
    const early = await send('POST', path, { status: 'arrived', arrived: 3 });
    expect(early).toMatchObject({
      status: 422,
      body: {
        errors: [
          "arrived: must be left out: quantities apply only when moving to 'restocked', not 'arrived'",
        ],
      },
    });
    expect((await send('POST', path, { status: 'restocked', arrived: -1 })).status).toBe(422);
    expect((await send('POST', path, { status: 'restocked', arrived: 'all' })).status).toBe(422);
    expect((await send('POST', path, '{"status":')).status).toBe(400);
    expect((await send('POST', path, [])).status).toBe(422);
    // Nothing moved.
    expect((await send('GET', `/merchant_api/v1/restocking_shipments/${shipmentId}`)).body.status).toBe(
      'shipped',
    );
  });
});

describe('orders', () => {
  test('fulfill creates the shipment (201); returns records a return (201)', async () => {
    await send('POST', '/merchant_api/v1/skus', skuBody('MUG'));
    await send('POST', '/merchant_api/v1/orders', orderBody('O-1', 'MUG', 2));
    const shipment = await send('POST', '/__mock/orders/1/fulfill');
    expect(shipment.status).toBe(201);
    expect(shipment.body).toMatchObject({ id: 1, order_id: 1, merchant_order_id: 'O-1', status: 'shipped' });
    expect((await send('GET', '/merchant_api/v1/shipments')).body.data).toEqual([shipment.body]);
    expect((await send('GET', '/merchant_api/v1/orders/1')).body.status).toBe('fulfilled');

    const full = await send('POST', '/__mock/orders/1/returns');
    expect(full.status).toBe(201);
    expect(full.body).toMatchObject({ id: 1, status: 'on_the_way', return_reason: 'customer_return' });
    expect(full.body.return_items[0]).toMatchObject({ quantity: 2, sku: { sku_code: 'MUG' } });
    const partial = await send('POST', '/__mock/orders/1/returns', {
      reason: 'not_picked_up',
      carrier: 'UPS',
      items: [{ merchant_sku_id: 'MUG', quantity: 1, reason: 'late', message: 'came too late' }],
    });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({ carrier: 'UPS', return_reason_type: 'passive' });
    expect(partial.body.return_items[0]).toMatchObject({
      quantity: 1,
      customer_return_reason: 'late',
      customer_return_message: 'came too late',
    });
    expect((await send('GET', '/merchant_api/v1/returns/2')).body).toEqual(partial.body);
  });

  test('errors: unknown order 404; a move the mock refuses, or a bad body, 422', async () => {
    await send('POST', '/merchant_api/v1/skus', skuBody('MUG'));
    await send('POST', '/merchant_api/v1/orders', {
      ...orderBody('O-1', 'MUG', 1),
      shipping_address: { ...ADDRESS, country_code: 'CH' },
    });
    expect(await send('POST', '/__mock/orders/9/fulfill')).toMatchObject({
      status: 404,
      body: { success: false, errors: ['No order with id 9'] },
    });
    expect((await send('POST', '/__mock/orders/9/returns')).status).toBe(404);
    const refused = await send('POST', '/__mock/orders/1/fulfill');
    expect(refused).toMatchObject({
      status: 422,
      body: {
        success: false,
        errors: ['Order 1 is unfulfillable: only fulfillable orders can be fulfilled'],
      },
    });
    expect((await send('POST', '/__mock/orders/1/returns')).body.errors[0]).toMatch(/only fulfilled orders/);
    await send('POST', '/merchant_api/v1/orders', orderBody('O-2', 'MUG', 1));
    await send('POST', '/__mock/orders/2/fulfill');
    for (const body of [
      { reason: 'lost' },
      { items: 'all' },
      { items: [{ quantity: 1 }] },
      { items: [{ sku_id: 1, quantity: 5 }] },
      { items: [{ merchant_sku_id: 'NOPE', quantity: 1 }] },
    ]) {
      const answer = await send('POST', '/__mock/orders/2/returns', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.success).toBe(false);
    }
    expect((await send('GET', '/__mock/state')).body.returns).toEqual([]);
  });
});

describe('faults', () => {
  test('POST /__mock/faults injects a fault by exact path and answers its id; it applies `times` times', async () => {
    const added = await send('POST', '/__mock/faults', {
      method: 'GET',
      path: '/merchant_api/v1/warehouses',
      status: 503,
      times: 1,
      retryAfter: 0.5,
    });
    expect(added).toMatchObject({ status: 201, body: { id: 1 } });
    const failed = await send('GET', '/merchant_api/v1/warehouses');
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('0.5');
    expect((await send('GET', '/merchant_api/v1/warehouses')).status).toBe(200);
    expect((await send('GET', '/__mock/faults')).body).toEqual({ data: [] });
  });

  test('pathPattern is a RegExp source; GET lists faults in force; DELETE removes one or all', async () => {
    const skus = await send('POST', '/__mock/faults', {
      pathPattern: '^/merchant_api/v1/skus(/|$)',
      status: 500,
      body: { oops: true },
      headers: { 'x-trace': 'abc' },
    });
    const orders = await send('POST', '/__mock/faults', { path: '/merchant_api/v1/orders', reset: true });
    expect([skus.body.id, orders.body.id]).toEqual([1, 2]);
    const answer = await send('GET', '/merchant_api/v1/skus?page=1');
    expect(answer).toMatchObject({ status: 500, body: { oops: true } });
    expect(answer.headers.get('x-trace')).toBe('abc');
    await expect(send('GET', '/merchant_api/v1/orders')).rejects.toThrow(TypeError); // dropped connection
    expect((await send('GET', '/__mock/faults')).body).toEqual({
      data: [
        // The pattern as RegExp#source gives it back.
        {
          id: 1,
          method: null,
          path: null,
          pathPattern: '^\\/merchant_api\\/v1\\/skus(\\/|$)',
          hits: 1,
          remaining: null,
        },
        { id: 2, method: null, path: '/merchant_api/v1/orders', pathPattern: null, hits: 1, remaining: null },
      ],
    });
    expect(await send('DELETE', '/__mock/faults/1')).toMatchObject({ status: 200, body: { removed: 1 } });
    expect((await send('DELETE', '/__mock/faults/1')).status).toBe(404);
    expect((await send('GET', '/merchant_api/v1/skus')).status).toBe(200);
    await send('POST', '/__mock/faults', { path: '/merchant_api/v1/warehouses' });
    expect(await send('DELETE', '/__mock/faults')).toMatchObject({ status: 200, body: { removed: 2 } });
    expect((await send('GET', '/merchant_api/v1/orders')).status).toBe(200);
    expect((await send('GET', '/merchant_api/v1/warehouses')).status).toBe(200);
  });

  test('invalid faults are 422 and inject nothing', async () => {
    for (const [body, message] of [
      [{ path: '/x', stauts: 500 }, /^body: Unrecognized key: "stauts" \(did you mean "status"\?\)$/],
      [{ path: '/x', toString: 1 }, /^body: Unrecognized key: "toString"/],
      [{ status: 500 }, /^path: give either path \(the exact path\) or pathPattern/],
      [
        { path: '/x', pathPattern: 'x' },
        /^pathPattern: must be a RegExp source \(a string\), in place of path$/,
      ],
      [{ pathPattern: '(' }, /^pathPattern: is not a valid RegExp \(/],
      [{ path: 7 }, /^path: must be a string or a RegExp$/],
      // The fault's other fields are checked by the fault machinery, as in-process.
      [{ path: '/x', status: 99 }, /^status: /],
      [{ path: '/x', times: 0 }, /^times: /],
      [{ path: '/x', headers: { a: 1 } }, /^headers\.a: /],
      [{ path: '/x', reset: 'yes' }, /^reset: /],
      [[], /^body: Invalid input: expected object, received array$/],
    ] as const) {
      const answer = await send('POST', '/__mock/faults', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.errors[0]).toMatch(message);
    }
    expect((await send('GET', '/__mock/faults')).body).toEqual({ data: [] });
  });

  test('control routes escape faults, the rate limit and the request log', async () => {
    await send('POST', '/__mock/faults', { pathPattern: '.*', status: 500 });
    expect((await send('GET', '/merchant_api/v1/warehouses')).status).toBe(500);
    const state = await send('GET', '/__mock/state');
    expect(state.status).toBe(200);
    expect(state.body.requests.map((r: { path: string; status: number }) => [r.path, r.status])).toEqual([
      ['/merchant_api/v1/warehouses', 500],
    ]);
    expect(state.headers.get('x-rate-limit-used')).toBeNull();
  });
});

describe('reset and state', () => {
  test('GET /__mock/state gives every record; POST /__mock/reset empties it and removes injected faults', async () => {
    await send('POST', '/merchant_api/v1/skus', skuBody('MUG'));
    await send('POST', '/__mock/faults', { path: '/merchant_api/v1/orders', status: 500 });
    const state = await send('GET', '/__mock/state');
    expect(Object.keys(state.body).sort()).toEqual([
      'orders',
      'requests',
      'restockingShipments',
      'restockingShipmentsV2',
      'returns',
      'shipments',
      'skus',
      'warehouses',
    ]);
    expect(state.body.skus).toHaveLength(1);
    expect(state.body.warehouses).toHaveLength(3);
    const reset = await send('POST', '/__mock/reset');
    expect(reset.status).toBe(204);
    expect(reset.body).toBeUndefined();
    expect((await send('GET', '/__mock/state')).body.skus).toEqual([]);
    expect((await send('GET', '/merchant_api/v1/orders')).status).toBe(200);
    expect((await send('POST', '/merchant_api/v1/skus', skuBody('MUG'))).body.id).toBe(1);
  });
});

describe('routing', () => {
  test('unknown control route 404, wrong method 405 with Allow, HEAD wherever GET', async () => {
    for (const [path, hint] of [
      ['/__mock/nope', 'no control route POST /__mock/nope'],
      ['/__mock/orders/x/fulfill', "POST /__mock/orders/{id}/fulfill: {id} must be an integer >= 1, got 'x'"],
      ['/__mock/orders/1/fulfill/x', 'no control route POST /__mock/orders/1/fulfill/x'],
      ['/__mock/faults/0', "POST /__mock/faults/{id}: {id} must be an integer >= 1, got '0'"],
    ] as const) {
      const answer = await send('POST', path);
      expect(answer, path).toMatchObject({ status: 404, body: { success: false, errors: ['not found'] } });
      expect(answer.headers.get('x-mock-hint')).toBe(`${hint} (GET /__mock/ lists them)`);
    }
    for (const path of ['/__mock', '/__mock/']) {
      expect((await send('POST', path)).headers.get('allow'), path).toBe('GET, HEAD');
    }
    const wrong = await send('GET', '/__mock/reset');
    expect(wrong).toMatchObject({ status: 405, body: { success: false, errors: ['method not allowed'] } });
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(wrong.headers.get('x-mock-hint')).toBe('GET is not allowed on /__mock/reset (allowed: POST)');
    expect((await send('PUT', '/__mock/faults')).headers.get('allow')).toBe('GET, HEAD, POST, DELETE');
    const head = await fetch(`${url}/__mock/state`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
  });

  test('the same routes answer through api.fetch (and so through msw)', async () => {
    const added = await mockRequest(api, 'POST', '/__mock/faults', {
      path: '/merchant_api/v1/warehouses',
      status: 502,
      times: 1,
    });
    expect(added.status).toBe(201);
    expect((await send('GET', '/merchant_api/v1/warehouses')).status).toBe(502);
    expect((await mockRequest(api, 'POST', '/__mock/reset')).status).toBe(204);
  });
});
