import { describe, expect, it } from 'vitest';
import { FulfillmentClient, RequestValidationError } from '../../src/index.js';
import { createMockApi } from '../../src/testing/index.js';
import {
  restockingShipmentV1Fixture,
  restockingShipmentV2CreateParamsFixture,
  restockingShipmentV2Fixture,
} from '../fixtures/restocking-shipments.js';
import { testClient, useMsw } from '../helpers/msw.js';
import { capture, expectWire } from '../helpers/wire.js';

const server = useMsw();
const client = () => testClient();
const v1Body = {
  warehouse_id: 7,
  estimated_arrival_date: '2025-03-10',
  delivery_option: 'courier' as const,
  tracking_code: '1Z999',
  restocking_shipment_items: [{ sku_id: 48213, announced_quantity: 300 }],
};

describe('restockingShipments.v1', () => {
  it('create POSTs to v1 and parses the shipment', async () => {
    const seen = capture(
      server,
      'post',
      '/merchant_api/v1/restocking_shipments',
      restockingShipmentV1Fixture,
      201,
    );
    const shipment = await client().restockingShipments.v1.create(v1Body);
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'POST',
      path: '/merchant_api/v1/restocking_shipments',
      search: '',
      body: v1Body,
    });
    expect(shipment).toMatchObject({
      id: restockingShipmentV1Fixture.id,
      status: restockingShipmentV1Fixture.status,
      restocking_shipment_items: restockingShipmentV1Fixture.restocking_shipment_items,
    });
  });

  it('create accepts a digit-string warehouse_id', async () => {
    const seen = capture(
      server,
      'post',
      '/merchant_api/v1/restocking_shipments',
      restockingShipmentV1Fixture,
      201,
    );
    await client().restockingShipments.v1.create({ ...v1Body, warehouse_id: '7' });
    expectWire(seen[0], { method: 'POST', path: '/merchant_api/v1/restocking_shipments', search: '' });
    // Sent as given or as a number: both are correct for the API.
    expect(seen[0]!.body).toEqual({ ...v1Body, warehouse_id: expect.toBeOneOf([7, '7']) });
  });

  it('update PUTs the body with the item list', async () => {
    const seen = capture(
      server,
      'put',
      '/merchant_api/v1/restocking_shipments/12',
      restockingShipmentV1Fixture,
    );
    const body = { tracking_code: 'NEW', restocking_shipment_items: [{ sku_id: 1, announced_quantity: 5 }] };
    const shipment = await client().restockingShipments.v1.update(12, body);
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'PUT',
      path: '/merchant_api/v1/restocking_shipments/12',
      search: '',
      body,
    });
    expect(shipment.id).toBe(restockingShipmentV1Fixture.id);
  });

  it('update refuses a body without restocking_shipment_items (it would empty the shipment), sending nothing', async () => {
    const error = (await client()
      // @ts-expect-error: restocking_shipment_items is required on update
      .restockingShipments.v1.update(12, { tracking_code: 'NEW' })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues[0]?.path).toBe('restocking_shipment_items');
    expect(error.issues[0]?.message).toMatch(/remove every item/);
  });

  it('update with [] clears the list on purpose', async () => {
    const seen = capture(
      server,
      'put',
      '/merchant_api/v1/restocking_shipments/12',
      restockingShipmentV1Fixture,
    );
    await client().restockingShipments.v1.update(12, { restocking_shipment_items: [] });
    expectWire(seen[0], {
      method: 'PUT',
      path: '/merchant_api/v1/restocking_shipments/12',
      search: '',
      body: { restocking_shipment_items: [] },
    });
  });

  it('retrieve GETs v1', async () => {
    const seen = capture(
      server,
      'get',
      '/merchant_api/v1/restocking_shipments/12',
      restockingShipmentV1Fixture,
    );
    const shipment = await client().restockingShipments.v1.retrieve('12');
    expect(shipment).toMatchObject({
      id: restockingShipmentV1Fixture.id,
      status: restockingShipmentV1Fixture.status,
    });
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'GET',
      path: '/merchant_api/v1/restocking_shipments/12',
      search: '',
      body: undefined,
    });
  });
});

