/**
 * The msw face (`faces/msw.ts`): `api.handlers` with `setupServer`.
 */
import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { FulfillmentClient } from '../../../src/index.js';
import { createMockApi } from '../../../src/testing/index.js';
import { mockRequest, TOKEN } from '../helpers.js';

const json = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };
/** The base URL the handlers answer on (requests go through the global `fetch`, which msw intercepts). */
const BASE = 'https://fulfillment.test';

describe('msw face', () => {
  const api = createMockApi({ tokens: [TOKEN], baseUrl: 'https://fulfillment.test' });
  const server = setupServer(...api.handlers);
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => api.reset());
  afterAll(() => server.close());

  test('handlers answer plain fetch on the base URL', async () => {
    const created = await mockRequest(BASE, 'POST', '/merchant_api/v1/skus', {
      name: 'Shirt',
      merchant_sku_id: 'SHIRT',
    });
    expect(created.status).toBe(201);
    const list = await mockRequest(BASE, 'GET', '/merchant_api/v1/skus?merchant_sku_ids[]=SHIRT');
    expect(list.body.data).toHaveLength(1);
    expect(list.headers.get('x-rate-limit-used')).toBe('2');
  });

  test('errors come through msw unchanged', async () => {
    const unauthorized = await mockRequest(BASE, 'GET', '/merchant_api/v1/orders', undefined, null);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toEqual({ success: false, errors: ['authentication required'] });
  });

  test('a reset fault is a network error', async () => {
    api.injectFault({ path: '/merchant_api/v1/warehouses', reset: true, times: 1 });
    await expect(mockRequest(BASE, 'GET', '/merchant_api/v1/warehouses')).rejects.toThrow(TypeError);
    expect((await mockRequest(BASE, 'GET', '/merchant_api/v1/warehouses')).status).toBe(200);
  });

  test('.handlers returns the same handlers each time', () => {
    expect(api.handlers).toBe(api.handlers);
    expect(api.handlers).toHaveLength(2);
  });

  test('the handlers answer /merchant_api/* and /__mock/* of the base URL, and nothing else', async () => {
    const answered = async (target: string) =>
      (await getResponse(api.handlers, new Request(target, { headers: json }))) !== undefined;
    for (const target of [
      'https://fulfillment.test/merchant_api/v1/warehouses',
      'https://fulfillment.test/merchant_api/v9/nope',
      'https://fulfillment.test/__mock/state',
      'https://fulfillment.test/__mock/faults/1',
    ]) {
      expect(await answered(target), target).toBe(true);
    }
    for (const target of [
      'https://fulfillment.test/',
      'https://fulfillment.test/other',
      'https://fulfillment.test/merchant_apix/v1/skus',
      'https://fulfillment.test/__mockery/state',
      'https://elsewhere.test/merchant_api/v1/warehouses',
      'https://elsewhere.test/__mock/state',
    ]) {
      expect(await answered(target), target).toBe(false);
    }
  });

  test('control routes answer through msw', async () => {
    const added = await mockRequest(BASE, 'POST', '/__mock/faults', {
      path: '/merchant_api/v1/warehouses',
      status: 503,
      times: 1,
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ id: 1 });
    const warehouses = '/merchant_api/v1/warehouses';
    expect((await mockRequest(BASE, 'GET', warehouses)).status).toBe(503);
    expect((await mockRequest(BASE, 'GET', warehouses)).status).toBe(200);
    const state = await mockRequest(BASE, 'GET', '/__mock/state');
    expect(state.body.requests).toHaveLength(2);
    expect((await mockRequest(BASE, 'GET', '/__mock/state', undefined, null)).status).toBe(401);
  });

  test('HEAD answers like GET without a body; a 401 carries WWW-Authenticate', async () => {
    const target = 'https://fulfillment.test/merchant_api/v1/warehouses';
    const get = await fetch(target, { headers: json });
    const head = await fetch(target, { method: 'HEAD', headers: json });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('x-rate-limit-max')).toBe('100');
    expect(await head.text()).toBe('');
    const unauthorized = await fetch(target, { method: 'HEAD' });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer');
    expect(await unauthorized.text()).toBe('');
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

/**
 * The msw face (`faces/msw.ts`) when the optional peer `msw` is missing.
 */
describe('without msw', () => {
  afterEach(() => {
    vi.doUnmock('msw');
    vi.resetModules();
  });

  test('without msw the kit still loads and serves HTTP; only .handlers throws, saying what to install', async () => {
    vi.resetModules();
    vi.doMock('msw', () => {
      throw new Error("Cannot find package 'msw'");
    });
    const { createMockApi } = await import('../../../src/testing/index.js');
    const api = createMockApi({ tokens: ['t'] });
    let error: unknown;
    try {
      void api.handlers;
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /optional peer dependency 'msw' \(v2 or v3\).*npm install --save-dev msw/,
    );
    expect((error as Error).message).toMatch(/Loading msw failed/);
    expect((error as Error).cause).toBeInstanceOf(Error);
    const server = await api.listen();
    try {
      const answer = await mockRequest(server.url, 'GET', '/merchant_api/v1/warehouses', undefined, 't');
      expect(answer.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
