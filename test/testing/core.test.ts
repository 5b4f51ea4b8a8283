import { describe, expect, test } from 'vitest';
import { createMockApi, DEFAULT_BASE_URL } from '../../src/testing/index.js';
import { call, TOKEN, testApi } from './helpers.js';

describe('authentication', () => {
  test('a request without a token is 401 in the provider format', async () => {
    const api = testApi();
    const answer = await call(api, 'GET', '/merchant_api/v1/skus', undefined, null);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ success: false, errors: ['authentication required'] });
  });

  test('an unknown token, or a non-Bearer scheme, is 401', async () => {
    const api = testApi();
    expect((await call(api, 'GET', '/merchant_api/v1/skus', undefined, 'wrong')).status).toBe(401);
    const basic = await api.fetch(`${api.baseUrl}/merchant_api/v1/skus`, {
      headers: { authorization: `Basic ${TOKEN}` },
    });
    expect(basic.status).toBe(401);
  });

  test('every configured token is accepted, and the oldest is api.token', async () => {
    const api = createMockApi({ tokens: ['old', 'new'] });
    expect(api.token).toBe('old');
    expect(api.tokens).toEqual(['old', 'new']);
    expect((await call(api, 'GET', '/merchant_api/v1/warehouses', undefined, 'new')).status).toBe(200);
    expect((await call(api, 'GET', '/merchant_api/v1/warehouses', undefined, 'old')).status).toBe(200);
  });

  test('without tokens, one random token is generated', async () => {
    const a = createMockApi();
    const b = createMockApi();
    expect(a.token).toMatch(/^mock_[0-9a-f]{32}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.tokens).toEqual([a.token]);
    expect((await call(a, 'GET', '/merchant_api/v1/warehouses', undefined, a.token)).status).toBe(200);
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
      const answer = await call(api, 'GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ success: false, errors: ['not found'] });
    }
  });

  test('a known path with a wrong method is 405 with an Allow header', async () => {
    const api = testApi();
    const answer = await call(api, 'DELETE', '/merchant_api/v1/orders');
    expect(answer.status).toBe(405);
    expect(answer.body).toEqual({ success: false, errors: ['method not allowed'] });
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST');
    expect((await call(api, 'GET', '/merchant_api/v1/skus/1')).status).toBe(405);
  });

  test('an unknown id is 404', async () => {
    const api = testApi();
    for (const [method, path] of [
      ['GET', '/merchant_api/v1/orders/99'],
      ['PATCH', '/merchant_api/v1/skus/99'],
      ['PUT', '/merchant_api/v1/orders/99/cancel'],
      ['GET', '/merchant_api/v1/restocking_shipments/99'],
      ['GET', '/merchant_api/v2/restocking_shipments/99'],
      ['GET', '/merchant_api/v1/returns/99'],
    ] as const) {
      const answer = await call(api, method, path, method === 'GET' ? undefined : {});
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
  });

  test('a body that is not JSON is 400 bad request', async () => {
    const api = testApi();
    const answer = await call(api, 'POST', '/merchant_api/v1/skus', '{"name":');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, errors: ['bad request'] });
  });

  test('malformed list parameters are 400', async () => {
    const api = testApi();
    for (const query of ['page=0', 'limit=-1', 'limit=abc', 'created_at[gte]=yesterday']) {
      expect((await call(api, 'GET', `/merchant_api/v1/orders?${query}`)).status, query).toBe(400);
    }
  });

  test('every endpoint of the spec answers', async () => {
    const api = testApi();
    const routes = [
      ['GET', '/merchant_api/v1/skus'],
      ['GET', '/merchant_api/v1/orders'],
      ['GET', '/merchant_api/v1/shipments'],
      ['GET', '/merchant_api/v1/returns'],
      ['GET', '/merchant_api/v1/warehouses'],
    ] as const;
    for (const [method, path] of routes) expect((await call(api, method, path)).status, path).toBe(200);
    for (const [method, path] of [
      ['POST', '/merchant_api/v1/skus'],
      ['POST', '/merchant_api/v1/skus/bulk_upsert'],
      ['POST', '/merchant_api/v1/orders'],
      ['POST', '/merchant_api/v1/restocking_shipments'],
      ['POST', '/merchant_api/v2/restocking_shipments'],
    ] as const) {
      expect((await call(api, method, path, {})).status, path).toBe(422);
    }
  });

  test('a trailing slash is accepted', async () => {
    const api = testApi();
    expect((await call(api, 'GET', '/merchant_api/v1/warehouses/')).status).toBe(200);
  });

  test('a base URL with a path prefix is honoured by api.fetch / handle', async () => {
    const api = createMockApi({ tokens: [TOKEN], baseUrl: 'https://example.test/api/' });
    expect(api.baseUrl).toBe('https://example.test/api');
    expect((await call(api, 'GET', '/merchant_api/v1/warehouses')).status).toBe(200);
  });

  test('the default base URL', () => {
    expect(createMockApi().baseUrl).toBe(DEFAULT_BASE_URL);
    expect(DEFAULT_BASE_URL).toBe('https://fulfillment.mock');
  });
});

