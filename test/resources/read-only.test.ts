import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/index.js';
import { returnFixture } from '../fixtures/returns.js';
import { shipmentFixture, shipmentUnknownStatusFixture } from '../fixtures/shipments.js';
import { warehousesFixture } from '../fixtures/warehouses.js';
import { testClient, useMsw } from '../helpers/msw.js';
import { capture } from '../helpers/wire.js';

const server = useMsw();
const page = (data: unknown[]) => ({
  data,
  pagination: { current_page: 1, page_count: 1, item_count: data.length, items_per_page: 20 },
});

describe('shipments.list', () => {
  it('GETs /shipments and parses items with merchant_item_id, batches and serial numbers', async () => {
    const seen = capture(
      server,
      'get',
      '/merchant_api/v1/shipments',
      page([shipmentFixture, shipmentUnknownStatusFixture]),
    );
    const result = await testClient().shipments.list({ limit: 5 });
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/merchant_api/v1/shipments', search: '?limit=5' });
    expect(result.data[0]).toMatchObject({ id: shipmentFixture.id, items: expect.any(Array) });
    expect(result.data[1]?.status).toBe(shipmentUnknownStatusFixture.status);
  });

  it('rejects an unknown status in strict mode', async () => {
    capture(server, 'get', '/merchant_api/v1/shipments', page([shipmentUnknownStatusFixture]));
    const error = await testClient({ validateResponses: 'strict' })
      .shipments.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.path).toMatch(/^\[0\]\.status$|status/);
  });
});

describe('returns', () => {
  it('list GETs /returns', async () => {
    const seen = capture(server, 'get', '/merchant_api/v1/returns', page([returnFixture]));
    const result = await testClient().returns.list();
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/merchant_api/v1/returns', search: '' });
    expect(result.data[0]?.id).toBe(returnFixture.id);
  });

  it('retrieve GETs /returns/{id}', async () => {
    const seen = capture(server, 'get', `/merchant_api/v1/returns/${returnFixture.id}`, returnFixture);
    const ret = await testClient().returns.retrieve(returnFixture.id);
    expect(seen[0]!.method).toBe('GET');
    expect(ret.order).toMatchObject(returnFixture.order as object);
  });
});

describe('warehouses.list', () => {
  it('GETs /warehouses and keeps every field', async () => {
    capture(server, 'get', '/merchant_api/v1/warehouses', page(warehousesFixture));
    const result = await testClient().warehouses.list();
    expect(result.data).toEqual(warehousesFixture);
  });
});

describe('response validation modes', () => {
  it('lenient: a wrong type is a ResponseValidationError with the raw body and the issues', async () => {
    const body = page([{ ...shipmentFixture, id: 'not-a-number' }]);
    capture(server, 'get', '/merchant_api/v1/shipments', body);
    const error = (await testClient()
      .shipments.list()
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.body).toEqual(body.data);
    expect(error.issues.map((i) => i.path)).toContain('[0].id');
  });

  it('off: returns the body unchecked', async () => {
    const body = page([{ id: 'not-a-number' }]);
    capture(server, 'get', '/merchant_api/v1/shipments', body);
    const result = await testClient({ validateResponses: 'off' }).shipments.list();
    expect(result.data).toEqual(body.data);
  });
});
