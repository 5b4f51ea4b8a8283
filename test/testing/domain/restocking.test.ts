/**
 * Restocking shipment rules (`domain/restocking.ts`): both versions, the edit window, the status
 * machine and the stock it adds.
 */
import { describe, expect, test } from 'vitest';
import { createSku, manualClock, mockRequest, skuById, testApi } from '../helpers.js';

const V1 = '/merchant_api/v1/restocking_shipments';
const V2 = '/merchant_api/v2/restocking_shipments';

function v2Body(skuId: number, extra: Record<string, unknown> = {}) {
  return {
    warehouse_id: 2,
    delivery_option: 'postal',
    estimated_arrival_date: '2025-03-01',
    restocking_shipment_items: [
      { sku_id: skuId, announced_quantity: 10, remarks: 'fragile', total_cost_in_cents: 5000 },
    ],
    ...extra,
  };
}

describe('version 1', () => {
  test('POST creates a shipment with status shipped; GET returns the same view', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    const answer = await mockRequest(api, 'POST', V1, {
      warehouse_id: '1',
      estimated_arrival_date: '2025-03-01T12:30:00Z',
      delivery_option: 'courier',
      tracking_code: 'TRK1',
      restocking_shipment_items: [{ sku_id: sku, announced_quantity: 10 }],
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: 1,
      merchant_id: 1,
      warehouse_id: 1,
      estimated_arrival_date: '2025-03-01',
      delivery_option: 'courier',
      tracking_code: 'TRK1',
      po_number: null,
      supplier_name: null,
      status: 'shipped',
      barcode: 'RS00000001',
      restocking_shipment_items: [
        {
          id: 1,
          sku_id: sku,
          announced_quantity: 10,
          arrived_quantity: null,
          damaged_quantity: null,
          missing_quantity: null,
          inventory_batches: [],
        },
      ],
    });
    expect((await mockRequest(api, 'GET', `${V1}/1`)).body).toEqual(answer.body);
  });

  test('items may name the SKU by merchant_sku_id', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    const answer = await mockRequest(api, 'POST', V1, {
      warehouse_id: 1,
      restocking_shipment_items: [{ merchant_sku_id: 'A', announced_quantity: 1 }],
    });
    expect(answer.body.restocking_shipment_items[0].sku_id).toBe(sku);
  });

  test('validation', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'POST', V1, {
      warehouse_id: 99,
      delivery_option: 'drone',
      estimated_arrival_date: 'next week',
      restocking_shipment_items: [{ sku_id: 12, announced_quantity: 0 }],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      'Warehouse must exist',
      'Estimated arrival date is invalid',
      'Delivery option is not included in the list',
      'Restocking shipment items sku must exist',
      'Restocking shipment items announced quantity must be greater than 0',
    ]);
    expect((await mockRequest(api, 'POST', V1, {})).body.errors).toEqual(["Warehouse can't be blank"]);
  });

  test('PUT keeps omitted top-level fields and replaces the item list', async () => {
    const api = testApi();
    const a = await createSku(api, 'A');
    const b = await createSku(api, 'B');
    await mockRequest(api, 'POST', V1, {
      warehouse_id: 1,
      delivery_option: 'courier',
      tracking_code: 'T1',
      restocking_shipment_items: [{ sku_id: a, announced_quantity: 5 }],
    });
    const answer = await mockRequest(api, 'PUT', `${V1}/1`, {
      tracking_code: 'T2',
      restocking_shipment_items: [{ sku_id: b, announced_quantity: 3 }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      tracking_code: 'T2',
      delivery_option: 'courier',
      warehouse_id: 1,
      status: 'shipped',
    });
    expect(answer.body.restocking_shipment_items).toEqual([
      expect.objectContaining({ sku_id: b, announced_quantity: 3, inventory_batches: [] }),
    ]);
  });

  test('PUT without restocking_shipment_items removes every item (as the real API does)', async () => {
    const api = testApi();
    const a = await createSku(api, 'A');
    await mockRequest(api, 'POST', V1, {
      warehouse_id: 1,
      restocking_shipment_items: [{ sku_id: a, announced_quantity: 5 }],
    });
    const answer = await mockRequest(api, 'PUT', `${V1}/1`, { tracking_code: 'T9' });
    expect(answer.body.restocking_shipment_items).toEqual([]);
    expect(answer.body.tracking_code).toBe('T9');
  });

  test('PUT is allowed only while created or shipped', async () => {
    const api = testApi();
    await mockRequest(api, 'POST', V1, { warehouse_id: 1, restocking_shipment_items: [] });
    api.advanceRestockingShipment(1, 'created');
    expect((await mockRequest(api, 'PUT', `${V1}/1`, { tracking_code: 'x' })).status).toBe(200);
    for (const status of [
      'delivered',
      'arrived',
      'processing',
      'on_hold',
      'restocked',
      'cancelled',
    ] as const) {
      api.advanceRestockingShipment(1, status);
      for (const path of [V1, V2]) {
        const answer = await mockRequest(
          api,
          'PUT',
          `${path}/1`,
          path === V1 ? { tracking_code: 'y' } : v2Body(0),
        );
        expect(answer.status, `${status} ${path}`).toBe(422);
        expect(answer.body).toEqual({
          success: false,
          errors: ['Restocking shipment can only be updated while created or shipped'],
        });
      }
    }
  });
});