describe('warehouses', () => {
  test('three seeded warehouses by default, in the list envelope', async () => {
    const api = testApi();
    const answer = await call(api, 'GET', '/merchant_api/v1/warehouses');
    expect(answer.body.data.map((w: { id: number }) => w.id)).toEqual([1, 2, 3]);
    expect(answer.body.data[0]).toMatchObject({ id: 1, name: 'Berlin', address: { country_code: 'DE' } });
    expect(answer.body.pagination).toEqual({
      current_page: 1,
      page_count: 1,
      item_count: 3,
      items_per_page: 20,
    });
  });

  test('custom warehouses are answered as given', async () => {
    const api = testApi({ warehouses: [{ id: 7, name: 'Lyon', code: 'LYS' }] });
    const answer = await call(api, 'GET', '/merchant_api/v1/warehouses');
    expect(answer.body.data).toEqual([{ id: 7, name: 'Lyon', code: 'LYS' }]);
  });
});

describe('options', () => {
  test('invalid options throw a TypeError naming the option', () => {
    expect(() => createMockApi({ pageSize: 0 })).toThrow(/pageSize/);
    expect(() => createMockApi({ tokens: [] })).toThrow(/tokens/);
    expect(() => createMockApi({ baseUrl: 'not a url' })).toThrow(/baseUrl/);
    expect(() => createMockApi({ warehouses: [] })).toThrow(/warehouses/);
    expect(() => createMockApi({ warehouses: [{ id: 1 }, { id: 1 }] })).toThrow(/warehouse ids/);
    expect(() => createMockApi({ rateLimit: { requests: 0, perMs: 1000 } })).toThrow(/rateLimit/);
    expect(() => createMockApi({ latency: -1 })).toThrow(/latency/);
    expect(() => createMockApi({ webhooks: ['/relative'] })).toThrow(/webhooks/);
  });

  test('pageSize sets the default page size', async () => {
    const api = testApi({ pageSize: 2 });
    const answer = await call(api, 'GET', '/merchant_api/v1/warehouses');
    expect(answer.body.data).toHaveLength(2);
    expect(answer.body.pagination).toEqual({
      current_page: 1,
      page_count: 2,
      item_count: 3,
      items_per_page: 2,
    });
  });

  test('latency delays every response', async () => {
    const api = testApi({ latency: 40 });
    const started = performance.now();
    await call(api, 'GET', '/merchant_api/v1/warehouses');
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
  });
});

describe('request log and reset', () => {
  test('state.requests records method, path, query, body and status', async () => {
    const api = testApi();
    await call(api, 'GET', '/merchant_api/v1/skus?page=2');
    await call(api, 'POST', '/merchant_api/v1/skus', { name: '' });
    const log = api.state.requests;
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({
      method: 'GET',
      path: '/merchant_api/v1/skus',
      query: 'page=2',
      status: 200,
    });
    expect(log[0]!.body).toBeUndefined();
    expect(log[1]).toMatchObject({ method: 'POST', body: { name: '' }, status: 422 });
    expect(log[1]!.at).toMatch(/^2025-01-01T/);
  });

  test('the log keeps the last 1000 requests', async () => {
    const api = testApi();
    for (let i = 0; i < 1005; i++) await call(api, 'GET', `/merchant_api/v1/warehouses?page=${i + 1}`);
    const log = api.state.requests;
    expect(log).toHaveLength(1000);
    expect(log[0]!.query).toBe('page=6');
  });

  test('reset() clears every record and restarts ids', async () => {
    const api = testApi();
    await call(api, 'POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' });
    api.reset();
    expect(api.state.skus).toEqual([]);
    expect(api.state.requests).toEqual([]);
    const again = await call(api, 'POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(1);
  });

  test('the state snapshot is a copy', async () => {
    const api = testApi();
    await call(api, 'POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' });
    const skus = api.state.skus;
    skus[0]!.name = 'changed';
    api.state.warehouses[0]!.name = 'changed';
    expect(api.state.skus[0]!.name).toBe('A');
    expect(api.state.warehouses[0]!.name).toBe('Berlin');
  });
});
