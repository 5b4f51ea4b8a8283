/**
 * Inventory movements: orders reserve stock, cancelling releases it, fulfilling ships it, and a
 * restocked shipment adds what arrived (per batch for batch-tracked SKUs).
 *
 * Model (spec section 2.1), per warehouse and per batch: the mock keeps the units on hand
 * (physically in storage) and the units reserved for fulfillable orders. The API shows
 * - `reserved`: units reserved for orders;
 * - `stocked`: units available for sale = on hand − reserved (never below 0; the mock has no buffer);
 * - `total`: units available, equal to `stocked` (no buffer);
 * - a batch's `stocked_quantities.quantity`: its units available for sale, likewise.
 *
 * So an order moves units from `stocked` to `reserved`; cancelling moves them back; fulfilling
 * lowers `reserved` (the units leave the warehouse) and changes nothing else; restocking raises
 * `stocked`. Quantities never go below 0.
 */
import type { BatchRecord, BatchTake, MockState, Reservation, SkuRecord, StockLevel } from './state.js';

/** The stock level of a SKU in a warehouse (created at zero on first use). */
export function stockLevel(sku: SkuRecord, warehouseId: number): StockLevel {
  const level = sku.stock.get(warehouseId) ?? { reserved: 0, onHand: 0 };
  sku.stock.set(warehouseId, level);
  return level;
}

/** Units available for sale out of `onHand` units of which `reserved` are held (never below 0). */
export function availableUnits(stock: { onHand: number; reserved: number } | undefined): number {
  return stock ? Math.max(0, stock.onHand - stock.reserved) : 0;
}

/**
 * Reserves `quantity` units of a SKU: in the first warehouse (in the mock's order) with enough
 * available stock, else in the first warehouse. Batch-tracked SKUs take their batches in that
 * warehouse oldest first (the mock's batches have no expiry date to order them by).
 */
export function reserve(state: MockState, sku: SkuRecord, quantity: number): Reservation {
  const warehouse =
    state.warehouses.find((w) => availableUnits(sku.stock.get(w.id)) >= quantity) ?? state.warehouses[0]!;
  stockLevel(sku, warehouse.id).reserved += quantity;
  const batches: BatchTake[] = [];
  if (sku.batch_tracking_enabled) {
    let left = quantity;
    for (const batch of sku.batches) {
      if (left === 0) break;
      if (batch.warehouseId !== warehouse.id || availableUnits(batch) === 0) continue;
      const take = Math.min(left, availableUnits(batch));
      batch.reserved += take;
      batches.push({ batch, quantity: take });
      left -= take;
    }
  }
  return { warehouseId: warehouse.id, quantity, batches };
}

/** Gives reserved units back (cancelled or changed order): they are available again. */
export function release(sku: SkuRecord, reservation: Reservation): void {
  const level = stockLevel(sku, reservation.warehouseId);
  level.reserved = Math.max(0, level.reserved - reservation.quantity);
  for (const { batch, quantity } of reservation.batches)
    batch.reserved = Math.max(0, batch.reserved - quantity);
}

/**
 * Ships reserved units: they leave the warehouse (on hand and reserved both go down), so the
 * units available for sale do not change.
 */
export function ship(sku: SkuRecord, reservation: Reservation): void {
  release(sku, reservation);
  receive(sku, reservation.warehouseId, -reservation.quantity, null);
  for (const { batch, quantity } of reservation.batches) batch.onHand = Math.max(0, batch.onHand - quantity);
}

/** Adds (or, with a negative `delta`, removes) units on hand, and in `batch` when given. */
export function receive(sku: SkuRecord, warehouseId: number, delta: number, batch: BatchRecord | null): void {
  const level = stockLevel(sku, warehouseId);
  level.onHand = Math.max(0, level.onHand + delta);
  if (batch) batch.onHand = Math.max(0, batch.onHand + delta);
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
    onHand: 0,
    reserved: 0,
  };
  sku.batches.push(batch);
  state.batches.set(id, batch);
  return batch;
}
