/**
 * Restocking shipment rules: create (v1, v2), update (v1 PUT keeps omitted fields and replaces the
 * item list; v2 PUT replaces the resource) within the edit window, and the status machine driven
 * by the `advanceRestockingShipment` control method (reopen counters, arrival time, stock added on
 * restocking). What each status means is read from the table in `restocking-status.ts`.
 */
import { DELIVERY_OPTIONS } from '../../schemas/restocking-shipments.js';
import type { JsonValue } from '../engine/json.js';
import { Fields, Invalid, isBlank, isObject } from '../engine/validation.js';
import { createBatch, receive } from './inventory.js';
import {
  INITIAL_RESTOCKING_STATUS,
  NOT_EDITABLE,
  restockingStatus,
  toV1Status,
} from './restocking-status.js';
import type { MockState, RestockingItemRecord, RestockingRecord, SkuRecord } from './state.js';

/**
 * Quantities of `api.advanceRestockingShipment(id, 'restocked', ...)`: one number for every item, or
 * a record keyed by `sku_id` (items of SKUs not in the record get the default).
 */
export type MockQuantities = number | { readonly [skuId: number]: number };

/** What arrived, per item, when a restocking shipment is restocked. */
export interface MockRestockQuantities {
  /** Arrived quantity. Default: announced − damaged − missing (never below 0). */
  arrived?: MockQuantities;
  /** Damaged quantity. Default 0. */
  damaged?: MockQuantities;
  /** Missing quantity. Default: announced − arrived − damaged when `arrived` is given (never below 0), else 0. */
  missing?: MockQuantities;
}

/** The figures of a restock, as `MockRestockQuantities` names them. */
export const RESTOCK_FIGURES = ['arrived', 'damaged', 'missing'] as const;

const ITEMS = 'restocking_shipment_items';

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
  delivery_option?: (typeof DELIVERY_OPTIONS)[number] | null | undefined;
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
    status: INITIAL_RESTOCKING_STATUS,
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
 * `PUT /merchant_api/v{1,2}/restocking_shipments/{id}`, allowed while the status is editable
 * (`created` or `shipped`).
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
  if (!restockingStatus(record.status).editable) return new Invalid([NOT_EDITABLE]);
  const draft = readShipment(state, body, version, record);
  if (draft instanceof Invalid) return draft;
  // The fields sent (version 2 sends them all): `priority` is never null here (false when omitted).
  const { items: _, ...fields } = draft;
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined) Object.assign(record, { [key]: value });
  record.items = toItems(state, draft.items ?? []);
  record.updated_at = now.toISOString();
  return record;
}

function quantityFor(quantities: MockQuantities | undefined, skuId: number): number | undefined {
  return typeof quantities === 'object' ? quantities[skuId] : quantities;
}

/** Sets what arrived for each item and moves the difference with the stock already added. */
function restock(state: MockState, record: RestockingRecord, quantities: MockRestockQuantities): void {
  for (const item of record.items) {
    const skuId = item.sku.id;
    const arrived = quantityFor(quantities.arrived, skuId);
    const damaged = quantityFor(quantities.damaged, skuId);
    const missing = quantityFor(quantities.missing, skuId);
    const given = arrived !== undefined || damaged !== undefined || missing !== undefined;
    // Restocked again without figures: the previous ones are kept.
    if (given || item.arrived_quantity === null) {
      const d = damaged ?? 0;
      const m = missing ?? (arrived === undefined ? 0 : Math.max(0, item.announced_quantity - arrived - d));
      item.arrived_quantity = arrived ?? Math.max(0, item.announced_quantity - d - m);
      item.damaged_quantity = d;
      item.missing_quantity = m;
    }
    if (item.sku.batch_tracking_enabled && !item.batch) {
      const announcedBatch =
        item.inventory_batch_id === null ? undefined : state.batches.get(item.inventory_batch_id);
      item.batch = announcedBatch ?? createBatch(state, item.sku, record.warehouse_id);
    }
    const total = item.arrived_quantity ?? 0;
    receive(item.sku, record.warehouse_id, total - item.applied, item.batch);
    item.applied = total;
  }
}

/**
 * Moves a shipment to `status` (either version's name; throws for an unknown one). `quantities`
 * come checked (only for `restocked`: `checkRestockQuantities`). Leaving
 * `restocked` reopens it (`reopened_at`); reaching `restocked` again counts a completed reopen. The
 * first status at the warehouse (delivered/received or later) sets `arrived_at`. Returns whether
 * the status changed.
 */
export function advanceRestocking(
  state: MockState,
  record: RestockingRecord,
  status: string,
  quantities: MockRestockQuantities | undefined,
  now: Date,
): boolean {
  const next = toV1Status(status);
  const reached = restockingStatus(next);
  if (next === record.status) return false;
  const at = now.toISOString();
  if (restockingStatus(record.status).restocks) {
    record.reopened = true;
    record.reopened_at = at;
  }
  if (reached.restocks) {
    restock(state, record, quantities ?? {});
    if (record.reopened) {
      record.completed_reopens_count += 1;
      record.reopened = false;
    }
  }
  if (record.arrived_at === null && reached.atWarehouse) record.arrived_at = at;
  record.status = next;
  record.updated_at = at;
  return true;
}
