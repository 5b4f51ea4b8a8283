/**
 * The control routes added for driving a running mock: the index (`GET /__mock/`), the state
 * filtered and paginated, redelivery over HTTP, a 422 naming the field for every malformed body,
 * and the `x-mock-hint` header on the terse answers (bodies unchanged). Over the real HTTP server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { MOCK_COLLECTIONS, type MockServer } from '../../../src/testing/index.js';
import { ADDRESS, mockRequest, orderBody, skuBody, TOKEN, testApi } from '../helpers.js';

/** The webhook receiver's answer, switched by the tests. */
let receiverStatus = 500;
const api = testApi({
  webhooks: ['https://shop.example/hooks'],
  webhookRetry: { attempts: 2, initialDelayMs: 1 },
  webhookFetch: async () => new Response(null, { status: receiverStatus }),
});
let server: MockServer;
let url = '';
const send = (method: string, path: string, body?: unknown, token: string | null = TOKEN) =>
  mockRequest(url, method, path, body, token);

beforeAll(async () => {
  server = await api.listen({ port: 0 });
  url = server.url;
});
afterAll(() => api.close());
beforeEach(async () => {
  receiverStatus = 500;
  expect((await send('POST', '/__mock/reset')).status).toBe(204);
});

/** The routes of the table in `faces/control.ts`, as the index must list them. */
const EXPECTED_ROUTES = [
  'GET /__mock/',
  'POST /__mock/restocking_shipments/{id}/advance',
  'POST /__mock/orders/{id}/fulfill',
  'POST /__mock/orders/{id}/returns',
  'GET /__mock/faults',
  'POST /__mock/faults',
  'DELETE /__mock/faults',
  'DELETE /__mock/faults/{id}',
  'POST /__mock/reset',
  'GET /__mock/deliveries',
  'POST /__mock/webhooks/flush',
  'POST /__mock/webhooks/redeliver',
  'GET /__mock/state',
];

describe('GET /__mock/ (the index)', () => {
  test('lists every control route with its body, query and answer, at /__mock and /__mock/', async () => {
    const index = await send('GET', '/__mock/');
    expect(index.status).toBe(200);
    expect(index.body.routes.map((r: { method: string; path: string }) => `${r.method} ${r.path}`)).toEqual(
      EXPECTED_ROUTES,
    );
    for (const route of index.body.routes) {
      expect(Object.keys(route).sort()).toEqual([
        'answers',
        'body',
        'description',
        'method',
        'path',
        'query',
      ]);
      expect(typeof route.answers).toBe('string');
      expect(route.description.length).toBeGreaterThan(5);
    }
    const advance = index.body.routes.find((r: { path: string }) => r.path.endsWith('/advance'));
    expect(advance.body).toMatch(/status, arrived\?, damaged\?, missing\?/);
    const state = index.body.routes.find((r: { path: string }) => r.path === '/__mock/state');
    expect(state.query).toContain('collection=<name>');
    expect((await send('GET', '/__mock')).body).toEqual(index.body);
  });

  test('every route listed is served: none answers 404 (no route) or 405', async () => {
    const { routes } = (await send('GET', '/__mock/')).body;
    for (const route of routes as { method: string; path: string }[]) {
      const answer = await send(route.method, route.path.replace('{id}', '1'));
      expect(answer.status, `${route.method} ${route.path}`).not.toBe(405);
      expect(answer.headers.get('x-mock-hint') ?? '', route.path).not.toMatch(/no control route/);
    }
  });
});

