import { request as httpRequest } from 'node:http';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { FulfillmentClient } from '../../src/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { ADDRESS, TOKEN } from './helpers.js';

const json = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };

describe('msw face', () => {
  const api = createMockApi({ tokens: [TOKEN], baseUrl: 'https://fulfillment.test' });
  const server = setupServer(...api.handlers);
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => api.reset());
  afterAll(() => server.close());

  test('handlers answer plain fetch on the base URL', async () => {
    const created = await fetch('https://fulfillment.test/merchant_api/v1/skus', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Shirt', merchant_sku_id: 'SHIRT' }),
    });
    expect(created.status).toBe(201);
    const list = await fetch('https://fulfillment.test/merchant_api/v1/skus?merchant_sku_ids[]=SHIRT', {
      headers: json,
    });
    const body = (await list.json()) as { data: unknown[] };
    expect(body.data).toHaveLength(1);
    expect(list.headers.get('x-rate-limit-used')).toBe('2');
  });

  test('errors come through msw unchanged', async () => {
    const unauthorized = await fetch('https://fulfillment.test/merchant_api/v1/orders');
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({ success: false, errors: ['authentication required'] });
  });

  test('a reset fault is a network error', async () => {
    api.injectFault({ path: '/merchant_api/v1/warehouses', reset: true, times: 1 });
    await expect(
      fetch('https://fulfillment.test/merchant_api/v1/warehouses', { headers: json }),
    ).rejects.toThrow(TypeError);
    expect(
      (await fetch('https://fulfillment.test/merchant_api/v1/warehouses', { headers: json })).status,
    ).toBe(200);
  });

  test('.handlers returns the same handlers each time', () => {
    expect(api.handlers).toBe(api.handlers);
    expect(api.handlers).toHaveLength(1);
  });

  test('the SDK client works against the mock', async () => {
    const client = new FulfillmentClient({
      apiToken: api.token,
      baseUrl: api.baseUrl,
      logLevel: 'off',
      maxRetries: 0,
    });
    const page = await client.warehouses.list();
    expect(page.data.map((w) => w.id)).toEqual([1, 2, 3]);
  });
});

describe('api.fetch', () => {
  test('serves the SDK client in-process, without msw or sockets', async () => {
    const api = createMockApi();
    const client = new FulfillmentClient({
      apiToken: api.token,
      baseUrl: api.baseUrl,
      fetch: api.fetch,
      logLevel: 'off',
    });
    const sku = await client.skus.create({ name: 'Mug', merchant_sku_id: 'MUG' });
    expect(sku).toMatchObject({ id: 1, status: 'active', merchant_sku_id: 'MUG' });
    const found = await client.skus.retrieveByMerchantSkuId('MUG');
    expect(found?.id).toBe(1);
  });
});

describe('HTTP server face', () => {
  test('speaks the API to plain fetch on 127.0.0.1, on a free port', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    const server = await api.listen({ port: 0, host: '127.0.0.1' });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.port).toBeGreaterThan(0);
      const sku = await fetch(`${server.url}/merchant_api/v1/skus`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'A', merchant_sku_id: 'A' }),
      });
      expect(sku.status).toBe(201);
      expect(sku.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const order = await fetch(`${server.url}/merchant_api/v1/orders`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          merchant_order_id: 'O-1',
          shipping_address: ADDRESS,
          items: [{ merchant_item_id: 'i', merchant_sku_id: 'A', quantity: 1 }],
        }),
      });
      expect(order.status).toBe(201);
      const bad = await fetch(`${server.url}/merchant_api/v1/orders`, {
        method: 'POST',
        headers: json,
        body: '{',
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ success: false, errors: ['bad request'] });
      const missing = await fetch(`${server.url}/elsewhere`, { headers: json });
      expect(missing.status).toBe(404);
      expect(api.state.orders).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  test('close() ends keep-alive connections and pending delays, so nothing keeps the process alive', async () => {
    const api = createMockApi({ tokens: [TOKEN], latency: 5_000 });
    const server = await api.listen();
    const handlesBefore = process.getActiveResourcesInfo().length;
    // A request that waits on the 5 s latency, on a keep-alive connection.
    const pending = new Promise<string>((resolve) => {
      const req = httpRequest(
        `${server.url}/merchant_api/v1/warehouses`,
        { headers: json, agent: false },
        (res) => {
          res.resume();
          res.on('end', () => resolve(`status ${res.statusCode}`));
        },
      );
      req.on('error', (error) => resolve(`error ${error.message}`));
      req.end();
    });
    for (let i = 0; i < 50 && api.state.requests.length === 0; i++)
      await new Promise((r) => setTimeout(r, 2));
    const started = performance.now();
    await server.close();
    expect(await pending).toMatch(/^error/);
    expect(performance.now() - started).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 10));
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(handlesBefore);
  });

  test('close() is idempotent', async () => {
    const server = await createMockApi().listen();
    await Promise.all([server.close(), server.close()]);
    await server.close();
  });

  test('listen() rejects a bad port and a port in use', async () => {
    const api = createMockApi();
    await expect(api.listen({ port: -1 })).rejects.toThrow(/port/);
    const first = await api.listen();
    try {
      await expect(api.listen({ port: first.port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });

  test('one state behind both faces', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    const server = await api.listen();
    try {
      await fetch(`${server.url}/merchant_api/v1/skus`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'A', merchant_sku_id: 'A' }),
      });
      const viaFetch = await api.fetch(`${api.baseUrl}/merchant_api/v1/skus`, { headers: json });
      const body = (await viaFetch.json()) as { data: { merchant_sku_id: string }[] };
      expect(body.data[0]!.merchant_sku_id).toBe('A');
    } finally {
      await server.close();
    }
  });
});
