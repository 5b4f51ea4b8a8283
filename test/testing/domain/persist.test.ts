/**
 * Saving and restoring the mock's state (`domain/persist.ts`): `api.exportState()` →
 * `JSON.stringify` / `JSON.parse` → `createMockApi({ initialState })` gives the same records and
 * the same next ids; a bad saved state is refused with the path of the field at fault.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  createMockApi,
  type MockApi,
  MockStateError,
  type MockStateFile,
} from '../../../src/testing/index.js';
import { ADDRESS, mockRequest, TOKEN } from '../helpers.js';

const CODES = ['A', 'B', 'C', 'D'];
/** A code no random step uses. */
const NEW_CODE = 'Z';
const STATUSES = ['delivered', 'processing', 'restocked', 'cancelled', 'received'] as const;

/** One step of building a state through the API and the control methods. */
type Op =
  | { op: 'sku'; code: number; batches: boolean }
  | { op: 'deleteSku'; sku: number }
  | { op: 'renameSku'; sku: number; code: number }
  | { op: 'restock'; version: 1 | 2; sku: number; quantity: number; warehouse: number }
  | { op: 'advance'; shipment: number; status: (typeof STATUSES)[number] }
  | { op: 'order'; sku: number; quantity: number; blocked: boolean }
  | { op: 'patchOrder'; order: number; quantity: number }
  | { op: 'cancel'; order: number }
  | { op: 'fulfil'; order: number }
  | { op: 'return'; order: number };

const small = fc.integer({ min: 1, max: 5 });
const OP: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('sku' as const), code: fc.nat(3), batches: fc.boolean() }),
  fc.record({ op: fc.constant('deleteSku' as const), sku: small }),
  fc.record({ op: fc.constant('renameSku' as const), sku: small, code: fc.nat(3) }),
  fc.record({
    op: fc.constant('restock' as const),
    version: fc.constantFrom(1 as const, 2 as const),
    sku: small,
    quantity: small,
    warehouse: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ op: fc.constant('advance' as const), shipment: small, status: fc.constantFrom(...STATUSES) }),
  fc.record({ op: fc.constant('order' as const), sku: small, quantity: small, blocked: fc.boolean() }),
  fc.record({ op: fc.constant('patchOrder' as const), order: small, quantity: small }),
  fc.record({ op: fc.constant('cancel' as const), order: small }),
  fc.record({ op: fc.constant('fulfil' as const), order: small }),
  fc.record({ op: fc.constant('return' as const), order: small }),
);

/** A clock moving 1 s per reading from `start`. */
function ticking(start: number) {
  let t = start;
  return {
    now: () => {
      t += 1000;
      return new Date(t);
    },
    at: () => t,
  };
}

let orderCount = 0;

/** Applies one step; refusals (404, 422, a control method throwing) are part of the game. */
async function apply(api: MockApi, step: Op): Promise<void> {
  const send = (method: string, path: string, body?: unknown) => mockRequest(api, method, path, body);
  switch (step.op) {
    case 'sku':
      await send('POST', '/merchant_api/v1/skus', {
        name: `SKU ${CODES[step.code] ?? NEW_CODE}`,
        merchant_sku_id: CODES[step.code] ?? NEW_CODE,
        batch_tracking_enabled: step.batches,
      });
      return;
    case 'deleteSku':
      await send('DELETE', `/merchant_api/v1/skus/${step.sku}`);
      return;
    case 'renameSku':
      await send('PATCH', `/merchant_api/v1/skus/${step.sku}`, { merchant_sku_id: CODES[step.code] });
      return;
    case 'restock':
      await send('POST', `/merchant_api/v${step.version}/restocking_shipments`, {
        warehouse_id: step.warehouse,
        delivery_option: 'courier',
        estimated_arrival_date: '2025-02-01',
        restocking_shipment_items: [{ sku_id: step.sku, announced_quantity: step.quantity }],
      });
      return;
    case 'advance':
      try {
        api.advanceRestockingShipment(step.shipment, step.status);
      } catch {}
      return;
    case 'order':
      orderCount += 1;
      await send('POST', '/merchant_api/v1/orders', {
        merchant_order_id: `O-${orderCount}`,
        shipping_address: { ...ADDRESS, country_code: step.blocked ? 'CH' : 'DE' },
        items: [
          { merchant_item_id: 'i1', sku_id: step.sku, quantity: step.quantity, price_per_unit_in_cents: 100 },
        ],
        tags: ['t'],
        custom_metadata: { n: orderCount },
      });
      return;
    case 'patchOrder':
      await send('PATCH', `/merchant_api/v1/orders/${step.order}`, {
        items: [{ merchant_item_id: 'i2', sku_id: 1, quantity: step.quantity }],
      });
      return;
    case 'cancel':
      await send('PUT', `/merchant_api/v1/orders/${step.order}/cancel`);
      return;
    case 'fulfil':
      try {
        api.fulfillOrder(step.order);
      } catch {}
      return;
    case 'return':
      try {
        api.createReturn(step.order);
      } catch {}
      return;
  }
}

