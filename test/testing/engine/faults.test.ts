/**
 * Injected faults (`engine/faults.ts`): statuses, dropped connections, delays, and their counters.
 */
import { afterEach, describe, expect, it, test } from 'vitest';
import { APITimeoutError, FulfillmentClient, InternalServerError } from '../../../src/index.js';
import type { MockFault, MockServer } from '../../../src/testing/index.js';
import { createSku, mockRequest, orderBody, TOKEN, testApi } from '../helpers.js';

const WAREHOUSES = '/merchant_api/v1/warehouses';
const ORDERS = '/merchant_api/v1/orders';

const servers: MockServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('faults', () => {
  test.each([
    [400, 'bad request'],
    [401, 'authentication required'],
    [404, 'not found'],
    [405, 'method not allowed'],
    [409, 'conflict'],
    [422, 'unprocessable entity'],
    [500, 'internal server error'],
  ])('a %i fault without a body answers the status text the provider sends', async (status, text) => {
    const api = testApi();
    api.injectFault({ path: ORDERS, status });
    const answer = await mockRequest(api, 'GET', ORDERS);
    expect([answer.status, answer.body]).toEqual([status, { success: false, errors: [text] }]);
  });

  test('a fault answers its status for `times` matching requests, then the API answers again', async () => {
    const api = testApi();
    const fault = api.injectFault({ method: 'post', path: ORDERS, status: 503, times: 2, retryAfter: 0.05 });
    const first = await mockRequest(api, 'POST', ORDERS, {});
    expect(first.status).toBe(503);
    expect(first.body).toEqual({ success: false, errors: ['service unavailable'] });
    expect(first.headers.get('retry-after')).toBe('0.05');
    expect(first.headers.get('x-rate-limit-max')).toBe('100');
    expect((await mockRequest(api, 'GET', ORDERS)).status).toBe(200); // other method: not matched
    expect((await mockRequest(api, 'POST', ORDERS, {})).status).toBe(503);
    expect(fault.hits).toBe(2);
    expect(fault.remaining).toBe(0);
    expect((await mockRequest(api, 'POST', ORDERS, {})).status).toBe(422);
  });

  test('RegExp paths, custom bodies and headers; remove()', async () => {
    const api = testApi();
    const fault = api.injectFault({
      path: /\/skus(\/|$)/,
      status: 500,
      body: { oops: true },
      headers: { 'x-trace': 'abc' },
    });
    const answer = await mockRequest(api, 'GET', '/merchant_api/v1/skus');
    expect(answer).toMatchObject({ status: 500, body: { oops: true } });
    expect(answer.headers.get('x-trace')).toBe('abc');
    expect((await mockRequest(api, 'PATCH', '/merchant_api/v1/skus/1', {})).status).toBe(500);
    expect(fault.remaining).toBe(Number.POSITIVE_INFINITY);
    fault.remove();
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/skus')).status).toBe(200);
  });

  test('a RegExp path is a plain RegExp: any syntax, and a global one matches every request', async () => {
    const api = testApi();
    const fault = api.injectFault({ path: /^\/merchant_api\/v1\/skus(?!\/)/g, status: 500 });
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/skus')).status).toBe(500);
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/skus')).status).toBe(500);
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/skus/1')).status).not.toBe(500);
    expect(fault.hits).toBe(2);
    const answer = await mockRequest(api, 'POST', '/__mock/faults', { pathPattern: '^/x(?!y)' });
    expect(answer.status).toBe(201);
  });

  test('a `*` in a string path stands for any run of characters; other characters are literal', async () => {
    const api = testApi();
    const fault = api.injectFault({ path: '/merchant_api/v1/skus/*', status: 500 });
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/skus/1')).status).toBe(500);
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/skus')).status).toBe(200);
    api.injectFault({ path: '/merchant_api/v1/war.houses*', status: 502 });
    expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(200);
    expect(api.faults()).toMatchObject([{ path: '/merchant_api/v1/skus/*', pathPattern: null }, {}]);
    expect(fault.hits).toBe(1);
  });

  test('a fault applies before authentication (it stands for the infrastructure)', async () => {
    const api = testApi();
    api.injectFault({ path: WAREHOUSES, status: 502, times: 1 });
    expect((await mockRequest(api, 'GET', WAREHOUSES, undefined, null)).status).toBe(502);
  });

  test('a latency-only fault slows the request down and lets it through', async () => {
    const api = testApi();
    api.injectFault({ path: WAREHOUSES, latency: 40, times: 1 });
    const started = performance.now();
    expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
  });

  test('faults from the options come back after reset()', async () => {
    const api = testApi({ faults: [{ path: WAREHOUSES, status: 500, times: 1 }] });
    expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(500);
    expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(200);
    api.injectFault({ path: ORDERS, status: 500 });
    api.reset();
    expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(500);
    expect((await mockRequest(api, 'GET', ORDERS)).status).toBe(200);
  });

  test('invalid faults throw', () => {
    const api = testApi();
    expect(() => api.injectFault({ path: 42 as unknown as string })).toThrow(/path/);
    expect(() => api.injectFault({ path: '/x', status: 99 })).toThrow(/status/);
    expect(() => api.injectFault({ path: '/x', times: 0 })).toThrow(/times/);
  });

  test('reset: api.fetch rejects like a network error', async () => {
    const api = testApi();
    api.injectFault({ path: WAREHOUSES, reset: true, times: 2 });
    await expect(mockRequest(api, 'GET', WAREHOUSES)).rejects.toThrow(TypeError);
    expect((await api.handle(new Request(`${api.baseUrl}${WAREHOUSES}`))).type).toBe('error');
    expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(200);
    expect(api.state.requests.map((r) => r.status)).toEqual([0, 0, 200]);
  });

  test('reset over the real HTTP server destroys the socket; the next request succeeds', async () => {
    const api = testApi();
    const server = await api.listen();
    servers.push(server);
    api.injectFault({ path: WAREHOUSES, reset: true, times: 1 });
    const error = await mockRequest(server.url, 'GET', WAREHOUSES).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as TypeError).cause)).toMatch(/socket|closed|reset|other side/i);
    const ok = await mockRequest(server.url, 'GET', WAREHOUSES);
    expect(ok.status).toBe(200);
  });

  test('status faults over the real HTTP server', async () => {
    const api = testApi();
    const server = await api.listen();
    servers.push(server);
    api.injectFault({ path: ORDERS, method: 'GET', status: 429, retryAfter: 1.5, times: 1 });
    const limited = await mockRequest(server.url, 'GET', ORDERS);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1.5');
    expect(limited.body).toEqual({ success: false, errors: ['rate limit exceeded'] });
    expect((await mockRequest(server.url, 'GET', ORDERS)).status).toBe(200);
  });
});

