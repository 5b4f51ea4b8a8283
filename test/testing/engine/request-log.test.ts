/**
 * The request log (`engine/request-log.ts`), read as `api.state.requests`.
 */
import { describe, expect, test } from 'vitest';
import { mockRequest, testApi } from '../helpers.js';

describe('request log', () => {
  test('state.requests records method, path, query, body and status', async () => {
    const api = testApi();
    await mockRequest(api, 'GET', '/merchant_api/v1/skus?page=2');
    await mockRequest(api, 'POST', '/merchant_api/v1/skus', { name: '' });
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
    for (let i = 0; i < 1005; i++) await mockRequest(api, 'GET', `/merchant_api/v1/warehouses?page=${i + 1}`);
    const log = api.state.requests;
    expect(log).toHaveLength(1000);
    expect(log[0]!.query).toBe('page=6');
  });
});
