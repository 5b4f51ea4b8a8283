import { describe, expect, it } from 'vitest';
import { parseResponse, validateRequest } from '../../src/core/validation.js';
import { listEnvelopeSchema } from '../../src/schemas/envelope.js';
import { ShipmentListParamsSchema, ShipmentSchema } from '../../src/schemas/shipments.js';
import { shipmentFixture, shipmentUnknownStatusFixture } from '../fixtures/shipments.js';
import { parseKnown, requestIssues, responseIssues, strictIssues } from './helpers.js';

const ShipmentPageSchema = listEnvelopeSchema(ShipmentSchema);

describe('ShipmentSchema (response)', () => {
  it('parses a shipment with sku refs, batches, serial numbers and an add-on item', () => {
    const shipment = parseKnown(ShipmentSchema, shipmentFixture);
    expect(shipment.tracking_code).toBe('00340434161094042999');
    expect(shipment.items?.[0]?.sku).toEqual({ id: 48213, sku_code: 'LAMP-OIL-500' });
    expect(shipment.items?.[0]?.batches?.[0]?.quantity).toBe(2);
    expect(shipment.items?.[0]?.serial_numbers?.map((s) => s.serial_number)).toEqual(['SN-0001', 'SN-0002']);
    expect(shipment.items?.[1]?.merchant_item_id).toBeNull();
  });

  it('keeps an unknown status in lenient mode and rejects it in strict mode', () => {
    expect(parseResponse(ShipmentSchema, shipmentUnknownStatusFixture, 'lenient').status).toBe('in_customs');
    expect(strictIssues(ShipmentSchema, shipmentUnknownStatusFixture)).toEqual([
      {
        path: 'status',
        message:
          "expected one of 'waiting_for_picking', 'on_hold', 'picking_assigned', 'in_picking', 'picked', 'in_packing', 'packed', 'in_shipping', 'shipped', 'cancelled'",
      },
    ]);
  });

  it('accepts a shipment with only id, status and items, filling the rest with null', () => {
    const shipment = parseKnown(ShipmentSchema, { id: 1, status: 'packed', items: [] });
    expect(shipment).toEqual({
      id: 1,
      status: 'packed',
      items: [],
      order_id: null,
      merchant_order_id: null,
      created_at: null,
      shipped_at: null,
      delivered_at: null,
      shipment_provider: null,
      delivery_status: null,
    });
  });

  it.each([
    ['id as a string', { id: '330190' }, 'id'],
    ['status as a number', { status: 9 }, 'status'],
    ['item without id', { items: [{ quantity: 1 }] }, 'items[0].id'],
    ['sku ref without id', { items: [{ id: 1, sku: { sku_code: 'X' } }] }, 'items[0].sku.id'],
    [
      'serial number as a number',
      { items: [{ id: 1, serial_numbers: [{ serial_number: 5 }] }] },
      'items[0].serial_numbers[0].serial_number',
    ],
  ])('rejects %s', (_label, patch, path) => {
    expect(responseIssues(ShipmentSchema, { ...shipmentFixture, ...patch }).map((i) => i.path)).toContain(
      path,
    );
  });

  it('parses a page in the cursor envelope', () => {
    const page = parseKnown(ShipmentPageSchema, {
      data: [shipmentFixture],
      pagination: { first_page_url: 'https://api.example.com/x?limit=20', next_page_url: null, limit: 20 },
    });
    expect(page.data[0]?.id).toBe(330190);
    expect(page.pagination?.next_page_url).toBeNull();
  });
});

describe('ShipmentListParamsSchema', () => {
  it('accepts limit, page and created_at, and passes unknown keys through', () => {
    const params = { limit: 10, page: 3, created_at: { gte: '2025-01-01T00:00:00Z' }, status: 'shipped' };
    expect(validateRequest(ShipmentListParamsSchema, params)).toEqual(params);
  });

  it('rejects a non-positive limit', () => {
    expect(requestIssues(ShipmentListParamsSchema, { limit: -1 })).toEqual([
      { path: 'limit', message: 'expected integer > 0' },
    ]);
  });
});
