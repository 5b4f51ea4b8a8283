import { describe, expect, test } from 'vitest';
import { ADDRESS, call, createSku, manualClock, orderBody, skuById, stock, testApi } from './helpers.js';

const ORDERS = '/merchant_api/v1/orders';

async function inventory(api: ReturnType<typeof testApi>, skuId: number) {
  const sku = await skuById(api, skuId);
  return {
    total: sku.inventory,
    perWarehouse: Object.fromEntries(
      sku.inventory_per_warehouse.map((w: { warehouse_id: number; reserved: number; stocked: number }) => [
        w.warehouse_id,
        [w.reserved, w.stocked],
      ]),
    ),
  };
}

describe('orders move inventory (stocked = available for sale = on hand − reserved; total = stocked)', () => {
  test('an order moves units from stocked to reserved in the warehouse that has them; cancelling moves them back', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    await stock(api, sku, 5, 2);
    expect((await inventory(api, sku)).total).toEqual({ reserved: 0, stocked: 5, total: 5 });
    await call(api, 'POST', ORDERS, orderBody('O-1', 'A', 3));
    expect(await inventory(api, sku)).toEqual({
      total: { reserved: 3, stocked: 2, total: 2 },
      perWarehouse: { 1: [0, 0], 2: [3, 2], 3: [0, 0] },
    });
    const row = (await skuById(api, sku)).inventory_per_warehouse[1];
    expect(row).toEqual({ warehouse_id: 2, reserved: 3, stocked: 2, total: 2 });
    await call(api, 'PUT', `${ORDERS}/1/cancel`);
    expect((await inventory(api, sku)).total).toEqual({ reserved: 0, stocked: 5, total: 5 });
  });

  test('without enough stock anywhere, the first warehouse holds the reservation; stocked never goes below 0', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    await stock(api, sku, 1, 3);
    await call(api, 'POST', ORDERS, orderBody('O-1', 'A', 2));
    expect((await inventory(api, sku)).perWarehouse).toEqual({ 1: [2, 0], 2: [0, 0], 3: [0, 1] });
    // Stock arriving in warehouse 1 first covers the reservation made there.
    await stock(api, sku, 10, 1);
    expect(await inventory(api, sku)).toEqual({
      total: { reserved: 2, stocked: 9, total: 9 },
      perWarehouse: { 1: [2, 8], 2: [0, 0], 3: [0, 1] },
    });
  });

  test('fulfilling lowers reserved and changes nothing else', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    await stock(api, sku, 10, 1);
    await call(api, 'POST', ORDERS, orderBody('O-1', 'A', 4));
    expect((await inventory(api, sku)).total).toEqual({ reserved: 4, stocked: 6, total: 6 });
    api.fulfillOrder(1);
    expect(await inventory(api, sku)).toEqual({
      total: { reserved: 0, stocked: 6, total: 6 },
      perWarehouse: { 1: [0, 6], 2: [0, 0], 3: [0, 0] },
    });
    // What is left can be sold: a second order reserves it all.
    await call(api, 'POST', ORDERS, orderBody('O-2', 'A', 6));
    expect((await inventory(api, sku)).total).toEqual({ reserved: 6, stocked: 0, total: 0 });
  });

  test('the mock state snapshot shows the same figures as GET /skus', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    await stock(api, sku, 10, 1);
    await call(api, 'POST', ORDERS, orderBody('O-1', 'A', 2));
    expect(api.state.skus[0]!.inventory).toEqual({ reserved: 2, stocked: 8, total: 8 });
    expect(api.state.skus[0]!.inventory).toEqual((await skuById(api, sku)).inventory);
  });

  test('a blocked-country order reserves nothing', async () => {
    const api = testApi({ blockedCountries: ['CH'] });
    const sku = await createSku(api, 'A');
    await stock(api, sku, 10);
    await call(api, 'POST', ORDERS, {
      ...orderBody('O-1', 'A', 4),
      shipping_address: { ...ADDRESS, country_code: 'CH' },
    });
    expect((await inventory(api, sku)).total.reserved).toBe(0);
  });

  test('updating an order re-reserves its new quantities', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    await stock(api, sku, 10);
    await call(api, 'POST', ORDERS, orderBody('O-1', 'A', 4));
    await call(api, 'PATCH', `${ORDERS}/1`, { items: [{ merchant_item_id: 'O-1-1', quantity: 6 }] });
    expect((await inventory(api, sku)).total.reserved).toBe(6);
  });

  test('batch-tracked stock is reserved oldest batch first and shown with include=batches', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A', { batch_tracking_enabled: true });
    await stock(api, sku, 2, 1); // batch 1
    await stock(api, sku, 5, 1); // batch 2
    await call(api, 'POST', ORDERS, orderBody('O-1', 'A', 4));
    const order = await call(api, 'GET', `${ORDERS}/1?include=batches`);
    expect(order.body.items[0].batches).toEqual([
      { name: 'A-B1', tracking_code: 'LOT-000001', expiry_date: null, quantity: 2 },
      { name: 'A-B2', tracking_code: 'LOT-000002', expiry_date: null, quantity: 2 },
    ]);
    const batchQuantities = async () =>
      (await skuById(api, sku)).inventory_batches.map(
        (b: { stocked_quantities: { quantity: number } }) => b.stocked_quantities.quantity,
      );
    // A batch's quantity is what is available for sale in it, like `stocked`.
    expect(await batchQuantities()).toEqual([0, 3]);
    expect((await inventory(api, sku)).total).toEqual({ reserved: 4, stocked: 3, total: 3 });
    const shipment = api.fulfillOrder(1);
    expect(shipment.items[0]!.batches).toHaveLength(2);
    expect(await batchQuantities()).toEqual([0, 3]);
    expect((await inventory(api, sku)).total).toEqual({ reserved: 0, stocked: 3, total: 3 });
  });
});