describe('restockingShipments.v2', () => {
  it('create POSTs to v2 and parses version 2 fields', async () => {
    const seen = capture(
      server,
      'post',
      '/merchant_api/v2/restocking_shipments',
      restockingShipmentV2Fixture,
      201,
    );
    const shipment = await client().restockingShipments.v2.create(restockingShipmentV2CreateParamsFixture);
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'POST',
      path: '/merchant_api/v2/restocking_shipments',
      search: '',
      body: restockingShipmentV2CreateParamsFixture,
    });
    expect(shipment).toMatchObject({ id: restockingShipmentV2Fixture.id, dock: 'D4' });
    expect(shipment.completed_reopens_count).toBe(restockingShipmentV2Fixture.completed_reopens_count);
  });

  it('sends a Date estimated_arrival_date as its UTC calendar date', async () => {
    const seen = capture(
      server,
      'post',
      '/merchant_api/v2/restocking_shipments',
      restockingShipmentV2Fixture,
      201,
    );
    await client().restockingShipments.v2.create({
      ...restockingShipmentV2CreateParamsFixture,
      estimated_arrival_date: new Date('2025-03-10T15:00:00Z'),
    });
    expectWire(seen[0], {
      method: 'POST',
      path: '/merchant_api/v2/restocking_shipments',
      search: '',
      body: { ...restockingShipmentV2CreateParamsFixture, estimated_arrival_date: '2025-03-10' },
    });
  });

  it('refuses an unknown delivery_option and missing required fields', async () => {
    const error = (await client()
      // @ts-expect-error: deliberately wrong
      .restockingShipments.v2.create({ delivery_option: 'drone', restocking_shipment_items: [] })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['delivery_option', 'estimated_arrival_date', 'warehouse_id']),
    );
  });

  it('replace PUTs the whole resource to v2', async () => {
    const seen = capture(
      server,
      'put',
      '/merchant_api/v2/restocking_shipments/3',
      restockingShipmentV2Fixture,
    );
    const shipment = await client().restockingShipments.v2.replace(3, {
      ...restockingShipmentV2CreateParamsFixture,
      priority: true,
    });
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'PUT',
      path: '/merchant_api/v2/restocking_shipments/3',
      search: '',
      body: { ...restockingShipmentV2CreateParamsFixture, priority: true },
    });
    expect(shipment.id).toBe(restockingShipmentV2Fixture.id);
  });

  it('retrieve GETs v2', async () => {
    const seen = capture(
      server,
      'get',
      '/merchant_api/v2/restocking_shipments/3',
      restockingShipmentV2Fixture,
    );
    const shipment = await client().restockingShipments.v2.retrieve(3);
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'GET',
      path: '/merchant_api/v2/restocking_shipments/3',
      search: '',
      body: undefined,
    });
    expect(shipment).toMatchObject({
      id: restockingShipmentV2Fixture.id,
      status: restockingShipmentV2Fixture.status,
      delivery_option: restockingShipmentV2Fixture.delivery_option,
      dock: 'D4',
    });
  });
});

describe('a shipment announced through version 1 without a delivery option', () => {
  it('reads through version 2 with delivery_option null (against the mock)', async () => {
    const api = createMockApi();
    const client = new FulfillmentClient({ apiToken: api.token, baseUrl: api.baseUrl, fetch: api.fetch });
    const sku = await client.skus.create({ merchant_sku_id: 'V1-ONLY', name: 'V1 only' });
    const v1 = await client.restockingShipments.v1.create({
      warehouse_id: 1,
      restocking_shipment_items: [{ sku_id: sku.id, announced_quantity: 2 }],
    });
    expect(v1.delivery_option).toBeNull();
    const v2 = await client.restockingShipments.v2.retrieve(v1.id);
    expect(v2).toMatchObject({ id: v1.id, delivery_option: null, status: 'shipped' });
  });
});
