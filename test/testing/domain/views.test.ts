/**
 * The views (`domain/views.ts`) against the SDK's own schemas: every body the mock answers must
 * pass the SDK client's response validation, with no enum value the SDK does not know.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { FulfillmentClient, UnprocessableEntityError, verifyWebhook } from '../../../src/index.js';
import { createMockApi } from '../../../src/testing/index.js';
import { ADDRESS } from '../helpers.js';

/**
 * The SDK's own client against the mock: every body the mock answers must match the SDK's schemas,
 * and no enum value may be unknown to them (the client warns about each).
 */
describe('the SDK client against the mock (no unknown enum value)', () => {
  // Each unknown enum value is a warn line of the client: there must be none.
  const warnings: unknown[] = [];
  afterEach(() => {
    expect(warnings.splice(0)).toEqual([]);
  });

  function setup() {
    const received: { body: string; headers: Headers }[] = [];
    const api = createMockApi({
      webhooks: ['https://shop.example/hooks'],
      webhookFetch: async (_url, init) => {
        received.push({ body: String(init.body), headers: new Headers(init.headers) });
        return new Response(null, { status: 204 });
      },
    });
    const client = new FulfillmentClient({
      apiToken: api.token,
      baseUrl: api.baseUrl,
      fetch: api.fetch,
      logLevel: 'warn',
      logger: { error() {}, warn: (...line: unknown[]) => void warnings.push(line), info() {}, debug() {} },
    });
    return { api, client, received };
  }

  test('a whole flow: catalogue, restocking, webhook, order, fulfilment, return', async () => {
    const { api, client, received } = setup();
    const result = await client.skus.bulkUpsert([
      { name: 'Shirt', merchant_sku_id: 'SHIRT', batch_tracking_enabled: true },
      { name: 'Mug', merchant_sku_id: 'MUG' },
    ]);
    expect(result.written).toBe(2);
    const [shirt, mug] = result.skus!;

    const inbound = await client.restockingShipments.v2.create({
      warehouse_id: 1,
      delivery_option: 'courier',
      estimated_arrival_date: '2025-03-01',
      restocking_shipment_items: [
        { sku_id: shirt!.id, announced_quantity: 10 },
        { sku_code: 'MUG', announced_quantity: 5 },
      ],
    });
    expect(inbound.status).toBe('shipped');
    api.advanceRestockingShipment(inbound.id, 'received');
    api.advanceRestockingShipment(inbound.id, 'restocked');
    await api.flushWebhooks();
    expect(received).toHaveLength(2);
    const event = await verifyWebhook({
      body: received[1]!.body,
      headers: received[1]!.headers,
      secret: api.token,
    });
    expect(event.data.status).toBe('restocked');
    expect((await client.restockingShipments.v1.retrieve(inbound.id)).status).toBe('restocked');
    expect((await client.restockingShipments.v2.retrieve(inbound.id)).completed_reopens_count).toBe(0);

    const stocked = await client.skus.retrieveByMerchantSkuId('SHIRT');
    expect(stocked?.inventory).toEqual({ reserved: 0, stocked: 10, total: 10 });
    expect(stocked?.inventory_batches).toHaveLength(1);

    const order = await client.orders.create({
      merchant_order_id: 'A-1001',
      shipping_address: ADDRESS,
      items: [
        { merchant_item_id: '1', sku_id: shirt!.id, quantity: 2, price_per_unit_in_cents: 1500 },
        { merchant_item_id: '2', merchant_sku_id: 'MUG', quantity: 1, price_per_unit_in_cents: 900 },
      ],
    });
    expect(order.status).toBe('fulfillable');
    const withBatches = await client.orders.retrieve(order.id, { include: ['batches'] });
    expect(withBatches.items[0]?.batches).toHaveLength(1);
    expect((await client.skus.retrieveByMerchantSkuId('MUG'))?.inventory?.reserved).toBe(1);

    api.fulfillOrder(order.id);
    const shipments = await client.shipments.list();
    expect(shipments.data[0]?.items?.map((i) => i.merchant_item_id)).toEqual(['1', '2']);
    const returned = api.createReturn(order.id, { items: [{ sku_id: mug!.id, quantity: 1 }] });
    expect((await client.returns.retrieve(returned.id)).return_items).toHaveLength(1);
    expect((await client.returns.list()).data).toHaveLength(1);
    expect((await client.warehouses.list()).data).toHaveLength(3);
  });

  test('422 answers surface as the SDK error with the mock messages', async () => {
    const { client } = setup();
    await client.skus.create({ name: 'Mug', merchant_sku_id: 'MUG' });
    const error = await client.skus.create({ name: 'Mug', merchant_sku_id: 'MUG' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(String((error as Error).message)).toMatch(/Merchant sku has already been taken/);
  });

  test('for await pages through a collection', async () => {
    const { client } = setup();
    await client.skus.bulkUpsert(
      Array.from({ length: 45 }, (_, i) => ({ name: `S${i}`, merchant_sku_id: `S${i}` })),
    );
    const codes: string[] = [];
    for await (const sku of client.skus.list({ limit: 20 })) codes.push(sku.merchant_sku_id!);
    expect(codes).toHaveLength(45);
    expect(codes[0]).toBe('S44');
  });
});
