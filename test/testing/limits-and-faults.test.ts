import { afterEach, describe, expect, test } from 'vitest';
import type { MockServer } from '../../src/testing/index.js';
import { call, manualClock, TOKEN, testApi } from './helpers.js';

const WAREHOUSES = '/merchant_api/v1/warehouses';
const ORDERS = '/merchant_api/v1/orders';

const servers: MockServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe('rate limit', () => {
  test('headers on every response; off by default with a maximum of 100', async () => {
    const api = testApi();
    for (let i = 1; i <= 3; i++) {
      const answer = await call(api, 'GET', WAREHOUSES);
      expect(answer.headers.get('x-rate-limit-used')).toBe(String(i));
      expect(answer.headers.get('x-rate-limit-max')).toBe('100');
    }
    for (const answer of [
      await call(api, 'GET', '/merchant_api/v1/nope'),
      await call(api, 'POST', '/merchant_api/v1/skus', {}),
    ]) {
      expect(answer.headers.get('x-rate-limit-used')).not.toBeNull();
    }
    const unauthenticated = await call(api, 'GET', WAREHOUSES, undefined, null);
    expect(unauthenticated.headers.get('x-rate-limit-used')).toBe('0');
    expect(unauthenticated.headers.get('x-rate-limit-max')).toBe('100');
  });

  test('over the limit: 429 with a fractional Retry-After; the window slides', async () => {
    const clock = manualClock();
    const api = testApi({ now: clock.now, rateLimit: { requests: 3, perMs: 10_000 } });
    for (let i = 0; i < 3; i++) {
      expect((await call(api, 'GET', WAREHOUSES)).status).toBe(200);
      clock.advance(1000); // requests at t = 0 s, 1 s, 2 s
    }
    clock.advance(3_800); // t = 6.8 s: the oldest slot frees at 10 s
    const refused = await call(api, 'GET', WAREHOUSES);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, errors: ['rate limit exceeded'] });
    expect(refused.headers.get('retry-after')).toBe('3.2');
    expect(refused.headers.get('x-rate-limit-used')).toBe('3');
    expect(refused.headers.get('x-rate-limit-max')).toBe('3');
    clock.advance(3_200); // t = 10 s
    const allowed = await call(api, 'GET', WAREHOUSES);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('x-rate-limit-used')).toBe('3');
  });

  test('the limit is per token', async () => {
    const api = testApi({ tokens: [TOKEN, 'other'], rateLimit: { requests: 1, perMs: 60_000 } });
    expect((await call(api, 'GET', WAREHOUSES)).status).toBe(200);
    expect((await call(api, 'GET', WAREHOUSES)).status).toBe(429);
    expect((await call(api, 'GET', WAREHOUSES, undefined, 'other')).status).toBe(200);
  });

  test('reset() clears the windows', async () => {
    const api = testApi({ rateLimit: { requests: 1, perMs: 60_000 } });
    await call(api, 'GET', WAREHOUSES);
    expect((await call(api, 'GET', WAREHOUSES)).status).toBe(429);
    api.reset();
    expect((await call(api, 'GET', WAREHOUSES)).status).toBe(200);
  });
});

describe('faults', () => {
  test('a fault answers its status for `times` matching requests, then the API answers again', async () => {
    const api = testApi();
    const fault = api.injectFault({ method: 'post', path: ORDERS, status: 503, times: 2, retryAfter: 0.05 });
    const first = await call(api, 'POST', ORDERS, {});
    expect(first.status).toBe(503);
    expect(first.body).toEqual({ success: false, errors: ['service unavailable'] });
    expect(first.headers.get('retry-after')).toBe('0.05');
    expect(first.headers.get('x-rate-limit-max')).toBe('100');
    expect((await call(api, 'GET', ORDERS)).status).toBe(200); // other method: not matched
    expect((await call(api, 'POST', ORDERS, {})).status).toBe(503);
    expect(fault.hits).toBe(2);
    expect(fault.remaining).toBe(0);
    expect((await call(api, 'POST', ORDERS, {})).status).toBe(422);
  });

  test('RegExp paths, custom bodies and headers; remove()', async () => {
    const api = testApi();
    const fault = api.injectFault({
      path: /\/skus(\/|$)/,
      status: 500,
      body: { oops: true },
      headers: { 'x-trace': 'abc' },
    });
    const answer = await call(api, 'GET', '/merchant_api/v1/skus');
    expect(answer).toMatchObject({ status: 500, body: { oops: true } });
    expect(answer.headers.get('x-trace')).toBe('abc');
    expect((await call(api, 'PATCH', '/merchant_api/v1/skus/1', {})).status).toBe(500);
    expect(fault.remaining).toBe(Number.POSITIVE_INFINITY);
    fault.remove();
    expect((await call(api, 'GET', '/merchant_api/v1/skus')).status).toBe(200);
  });

  test('a fault applies before authentication (it stands for the infrastructure)', async () => {
    const api = testApi();
    api.injectFault({ path: WAREHOUSES, status: 502, times: 1 });
    expect((await call(api, 'GET', WAREHOUSES, undefined, null)).status).toBe(502);
  });

  test('a latency-only fault slows the request down and lets it through', async () => {
    const api = testApi();
    api.injectFault({ path: WAREHOUSES, latency: 40, times: 1 });
    const started = performance.now();
    expect((await call(api, 'GET', WAREHOUSES)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
  });

  test('faults from the options come back after reset()', async () => {
    const api = testApi({ faults: [{ path: WAREHOUSES, status: 500, times: 1 }] });
    expect((await call(api, 'GET', WAREHOUSES)).status).toBe(500);
    expect((await call(api, 'GET', WAREHOUSES)).status).toBe(200);
    api.injectFault({ path: ORDERS, status: 500 });
    api.reset();
    expect((await call(api, 'GET', WAREHOUSES)).status).toBe(500);
    expect((await call(api, 'GET', ORDERS)).status).toBe(200);
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
    await expect(call(api, 'GET', WAREHOUSES)).rejects.toThrow(TypeError);
    expect((await api.handle(new Request(`${api.baseUrl}${WAREHOUSES}`))).type).toBe('error');
    expect((await call(api, 'GET', WAREHOUSES)).status).toBe(200);
    expect(api.state.requests.map((r) => r.status)).toEqual([0, 0, 200]);
  });

  test('reset over the real HTTP server destroys the socket; the next request succeeds', async () => {
    const api = testApi();
    const server = await api.listen();
    servers.push(server);
    api.injectFault({ path: WAREHOUSES, reset: true, times: 1 });
    const headers = { authorization: `Bearer ${TOKEN}` };
    const error = await fetch(`${server.url}${WAREHOUSES}`, { headers }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as TypeError).cause)).toMatch(/socket|closed|reset|other side/i);
    const ok = await fetch(`${server.url}${WAREHOUSES}`, { headers });
    expect(ok.status).toBe(200);
  });

  test('status faults over the real HTTP server', async () => {
    const api = testApi();
    const server = await api.listen();
    servers.push(server);
    api.injectFault({ path: ORDERS, method: 'GET', status: 429, retryAfter: 1.5, times: 1 });
    const headers = { authorization: `Bearer ${TOKEN}` };
    const limited = await fetch(`${server.url}${ORDERS}`, { headers });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1.5');
    expect(await limited.json()).toEqual({ success: false, errors: ['rate limit exceeded'] });
    expect((await fetch(`${server.url}${ORDERS}`, { headers })).status).toBe(200);
  });
});
