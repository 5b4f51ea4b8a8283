/**
 * Saving and restoring the mock's state: `exportState` turns every record, index order and id
 * counter into one JSON-serializable value (the format in `state-format.ts`); `importState` checks
 * such a value (its shape with a zod schema, then the links between records) and rebuilds the
 * records, their links and indexes. A problem is a {@link MockStateError} naming the path of the
 * field at fault, e.g. `orders[3].items[0].sku_id: no SKU with id 9`.
 */
import { compiled } from '../../core/validation.js';
import { checkInput, type Refuse } from '../engine/check.js';
import { jsonCopy } from '../engine/json.js';
import { isObject } from '../engine/validation.js';
import type { MockReturn, MockShipment, MockWarehouse } from './resources.js';
import {
  type BatchRecord,
  type BatchTake,
  fromKeys,
  MockState,
  type OrderRecord,
  type RestockingRecord,
  type SkuRecord,
  SUB_RECORDS,
} from './state.js';
import {
  COLLECTIONS,
  MOCK_STATE_FORMAT,
  type MockStateBatchTake,
  type MockStateFile,
  type MockStateLastIds,
  type MockStateOrder,
  type MockStateRestockingShipment,
  type MockStateSku,
  StateSchema,
  WarehousesSchema,
} from './state-format.js';

/** A saved state that cannot be loaded: the message starts with the path of the field at fault. */
export class MockStateError extends Error {
  override readonly name = 'MockStateError';
  /** Path of the field at fault, e.g. `orders[3].items[0].sku_id` (empty for the whole value). */
  readonly path: string;

  constructor(path: string, problem: string) {
    super(path ? `${path}: ${problem}` : problem);
    this.path = path;
  }
}

// ---------------------------------------------------------------------------------------------
// Export

function takes(list: readonly BatchTake[]): MockStateBatchTake[] {
  return list.map((t) => ({ batch_id: t.batch.id, quantity: t.quantity }));
}

function exportSku({ stock, batches, ...fields }: SkuRecord): MockStateSku {
  return {
    ...fields,
    stock: [...stock].map(([warehouse_id, { onHand, reserved }]) => ({ warehouse_id, onHand, reserved })),
    batches: batches.map(({ skuId: _, warehouseId, ...batch }) => ({ ...batch, warehouse_id: warehouseId })),
  };
}

function exportOrder({ items, ...fields }: OrderRecord): MockStateOrder {
  return {
    ...structuredClone(fields),
    items: items.map(({ sku, reservation, batches, ...item }) => ({
      ...item,
      sku_id: sku.id,
      reservation: reservation && {
        warehouse_id: reservation.warehouseId,
        quantity: reservation.quantity,
        batches: takes(reservation.batches),
      },
      batches: takes(batches),
    })),
  };
}

function exportRestocking({ items, ...fields }: RestockingRecord): MockStateRestockingShipment {
  return {
    ...structuredClone(fields),
    items: items.map(({ sku, batch, ...item }) => ({ ...item, sku_id: sku.id, batch_id: batch?.id ?? null })),
  };
}

/** A stored shipment or return: its id, creation time and a copy of its fixed body. */
function exportStored<V>({ id, createdMs, view }: { id: number; createdMs: number; view: V }) {
  return { id, createdMs, view: structuredClone(view) };
}

/** The state as one JSON-serializable value (fresh copies: nothing is shared with the state). */
export function exportState(state: MockState): MockStateFile {
  return {
    format: MOCK_STATE_FORMAT,
    version: 1,
    warehouses: structuredClone([...state.warehouses]),
    lastIds: { ...fromKeys(COLLECTIONS, (key) => state[key].lastId), ...state.counters() },
    skus: state.skus.all().map(exportSku),
    skuCodeOrder: state.skuIndexOrder(),
    orders: state.orders.all().map(exportOrder),
    restockingShipments: state.restockingShipments.all().map(exportRestocking),
    shipments: state.shipments.all().map(exportStored),
    returns: state.returns.all().map(exportStored),
  };
}

// ---------------------------------------------------------------------------------------------
// Import

/** Throws the {@link MockStateError} of the field at `path`. */
const fail: Refuse = (path, problem) => {
  throw new MockStateError(path, problem);
};

/** Takes ids of one sequence: each unique and at most the last id handed out. */
function idSequence(last: number, what: string): (id: number, path: string) => number {
  const seen = new Set<number>();
  return (id, path) => {
    if (seen.has(id)) fail(`${path}.id`, `${what} id ${id} appears twice`);
    if (id > last) fail(`${path}.id`, `${what} id ${id} is above the last id handed out (lastIds: ${last})`);
    seen.add(id);
    return id;
  };
}

