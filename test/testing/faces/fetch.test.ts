/**
 * The Fetch API face (`faces/fetch.ts`): `api.fetch` and `api.handle`.
 */
import { describe, expect, test } from 'vitest';
import { FulfillmentClient } from '../../../src/index.js';
import { createMockApi } from '../../../src/testing/index.js';
import { mockRequest, TOKEN } from '../helpers.js';

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

  test('a base URL with a path prefix is honoured by api.fetch / handle', async () => {
    const api = createMockApi({ tokens: [TOKEN], baseUrl: 'https://example.test/api/' });
    expect(api.baseUrl).toBe('https://example.test/api');
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/warehouses')).status).toBe(200);
  });
});