/** Every list of the snapshot but the request log. */
function records(api: MockApi) {
  const s = api.state;
  return {
    skus: s.skus,
    orders: s.orders,
    restockingShipments: s.restockingShipments,
    restockingShipmentsV2: s.restockingShipmentsV2,
    shipments: s.shipments,
    returns: s.returns,
    warehouses: s.warehouses,
  };
}

/** Where every run starts: SKUs (two batch-tracked) with stock, so that random steps find records. */
const PRELUDE: Op[] = [
  { op: 'sku', code: 0, batches: true },
  { op: 'sku', code: 1, batches: false },
  { op: 'sku', code: 2, batches: true },
  { op: 'restock', version: 1, sku: 1, quantity: 4, warehouse: 1 },
  { op: 'restock', version: 2, sku: 3, quantity: 4, warehouse: 2 },
  { op: 'advance', shipment: 1, status: 'restocked' },
];

/**
 * The same new records in two mocks: a SKU with a new code, a restocking shipment and an order of
 * it, then every code created again (which reactivates deleted SKUs in the order the code index
 * keeps them).
 */
function continuation(saved: MockStateFile): Op[] {
  const fresh = saved.lastIds.skus + 1;
  return [
    { op: 'sku', code: CODES.length, batches: true },
    { op: 'restock', version: 1, sku: fresh, quantity: 3, warehouse: 1 },
    { op: 'order', sku: fresh, quantity: 1, blocked: false },
    ...CODES.map((_, code): Op => ({ op: 'sku', code, batches: true })),
  ];
}