describe('GET /__mock/state with a query', () => {
  async function threeSkus(): Promise<void> {
    for (const code of ['A', 'B', 'C']) {
      expect((await send('POST', '/merchant_api/v1/skus', skuBody(code))).status).toBe(201);
    }
  }

  test('collection + page + limit: one page of one list, oldest first, with a pagination block', async () => {
    await threeSkus();
    const page2 = await send('GET', '/__mock/state?collection=skus&page=2&limit=2');
    expect(page2.status).toBe(200);
    expect(page2.body.data.map((s: { merchant_sku_id: string }) => s.merchant_sku_id)).toEqual(['C']);
    expect(page2.body.pagination).toEqual({
      current_page: 2,
      page_count: 2,
      item_count: 3,
      items_per_page: 2,
    });
    const first = await send('GET', '/__mock/state?collection=skus');
    expect(first.body.pagination).toEqual({
      current_page: 1,
      page_count: 1,
      item_count: 3,
      items_per_page: 50,
    });
    expect(Object.keys(first.body)).toEqual(['data', 'pagination']);
    const empty = await send('GET', '/__mock/state?collection=orders&page=3');
    expect(empty.body).toEqual({
      data: [],
      pagination: { current_page: 3, page_count: 0, item_count: 0, items_per_page: 50 },
    });
  });

  test('collections=a,b: a page of each; without parameters the whole snapshot as before', async () => {
    await threeSkus();
    const two = await send('GET', '/__mock/state?collections=skus,warehouses&limit=1');
    expect(Object.keys(two.body)).toEqual(['skus', 'warehouses']);
    expect(two.body.skus.data).toHaveLength(1);
    expect(two.body.skus.pagination.item_count).toBe(3);
    expect(two.body.warehouses.pagination).toEqual({
      current_page: 1,
      page_count: 3,
      item_count: 3,
      items_per_page: 1,
    });
    const all = await send('GET', '/__mock/state');
    expect(Object.keys(all.body).sort()).toEqual([...MOCK_COLLECTIONS].sort());
    expect(all.body.skus).toHaveLength(3);
  });

  test.each([
    ['collection=nope', /^collection: Invalid option: expected one of "skus"\|"orders"\|/],
    ['collections=skus,nope', /^collections\[1\]: Invalid option: expected one of "skus"/],
    ['collection=skus&page=0', /^page: Too small: expected number to be >=1$/],
    ['collection=skus&page=x', /^page: Invalid input: expected number, received NaN$/],
    ['collection=skus&limit=1001', /^limit: Too big: expected number to be <=1000$/],
    ['collection=skus&limit=-1', /^limit: Too small/],
    ['page=2', /^collection: give either collection or collections$/],
    ['limit=2', /^collection: give either collection or collections$/],
    ['collection=skus&collections=orders', /^collection: give either collection or collections$/],
    ['collection=skus&collection=orders', /^collection: Invalid option/],
    ['colection=skus', /^query: Unrecognized key: "colection" \(did you mean "collection"\?\)$/],
  ])('?%s is 422 naming the parameter', async (query, message) => {
    const answer = await send('GET', `/__mock/state?${query}`);
    expect(answer.status).toBe(422);
    expect(answer.body.success).toBe(false);
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors[0]).toMatch(message);
  });
});

describe('POST /__mock/webhooks/redeliver', () => {
  async function givenUp(): Promise<string> {
    const sku = await send('POST', '/merchant_api/v1/skus', skuBody('MUG'));
    const shipment = await send('POST', '/merchant_api/v1/restocking_shipments', {
      warehouse_id: 1,
      restocking_shipment_items: [{ sku_id: sku.body.id, announced_quantity: 1 }],
    });
    await send('POST', `/__mock/restocking_shipments/${shipment.body.id}/advance`, { status: 'arrived' });
    const flushed = await send('POST', '/__mock/webhooks/flush');
    expect(flushed.body.data).toEqual([
      expect.objectContaining({ delivered: false, finished: true, attempts: 2, redeliveries: 0 }),
    ]);
    return flushed.body.data[0].eventId;
  }

  test('re-queues what was given up (same record, event id, body); a fresh budget of attempts', async () => {
    const eventId = await givenUp();
    receiverStatus = 204;
    const queued = await send('POST', '/__mock/webhooks/redeliver');
    expect(queued.status).toBe(200);
    expect(queued.body.data).toEqual([
      expect.objectContaining({ eventId, finished: false, delivered: false, redeliveries: 1, error: null }),
    ]);
    const flushed = await send('POST', '/__mock/webhooks/flush');
    expect(flushed.body.data).toEqual([
      expect.objectContaining({
        eventId,
        delivered: true,
        finished: true,
        attempts: 3,
        statusCodes: [500, 500, 204],
        redeliveries: 1,
        error: null,
      }),
    ]);
    // Delivered: nothing left to redeliver.
    expect((await send('POST', '/__mock/webhooks/redeliver', {})).body).toEqual({ data: [] });
  });

  test('filters by eventId and url; a filter that matches nothing re-queues nothing', async () => {
    const eventId = await givenUp();
    expect((await send('POST', '/__mock/webhooks/redeliver', { eventId: 'other' })).body.data).toEqual([]);
    expect(
      (await send('POST', '/__mock/webhooks/redeliver', { url: 'https://elsewhere.example/hooks' })).body
        .data,
    ).toEqual([]);
    const chosen = await send('POST', '/__mock/webhooks/redeliver', {
      eventId,
      url: 'https://shop.example/hooks',
    });
    expect(chosen.body.data.map((d: { eventId: string }) => d.eventId)).toEqual([eventId]);
    await send('POST', '/__mock/webhooks/flush');
  });
});

