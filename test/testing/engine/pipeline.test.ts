/**
 * The request pipeline (`engine/pipeline.ts`): authentication, the 404 / 405 / 400 answers, and a
 * request that runs against the epoch it started in when `reset()` happens meanwhile.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createMockApi } from '../../../src/testing/index.js';
import { mockRequest, skuBody, TOKEN, testApi } from '../helpers.js';

const SKUS = '/merchant_api/v1/skus';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('authentication', () => {
  test('a request without a token is 401 in the provider format', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'GET', '/merchant_api/v1/skus', undefined, null);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ success: false, errors: ['authentication required'] });
  });

  test('an unknown token, or a non-Bearer scheme, is 401', async () => {
    const api = testApi();
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/skus', undefined, 'wrong')).status).toBe(401);
    const basic = await api.fetch(`${api.baseUrl}/merchant_api/v1/skus`, {
      headers: { authorization: `Basic ${TOKEN}` },
    });
    expect(basic.status).toBe(401);
  });

  test('every configured token is accepted, and the oldest is api.token', async () => {
    const api = createMockApi({ tokens: ['old', 'new'] });
    expect(api.token).toBe('old');
    expect(api.tokens).toEqual(['old', 'new']);
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/warehouses', undefined, 'new')).status).toBe(200);
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/warehouses', undefined, 'old')).status).toBe(200);
  });

  test('without tokens, one random token is generated', async () => {
    const a = createMockApi();
    const b = createMockApi();
    expect(a.token).toMatch(/^mock_[0-9a-f]{32}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.tokens).toEqual([a.token]);
    expect((await mockRequest(a, 'GET', '/merchant_api/v1/warehouses', undefined, a.token)).status).toBe(200);
  });
});

describe('routing', () => {
  test('an unknown route is 404 not found', async () => {
    const api = testApi();
    for (const path of [
      '/merchant_api/v1/nope',
      '/merchant_api/v3/skus',
      '/merchant_api/v1/skus/abc',
      '/merchant_api/v1/skus/1/x',
    ]) {
      const answer = await mockRequest(api, 'GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ success: false, errors: ['not found'] });
    }
  });

  test('a known path with a wrong method is 405 with an Allow header', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'DELETE', '/merchant_api/v1/orders');
    expect(answer.status).toBe(405);
    expect(answer.body).toEqual({ success: false, errors: ['method not allowed'] });
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST');
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/skus/1')).status).toBe(405);
  });

  test('a body that is not JSON is 400 bad request', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'POST', '/merchant_api/v1/skus', '{"name":');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, errors: ['bad request'] });
  });
});

describe('reset() while requests are in progress', () => {
  test('a request waiting on latency answers 503 "mock was reset" and writes nothing into the fresh state', async () => {
    const api = testApi({ latency: 200 });
    const pending = mockRequest(api, 'POST', SKUS, skuBody('LEAK'));
    await sleep(50);
    api.reset();
    const answer = await pending;
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ success: false, errors: ['mock was reset'] });
    expect(api.state.skus).toEqual([]);
    expect(api.state.requests).toEqual([]);
  });

  test('the same for a request delayed by an injected fault', async () => {
    const api = testApi();
    api.injectFault({ path: SKUS, method: 'POST', latency: 200, times: 1 });
    const pending = mockRequest(api, 'POST', SKUS, skuBody('LEAK'));
    await sleep(30);
    api.reset();
    expect((await pending).status).toBe(503);
    expect(api.state.skus).toEqual([]);
    expect((await mockRequest(api, 'POST', SKUS, skuBody('OK'))).body.id).toBe(1);
  });

  test('over HTTP, POST /__mock/reset cuts a slow request short the same way; the rate-limit window is fresh', async () => {
    const api = testApi({ latency: 200, rateLimit: { requests: 5, perMs: 60_000 } });
    const server = await api.listen();
    closers.push(server.close);
    const pending = mockRequest(server.url, 'POST', SKUS, skuBody('LEAK'));
    await sleep(50);
    expect((await mockRequest(server.url, 'POST', '/__mock/reset')).status).toBe(204);
    expect(await pending).toMatchObject({ status: 503, body: { errors: ['mock was reset'] } });
    const state = await mockRequest(server.url, 'GET', '/__mock/state');
    expect(state.body.skus).toEqual([]);
    expect(state.body.requests).toEqual([]);
    const next = await mockRequest(server.url, 'GET', '/merchant_api/v1/warehouses');
    expect(next.headers.get('x-rate-limit-used')).toBe('1');
  });
});
