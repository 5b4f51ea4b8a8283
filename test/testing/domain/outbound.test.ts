/**
 * Outbound records (`domain/outbound.ts`): shipments of fulfilled orders and returns.
 */
import { describe, expect, test } from 'vitest';
import { createSku, manualClock, mockRequest, orderBody, testApi } from '../helpers.js';

const ORDERS = '/merchant_api/v1/orders';

describe('shipments', () => {
  test('fulfillOrder creates a shipment record listed by GET /shipments', async () => {
    const clock = manualClock('2025-04-01T12:00:00.000Z');
    const api = testApi({ now: clock.now });
    const sku = await createSku(api, 'A');
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A', 2, { carrier_preference: 'UPS' }));
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
    const list = await mockRequest(api, 'GET', '/merchant_api/v1/shipments');
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
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A', 3, { customer_order_number: 'C-1' }));
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
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/returns/1')).body).toEqual(record);
    const passive = api.createReturn(1, { reason: 'not_picked_up' });
    expect(passive).toMatchObject({ return_reason: 'not_picked_up', return_reason_type: 'passive' });
    expect(passive.return_items[0]!.quantity).toBe(3);
    const list = await mockRequest(api, 'GET', '/merchant_api/v1/returns');
    expect(list.body.data.map((r: { id: number }) => r.id)).toEqual([2, 1]);
  });

  test('return items must belong to the order and not exceed its quantity', async () => {
    const api = testApi();
    await createSku(api, 'A');
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A', 1));
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