describe('a malformed control body names the field', () => {
  async function fulfilledOrder(): Promise<{ shipmentId: number }> {
    const sku = await send('POST', '/merchant_api/v1/skus', skuBody('MUG'));
    await send('POST', '/merchant_api/v1/orders', orderBody('O-1', 'MUG', 2));
    expect((await send('POST', '/__mock/orders/1/fulfill')).status).toBe(201);
    const shipment = await send('POST', '/merchant_api/v1/restocking_shipments', {
      warehouse_id: 1,
      restocking_shipment_items: [{ sku_id: sku.body.id, announced_quantity: 3 }],
    });
    return { shipmentId: shipment.body.id };
  }

  test('every route: 422 { success: false, errors: ["<field>: <problem>"] }, nothing changed', async () => {
    const { shipmentId } = await fulfilledOrder();
    const advance = `/__mock/restocking_shipments/${shipmentId}/advance`;
    const statuses = /^status: Invalid option: expected one of "created"\|"shipped"\|.*"cancelled"$/;
    const figure = 'must be an integer >= 0 or an object of such integers keyed by sku id';
    const cases: [string, unknown, RegExp][] = [
      [advance, [], /^body: Invalid input: expected object, received array$/],
      [advance, { status: 5 }, statuses],
      // The value is never echoed: a token sent by mistake does not show.
      [advance, { status: TOKEN }, statuses],
      [advance, { status: 'arrived', stauts: 'arrived' }, /^body: Unrecognized key: "stauts"/],
      // The status first, as in-process and through a connection.
      [advance, { stauts: 'arrived' }, statuses],
      [advance, { status: 'restocked', arrived: -1 }, /^arrived: Too small: expected number to be >=0$/],
      [advance, { status: 'restocked', damaged: 1.5 }, new RegExp(`^damaged: ${figure}$`)],
      [advance, { status: 'restocked', missing: { abc: 1 } }, new RegExp(`^missing: ${figure}$`)],
      [advance, { status: 'restocked', missing: { 0: 1 } }, new RegExp(`^missing: ${figure}$`)],
      [
        advance,
        { status: 'restocked', arrived: { 1: -2 } },
        /^arrived\.1: Too small: expected number to be >=0$/,
      ],
      [
        advance,
        { status: 'arrived', damaged: 1 },
        /^damaged: must be left out: quantities apply only when moving to 'restocked', not 'arrived'$/,
      ],
      ['/__mock/orders/1/fulfill', { force: true }, /^body: Unrecognized key: "force"$/],
      [
        '/__mock/orders/1/returns',
        { reason: 'lost' },
        /^reason: Invalid option: expected one of "customer_return"\|.*"other"$/,
      ],
      [
        '/__mock/orders/1/returns',
        { carrier: 7 },
        /^carrier: Invalid input: expected string, received number$/,
      ],
      ['/__mock/orders/1/returns', { items: [] }, /^items: Too small: expected array to have >=1 items$/],
      [
        '/__mock/orders/1/returns',
        { items: ['x'] },
        /^items\[0\]: Invalid input: expected object, received string$/,
      ],
      [
        '/__mock/orders/1/returns',
        {
          items: [
            { sku_id: 1, quantity: 1 },
            { sku_id: 1, quantity: 'two' },
          ],
        },
        /^items\[1\]\.quantity: Invalid input: expected number, received string$/,
      ],
      [
        '/__mock/orders/1/returns',
        { items: [{ quantity: 1 }] },
        /^items\[0\]\.sku_id: is required \(or merchant_sku_id\)$/,
      ],
      [
        '/__mock/orders/1/returns',
        { items: [{ sku_id: 0, quantity: 1 }] },
        /^items\[0\]\.sku_id: Too small: expected number to be >=1$/,
      ],
      [
        '/__mock/orders/1/returns',
        { items: [{ sku_id: 1, quantity: 1, note: 'x' }] },
        /^items\[0\]: Unrecognized key: "note"$/,
      ],
      [
        '/__mock/orders/1/returns',
        { items: [{ sku_id: 1, quantity: 1, message: 3 }] },
        /^items\[0\]\.message: Invalid input: expected string, received number$/,
      ],
      [
        '/__mock/orders/1/returns',
        { rason: 'x' },
        /^body: Unrecognized key: "rason" \(did you mean "reason"\?\)$/,
      ],
      // A fault's own fields are checked by the fault machinery, as in-process.
      ['/__mock/faults', { path: '/x', method: 5 }, /^method: /],
      [
        '/__mock/faults',
        { pathPattern: 5 },
        /^pathPattern: must be a RegExp source \(a string\), in place of path$/,
      ],
      ['/__mock/faults', { path: '/x', retryAfter: -1 }, /^retryAfter: /],
      ['/__mock/faults', { path: '/x', latency: 'slow' }, /^latency: /],
      ['/__mock/faults', { path: '/x', after: 1 }, /^after: /],
      ['/__mock/faults', { path: '/x', status: 700 }, /^status: /],
      ['/__mock/faults', { pathPattern: '(' }, /^pathPattern: is not a valid RegExp \(/],
      [
        '/__mock/faults',
        { path: '/x', stauts: 500 },
        /^body: Unrecognized key: "stauts" \(did you mean "status"\?\)$/,
      ],
      [
        '/__mock/faults',
        {},
        /^path: give either path \(the exact path\) or pathPattern \(a RegExp source\)$/,
      ],
      [
        '/__mock/webhooks/redeliver',
        { eventId: 5 },
        /^eventId: Invalid input: expected string, received number$/,
      ],
      ['/__mock/webhooks/redeliver', { url: '' }, /^url: Too small: expected string to have >=1 characters$/],
      [
        '/__mock/webhooks/redeliver',
        { event_id: 'x' },
        /^body: Unrecognized key: "event_id" \(did you mean "eventId"\?\)$/,
      ],
    ];
    for (const [path, body, message] of cases) {
      const answer = await send('POST', path, body);
      const label = `${path} ${JSON.stringify(body)}`;
      expect(answer.status, label).toBe(422);
      expect(answer.body.success, label).toBe(false);
      expect(answer.body.errors, label).toHaveLength(1);
      expect(answer.body.errors[0], label).toMatch(message);
    }
    const state = (await send('GET', '/__mock/state')).body;
    expect(state.returns).toEqual([]);
    expect(state.restockingShipments[0].status).toBe('shipped');
    expect((await send('GET', '/__mock/faults')).body).toEqual({ data: [] });
  });
});

describe('x-mock-hint on terse answers (the body stays the provider’s)', () => {
  test('401: why the request is not authenticated, never the token', async () => {
    for (const [authorization, hint] of [
      [null, 'no Authorization header: send Authorization: Bearer <token>'],
      ['Token abc', 'the Authorization header is not of the form Bearer <token>'],
      ['Bearer wrong-secret-token', "the bearer token is not one of the mock's tokens"],
    ] as const) {
      for (const path of ['/merchant_api/v1/warehouses', '/__mock/state']) {
        const response = await fetch(`${url}${path}`, {
          headers: authorization === null ? {} : { authorization },
        });
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({ success: false, errors: ['authentication required'] });
        expect(response.headers.get('x-mock-hint'), `${path} ${authorization}`).toBe(hint);
        expect(response.headers.get('x-mock-hint')).not.toContain('wrong-secret-token');
      }
    }
  });

  test('404 (no route, no record), 405 and 400 (not JSON) of the API', async () => {
    const noRoute = await send('GET', '/merchant_api/v1/nope');
    expect(noRoute).toMatchObject({ status: 404, body: { success: false, errors: ['not found'] } });
    expect(noRoute.headers.get('x-mock-hint')).toBe('no API route GET /merchant_api/v1/nope');
    const noRecord = await send('GET', '/merchant_api/v1/orders/999');
    expect(noRecord).toMatchObject({ status: 404, body: { success: false, errors: ['not found'] } });
    expect(noRecord.headers.get('x-mock-hint')).toBe(
      'no record with id 999 (GET /merchant_api/v1/orders/999)',
    );
    const wrong = await send('DELETE', '/merchant_api/v1/warehouses');
    expect(wrong).toMatchObject({ status: 405, body: { success: false, errors: ['method not allowed'] } });
    expect(wrong.headers.get('x-mock-hint')).toMatch(
      /^DELETE is not allowed on \/merchant_api\/v1\/warehouses \(allowed: GET/,
    );
    // An id that is no record id: the hint names the route's parameter and the problem.
    const WRONG = 'O-1001';
    for (const [method, path, hint] of [
      [
        'GET',
        `/merchant_api/v1/orders/${WRONG}`,
        "GET /merchant_api/v1/orders/{id}: {id} must be an integer >= 1, got 'O-1001'",
      ],
      [
        'PUT',
        `/merchant_api/v1/orders/${WRONG}/cancel`,
        "PUT /merchant_api/v1/orders/{id}/cancel: {id} must be an integer >= 1, got 'O-1001'",
      ],
      ['GET', `/merchant_api/v1/${WRONG}`, 'no API route GET /merchant_api/v1/O-1001'],
      [
        'POST',
        `/__mock/orders/${WRONG}/fulfill`,
        "POST /__mock/orders/{id}/fulfill: {id} must be an integer >= 1, got 'O-1001' (GET /__mock/ lists them)",
      ],
    ] as const) {
      const answer = await send(method, path);
      expect(answer, path).toMatchObject({ status: 404, body: { success: false, errors: ['not found'] } });
      expect(answer.headers.get('x-mock-hint'), path).toBe(hint);
    }
    const notJson = await send('POST', '/merchant_api/v1/skus', '{"name":');
    expect(notJson).toMatchObject({ status: 400, body: { success: false, errors: ['bad request'] } });
    expect(notJson.headers.get('x-mock-hint')).toBe('request body is not JSON');
    // A successful answer has no hint; a 422 already names the fields in its body.
    expect((await send('GET', '/merchant_api/v1/warehouses')).headers.get('x-mock-hint')).toBeNull();
    const invalid = await send('POST', '/merchant_api/v1/orders', {
      ...orderBody('O-9', 'NOPE'),
      shipping_address: ADDRESS,
    });
    expect(invalid.status).toBe(422);
  });

  test('an injected fault answers exactly as told: no hint is added', async () => {
    await send('POST', '/__mock/faults', { path: '/merchant_api/v1/warehouses', status: 404, times: 1 });
    const faulted = await send('GET', '/merchant_api/v1/warehouses');
    expect(faulted.status).toBe(404);
    expect(faulted.headers.get('x-mock-hint')).toBeNull();
  });
});

describe('the index needs no token; every other control route does', () => {
  test('GET /__mock/ and /__mock answer without a token (documentation only); the rest are 401', async () => {
    for (const path of ['/__mock/', '/__mock']) {
      const open = await send('GET', path, undefined, null);
      expect(open.status, path).toBe(200);
      expect(Object.keys(open.body)).toEqual(['routes']);
      expect(open.body).toEqual((await send('GET', path)).body);
      // A wrong token changes nothing for the index either.
      expect((await send('GET', path, undefined, 'not-a-token')).status).toBe(200);
    }
    const index = (await send('GET', '/__mock/', undefined, null)).body.routes as {
      method: string;
      path: string;
    }[];
    const guarded = index.filter((r) => r.path !== '/__mock/');
    expect(guarded.map((r) => `${r.method} ${r.path}`)).toEqual(EXPECTED_ROUTES.slice(1));
    for (const route of guarded) {
      const path = route.path.replace('{id}', '1');
      for (const token of [null, 'not-a-token']) {
        const answer = await send(route.method, path, undefined, token);
        expect(answer.status, `${route.method} ${path} with ${token}`).toBe(401);
        expect(answer.body).toEqual({ success: false, errors: ['authentication required'] });
      }
    }
    // Other methods on the index, and paths under it, still need the token.
    expect((await send('POST', '/__mock/', undefined, null)).status).toBe(401);
    expect((await send('GET', '/__mock/nope', undefined, null)).status).toBe(401);
  });
});

describe('GET /__mock/deliveries and POST /__mock/webhooks/flush with a query', () => {
  /** Three deliveries: the first and last given up (receiver 500), the second delivered. */
  async function threeDeliveries(): Promise<string[]> {
    const sku = await send('POST', '/merchant_api/v1/skus', skuBody('MUG'));
    for (const status of [500, 204, 500]) {
      receiverStatus = status;
      const shipment = await send('POST', '/merchant_api/v1/restocking_shipments', {
        warehouse_id: 1,
        restocking_shipment_items: [{ sku_id: sku.body.id, announced_quantity: 1 }],
      });
      await send('POST', `/__mock/restocking_shipments/${shipment.body.id}/advance`, { status: 'arrived' });
      await send('POST', '/__mock/webhooks/flush');
    }
    const all = await send('GET', '/__mock/deliveries');
    expect(all.body.data.map((d: { delivered: boolean }) => d.delivered)).toEqual([false, true, false]);
    return all.body.data.map((d: { eventId: string }) => d.eventId);
  }

  const ids = (answer: { body: { data: { eventId: string }[] } }) => answer.body.data.map((d) => d.eventId);

  test('filters (status, eventId, url) and pages; without a query, every delivery as before', async () => {
    const [first, second, third] = await threeDeliveries();
    const all = await send('GET', '/__mock/deliveries');
    expect(Object.keys(all.body)).toEqual(['data']);
    expect(all.body.data[0].body).toMatch(/^\{/);

    const failed = await send('GET', '/__mock/deliveries?status=failed');
    expect(ids(failed)).toEqual([first, third]);
    expect(failed.body.pagination).toEqual({
      current_page: 1,
      page_count: 1,
      item_count: 2,
      items_per_page: 50,
    });
    expect(ids(await send('GET', '/__mock/deliveries?status=delivered'))).toEqual([second]);
    expect(ids(await send('GET', '/__mock/deliveries?status=pending'))).toEqual([]);
    expect(ids(await send('GET', `/__mock/deliveries?eventId=${third}`))).toEqual([third]);
    expect(ids(await send('GET', '/__mock/deliveries?url=https://elsewhere.example/hooks'))).toEqual([]);
    const page2 = await send(
      'GET',
      `/__mock/deliveries?url=${encodeURIComponent('https://shop.example/hooks')}&page=2&limit=2`,
    );
    expect(ids(page2)).toEqual([third]);
    expect(page2.body.pagination).toEqual({
      current_page: 2,
      page_count: 2,
      item_count: 3,
      items_per_page: 2,
    });

    // The flush answers the same shapes.
    expect((await send('POST', '/__mock/webhooks/flush')).body).toEqual(all.body);
    const flushed = await send('POST', '/__mock/webhooks/flush?status=failed&limit=1');
    expect(ids(flushed)).toEqual([first]);
    expect(flushed.body.pagination).toMatchObject({ page_count: 2, item_count: 2, items_per_page: 1 });
  });

  test.each([
    ['status=lost', /^status: Invalid option: expected one of "delivered"\|"failed"\|"pending"$/],
    ['status=tok_mock_test', /^status: Invalid option: expected one of /],
    ['limit=0', /^limit: Too small: expected number to be >=1$/],
    ['page=x', /^page: Invalid input: expected number, received NaN$/],
    ['eventId=', /^eventId: Too small: expected string to have >=1 characters$/],
    ['status=failed&status=delivered', /^status: Invalid option/],
    ['state=failed', /^query: Unrecognized key: "state" \(did you mean "status"\?\)$/],
  ])('?%s is 422 naming the parameter (the value never shown), for both routes', async (query, message) => {
    for (const [method, path] of [
      ['GET', '/__mock/deliveries'],
      ['POST', '/__mock/webhooks/flush'],
    ] as const) {
      const answer = await send(method, `${path}?${query}`);
      expect(answer.status).toBe(422);
      expect(answer.body.errors).toHaveLength(1);
      expect(answer.body.errors[0]).toMatch(message);
      expect(answer.body.errors[0]).not.toContain(TOKEN);
    }
  });
});