/**
 * What `injectFault` refuses at once (`engine/faults.ts`), so that a fault in force can always
 * build its answer: a body JSON cannot serialize, a header name or value `fetch` / `node:http`
 * reject, a latency a timer cannot wait. And the copy it keeps: changing the caller's object later
 * changes nothing. Over `POST /__mock/faults` the same refusals are a 422 naming the field.
 */
describe('what a fault may hold', () => {
  const WAREHOUSES = '/merchant_api/v1/warehouses';

  describe('injectFault refuses a fault whose answer cannot be built', () => {
    const BAD_NAME = /^Invalid fault: headers: names must be HTTP tokens$/;
    const BAD_VALUE =
      /^Invalid fault: headers\.x-a: must be a valid header value \(no line break, nothing over U\+00FF\)$/;
    test.each([
      ['a BigInt body', { body: 1n }, /^Invalid fault: body: must be a JSON value that can be serialized$/],
      [
        'a function body',
        { body: () => 1 },
        /^Invalid fault: body: must be a JSON value that can be serialized$/,
      ],
      ['a header name with a space', { headers: { 'bad name': 'v' } }, BAD_NAME],
      ['a bad header name with a bad value', { headers: { 'Bearer tok_secret': 'a\nb' } }, BAD_NAME],
      ['a header value with CR LF', { headers: { 'x-a': 'a\r\nb' } }, BAD_VALUE],
      ['a header value with NUL', { headers: { 'x-a': 'a\0b' } }, BAD_VALUE],
      ['a header value over U+00FF', { headers: { 'x-a': '\u0100' } }, BAD_VALUE],
      [
        'a latency a timer cannot wait',
        { latency: 2 ** 31 },
        /^Invalid fault: latency: must be at most 2147483647 ms/,
      ],
      ['a huge latency', { latency: 1e20 }, /^Invalid fault: latency: must be at most 2147483647 ms/],
    ])('%s', async (_, extra, message) => {
      const api = testApi();
      expect(() => api.injectFault({ path: WAREHOUSES, ...(extra as object) } as MockFault)).toThrow(
        TypeError,
      );
      expect(() => api.injectFault({ path: WAREHOUSES, ...(extra as object) } as MockFault)).toThrow(message);
      expect(api.faults()).toEqual([]);
      expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(200);
    });

    test('and createMockApi({ faults }) likewise', () => {
      expect(() => testApi({ faults: [{ path: WAREHOUSES, latency: 2 ** 31 }] })).toThrow(
        /^createMockApi: faults\[0\]\.latency: must be at most/,
      );
      expect(() => testApi({ faults: [{ path: WAREHOUSES, body: 1n as never }] })).toThrow(
        /^createMockApi: faults\[0\]\.body: must be a JSON value/,
      );
    });

    test('the largest latency, valid headers and bodies are accepted', () => {
      const api = testApi();
      expect(() =>
        api.injectFault({
          path: WAREHOUSES,
          latency: 2 ** 31 - 1,
          headers: { 'x-Custom_1': 'a value\twith tab, é' },
          body: { toJSON: () => ({ ok: true }) } as never,
          times: 1,
        }),
      ).not.toThrow();
      api.clearFaults();
    });
  });

  describe('injectFault keeps a copy of the fault', () => {
    test('changing the object after injecting changes nothing', async () => {
      const api = testApi();
      const spec = {
        path: WAREHOUSES,
        status: 503,
        body: { errors: ['first'] },
        headers: { 'x-a': 'one' } as Record<string, string>,
      };
      api.injectFault(spec);
      spec.status = 42;
      spec.path = '/other';
      spec.body.errors.push('second');
      spec.headers['x-a'] = 'a\r\nb';
      spec.headers['bad name'] = 'v';
      const answer = await mockRequest(api, 'GET', WAREHOUSES);
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ errors: ['first'] });
      expect(answer.headers.get('x-a')).toBe('one');
      expect(api.faults()[0]).toMatchObject({ path: WAREHOUSES });
    });

    test('a body with toJSON is answered as it serialized when injected', async () => {
      const api = testApi();
      let n = 0;
      api.injectFault({ path: WAREHOUSES, status: 500, body: { toJSON: () => ({ n: ++n }) } as never });
      expect((await mockRequest(api, 'GET', WAREHOUSES)).body).toEqual({ n: 1 });
      expect((await mockRequest(api, 'GET', WAREHOUSES)).body).toEqual({ n: 1 });
    });
  });

  describe('POST /__mock/faults names the field refused', () => {
    test.each([
      [{ path: WAREHOUSES, headers: { 'bad name': 'v' } }, 'headers'],
      [{ path: WAREHOUSES, headers: { 'x-a': 'a\r\nb' } }, 'headers'],
      [{ path: WAREHOUSES, latency: 2 ** 31 }, 'latency'],
      [{ pathPattern: '(' }, 'pathPattern'],
    ])('%j', async (fault, field) => {
      const api = testApi();
      const answer = await mockRequest(api, 'POST', '/__mock/faults', fault);
      expect(answer.status).toBe(422);
      expect(answer.body.errors[0]).toMatch(new RegExp(`^${field}(\\.|: )`));
      expect(api.faults()).toEqual([]);
    });
  });
});

