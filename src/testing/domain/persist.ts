/**
 * Saving and restoring the mock's state: `exportState` writes the records as JSON (the format in
 * `state-format.ts`), a reference to another record as its id; `importState` checks such a value
 * with the format's schema and restores the records, their references and indexes. A problem is a
 * {@link MockStateError} naming the path of the field at fault, e.g.
 * `orders[3].items[0].sku_id: no SKU with id 9`.
 */
import { compiled } from '../../core/validation.js';
import { checkInput, type Refuse } from '../engine/check.js';
import { jsonCopy } from '../engine/json.js';
import type { MockWarehouse } from './resources.js';
import { type BatchTake, MockState } from './state.js';
import {
  MOCK_STATE_FORMAT,
  type MockStateBatchTake,
  type MockStateFile,
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

/** Batch takes as saved: each batch by its id. */
const ids = (takes: readonly BatchTake[]): MockStateBatchTake[] =>
  takes.map(({ batch, quantity }) => ({ batch_id: batch.id, quantity }));

/** The state as one JSON-serializable value (fresh copies: nothing is shared with the state). */
export function exportState(state: MockState): MockStateFile {
  return structuredClone({
    format: MOCK_STATE_FORMAT,
    version: 2,
    warehouses: [...state.warehouses],
    lastIds: state.lastIds(),
    skus: state.skusInIndexOrder().map(({ stock, ...sku }) => ({ ...sku, stock: [...stock] })),
    orders: state.orders.all().map(({ items, ...order }) => ({
      ...order,
      items: items.map(({ sku, reservation, batches, ...item }) => ({
        ...item,
        sku_id: sku.id,
        reservation: reservation && { ...reservation, batches: ids(reservation.batches) },
        batches: ids(batches),
      })),
    })),
    restockingShipments: state.restockingShipments.all().map(({ items, ...record }) => ({
      ...record,
      items: items.map(({ sku, batch, ...item }) => ({
        ...item,
        sku_id: sku.id,
        batch_id: batch?.id ?? null,
      })),
    })),
    shipments: [...state.shipments.all()],
    returns: [...state.returns.all()],
  });
}

/** Throws the {@link MockStateError} of the field at `path`. */
const fail: Refuse = (path, problem) => {
  throw new MockStateError(path, problem);
};

/**
 * Checked copies of warehouses (a saved state's, or the `warehouses` option), copied as JSON
 * writes them: see {@link WarehousesSchema}.
 */
export function readWarehouses(value: unknown, refuse: Refuse, prefix: string): MockWarehouse[] {
  return checkInput(WarehousesSchema, jsonCopy(value, refuse, prefix), refuse, prefix) as MockWarehouse[];
}

/**
 * Rebuilds a state from a value made by {@link exportState} (after `JSON.stringify` and
 * `JSON.parse`, typically): a JSON copy is checked, then its records are taken as they are (their
 * keys in their saved order), references resolved, indexes and id counters restored. Throws a
 * {@link MockStateError} naming the field at fault.
 */
export function importState(data: unknown): MockState {
  const file = jsonCopy(data, fail, '') as MockStateFile;
  checkInput(compiled(StateSchema), file, fail);
  const state = new MockState(file.warehouses as MockWarehouse[]);
  for (const { stock, ...sku } of file.skus) {
    state.addSku({ ...sku, stock: new Map(stock) });
    for (const batch of sku.batches) state.batches.set(batch.id, batch);
  }
  const sku = (id: number, path: string) => state.skus.get(id) ?? fail(path, `no SKU with id ${id}`);
  const batch = (id: number, path: string) => state.batches.get(id) ?? fail(path, `no batch with id ${id}`);
  const takes = (list: MockStateBatchTake[], path: string): BatchTake[] =>
    list.map(({ batch_id, quantity }, i) => ({ batch: batch(batch_id, `${path}[${i}].batch_id`), quantity }));

  file.orders.forEach(({ items, ...order }, i) => {
    state.addOrder({
      ...order,
      items: items.map(({ sku_id, reservation, batches, ...item }, j) => {
        const path = `orders[${i}].items[${j}]`;
        return {
          ...item,
          sku: sku(sku_id, `${path}.sku_id`),
          reservation: reservation && {
            ...reservation,
            batches: takes(reservation.batches, `${path}.reservation.batches`),
          },
          batches: takes(batches, `${path}.batches`),
        };
      }),
    });
  });
  file.restockingShipments.forEach(({ items, ...record }, i) => {
    state.restockingShipments.insert({
      ...record,
      items: items.map(({ sku_id, batch_id, ...item }, j) => {
        const path = `restockingShipments[${i}].items[${j}]`;
        return {
          ...item,
          sku: sku(sku_id, `${path}.sku_id`),
          batch: batch_id === null ? null : batch(batch_id, `${path}.batch_id`),
        };
      }),
    });
  });
  for (const shipment of file.shipments) state.shipments.insert(shipment);
  for (const entry of file.returns) state.returns.insert(entry);
  state.restoreLastIds(file.lastIds);
  return state;
}
