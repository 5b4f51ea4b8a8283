/**
 * Restocking shipment rules: create (v1, v2), update (v1 PUT keeps omitted fields and replaces the
 * item list; v2 PUT replaces the resource), the created/shipped update window, and the status
 * machine driven by the `advanceRestockingShipment` control method (reopen counters, arrival time,
 * stock added on `restocked`).
 */
import { DELIVERY_OPTIONS, RESTOCKING_SHIPMENT_V1_STATUSES } from '../schemas/restocking-shipments.js';
import { createBatch, receive } from './inventory.js';
import type { MockState, RestockingItemRecord, RestockingRecord, SkuRecord } from './state.js';
import type {
  JsonValue,
  MockQuantities,
  MockRestockQuantities,
  RestockingStatusV1,
  RestockingStatusV2,
} from './types.js';
import { Fields, Invalid, isBlank, isObject } from './validation.js';

const AT_WAREHOUSE = new Set<RestockingStatusV1>([
  'delivered',
  'arrived',
  'processing',
  'on_hold',
  'restocked',
]);
const ITEMS = 'restocking_shipment_items';

/** The message of a PUT outside the created/shipped window. */
export const NOT_EDITABLE = 'Restocking shipment can only be updated while created or shipped';

/** A validated item. */
interface ItemDraft {
  sku: SkuRecord;
  announced_quantity: number;
  remarks: string | null;
  total_cost_in_cents: number | null;
  inventory_batch_id: number | null;
}

/** A validated body: the fields sent (`undefined` = omitted). */
interface ShipmentDraft {
  warehouse_id?: number | undefined;
  estimated_arrival_date?: string | null | undefined;
  delivery_option?: string | null | undefined;
  tracking_code?: string | null | undefined;
  po_number?: string | null | undefined;
  supplier_name?: string | null | undefined;
  priority?: boolean | null | undefined;
  items?: ItemDraft[] | undefined;
}

function readItems(
  state: MockState,
  value: JsonValue | undefined,
  warehouseId: number | undefined,
  errors: string[],
): ItemDraft[] | undefined {
  if (!Array.isArray(value)) {
    errors.push(
      isBlank(value) ? "Restocking shipment items can't be blank" : 'Restocking shipment items is invalid',
    );
    return undefined;
  }
  const drafts: ItemDraft[] = [];
  for (const element of value) {
    if (!isObject(element)) {
      errors.push('Restocking shipment items is invalid');
      continue;
    }
    const f = new Fields(element, errors, 'Restocking shipment items');
    const skuId = f.integer('sku_id');
    const code = f.string('sku_code') ?? f.string('merchant_sku_id');
    const found =
      typeof skuId === 'number' ? state.skus.get(skuId) : code ? state.activeSkuByCode(code) : undefined;
    const sku = found?.status === 'active' ? found : undefined;
    if (!sku) f.error('sku', 'must exist');
    const announced = f.integer('announced_quantity', { required: true, positive: true });
    const remarks = f.string('remarks') ?? null;
    const cost = f.integer('total_cost_in_cents') ?? null;
    const batchId = f.integer('inventory_batch_id') ?? null;
    if (batchId !== null && sku) {
      const batch = state.batches.get(batchId);
      if (
        !batch ||
        batch.skuId !== sku.id ||
        (warehouseId !== undefined && batch.warehouseId !== warehouseId)
      ) {
        f.error('inventory_batch', 'must exist');
      }
    }
    if (!sku || typeof announced !== 'number') continue;
    drafts.push({
      sku,
      announced_quantity: announced,
      remarks,
      total_cost_in_cents: cost,
      inventory_batch_id: batchId,
    });
  }
  return drafts;
}

/**
 * Reads a body. `version` 2 requires delivery option, estimated arrival date, warehouse and items;
 * version 1 requires the warehouse on create only. Items are read against the target warehouse.
 */
