import { describe, expect, it } from 'vitest';
import { warehousesFixture } from '../fixtures/warehouses.js';
import { testClient, useMsw } from '../helpers/msw.js';
import { capture, expectWire } from '../helpers/wire.js';

const server = useMsw();
const PATH = '/merchant_api/v1/warehouses';
const page = (data: unknown[]) => ({
  data,
  pagination: { current_page: 1, page_count: 1, item_count: data.length, items_per_page: 20 },
});

describe('warehouses.list', () => {
  it('GETs /warehouses and keeps every field', async () => {
    const seen = capture(server, 'get', PATH, page(warehousesFixture));
    const result = await testClient().warehouses.list();
    expect(seen).toHaveLength(1);
    expectWire(seen[0], { method: 'GET', path: PATH, search: '', body: undefined });
    expect(result.data).toEqual(warehousesFixture);
    expect(result.hasNextPage()).toBe(false);
  });

  it('sends limit and page', async () => {
    const seen = capture(server, 'get', PATH, page(warehousesFixture));
    await testClient().warehouses.list({ limit: 2, page: 4 });
    expect(seen).toHaveLength(1);
    expectWire(seen[0], { method: 'GET', path: PATH, search: '?limit=2&page=4', body: undefined });
  });

  it('accepts a bare JSON array', async () => {
    const seen = capture(server, 'get', PATH, warehousesFixture);
    const result = await testClient().warehouses.list();
    expectWire(seen[0], { method: 'GET', path: PATH, search: '', body: undefined });
    expect(result.data).toEqual(warehousesFixture);
    expect(result.pagination).toBeNull();
  });
});