describe('version 2', () => {
  test('POST creates a shipment with the version 2 fields', async () => {
    const clock = manualClock('2025-02-01T08:00:00.000Z');
    const api = testApi({ now: clock.now });
    const sku = await createSku(api, 'A');
    const answer = await mockRequest(
      api,
      'POST',
      V2,
      v2Body(sku, { po_number: 'PO-7', supplier_name: 'ACME', priority: true }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: 1,
      warehouse_id: 2,
      delivery_option: 'postal',
      estimated_arrival_date: '2025-03-01',
      po_number: 'PO-7',
      supplier_name: 'ACME',
      tracking_code: null,
      priority: true,
      restocking_shipment_items: [
        {
          id: 1,
          sku_id: sku,
          sku_code: 'A',
          announced_quantity: 10,
          arrived_quantity: null,
          damaged_quantity: null,
          missing_quantity: null,
          remarks: 'fragile',
          total_cost_in_cents: 5000,
          inventory_batch_id: null,
          inventory_batches: [],
        },
      ],
      barcode: 'RS00000001',
      status: 'shipped',
      created_at: '2025-02-01T08:00:00.000Z',
      updated_at: '2025-02-01T08:00:00.000Z',
      arrived_at: null,
      reopened_at: null,
      completed_reopens_count: 0,
    });
  });

  test('items may name the SKU by sku_code', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    const answer = await mockRequest(api, 'POST', V2, {
      ...v2Body(sku),
      restocking_shipment_items: [{ sku_code: 'A', announced_quantity: 2 }],
    });
    expect(answer.body.restocking_shipment_items[0]).toMatchObject({ sku_id: sku, sku_code: 'A' });
  });

  test('required fields', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'POST', V2, {});
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      "Warehouse can't be blank",
      "Estimated arrival date can't be blank",
      "Delivery option can't be blank",
      "Restocking shipment items can't be blank",
    ]);
  });

  test('PUT replaces the whole resource', async () => {
    const clock = manualClock();
    const api = testApi({ now: clock.now });
    const sku = await createSku(api, 'A');
    await mockRequest(
      api,
      'POST',
      V2,
      v2Body(sku, { po_number: 'PO-7', supplier_name: 'ACME', priority: true, tracking_code: 'T' }),
    );
    clock.advance(60_000);
    const answer = await mockRequest(api, 'PUT', `${V2}/1`, {
      warehouse_id: 3,
      delivery_option: 'dropoff',
      estimated_arrival_date: '2025-04-01',
      restocking_shipment_items: [{ sku_id: sku, announced_quantity: 4 }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      warehouse_id: 3,
      delivery_option: 'dropoff',
      po_number: null,
      supplier_name: null,
      tracking_code: null,
      priority: false,
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:01:00.000Z',
    });
    expect(answer.body.restocking_shipment_items).toHaveLength(1);
    expect(answer.body.restocking_shipment_items[0]).toMatchObject({ announced_quantity: 4, remarks: null });
    const missing = await mockRequest(api, 'PUT', `${V2}/1`, { delivery_option: 'dropoff' });
    expect(missing.status).toBe(422);
  });

  test('v1 and v2 views of the same shipment', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    await mockRequest(api, 'POST', V1, {
      warehouse_id: 1,
      restocking_shipment_items: [{ sku_id: sku, announced_quantity: 1 }],
    });
    const pairs = [
      ['created', 'created'],
      ['shipped', 'shipped'],
      ['delivered', 'received'],
      ['arrived', 'arrived'],
      ['processing', 'processing'],
      ['on_hold', 'processing'],
      ['restocked', 'restocked'],
      ['cancelled', 'cancelled'],
    ] as const;
    for (const [v1, v2] of pairs) {
      api.advanceRestockingShipment(1, v1);
      expect((await mockRequest(api, 'GET', `${V1}/1`)).body.status).toBe(v1);
      expect((await mockRequest(api, 'GET', `${V2}/1`)).body.status).toBe(v2);
    }
    api.advanceRestockingShipment(1, 'received');
    expect((await mockRequest(api, 'GET', `${V1}/1`)).body.status).toBe('delivered');
    expect(api.state.restockingShipmentsV2[0]!.status).toBe('received');
  });
});