/**
 * Faults with `after: true`: the request is handled (its change made), then the answer is replaced
 * or held back. The ambiguous failures a client cannot tell from "nothing happened".
 */
describe('faults after the request is handled', () => {
  const ORDERS = '/merchant_api/v1/orders';

  async function ordersIn(api: ReturnType<typeof testApi>): Promise<string[]> {
    const answer = await mockRequest(api, 'GET', `${ORDERS}?limit=100`);
    return (answer.body.data as { merchant_order_id: string }[]).map((o) => o.merchant_order_id);
  }

  describe('faults applied after the request is handled', () => {
    it('store-then-5xx: the order is stored, the answer is the fault', async () => {
      const api = testApi();
      await createSku(api, 'A');
      const fault = api.injectFault({ method: 'POST', path: ORDERS, status: 500, after: true, times: 1 });
      const answer = await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ success: false, errors: ['internal server error'] });
      expect(fault.hits).toBe(1);
      expect(await ordersIn(api)).toEqual(['O-1']);
      // The retry meets the provider's duplicate answer.
      const again = await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
      expect(again.status).toBe(422);
      expect(await ordersIn(api)).toEqual(['O-1']);
    });

    it('store-then-reset: the order is stored, the connection dropped', async () => {
      const api = testApi();
      await createSku(api, 'A');
      api.injectFault({ method: 'POST', path: ORDERS, reset: true, after: true, times: 1 });
      await expect(mockRequest(api, 'POST', ORDERS, orderBody('O-2', 'A'))).rejects.toThrow(TypeError);
      expect(await ordersIn(api)).toEqual(['O-2']);
    });

    it('store-then-timeout: the order is stored before the client gives up', async () => {
      const api = testApi();
      await createSku(api, 'A');
      api.injectFault({ method: 'POST', path: ORDERS, latency: 300, after: true, times: 1 });
      const client = new FulfillmentClient({
        apiToken: TOKEN,
        baseUrl: api.baseUrl,
        fetch: api.fetch,
        timeout: 50,
        logLevel: 'off',
      });
      const error = await client.orders.create(orderBody('O-3', 'A') as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APITimeoutError);
      expect(await ordersIn(api)).toEqual(['O-3']); // the order exists although the client saw a timeout
    });

    it('a refused request stays refused: after-faults never turn a 422 into a stored order', async () => {
      const api = testApi();
      await createSku(api, 'A');
      const fault = api.injectFault({ method: 'POST', path: ORDERS, status: 503, after: true, times: 1 });
      const client = new FulfillmentClient({
        apiToken: TOKEN,
        baseUrl: api.baseUrl,
        fetch: api.fetch,
        maxRetries: 0,
      });
      const bad = { ...orderBody('O-4', 'NOPE') };
      const error = await client.orders.create(bad as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InternalServerError); // 503 is not retried for a POST
      expect(fault.hits).toBe(1);
      expect(await ordersIn(api)).toEqual([]); // the unknown SKU was refused underneath
    });

    it('after must be a boolean, through the API and the control route', async () => {
      const api = testApi();
      expect(() => api.injectFault({ path: ORDERS, after: 'yes' as never })).toThrow(
        /after: Invalid input: expected boolean/,
      );
      const added = await mockRequest(api, 'POST', '/__mock/faults', {
        path: ORDERS,
        status: 500,
        after: true,
      });
      expect(added.status).toBe(201);
      const refused = await mockRequest(api, 'POST', '/__mock/faults', { path: ORDERS, after: 1 });
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body)).toMatch(/after: Invalid input: expected boolean/);
    });
  });
});