describe('exportState / initialState', () => {
  test('round trip through JSON: the same records, and the next ids continue (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(OP, { minLength: 5, maxLength: 60, size: 'large' }), async (random) => {
        const steps = [...PRELUDE, ...random];
        const start = Date.parse('2025-01-01T00:00:00.000Z');
        const clock = ticking(start);
        const api = createMockApi({ tokens: [TOKEN], now: clock.now, blockedCountries: ['CH'] });
        orderCount = 0;
        for (const step of steps) await apply(api, step);
        const saved = JSON.parse(JSON.stringify(api.exportState())) as MockStateFile;

        const copyClock = ticking(clock.at());
        const copy = createMockApi({
          tokens: [TOKEN],
          now: copyClock.now,
          blockedCountries: ['CH'],
          initialState: saved,
        });
        expect(records(copy)).toEqual(records(api));
        expect(copy.exportState()).toEqual(saved);

        // The same requests now give the same answers (ids included) in both mocks.
        const count = orderCount;
        for (const mock of [api, copy]) {
          orderCount = count + 1000;
          for (const step of continuation(saved)) await apply(mock, step);
          mock.advanceRestockingShipment(saved.lastIds.restockingShipments + 1, 'restocked');
        }
        expect(records(copy)).toEqual(records(api));
        const added = copy.state;
        expect(added.skus.find((sku) => sku.merchant_sku_id === NEW_CODE)!.id).toBe(saved.lastIds.skus + 1);
        expect(added.restockingShipments.at(-1)!.id).toBe(saved.lastIds.restockingShipments + 1);
        expect(added.orders.at(-1)!.id).toBe(saved.lastIds.orders + 1);
      }),
      { numRuns: 40 },
    );
  });

  test('a state covering every kind of record survives the round trip', async () => {
    const clock = ticking(Date.parse('2025-01-01T00:00:00.000Z'));
    const api = createMockApi({ tokens: [TOKEN], now: clock.now });
    const steps: Op[] = [
      { op: 'sku', code: 0, batches: true },
      { op: 'sku', code: 1, batches: false },
      { op: 'restock', version: 1, sku: 1, quantity: 5, warehouse: 2 },
      { op: 'restock', version: 2, sku: 2, quantity: 4, warehouse: 1 },
      { op: 'advance', shipment: 1, status: 'restocked' },
      { op: 'advance', shipment: 2, status: 'restocked' },
      { op: 'advance', shipment: 2, status: 'processing' },
      { op: 'order', sku: 1, quantity: 2, blocked: false },
      { op: 'order', sku: 2, quantity: 1, blocked: false },
      { op: 'order', sku: 2, quantity: 1, blocked: false },
      { op: 'fulfil', order: 1 },
      { op: 'return', order: 1 },
      { op: 'cancel', order: 2 },
      { op: 'deleteSku', sku: 2 },
    ];
    orderCount = 0;
    for (const step of steps) await apply(api, step);
    const state = api.state;
    expect(state.shipments).toHaveLength(1);
    expect(state.returns).toHaveLength(1);
    expect(state.restockingShipmentsV2[1]).toMatchObject({
      status: 'processing',
      reopened_at: expect.any(String),
    });
    expect(state.orders.map((o) => o.status)).toEqual(['fulfilled', 'unfulfillable', 'fulfillable']);
    expect(state.orders[0]!.items[0]!.batches).toHaveLength(1);

    const saved = JSON.parse(JSON.stringify(api.exportState())) as MockStateFile;
    expect(saved).toMatchObject({ format: 'merchant-fulfillment-mock-state', version: 2 });
    const copy = createMockApi({ tokens: [TOKEN], initialState: saved });
    expect(records(copy)).toEqual(records(api));
    // Exact as text: the same keys in the same order, in the file and in the API's answers.
    expect(JSON.stringify(copy.exportState())).toBe(JSON.stringify(saved));
    for (const path of ['/merchant_api/v1/orders/3', '/merchant_api/v1/skus?limit=100']) {
      const [a, b] = await Promise.all(
        [api, copy].map(async (m) => JSON.stringify((await mockRequest(m, 'GET', path)).body)),
      );
      expect(b).toBe(a);
    }
    // Stock held by the restored order is released by the restored records, as by the original.
    for (const mock of [api, copy]) {
      expect((await mockRequest(mock, 'PUT', '/merchant_api/v1/orders/3/cancel')).status).toBe(200);
    }
    expect(records(copy).skus).toEqual(records(api).skus);
  });

  test('records changed by every kind of update survive the round trip (the saved shape is strict)', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    const send = (method: string, path: string, body?: unknown) => mockRequest(api, method, path, body);
    const shipment = { delivery_option: 'courier', estimated_arrival_date: '2025-02-01' };
    const answers = [
      await send('POST', '/merchant_api/v1/skus', {
        name: 'A',
        merchant_sku_id: 'A',
        batch_tracking_enabled: true,
      }),
      await send('PUT', '/merchant_api/v1/skus/1', { name: 'A2', merchant_sku_id: 'A', hs_code: '1234' }),
      await send('POST', '/merchant_api/v1/skus/bulk_upsert', {
        skus: [
          { name: 'B', merchant_sku_id: 'B' },
          { name: 'A3', merchant_sku_id: 'A' },
        ],
      }),
      await send('POST', '/merchant_api/v1/restocking_shipments', {
        warehouse_id: 1,
        restocking_shipment_items: [{ sku_id: 1, announced_quantity: 5, remarks: 'r' }],
      }),
      await send('POST', '/merchant_api/v2/restocking_shipments', {
        ...shipment,
        warehouse_id: 2,
        priority: true,
        restocking_shipment_items: [{ sku_code: 'B', announced_quantity: 5 }],
      }),
      await send('PUT', '/merchant_api/v1/restocking_shipments/1', {
        warehouse_id: 1,
        tracking_code: 'T',
        restocking_shipment_items: [{ sku_id: 2, announced_quantity: 2 }],
      }),
      await send('PUT', '/merchant_api/v2/restocking_shipments/2', {
        ...shipment,
        warehouse_id: 2,
        supplier_name: 'S',
        priority: false,
        restocking_shipment_items: [{ sku_code: 'A', announced_quantity: 2 }],
      }),
      await send('POST', '/merchant_api/v1/orders', {
        merchant_order_id: 'O1',
        shipping_address: ADDRESS,
        items: [{ merchant_item_id: 'i', sku_id: 1, quantity: 1, price_per_unit_in_cents: 5 }],
        payment_method: 'card',
        total_price_in_cents: 10,
      }),
      await send('PATCH', '/merchant_api/v1/orders/1', {
        merchant_order_id: 'O1b',
        shipping_address: { ...ADDRESS, city: 'X' },
        currency: 'USD',
        tags: ['a'],
        custom_metadata: { q: { r: [1, null] } },
      }),
    ];
    expect(answers.map((a) => a.status)).toEqual([201, 200, 200, 201, 201, 200, 200, 201, 200]);
    api.advanceRestockingShipment(1, 'restocked');
    const saved = JSON.parse(JSON.stringify(api.exportState())) as MockStateFile;
    const copy = createMockApi({ tokens: [TOKEN], initialState: saved });
    expect(JSON.stringify(copy.exportState())).toBe(JSON.stringify(saved));
    expect(records(copy)).toEqual(records(api));
  });

  test('warehouses come from the saved state', () => {
    const api = createMockApi({ tokens: [TOKEN], warehouses: [{ id: 7, name: 'Lyon' }] });
    const copy = createMockApi({ tokens: [TOKEN], initialState: api.exportState() });
    expect(copy.state.warehouses).toEqual([{ id: 7, name: 'Lyon' }]);
  });

  test('reset() goes back to the initial state, and its ids', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    await mockRequest(api, 'POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' });
    const initialState = api.exportState();
    const copy = createMockApi({ tokens: [TOKEN], initialState });
    const created = await mockRequest(copy, 'POST', '/merchant_api/v1/skus', {
      name: 'B',
      merchant_sku_id: 'B',
    });
    expect(created.body.id).toBe(2);
    copy.reset();
    expect(copy.state.skus.map((s) => s.merchant_sku_id)).toEqual(['A']);
    const again = await mockRequest(copy, 'POST', '/merchant_api/v1/skus', {
      name: 'C',
      merchant_sku_id: 'C',
    });
    expect(again.body.id).toBe(2);
  });

  test('the caller changing its initial state afterwards changes nothing', () => {
    const api = createMockApi({ tokens: [TOKEN] });
    const initialState = api.exportState();
    const copy = createMockApi({ tokens: [TOKEN], initialState });
    initialState.warehouses.length = 0;
    copy.reset();
    expect(copy.state.warehouses).toHaveLength(3);
  });

  test('initialState and seed together are refused', () => {
    const initialState = createMockApi().exportState();
    expect(() => createMockApi({ initialState, seed: {} })).toThrow(/initialState and seed/);
  });
});

