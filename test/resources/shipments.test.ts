import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/index.js';
import { shipmentFixture, shipmentUnknownStatusFixture } from '../fixtures/shipments.js';
import { testClient, useMsw } from '../helpers/msw.js';
import { capture, expectWire } from '../helpers/wire.js';

const server = useMsw();
const PATH = '/merchant_api/v1/shipments';
const page = (data: unknown[]) => ({
  data,
  pagination: { current_page: 1, page_count: 1, item_count: data.length, items_per_page: 20 },
});

describe('shipments.list', () => {
  it('GETs /shipments and parses items with merchant_item_id, batches and serial numbers', async () => {
    const seen = capture(server, 'get', PATH, page([shipmentFixture, shipmentUnknownStatusFixture]));
    const result = await testClient().shipments.list({ limit: 5 });
    expect(seen).toHaveLength(1);
    expectWire(seen[0], { method: 'GET', path: PATH, search: '?limit=5', body: undefined });
    expect(result.data).toHaveLength(2);
    const [shipped, unknown] = result.data;
    expect(shipped).toMatchObject({
      id: shipmentFixture.id,
      order_id: shipmentFixture.order_id,
      status: 'shipped',
      delivered_at: null,
      tracking_code: shipmentFixture.tracking_code,
    });
    expect(shipped?.items).toEqual(shipmentFixture.items);
    expect(shipped?.items?.[0]).toMatchObject({
      merchant_item_id: 'A-1001-1',
      batches: [{ name: 'L-2024-11', quantity: 2 }],
      serial_numbers: [{ serial_number: 'SN-0001' }, { serial_number: 'SN-0002' }],
    });
    // An unknown status is kept in the default (lenient) mode.
    expect(unknown).toMatchObject({ id: shipmentUnknownStatusFixture.id, status: 'in_customs', items: [] });
    expect(result.pagination).toEqual({ current_page: 1, page_count: 1, item_count: 2, items_per_page: 20 });
  });

  it('sends created_at bounds and page in the API encoding', async () => {
    const seen = capture(server, 'get', PATH, page([shipmentFixture]));
    await testClient().shipments.list({
      created_at: { gte: new Date('2025-01-01T00:00:00Z'), lt: '2025-02-01' },
      page: 3,
      limit: 50,
    });
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'GET',
      path: PATH,
      search: '?created_at[gte]=2025-01-01T00%3A00%3A00.000Z&created_at[lt]=2025-02-01&limit=50&page=3',
      body: undefined,
    });
  });

  it('sends no query string without params', async () => {
    const seen = capture(server, 'get', PATH, page([]));
    const result = await testClient().shipments.list();
    expectWire(seen[0], { method: 'GET', path: PATH, search: '', body: undefined });
    expect(result.data).toEqual([]);
  });

  it('refuses a bad limit before sending', async () => {
    const seen = capture(server, 'get', PATH, page([]));
    const error = await testClient()
      .shipments.list({ limit: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toBe('limit');
    expect(seen).toHaveLength(0);
  });
});