function readShipment(
  state: MockState,
  body: JsonValue | undefined,
  version: 1 | 2,
  current: RestockingRecord | undefined,
): ShipmentDraft | Invalid {
  if (!isObject(body)) return new Invalid(['Restocking shipment is invalid']);
  const errors: string[] = [];
  const f = new Fields(body, errors);
  const draft: ShipmentDraft = {};
  const full = version === 2;
  if (full || !current || f.has('warehouse_id')) {
    const id = f.integer('warehouse_id', { required: true, positive: true });
    if (typeof id === 'number' && !state.hasWarehouse(id)) f.error('warehouse', 'must exist');
    draft.warehouse_id = id ?? undefined;
  }
  if (full || f.has('estimated_arrival_date'))
    draft.estimated_arrival_date = f.date('estimated_arrival_date', full);
  if (full || f.has('delivery_option'))
    draft.delivery_option = f.oneOf('delivery_option', DELIVERY_OPTIONS, full);
  if (full || f.has('tracking_code')) draft.tracking_code = f.string('tracking_code') ?? null;
  if (full) {
    draft.po_number = f.string('po_number') ?? null;
    draft.supplier_name = f.string('supplier_name') ?? null;
    draft.priority = f.boolean('priority') ?? false;
  }
  // Version 1: omitted items mean an empty list (on create) and remove every item (on update).
  const items = body[ITEMS] === undefined && version === 1 ? [] : body[ITEMS];
  draft.items = readItems(state, items, draft.warehouse_id ?? current?.warehouse_id, errors);
  return errors.length > 0 ? new Invalid(errors) : draft;
}

function toItems(state: MockState, drafts: readonly ItemDraft[]): RestockingItemRecord[] {
  return drafts.map((d) => ({
    id: state.nextId('restockingItem'),
    ...d,
    arrived_quantity: null,
    damaged_quantity: null,
    missing_quantity: null,
    applied: 0,
    batch: null,
  }));
}

/** `POST /merchant_api/v{1,2}/restocking_shipments`: the shipment starts `shipped`. */
export function createRestockingShipment(
  state: MockState,
  body: JsonValue | undefined,
  version: 1 | 2,
  now: Date,
  merchantId: number,
): RestockingRecord | Invalid {
  const draft = readShipment(state, body, version, undefined);
  if (draft instanceof Invalid) return draft;
  const id = state.restockingShipments.nextId();
  const at = now.toISOString();
  const record: RestockingRecord = {
    id,
    createdMs: now.getTime(),
    created_at: at,
    updated_at: at,
    merchant_id: merchantId,
    warehouse_id: draft.warehouse_id!,
    estimated_arrival_date: draft.estimated_arrival_date ?? null,
    delivery_option: draft.delivery_option ?? null,
    tracking_code: draft.tracking_code ?? null,
    po_number: draft.po_number ?? null,
    supplier_name: draft.supplier_name ?? null,
    priority: draft.priority ?? false,
    barcode: `RS${String(id).padStart(8, '0')}`,
    status: 'shipped',
    arrived_at: null,
    reopened_at: null,
    completed_reopens_count: 0,
    reopened: false,
    items: toItems(state, draft.items ?? []),
  };
  state.restockingShipments.insert(record);
  return record;
}

/**
 * `PUT /merchant_api/v{1,2}/restocking_shipments/{id}`, allowed while `created` or `shipped`.
 * Version 1 keeps omitted top-level fields and replaces the item list (omitted: no items left);
 * version 2 replaces the whole resource (omitted optional fields reset to null / false).
 */
export function updateRestockingShipment(
  state: MockState,
  record: RestockingRecord,
  body: JsonValue | undefined,
  version: 1 | 2,
  now: Date,
): RestockingRecord | Invalid {
  if (record.status !== 'created' && record.status !== 'shipped') return new Invalid([NOT_EDITABLE]);
  const draft = readShipment(state, body, version, record);
  if (draft instanceof Invalid) return draft;
  if (draft.warehouse_id !== undefined) record.warehouse_id = draft.warehouse_id;
  if (draft.estimated_arrival_date !== undefined)
    record.estimated_arrival_date = draft.estimated_arrival_date;
  if (draft.delivery_option !== undefined) record.delivery_option = draft.delivery_option;
  if (draft.tracking_code !== undefined) record.tracking_code = draft.tracking_code;
  if (draft.po_number !== undefined) record.po_number = draft.po_number;
  if (draft.supplier_name !== undefined) record.supplier_name = draft.supplier_name;
  if (draft.priority !== undefined && draft.priority !== null) record.priority = draft.priority;
  record.items = toItems(state, draft.items ?? []);
  record.updated_at = now.toISOString();
  return record;
}

