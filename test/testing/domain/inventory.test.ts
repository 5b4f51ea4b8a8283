/**
 * Inventory movements (`domain/inventory.ts`): what orders, cancelling, fulfilling and restocking do
 * to `reserved` and `stocked`, per warehouse and per batch.
 */
import { describe, expect, test } from 'vitest';
import { ADDRESS, createSku, mockRequest, orderBody, skuById, stock, testApi } from '../helpers.js';

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
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A', 3));
    expect(await inventory(api, sku)).toEqual({
      total: { reserved: 3, stocked: 2, total: 2 },
      perWarehouse: { 1: [0, 0], 2: [3, 2], 3: [0, 0] },
    });
    const row = (await skuById(api, sku)).inventory_per_warehouse[1];
    expect(row).toEqual({ warehouse_id: 2, reserved: 3, stocked: 2, total: 2 });
    await mockRequest(api, 'PUT', `${ORDERS}/1/cancel`);
    expect((await inventory(api, sku)).total).toEqual({ reserved: 0, stocked: 5, total: 5 });
  });

  test('without enough stock anywhere, the first warehouse holds the reservation; stocked never goes below 0', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    await stock(api, sku, 1, 3);
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A', 2));
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
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A', 4));
    expect((await inventory(api, sku)).total).toEqual({ reserved: 4, stocked: 6, total: 6 });
    api.fulfillOrder(1);
    expect(await inventory(api, sku)).toEqual({
      total: { reserved: 0, stocked: 6, total: 6 },
      perWarehouse: { 1: [0, 6], 2: [0, 0], 3: [0, 0] },
    });
    // What is left can be sold: a second order reserves it all.
    await mockRequest(api, 'POST', ORDERS, orderBody('O-2', 'A', 6));
    expect((await inventory(api, sku)).total).toEqual({ reserved: 6, stocked: 0, total: 0 });
  });

  test('the mock state snapshot shows the same figures as GET /skus', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    await stock(api, sku, 10, 1);
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A', 2));
    expect(api.state.skus[0]!.inventory).toEqual({ reserved: 2, stocked: 8, total: 8 });
    expect(api.state.skus[0]!.inventory).toEqual((await skuById(api, sku)).inventory);
  });

  test('a blocked-country order reserves nothing', async () => {
    const api = testApi({ blockedCountries: ['CH'] });
    const sku = await createSku(api, 'A');
    await stock(api, sku, 10);
    await mockRequest(api, 'POST', ORDERS, {
      ...orderBody('O-1', 'A', 4),
      shipping_address: { ...ADDRESS, country_code: 'CH' },
    });
    expect((await inventory(api, sku)).total.reserved).toBe(0);
  });

  test('updating an order re-reserves its new quantities', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A');
    await stock(api, sku, 10);
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A', 4));
    await mockRequest(api, 'PATCH', `${ORDERS}/1`, { items: [{ merchant_item_id: 'O-1-1', quantity: 6 }] });
    expect((await inventory(api, sku)).total.reserved).toBe(6);
  });

  test('batch-tracked stock is reserved oldest batch first and shown with include=batches', async () => {
    const api = testApi();
    const sku = await createSku(api, 'A', { batch_tracking_enabled: true });
    await stock(api, sku, 2, 1); // batch 1
    await stock(api, sku, 5, 1); // batch 2
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A', 4));
    const order = await mockRequest(api, 'GET', `${ORDERS}/1?include=batches`);
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