/** The set of `ids`; `repeated` refuses the first one seen before. */
function distinct<T>(ids: readonly T[], repeated: (id: T, i: number) => never): Set<T> {
  const seen = new Set<T>();
  for (const [i, id] of ids.entries()) {
    if (seen.has(id)) repeated(id, i);
    seen.add(id);
  }
  return seen;
}

/**
 * Checked copies of warehouses (a saved state's, or the `warehouses` option), copied as JSON
 * writes them: see {@link WarehousesSchema}; the ids unique.
 */
export function readWarehouses(value: unknown, refuse: Refuse, prefix: string): MockWarehouse[] {
  const list = checkInput(WarehousesSchema, jsonCopy(value, refuse, prefix), refuse, prefix);
  distinct(
    list.map((w) => w.id),
    (id, i) => refuse(`${prefix}[${i}].id`, `warehouse id ${id} appears twice`),
  );
  return list as MockWarehouse[];
}

/**
 * `parsed` with the keys of each object in their order in `saved` (zod answers in its schema's
 * order), so that a record, its API answer and its next export read as the saved state did.
 */
function inOrderOf<T>(parsed: T, saved: unknown): T {
  if (Array.isArray(parsed)) return parsed.map((v, i) => inOrderOf(v, (saved as unknown[])[i])) as T;
  if (!isObject(parsed) || !isObject(saved)) return parsed;
  const keys = [...Object.keys(saved), ...Object.keys(parsed)].filter((key) => key in parsed);
  return Object.fromEntries(keys.map((key) => [key, inOrderOf(parsed[key], saved[key])])) as T;
}

/**
 * Rebuilds a state from a value made by {@link exportState} (after `JSON.stringify` and
 * `JSON.parse`, typically): a JSON copy is checked, references are resolved, indexes and id
 * counters restored. Throws a {@link MockStateError} naming the field at fault.
 */