describe('status machine (advanceRestockingShipment)', () => {
  test('arrived_at is set when the shipment first reaches the warehouse', async () => {
    const clock = manualClock();
    const api = testApi({ now: clock.now });
    await mockRequest(api, 'POST', V2, { ...v2Body(await createSku(api, 'A')) });
    api.advanceRestockingShipment(1, 'shipped');
    clock.set('2025-03-02T09:00:00Z');
    api.advanceRestockingShipment(1, 'received');
    clock.set('2025-03-03T09:00:00Z');
    api.advanceRestockingShipment(1, 'arrived');
    const v2 = (await mockRequest(api, 'GET', `${V2}/1`)).body;
    expect(v2.arrived_at).toBe('2025-03-02T09:00:00.000Z');
    expect(v2.updated_at).toBe('2025-03-03T09:00:00.000Z');
  });

  test('reopen: leaving restocked sets reopened_at; restocking again counts a completed reopen', async () => {
    const clock = manualClock();
    const api = testApi({ now: clock.now });
    await mockRequest(api, 'POST', V2, v2Body(await createSku(api, 'A')));
    const view = async () => (await mockRequest(api, 'GET', `${V2}/1`)).body;
    api.advanceRestockingShipment(1, 'restocked');
    expect(await view()).toMatchObject({ reopened_at: null, completed_reopens_count: 0 });
    clock.set('2025-05-01T00:00:00Z');
    api.advanceRestockingShipment(1, 'processing');
    expect(await view()).toMatchObject({
      status: 'processing',
      reopened_at: '2025-05-01T00:00:00.000Z',
      completed_reopens_count: 0,
    });
    api.advanceRestockingShipment(1, 'arrived');
    api.advanceRestockingShipment(1, 'restocked');
    expect(await view()).toMatchObject({ status: 'restocked', completed_reopens_count: 1 });
    clock.set('2025-06-01T00:00:00Z');
    api.advanceRestockingShipment(1, 'arrived');
    api.advanceRestockingShipment(1, 'restocked');
    expect(await view()).toMatchObject({
      reopened_at: '2025-06-01T00:00:00.000Z',
      completed_reopens_count: 2,
    });
  });

  test('the same status is no change; unknown ids and statuses throw', async () => {
    const api = testApi({
      webhooks: ['http://127.0.0.1:9/never'],
      webhookFetch: async () => new Response(null, { status: 204 }),
    });
    await mockRequest(api, 'POST', V1, { warehouse_id: 1, restocking_shipment_items: [] });
    api.advanceRestockingShipment(1, 'shipped');
    expect(api.deliveries).toEqual([]);
    expect(() => api.advanceRestockingShipment(1, 'lost' as 'shipped')).toThrow(
      /^advanceRestockingShipment: status: Invalid option: expected one of "created"\|.*"cancelled"$/,
    );
    expect(() => api.advanceRestockingShipment(7, 'arrived')).toThrow(/No restocking shipment with id 7/);
    expect(() => api.advanceRestockingShipment(1, 'arrived', { arrived: 1 })).toThrow(
      /only when moving to 'restocked'/,
    );
    expect(() => api.advanceRestockingShipment(1, 'restocked', { arrived: -1 })).toThrow(
      new TypeError('advanceRestockingShipment: quantities.arrived: Too small: expected number to be >=0'),
    );
    // A figure that is not a number: refused, never echoed.
    expect(() =>
      api.advanceRestockingShipment(1, 'restocked', { damaged: { 1: 'sk_live_x' } } as never),
    ).toThrow(
      new TypeError(
        'advanceRestockingShipment: quantities.damaged: must be an integer >= 0 or an object of such integers keyed by sku id',
      ),
    );
    expect(() => api.advanceRestockingShipment(1, 'restocked', 3 as never)).toThrow(
      new TypeError('advanceRestockingShipment: quantities: Invalid input: expected object, received number'),
    );
    expect(api.state.restockingShipments[0]!.status).toBe('shipped');
  });
});

