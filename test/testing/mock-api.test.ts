/**
 * The composition root (`mock-api.ts`): `reset()` and `close()` of the whole mock — records, servers,
 * webhook deliveries in flight and timers.
 */
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { connectMock, type MockApi, type MockConnection } from '../../src/testing/index.js';
import { startServer } from '../helpers/http-server.js';
import {
  activeTimeouts,
  createSku,
  mockRequest,
  orderBody,
  restockingShipment,
  settledTimeouts,
  TOKEN,
  testApi,
  until,
  within,
} from './helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A webhook receiver that accepts connections and requests but never answers. */
async function silentReceiver() {
  const requests: IncomingMessage[] = [];
  const server = await startServer((req) => {
    requests.push(req);
  });
  closers.push(server.close);
  return { url: `${server.url}/hooks`, requests };
}

/** A restocking shipment of one SKU, moved to `arrived` (which sends a webhook). */
async function sendWebhook(api: MockApi): Promise<void> {
  api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
}

describe('reset', () => {
  test('reset() clears every record and restarts ids', async () => {
    const api = testApi();
    await mockRequest(api, 'POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' });
    api.reset();
    expect(api.state.skus).toEqual([]);
    expect(api.state.requests).toEqual([]);
    const again = await mockRequest(api, 'POST', '/merchant_api/v1/skus', {
      name: 'A',
      merchant_sku_id: 'A',
    });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(1);
  });
});