describe('shipments', () => {
  test('fulfillOrder creates a shipment record listed by GET /shipments', async () => {
    const clock = manualClock('2025-04-01T12:00:00.000Z');
    const api = testApi({ now: clock.now });
    const sku = await createSku(api, 'A');
    await call(api, 'POST', ORDERS, orderBody('O-1', 'A', 2, { carrier_preference: 'UPS' }));
    const shipment = api.fulfillOrder(1);
    expect(shipment).toEqual({
      id: 1,
      order_id: 1,
      merchant_order_id: 'O-1',
      created_at: '2025-04-01T12:00:00.000Z',
      shipped_at: '2025-04-01T12:00:00.000Z',
      delivered_at: null,
      shipment_provider: 'UPS',
      status: 'shipped',
      delivery_status: 'In transit',
      items: [
        {
          id: 1,
          merchant_item_id: 'O-1-1',
          quantity: 2,
          sku: { id: sku, sku_code: 'A' },
          batches: [],
          serial_numbers: [],
        },
      ],
    });
    const list = await call(api, 'GET', '/merchant_api/v1/shipments');
    expect(list.body).toEqual({
      data: [shipment],
      pagination: { current_page: 1, page_count: 1, item_count: 1, items_per_page: 20 },
    });
    expect(api.state.shipments).toEqual([shipment]);
  });
});

describe('returns', () => {
  test('createReturn records a return of a fulfilled order, readable by GET /returns and /returns/{id}', async () => {
    const clock = manualClock('2025-04-02T12:00:00.000Z');
    const api = testApi({ now: clock.now });
    const sku = await createSku(api, 'A');
    await call(api, 'POST', ORDERS, orderBody('O-1', 'A', 3, { customer_order_number: 'C-1' }));
    expect(() => api.createReturn(1)).toThrow(/only fulfilled orders can be returned/);
    api.fulfillOrder(1);
    const record = api.createReturn(1, {
      items: [{ merchant_sku_id: 'A', quantity: 1, reason: 'too small' }],
    });
    expect(record).toEqual({
      id: 1,
      status: 'on_the_way',
      carrier: 'DHL',
      tracking_code: 'RT00000001',
      tracking_url: 'https://tracking.example/RT00000001',
      created_at: '2025-04-02T12:00:00.000Z',
      received_at: null,
      started_processing_at: null,
      completed_handling_at: null,
      order: { id: 1, merchant_order_id: 'O-1', customer_order_number: 'C-1' },
      photos: [],
      return_reason: 'customer_return',
      return_reason_type: 'active',
      return_items: [
        {
          id: 1,
          quantity: 1,
          sku: { id: sku, sku_code: 'A' },
          customer_return_reason: 'too small',
          customer_return_message: null,
        },
      ],
      return_line_items: [],
    });
    expect((await call(api, 'GET', '/merchant_api/v1/returns/1')).body).toEqual(record);
    const passive = api.createReturn(1, { reason: 'not_picked_up' });
    expect(passive).toMatchObject({ return_reason: 'not_picked_up', return_reason_type: 'passive' });
    expect(passive.return_items[0]!.quantity).toBe(3);
    const list = await call(api, 'GET', '/merchant_api/v1/returns');
    expect(list.body.data.map((r: { id: number }) => r.id)).toEqual([2, 1]);
  });

  test('return items must belong to the order and not exceed its quantity', async () => {
    const api = testApi();
    await createSku(api, 'A');
    await call(api, 'POST', ORDERS, orderBody('O-1', 'A', 1));
    api.fulfillOrder(1);
    expect(() => api.createReturn(1, { items: [{ merchant_sku_id: 'B', quantity: 1 }] })).toThrow(
      /no item of SKU B/,
    );
    expect(() => api.createReturn(1, { items: [{ merchant_sku_id: 'A', quantity: 2 }] })).toThrow(
      /from 1 to 1/,
    );
    expect(() => api.createReturn(9)).toThrow(/No order with id 9/);
  });
});