describe('invalid saved states name the field at fault', () => {
  /** A valid saved state with a SKU, a batch, an order with a batch take, and a shipment. */
  async function valid(): Promise<MockStateFile> {
    const api = createMockApi({ tokens: [TOKEN] });
    orderCount = 0;
    for (const step of [
      { op: 'sku', code: 0, batches: true },
      { op: 'sku', code: 1, batches: false },
      { op: 'restock', version: 1, sku: 1, quantity: 5, warehouse: 1 },
      { op: 'advance', shipment: 1, status: 'restocked' },
      { op: 'order', sku: 1, quantity: 2, blocked: false },
      { op: 'order', sku: 2, quantity: 1, blocked: false },
      { op: 'fulfil', order: 2 },
    ] satisfies Op[]) {
      await apply(api, step);
    }
    return JSON.parse(JSON.stringify(api.exportState()));
  }

  // biome-ignore lint/suspicious/noExplicitAny: the tests break saved states on purpose
  type Edit = (s: any) => void;
  test.each<[string, Edit, string]>([
    [
      'not an object',
      (s) => Object.assign(s, { skus: 'x' }),
      'skus: Invalid input: expected array, received string',
    ],
    [
      'format',
      (s) => Object.assign(s, { format: 'other' }),
      'format: Invalid input: expected "merchant-fulfillment-mock-state"',
    ],
    ['version', (s) => Object.assign(s, { version: 1 }), 'version: Invalid input: expected 2'],
    [
      'a dangling SKU',
      (s) => Object.assign(s.orders[1].items[0], { sku_id: 9 }),
      'orders[1].items[0].sku_id: no SKU with id 9',
    ],
    [
      'a missing field',
      (s) => delete s.orders[0].currency,
      'orders[0].currency: Invalid input: expected string, received undefined',
    ],
    [
      'a bad status',
      (s) => Object.assign(s.orders[0], { status: 'lost' }),
      'orders[0].status: Invalid option: expected one of "fulfillable"|"unfulfillable"|"fulfilled"',
    ],
    [
      'a batch of another SKU',
      (s) => Object.assign(s.orders[0].items[0].batches[0], { batch_id: 99 }),
      'orders[0].items[0].batches[0].batch_id: no batch with id 99',
    ],
    [
      'an id above the counter',
      (s) => Object.assign(s.lastIds, { skus: 1 }),
      'skus[1].id: id 2 is above the last id handed out (lastIds.skus: 1)',
    ],
    ['a duplicate id', (s) => Object.assign(s.skus[1], { id: 1 }), 'skus[1].id: id 1 appears twice'],
    [
      'an unknown field',
      (s) => Object.assign(s.orders[0], { curency: 'EUR' }),
      'orders[0]: Unrecognized key: "curency" (did you mean "currency"?)',
    ],
    [
      'a missing counter',
      (s) => delete s.lastIds.batch,
      'lastIds.batch: Invalid input: expected number, received undefined',
    ],
    [
      'a restocking status',
      (s) => Object.assign(s.restockingShipments[0], { status: 'gone' }),
      'restockingShipments[0].status: Invalid option: expected one of "created"|',
    ],
    [
      'a bad date',
      (s) => Object.assign(s.orders[0], { created_at: 'soon' }),
      'orders[0].created_at: must be a date-time',
    ],
  ])('%s', async (_name, edit, message) => {
    const saved = await valid();
    expect(() => createMockApi({ initialState: saved })).not.toThrow();
    edit(saved);
    const error = (() => {
      try {
        createMockApi({ initialState: saved });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(MockStateError);
    expect((error as Error).message).toContain(message);
    expect((error as MockStateError).path).toBe(message.split(':')[0]);
  });

  test('not an object at all', () => {
    expect(() => createMockApi({ initialState: 42 as unknown as MockStateFile })).toThrow(
      'Invalid input: expected object, received number',
    );
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => createMockApi({ initialState: loop as unknown as MockStateFile })).toThrow(
      /^cannot be written as JSON \(Converting circular structure/,
    );
  });
});

describe('onChange and onRequest', () => {
  test('onChange follows every possible change, not reads', async () => {
    let changes = 0;
    const events: unknown[] = [];
    const api = createMockApi({
      tokens: [TOKEN],
      onChange: () => {
        changes += 1;
      },
      onRequest: (event) => events.push(event),
    });
    await mockRequest(api, 'GET', '/merchant_api/v1/skus');
    expect(changes).toBe(0);
    await mockRequest(api, 'POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' });
    expect(changes).toBe(1);
    const shipment = await mockRequest(api, 'POST', '/merchant_api/v1/restocking_shipments', {
      warehouse_id: 1,
      restocking_shipment_items: [{ sku_id: 1, announced_quantity: 1 }],
    });
    expect(changes).toBe(2);
    api.advanceRestockingShipment(shipment.body.id, 'restocked');
    expect(changes).toBe(3);
    await mockRequest(api, 'GET', '/__mock/state');
    expect(changes).toBe(3);
    api.reset();
    expect(changes).toBe(4);
    expect(events).toEqual([
      expect.objectContaining({ method: 'GET', path: '/merchant_api/v1/skus', status: 200, control: false }),
      expect.objectContaining({ method: 'POST', path: '/merchant_api/v1/skus', status: 201, control: false }),
      expect.objectContaining({ method: 'POST', status: 201 }),
      expect.objectContaining({ method: 'GET', path: '/__mock/state', status: 200, control: true }),
    ]);
    for (const event of events)
      expect((event as { durationMs: number }).durationMs).toBeGreaterThanOrEqual(0);
  });

  test('listeners that throw change no answer', async () => {
    const api = createMockApi({
      tokens: [TOKEN],
      onChange: () => {
        throw new Error('boom');
      },
      onRequest: () => {
        throw new Error('boom');
      },
    });
    const answer = await mockRequest(api, 'POST', '/merchant_api/v1/skus', {
      name: 'A',
      merchant_sku_id: 'A',
    });
    expect(answer.status).toBe(201);
    expect(() => api.reset()).not.toThrow();
  });
});