describe('closing abandons webhook deliveries in flight', () => {
  test("the server's close() aborts a delivery to a receiver that never answers; its record stays", async () => {
    const hook = await silentReceiver();
    const api = testApi({ webhooks: [hook.url], webhookRetry: { attempts: 3, initialDelayMs: 10 } });
    const server = await api.listen();
    const timeoutsBefore = activeTimeouts();
    await sendWebhook(api);
    await until(() => hook.requests.length === 1);
    const socketClosed = new Promise<boolean>((r) => hook.requests[0]!.socket.once('close', () => r(true)));
    await server.close();
    // flushWebhooks() resolves with the deliveries, as a connection's does.
    const flushed = await within(api.flushWebhooks(), 1000, 'still in flight');
    expect(flushed).toEqual(api.deliveries);
    expect(await within(socketClosed, 1000, false)).toBe(true);
    expect(flushed).toEqual([
      expect.objectContaining({
        attempts: 1,
        statusCodes: [],
        delivered: false,
        finished: true,
        error: 'abandoned: the mock was closed',
      }),
    ]);
    expect(activeTimeouts()).toBeLessThanOrEqual(timeoutsBefore);
    expect(hook.requests).toHaveLength(1); // no retry after close
  });

  test('api.close() closes every server, abandons deliveries (backoff waits included) and cancels every timer', async () => {
    const hook = await silentReceiver();
    const answering = await startServer((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    closers.push(answering.close);
    const api = testApi({
      latency: 0,
      webhooks: [hook.url, `${answering.url}/hooks`],
      webhookRetry: { attempts: 5, initialDelayMs: 10_000 },
    });
    const [a, b] = [await api.listen(), await api.listen()];
    const timeoutsBefore = await settledTimeouts();
    await sendWebhook(api);
    // One delivery hangs on its attempt, the other waits 10 s before its retry. (Its `error` is set
    // just before the backoff timer starts: its status code alone may be recorded a moment earlier.)
    await until(
      () =>
        hook.requests.length === 1 &&
        api.deliveries[1]!.statusCodes.length === 1 &&
        api.deliveries[1]!.error !== null,
    );
    expect(activeTimeouts()).toBeGreaterThan(timeoutsBefore); // the ref'd backoff timer
    const started = performance.now();
    await api.close();
    await api.flushWebhooks();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(api.deliveries.map((d) => [d.finished, d.delivered, d.error])).toEqual([
      [true, false, 'abandoned: the mock was closed'],
      [true, false, 'abandoned: the mock was closed'],
    ]);
    expect(activeTimeouts()).toBeLessThanOrEqual(timeoutsBefore);
    for (const server of [a, b]) {
      await expect(
        mockRequest(server.url, 'GET', '/merchant_api/v1/warehouses', undefined, null),
      ).rejects.toThrow(TypeError);
    }
    // The mock stays usable in-process, and closing again is harmless.
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/warehouses')).status).toBe(200);
    await api.close();
  });

  test('api.close() cuts pending response delays short', async () => {
    const api = testApi({ latency: 5_000, tokens: [TOKEN] });
    const server = await api.listen();
    const pending = mockRequest(server.url, 'GET', '/merchant_api/v1/warehouses').catch((e: unknown) => e);
    await until(() => activeTimeouts() > 0);
    const started = performance.now();
    await api.close();
    expect(await pending).toBeInstanceOf(TypeError);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('onChange: only when the state may have changed', () => {
  test('refused requests (401, 404, 405, 400, 422, 429, a fault answering instead) do not call it', async () => {
    let changes = 0;
    const api = testApi({
      rateLimit: { requests: 4, perMs: 60_000 },
      onChange: () => {
        changes += 1;
      },
    });
    const refused: [string, string, unknown, string | null, number][] = [
      ['POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' }, null, 401],
      ['POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' }, 'wrong-token', 401],
      ['POST', '/__mock/reset', undefined, null, 401],
      ['POST', '/__mock/orders/1/fulfill', undefined, 'wrong-token', 401],
      ['POST', '/__mock/orders/99/fulfill', undefined, TOKEN, 404],
      ['POST', '/__mock/restocking_shipments/1/advance', { status: 'nope' }, TOKEN, 422],
      ['DELETE', '/__mock/faults/7', undefined, TOKEN, 404],
      ['POST', '/merchant_api/v1/nope', {}, TOKEN, 404],
      ['PATCH', '/merchant_api/v1/warehouses', {}, TOKEN, 405],
      ['POST', '/merchant_api/v1/skus', { name: 'A' }, TOKEN, 422],
    ];
    for (const [method, path, body, token, status] of refused) {
      const answer = await mockRequest(api, method, path, body, token);
      expect(answer.status, `${method} ${path}`).toBe(status);
    }
    expect((await mockRequest(api, 'POST', '/merchant_api/v1/skus', '{"name":')).status).toBe(400);
    // The rate limit (4 a minute; 401s and control routes do not count) is used up by now: 429.
    expect(
      (await mockRequest(api, 'POST', '/merchant_api/v1/skus', { name: 'B', merchant_sku_id: 'B' })).status,
    ).toBe(429);
    expect(changes).toBe(0);

    api.reset();
    expect(changes).toBe(1);
    api.injectFault({ path: '/merchant_api/v1/skus', status: 500, times: 1 });
    expect(
      (await mockRequest(api, 'POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' })).status,
    ).toBe(500);
    expect(changes).toBe(1);
  });

  test('a 2xx of a mutating API route calls it, an `after` fault too; successful control actions and reset', async () => {
    let changes = 0;
    const api = testApi({
      onChange: () => {
        changes += 1;
      },
    });
    expect(
      (await mockRequest(api, 'POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' })).status,
    ).toBe(201);
    expect(changes).toBe(1);
    // The request is handled (the SKU stored), then the fault answers: the state did change.
    api.injectFault({ path: '/merchant_api/v1/skus', status: 503, times: 1, after: true });
    expect(
      (await mockRequest(api, 'POST', '/merchant_api/v1/skus', { name: 'B', merchant_sku_id: 'B' })).status,
    ).toBe(503);
    expect(api.state.skus).toHaveLength(2);
    expect(changes).toBe(2);
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/skus')).status).toBe(200);
    expect(changes).toBe(2);
    const shipment = await mockRequest(api, 'POST', '/merchant_api/v1/restocking_shipments', {
      warehouse_id: 1,
      restocking_shipment_items: [{ sku_id: 1, announced_quantity: 1 }],
    });
    expect(changes).toBe(3);
    const advanced = await mockRequest(
      api,
      'POST',
      `/__mock/restocking_shipments/${shipment.body.id}/advance`,
      {
        status: 'arrived',
      },
    );
    expect(advanced.status).toBe(200);
    expect(changes).toBe(4);
    expect((await mockRequest(api, 'POST', '/__mock/reset')).status).toBe(204);
    expect(changes).toBe(5);
  });
});

describe('the reads a connection shares, in-process', () => {
  test('flushWebhooks() resolves with the deliveries; readDeliveries and readState take the same queries', async () => {
    let status = 500;
    const api = testApi({
      webhooks: ['https://shop.example/a', 'https://shop.example/b'],
      webhookRetry: { attempts: 1, initialDelayMs: 1 },
      webhookFetch: async (input) =>
        new Response(null, { status: String(input).endsWith('/b') ? 204 : status }),
    });
    await sendWebhook(api);
    const all = await api.flushWebhooks();
    expect(all).toEqual(api.deliveries);
    expect(all.map((d) => [d.url, d.delivered])).toEqual([
      ['https://shop.example/a', false],
      ['https://shop.example/b', true],
    ]);
    expect(api.readDeliveries()).toEqual(api.deliveries);
    const failed = api.readDeliveries({ status: 'failed' });
    expect(failed.data.map((d) => d.url)).toEqual(['https://shop.example/a']);
    expect(failed.pagination).toEqual({ current_page: 1, page_count: 1, item_count: 1, items_per_page: 50 });
    expect(api.readDeliveries({ url: 'https://shop.example/b', limit: 1 }).data).toEqual([all[1]]);
    expect(api.readDeliveries({ eventId: all[0]!.eventId }).data).toEqual([all[0]]);
    status = 204;
    api.redeliverWebhooks();
    const flushed = await api.flushWebhooks({ status: 'delivered', page: 2, limit: 1 });
    expect(flushed.data.map((d) => d.url)).toEqual(['https://shop.example/b']);
    expect(flushed.pagination).toEqual({ current_page: 2, page_count: 2, item_count: 2, items_per_page: 1 });

    expect(api.readState()).toEqual(api.state);
    expect(api.readState({ collection: 'skus', limit: 1 })).toEqual({
      data: api.state.skus,
      pagination: { current_page: 1, page_count: 1, item_count: 1, items_per_page: 1 },
    });
    const two = api.readState({ collections: ['skus', 'orders'] });
    expect(Object.keys(two)).toEqual(['skus', 'orders']);
    expect(two.orders.data).toEqual([]);
  });

  test('a bad query throws a TypeError naming the method and the field', async () => {
    const api = testApi();
    expect(() => api.readDeliveries({ status: TOKEN as never })).toThrow(
      new TypeError('readDeliveries: status: Invalid option: expected one of "delivered"|"failed"|"pending"'),
    );
    expect(() => api.readDeliveries({ limit: 0 })).toThrow(
      /^readDeliveries: limit: Too small: expected number to be >=1$/,
    );
    expect(() => api.readDeliveries({ colour: 'red' } as never)).toThrow(
      /^readDeliveries: query: Unrecognized key: "colour"$/,
    );
    expect(() => api.readState({ collection: 'nope' as never })).toThrow(
      /^readState: collection: Invalid option: expected one of "skus"\|"orders"\|.*"requests"$/,
    );
    expect(() => api.readState({ collections: [] })).toThrow(
      /^readState: collections: Too small: expected array to have >=1 items$/,
    );
    await expect(api.flushWebhooks({ page: -1 })).rejects.toThrow(
      /^flushWebhooks: page: Too small: expected number to be >=1$/,
    );
  });

  test('redeliverWebhooks refuses a bad filter as a connection does, naming the field', () => {
    const api = testApi();
    for (const [filter, message] of [
      ['x', /^redeliverWebhooks: filter: Invalid input: expected object, received string$/],
      [null, /^redeliverWebhooks: filter: Invalid input: expected object, received null$/],
      [[], /^redeliverWebhooks: filter: Invalid input: expected object, received array$/],
      [
        { eventId: 5 },
        /^redeliverWebhooks: filter\.eventId: Invalid input: expected string, received number$/,
      ],
      [{ url: '' }, /^redeliverWebhooks: filter\.url: Too small: expected string to have >=1 characters$/],
      [
        { eventID: 'e' },
        /^redeliverWebhooks: filter: Unrecognized key: "eventID" \(did you mean "eventId"\?\)$/,
      ],
    ] as const) {
      expect(() => api.redeliverWebhooks(filter as never), JSON.stringify(filter)).toThrow(TypeError);
      expect(() => api.redeliverWebhooks(filter as never), JSON.stringify(filter)).toThrow(message);
    }
    expect(api.redeliverWebhooks()).toEqual([]);
    expect(api.redeliverWebhooks({ eventId: 'e', url: 'http://x/' })).toEqual([]);
  });
});

/** A connection to `api` that records the URL of every request it sends. */
function recording(api: MockApi): { remote: MockConnection; sent: string[] } {
  const sent: string[] = [];
  const remote = connectMock(api.baseUrl, {
    token: TOKEN,
    fetch: (input, init) => {
      sent.push(String(input));
      return api.fetch(input, init);
    },
  });
  return { remote, sent };
}

describe('the arguments of the control methods', () => {
  test('a bad record id: refused in-process, and by the route through a connection (404, the hint says why)', async () => {
    const api = testApi();
    const { remote } = recording(api);
    const cases: [() => unknown, () => Promise<unknown>, string][] = [
      [
        () => api.fulfillOrder(0),
        () => remote.fulfillOrder(0),
        'fulfillOrder: id: Too small: expected number to be >=1',
      ],
      [
        () => api.createReturn('5' as never),
        () => remote.createReturn('5' as never),
        'createReturn: orderId: Invalid input: expected number, received string',
      ],
      [
        () => api.advanceRestockingShipment(1.5, 'arrived'),
        () => remote.advanceRestockingShipment(1.5, 'arrived'),
        'advanceRestockingShipment: id: Invalid input: expected int, received number',
      ],
    ];
    for (const [local, connected, message] of cases) {
      expect(local).toThrow(new TypeError(message));
      await expect(connected()).rejects.toMatchObject({ code: 'rejected', status: 404 });
    }
    expect(api.state.shipments).toEqual([]);
  });

  test('createReturn checks its options with the checker of POST /__mock/orders/{id}/returns', async () => {
    const api = testApi();
    const { remote, sent } = recording(api);
    await createSku(api, 'A');
    await mockRequest(api, 'POST', '/merchant_api/v1/orders', orderBody('O-1', 'A', 2));
    api.fulfillOrder(1);
    const bodies: unknown[] = [
      [],
      { rason: 'lost' },
      { reason: TOKEN },
      { carrier: 7 },
      { items: [] },
      { items: 'all' },
      { items: ['x'] },
      { items: [{ sku_id: 1, quantity: 'two' }] },
      { items: [{ quantity: 1 }] },
      { items: [{ sku_id: 1, quantity: 1, note: 'x' }] },
      { items: [{ sku_id: 1, quantity: 1, message: 3 }] },
    ];
    for (const body of bodies) {
      const label = JSON.stringify(body);
      const answer = await mockRequest(api, 'POST', '/__mock/orders/1/returns', body);
      expect(answer.status, label).toBe(422);
      // The route answers `<field>: <problem>`; in-process, the same problem of `options.<field>`.
      const [field, problem] = (answer.body.errors[0] as string).split(/: (.*)/s);
      const name = field === 'body' ? 'options' : `options.${field}`;
      const expected = `createReturn: ${name}: ${problem}`;
      expect(() => api.createReturn(1, body as never), label).toThrow(new TypeError(expected));
      // Through a connection, the route's answer.
      await expect(remote.createReturn(1, body as never), label).rejects.toMatchObject({
        code: 'rejected',
        status: 422,
        errors: answer.body.errors,
      });
    }
    // `null` is not a value of any field (the route alone reads a JSON null as absent), nor is a
    // field set to `undefined` that is no field of the options.
    for (const [options, message] of [
      [
        { reason: null },
        /^createReturn: options\.reason: Invalid option: expected one of "customer_return"\|/,
      ],
      [{ items: null }, /^createReturn: options\.items: Invalid input: expected array, received null$/],
      [{ extra: undefined }, /^createReturn: options: Unrecognized key: "extra"$/],
      [null, /^createReturn: options: Invalid input: expected object, received null$/],
    ] as const) {
      const label = String(options && Object.keys(options)[0]);
      expect(() => api.createReturn(1, options as never), label).toThrow(TypeError);
      expect(() => api.createReturn(1, options as never), label).toThrow(message);
    }
    expect(sent).toHaveLength(bodies.length);
    expect(api.state.returns).toEqual([]);
    expect(api.createReturn(1, { items: [{ sku_id: 1, quantity: 1, reason: null } as never] })).toMatchObject(
      {
        return_items: [{ quantity: 1, customer_return_reason: null }],
      },
    );
  });
});
