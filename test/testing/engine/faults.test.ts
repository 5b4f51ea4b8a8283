/**
 * Injected faults (`engine/faults.ts`): statuses, dropped connections, delays, and their counters.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { MockServer } from '../../../src/testing/index.js';
import { mockRequest, testApi } from '../helpers.js';

const WAREHOUSES = '/merchant_api/v1/warehouses';
const ORDERS = '/merchant_api/v1/orders';

const servers: MockServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('faults', () => {
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
