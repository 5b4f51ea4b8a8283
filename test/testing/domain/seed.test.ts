/**
 * Fixtures (`domain/seed.ts`, `createMockApi({ seed })`): applied through the API's own rules, in
 * the order SKUs → restocking shipments → orders; a fixture the API would refuse names itself.
 */
import { describe, expect, test } from 'vitest';
import { createMockApi, type MockSeed, MockSeedError } from '../../../src/testing/index.js';
import { ADDRESS, mockRequest, TOKEN } from '../helpers.js';

const SEED: MockSeed = {
  skus: [
    { merchant_sku_id: 'MUG', name: 'Mug' },
    { merchant_sku_id: 'TEE', name: 'T-shirt', batch_tracking_enabled: true },
  ],
  restockingShipments: [
    {
      warehouse_id: 2,
      status: 'restocked',
      restocking_shipment_items: [{ sku_code: 'MUG', announced_quantity: 10 }],
    },
    { warehouse_id: 1, restocking_shipment_items: [{ sku_code: 'TEE', announced_quantity: 3 }] },
  ],
  orders: [
    {
      merchant_order_id: 'ORD-1',
      shipping_address: ADDRESS,
      items: [{ merchant_item_id: '1', merchant_sku_id: 'MUG', quantity: 2 }],
    },
  ],
};

function failure(seed: unknown): Error {
  try {
    createMockApi({ seed: seed as MockSeed });
  } catch (error) {
    return error as Error;
  }
  throw new Error('no error');
}

describe('createMockApi({ seed })', () => {
  test('starts from the fixtures, applied as the API would', async () => {
    const api = createMockApi({ tokens: [TOKEN], seed: SEED });
    const { skus, orders, restockingShipments } = api.state;
    expect(skus.map((s) => [s.id, s.merchant_sku_id])).toEqual([
      [1, 'MUG'],
      [2, 'TEE'],
    ]);
    // The restocked shipment put 10 mugs in warehouse 2, where the order then reserved 2.
    expect(skus[0]!.inventory_per_warehouse[1]).toEqual({
      warehouse_id: 2,
      reserved: 2,
      stocked: 8,
      total: 8,
    });
    expect(restockingShipments.map((r) => r.status)).toEqual(['restocked', 'shipped']);
    expect(orders).toMatchObject([{ id: 1, merchant_order_id: 'ORD-1', status: 'fulfillable' }]);
    // Ids continue after the fixtures.
    const next = await mockRequest(api, 'POST', '/merchant_api/v1/skus', {
      name: 'Cap',
      merchant_sku_id: 'CAP',
    });
    expect(next.body.id).toBe(3);
    expect(api.deliveries).toEqual([]);
  });

  test('reset() applies the seed again', async () => {
    const api = createMockApi({ tokens: [TOKEN], seed: SEED });
    await mockRequest(api, 'DELETE', '/merchant_api/v1/skus/1');
    await mockRequest(api, 'PUT', '/merchant_api/v1/orders/1/cancel');
    api.reset();
    expect(api.state.skus.map((s) => s.status)).toEqual(['active', 'active']);
    expect(api.state.orders[0]!.status).toBe('fulfillable');
  });

  test('an empty seed is an empty mock', () => {
    expect(createMockApi({ seed: {} }).state.skus).toEqual([]);
  });

  test.each<[string, unknown, string]>([
    ['not an object', [], 'Invalid input: expected object, received array'],
    ['an unknown list', { sku: [] }, 'Unrecognized key: "sku" (did you mean "skus"?)'],
    ['a list that is not one', { orders: {} }, 'orders: Invalid input: expected array, received object'],
    [
      'an element that is not an object',
      { skus: [1] },
      'skus[0]: Invalid input: expected object, received number',
    ],
    [
      'a status that is not a string',
      { restockingShipments: [{ warehouse_id: 1, status: 5 }] },
      'restockingShipments[0].status: Invalid option: expected one of "created"|',
    ],
    [
      'a SKU the API refuses',
      { skus: [{ merchant_sku_id: 'A', name: 'A' }, { merchant_sku_id: 'B', name: 'B' }, { name: 'C' }] },
      "skus[2]: Merchant sku can't be blank",
    ],
    [
      'a taken code',
      {
        skus: [
          { merchant_sku_id: 'A', name: 'A' },
          { merchant_sku_id: 'A', name: 'B' },
        ],
      },
      'skus[1]: Merchant sku has already been taken',
    ],
    [
      'an order of an unknown SKU',
      {
        orders: [
          {
            merchant_order_id: 'O',
            shipping_address: ADDRESS,
            items: [{ merchant_item_id: '1', merchant_sku_id: 'X', quantity: 1 }],
          },
        ],
      },
      'orders[0]: Items sku must exist',
    ],
    [
      'an unknown status',
      {
        skus: [{ merchant_sku_id: 'A', name: 'A' }],
        restockingShipments: [{ warehouse_id: 1, status: 'lost', restocking_shipment_items: [] }],
      },
      'restockingShipments[0].status: Invalid option: expected one of "created"|',
    ],
    [
      'a shipment to an unknown warehouse',
      { restockingShipments: [{ warehouse_id: 9 }] },
      'restockingShipments[0]: Warehouse must exist',
    ],
  ])('%s is a MockSeedError naming the fixture', (_name, seed, message) => {
    const error = failure(seed);
    expect(error).toBeInstanceOf(MockSeedError);
    expect(error.message).toContain(message);
  });
});
