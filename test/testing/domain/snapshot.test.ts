/**
 * The state snapshot (`domain/snapshot.ts`), read as `api.state`.
 */
import { describe, expect, test } from 'vitest';
import { mockRequest, testApi } from '../helpers.js';

describe('state snapshot', () => {
  test('the state snapshot is a copy', async () => {
    const api = testApi();
    await mockRequest(api, 'POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' });
    const skus = api.state.skus;
    skus[0]!.name = 'changed';
    api.state.warehouses[0]!.name = 'changed';
    expect(api.state.skus[0]!.name).toBe('A');
    expect(api.state.warehouses[0]!.name).toBe('Berlin');
  });
});