/** The version 1 status for a status of either version (`received` → `delivered`). */
export function toV1Status(status: string): RestockingStatusV1 {
  if (status === 'received') return 'delivered';
  if ((RESTOCKING_SHIPMENT_V1_STATUSES as readonly string[]).includes(status))
    return status as RestockingStatusV1;
  throw new TypeError(
    `Unknown restocking shipment status '${status}': expected one of ${[...RESTOCKING_SHIPMENT_V1_STATUSES, 'received'].join(', ')}`,
  );
}

/** Checks `quantities`: every figure an integer >= 0 (one number, or a record keyed by SKU id). */
function checkQuantities(quantities: MockRestockQuantities): void {
  for (const name of ['arrived', 'damaged', 'missing'] as const) {
    const value = quantities[name];
    const figures =
      typeof value === 'object' ? Object.entries(value) : value === undefined ? [] : [['all', value]];
    for (const [skuId, figure] of figures) {
      if (!Number.isInteger(figure) || (figure as number) < 0) {
        throw new TypeError(`${name} quantity (${skuId}) must be an integer >= 0, got ${String(figure)}`);
      }
    }
  }
}

function quantityFor(quantities: MockQuantities | undefined, skuId: number): number | undefined {
  return typeof quantities === 'object' ? quantities[skuId] : quantities;
}

/** Sets what arrived for each item and moves the difference with the stock already added. */
function restock(state: MockState, record: RestockingRecord, quantities: MockRestockQuantities): void {
  const figures = record.items.map((item) => {
    const skuId = item.sku.id;
    const arrived = quantityFor(quantities.arrived, skuId);
    const damaged = quantityFor(quantities.damaged, skuId);
    const missing = quantityFor(quantities.missing, skuId);
    if (
      arrived === undefined &&
      damaged === undefined &&
      missing === undefined &&
      item.arrived_quantity !== null
    ) {
      return undefined; // restocked again without figures: keep the previous ones
    }
    const d = damaged ?? 0;
    if (arrived !== undefined) {
      return { arrived, damaged: d, missing: missing ?? Math.max(0, item.announced_quantity - arrived - d) };
    }
    const m = missing ?? 0;
    return { arrived: Math.max(0, item.announced_quantity - d - m), damaged: d, missing: m };
  });
  record.items.forEach((item, index) => {
    const figure = figures[index];
    if (figure) {
      item.arrived_quantity = figure.arrived;
      item.damaged_quantity = figure.damaged;
      item.missing_quantity = figure.missing;
    }
    if (item.sku.batch_tracking_enabled && !item.batch) {
      const announcedBatch =
        item.inventory_batch_id === null ? undefined : state.batches.get(item.inventory_batch_id);
      item.batch = announcedBatch ?? createBatch(state, item.sku, record.warehouse_id);
    }
    const arrived = item.arrived_quantity ?? 0;
    receive(item.sku, record.warehouse_id, arrived - item.applied, item.batch);
    item.applied = arrived;
  });
}

/**
 * Moves a shipment to `status` (either version's name). Leaving `restocked` reopens it
 * (`reopened_at`); reaching `restocked` again counts a completed reopen. The first status at the
 * warehouse (delivered/received or later) sets `arrived_at`. Returns whether the status changed.
 */
export function advanceRestocking(
  state: MockState,
  record: RestockingRecord,
  status: RestockingStatusV1 | RestockingStatusV2,
  quantities: MockRestockQuantities | undefined,
  now: Date,
): boolean {
  const next = toV1Status(status);
  if (quantities !== undefined && next !== 'restocked') {
    throw new TypeError(`Quantities apply only when moving to 'restocked', not '${status}'`);
  }
  if (quantities !== undefined) checkQuantities(quantities);
  if (next === record.status) return false;
  const at = now.toISOString();
  if (record.status === 'restocked') {
    record.reopened = true;
    record.reopened_at = at;
  }
  if (next === 'restocked') {
    restock(state, record, quantities ?? {});
    if (record.reopened) {
      record.completed_reopens_count += 1;
      record.reopened = false;
    }
  }
  if (record.arrived_at === null && AT_WAREHOUSE.has(next)) record.arrived_at = at;
  record.status = next;
  record.updated_at = at;
  return true;
}
