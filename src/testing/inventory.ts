/**
 * Inventory movements: orders reserve stock, cancelling releases it, fulfilling ships it, and a
 * restocked shipment adds what arrived (per batch for batch-tracked SKUs).
 *
 * Model: `stocked` counts units in storage, reserved units included; `reserved` counts units held
 * for fulfillable orders; `total` equals `stocked` (no buffer). Quantities never go below 0.
 */
import type { BatchRecord, BatchTake, MockState, Reservation, SkuRecord, StockLevel } from './state.js';

/** The stock level of a SKU in a warehouse (created at zero on first use). */
export function stockLevel(sku: SkuRecord, warehouseId: number): StockLevel {
  let level = sku.stock.get(warehouseId);
  if (!level) {
    level = { reserved: 0, stocked: 0 };
    sku.stock.set(warehouseId, level);
  }
  return level;
}

function available(level: StockLevel | undefined): number {
  return level ? level.stocked - level.reserved : 0;
}

/**
 * Reserves `quantity` units of a SKU: in the first warehouse (in the mock's order) with enough
 * unreserved stock, else in the first warehouse. Batch-tracked SKUs take their batches in that
 * warehouse oldest first (the mock's batches have no expiry date to order them by).
 */
export function reserve(state: MockState, sku: SkuRecord, quantity: number): Reservation {
  const warehouse =
    state.warehouses.find((w) => available(sku.stock.get(w.id)) >= quantity) ?? state.warehouses[0]!;
  stockLevel(sku, warehouse.id).reserved += quantity;
  const batches: BatchTake[] = [];
  if (sku.batch_tracking_enabled) {
    let left = quantity;
    for (const batch of sku.batches) {
      if (left === 0) break;
      if (batch.warehouseId !== warehouse.id || batch.stocked <= batch.reserved) continue;
      const take = Math.min(left, batch.stocked - batch.reserved);
      batch.reserved += take;
      batches.push({ batch, quantity: take });
      left -= take;
    }
  }
  return { warehouseId: warehouse.id, quantity, batches };
}

/** Gives reserved units back (cancelled or changed order). */
export function release(sku: SkuRecord, reservation: Reservation): void {
  const level = stockLevel(sku, reservation.warehouseId);
  level.reserved = Math.max(0, level.reserved - reservation.quantity);
  for (const { batch, quantity } of reservation.batches)
    batch.reserved = Math.max(0, batch.reserved - quantity);
}

/** Ships reserved units: they leave both `reserved` and `stocked`. */
export function ship(sku: SkuRecord, reservation: Reservation): void {
  const level = stockLevel(sku, reservation.warehouseId);
  level.reserved = Math.max(0, level.reserved - reservation.quantity);
  level.stocked = Math.max(0, level.stocked - reservation.quantity);
  for (const { batch, quantity } of reservation.batches) {
    batch.reserved = Math.max(0, batch.reserved - quantity);
    batch.stocked = Math.max(0, batch.stocked - quantity);
  }
}

/** Adds (or, with a negative `delta`, removes) units in storage, and in `batch` when given. */
export function receive(sku: SkuRecord, warehouseId: number, delta: number, batch: BatchRecord | null): void {
  const level = stockLevel(sku, warehouseId);
  level.stocked = Math.max(0, level.stocked + delta);
  if (batch) batch.stocked = Math.max(0, batch.stocked + delta);
}

/** Creates an inventory batch of a SKU in a warehouse. */
export function createBatch(state: MockState, sku: SkuRecord, warehouseId: number): BatchRecord {
  const id = state.nextId('batch');
  const batch: BatchRecord = {
    id,
    skuId: sku.id,
    warehouseId,
    name: `${sku.merchant_sku_id}-B${id}`,
    tracking_code: `LOT-${String(id).padStart(6, '0')}`,
    expiry_date: null,
    stocked: 0,
    reserved: 0,
  };
  sku.batches.push(batch);
  state.batches.set(id, batch);
  return batch;
}