export function importState(data: unknown): MockState {
  const saved = jsonCopy(data, fail, '');
  const file = inOrderOf(checkInput(compiled(StateSchema), saved, fail), saved);
  const last = file.lastIds as unknown as MockStateLastIds;
  const state = new MockState(readWarehouses(file.warehouses, fail, 'warehouses'));
  const warehouse = (id: number, path: string): number =>
    state.hasWarehouse(id) ? id : fail(path, `no warehouse with id ${id}`);
  const skus = new Map<number, SkuRecord>();
  const skuOf = (id: number, path: string): SkuRecord => skus.get(id) ?? fail(path, `no SKU with id ${id}`);
  const batchOf = (id: number, path: string, sku: SkuRecord): BatchRecord => {
    const batch = state.batches.get(id) ?? fail(path, `no batch with id ${id}`);
    if (batch.skuId !== sku.id) fail(path, `batch ${id} belongs to SKU ${batch.skuId}, not ${sku.id}`);
    return batch;
  };
  const takesOf = (list: MockStateBatchTake[], path: string, sku: SkuRecord): BatchTake[] =>
    list.map((t, i) => ({ batch: batchOf(t.batch_id, `${path}[${i}].batch_id`, sku), quantity: t.quantity }));

  const skuId = idSequence(last.skus, 'SKU');
  const batchId = idSequence(last.batch, 'batch');
  const codes = new Set<string>();
  file.skus.forEach(({ stock, batches, ...fields }, i) => {
    const path = `skus[${i}]`;
    const sku: SkuRecord = { ...fields, id: skuId(fields.id, path), stock: new Map(), batches: [] };
    if (sku.status === 'active' && codes.has(sku.merchant_sku_id)) {
      fail(`${path}.merchant_sku_id`, `two active SKUs have the code '${sku.merchant_sku_id}'`);
    }
    if (sku.status === 'active') codes.add(sku.merchant_sku_id);
    stock.forEach(({ warehouse_id, onHand, reserved }, j) => {
      const at = `${path}.stock[${j}].warehouse_id`;
      if (sku.stock.has(warehouse(warehouse_id, at))) fail(at, `warehouse ${warehouse_id} appears twice`);
      sku.stock.set(warehouse_id, { onHand, reserved });
    });
    batches.forEach(({ warehouse_id, ...fields }, j) => {
      const at = `${path}.batches[${j}]`;
      const batch = { ...fields, id: batchId(fields.id, at), skuId: sku.id, warehouseId: warehouse_id };
      warehouse(warehouse_id, `${at}.warehouse_id`);
      sku.batches.push(batch);
      state.batches.set(batch.id, batch);
    });
    skus.set(sku.id, sku);
  });
  // The code index is rebuilt in its saved order.
  const placed = distinct(file.skuCodeOrder, (id, i) =>
    fail(`skuCodeOrder[${i}]`, `SKU ${id} appears twice`),
  );
  for (const [i, id] of file.skuCodeOrder.entries()) state.addSku(skuOf(id, `skuCodeOrder[${i}]`));
  const missing = [...skus.keys()].find((id) => !placed.has(id));
  if (missing !== undefined) fail('skuCodeOrder', `must list every SKU id once (SKU ${missing} is missing)`);

  const orderId = idSequence(last.orders, 'order');
  const itemId = idSequence(last.orderItem, 'order item');
  distinct(
    file.orders.map((o) => o.merchant_order_id),
    (id, i) => fail(`orders[${i}].merchant_order_id`, `two orders have the merchant order id '${id}'`),
  );
  file.orders.forEach(({ items, ...fields }, i) => {
    const order: OrderRecord = {
      ...(fields as unknown as Omit<OrderRecord, 'items'>),
      id: orderId(fields.id, `orders[${i}]`),
      items: items.map(({ sku_id, reservation, batches, ...item }, j) => {
        const path = `orders[${i}].items[${j}]`;
        const sku = skuOf(sku_id, `${path}.sku_id`);
        return {
          ...item,
          id: itemId(item.id, path),
          sku,
          reservation: reservation && {
            warehouseId: warehouse(reservation.warehouse_id, `${path}.reservation.warehouse_id`),
            quantity: reservation.quantity,
            batches: takesOf(reservation.batches, `${path}.reservation.batches`, sku),
          },
          batches: takesOf(batches, `${path}.batches`, sku),
        };
      }),
    };
    state.addOrder(order);
  });

  const restockingId = idSequence(last.restockingShipments, 'restocking shipment');
  const restockingItemId = idSequence(last.restockingItem, 'restocking item');
  file.restockingShipments.forEach(({ items, ...fields }, i) => {
    const path = `restockingShipments[${i}]`;
    const record: RestockingRecord = {
      ...fields,
      id: restockingId(fields.id, path),
      warehouse_id: warehouse(fields.warehouse_id, `${path}.warehouse_id`),
      items: items.map(({ sku_id, batch_id, ...item }, j) => {
        const at = `${path}.items[${j}]`;
        const sku = skuOf(sku_id, `${at}.sku_id`);
        const batch = batch_id === null ? null : batchOf(batch_id, `${at}.batch_id`, sku);
        return { ...item, id: restockingItemId(item.id, at), sku, batch };
      }),
    };
    state.restockingShipments.insert(record);
  });

  // Shipments and returns: their bodies are kept as saved, checked against the orders they name.
  const order = (id: number, path: string): void => {
    if (!state.orders.get(id)) fail(path, `no order with id ${id}`);
  };
  const shipmentId = idSequence(last.shipments, 'shipment');
  const shipmentItemId = idSequence(last.shipmentItem, 'shipment item');
  file.shipments.forEach(({ id, createdMs, view }, i) => {
    const path = `shipments[${i}]`;
    if (view.id !== shipmentId(id, path)) fail(`${path}.view.id`, `must equal the shipment id ${id}`);
    order(view.order_id, `${path}.view.order_id`);
    for (const [j, item] of view.items.entries()) shipmentItemId(item.id, `${path}.view.items[${j}]`);
    state.shipments.insert({ id, createdMs, view: view as unknown as MockShipment });
  });
  const returnId = idSequence(last.returns, 'return');
  const returnItemId = idSequence(last.returnItem, 'return item');
  file.returns.forEach(({ id, createdMs, view }, i) => {
    const path = `returns[${i}]`;
    if (view.id !== returnId(id, path)) fail(`${path}.view.id`, `must equal the return id ${id}`);
    order(view.order.id, `${path}.view.order.id`);
    for (const [j, item] of view.return_items.entries())
      returnItemId(item.id, `${path}.view.return_items[${j}]`);
    state.returns.insert({ id, createdMs, view: view as unknown as MockReturn });
  });

  for (const key of COLLECTIONS) state[key].restoreLastId(last[key]);
  state.restoreCounters(fromKeys(SUB_RECORDS, (kind) => last[kind]));
  return state;
}