describe('stock from restocking', () => {
  test('restocked adds announced − damaged − missing to stocked in the warehouse; items carry the figures', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    await mockRequest(api, 'POST', V2, v2Body(sku)); // 10 announced into warehouse 2
    expect((await skuById(api, sku)).inventory.stocked).toBe(0);
    const v1 = api.advanceRestockingShipment(1, 'restocked', { damaged: 1, missing: { [sku]: 2 } });
    expect(v1.restocking_shipment_items[0]).toMatchObject({
      arrived_quantity: 7,
      damaged_quantity: 1,
      missing_quantity: 2,
    });
    const view = await skuById(api, sku);
    expect(view.inventory).toEqual({ reserved: 0, stocked: 7, total: 7 });
    expect(view.inventory_per_warehouse).toEqual([
      { warehouse_id: 1, reserved: 0, stocked: 0, total: 0 },
      { warehouse_id: 2, reserved: 0, stocked: 7, total: 7 },
      { warehouse_id: 3, reserved: 0, stocked: 0, total: 0 },
    ]);
  });

  test('by default everything announced arrives; an explicit arrived sets missing to the rest', async () => {
    const api = testApi();
    const a = await createSku(api, 'A');
    const b = await createSku(api, 'B');
    await mockRequest(api, 'POST', V1, {
      warehouse_id: 1,
      restocking_shipment_items: [
        { sku_id: a, announced_quantity: 10 },
        { sku_id: b, announced_quantity: 4 },
      ],
    });
    const v1 = api.advanceRestockingShipment(1, 'restocked', { arrived: { [a]: 8 } });
    expect(
      v1.restocking_shipment_items.map((i) => [i.arrived_quantity, i.damaged_quantity, i.missing_quantity]),
    ).toEqual([
      [8, 0, 2],
      [4, 0, 0],
    ]);
    expect((await skuById(api, a)).inventory.stocked).toBe(8);
    expect((await skuById(api, b)).inventory.stocked).toBe(4);
  });

  test('restocking again after a reopen moves only the difference', async () => {
    const api = testApi();
    const a = await createSku(api, 'A');
    await mockRequest(api, 'POST', V1, {
      warehouse_id: 1,
      restocking_shipment_items: [{ sku_id: a, announced_quantity: 10 }],
    });
    api.advanceRestockingShipment(1, 'restocked', { arrived: 6 });
    api.advanceRestockingShipment(1, 'processing');
    expect((await skuById(api, a)).inventory.stocked).toBe(6);
    api.advanceRestockingShipment(1, 'restocked');
    expect((await skuById(api, a)).inventory.stocked).toBe(6); // figures kept
    api.advanceRestockingShipment(1, 'processing');
    api.advanceRestockingShipment(1, 'restocked', { arrived: 9 });
    expect((await skuById(api, a)).inventory.stocked).toBe(9);
  });

  test('batch-tracked SKUs get an inventory batch, shown on the SKU and the item', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A', { batch_tracking_enabled: true });
    await mockRequest(api, 'POST', V2, v2Body(sku));
    const v1 = api.advanceRestockingShipment(1, 'restocked', { arrived: 9 });
    const batches = v1.restocking_shipment_items[0]!.inventory_batches;
    expect(batches).toEqual([
      { id: 1, name: 'A-B1', tracking_code: 'LOT-000001', expiry_date: null, arrived_quantity: 9 },
    ]);
    const view = await skuById(api, sku);
    expect(view.inventory_batches).toEqual([
      {
        id: 1,
        name: 'A-B1',
        tracking_code: 'LOT-000001',
        expiry_date: null,
        stocked_quantities: { warehouse_id: 2, quantity: 9 },
      },
    ]);
    expect(
      (await mockRequest(api, 'GET', `${V2}/1`)).body.restocking_shipment_items[0].inventory_batch_id,
    ).toBe(1);
  });

  test('an item announced for an existing batch restocks into it; batches must match SKU and warehouse', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A', { batch_tracking_enabled: true });
    await mockRequest(api, 'POST', V2, v2Body(sku));
    api.advanceRestockingShipment(1, 'restocked', { arrived: 5 });
    const again = await mockRequest(api, 'POST', V2, {
      ...v2Body(sku),
      restocking_shipment_items: [{ sku_id: sku, announced_quantity: 3, inventory_batch_id: 1 }],
    });
    expect(again.status).toBe(201);
    api.advanceRestockingShipment(again.body.id, 'restocked');
    const view = await skuById(api, sku);
    expect(view.inventory_batches).toHaveLength(1);
    expect(view.inventory_batches[0].stocked_quantities).toEqual({ warehouse_id: 2, quantity: 8 });
    const wrongWarehouse = await mockRequest(api, 'POST', V2, {
      ...v2Body(sku, { warehouse_id: 1 }),
      restocking_shipment_items: [{ sku_id: sku, announced_quantity: 3, inventory_batch_id: 1 }],
    });
    expect(wrongWarehouse.body.errors).toEqual(['Restocking shipment items inventory batch must exist']);
  });
});
