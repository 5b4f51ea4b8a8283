/**
 * Views: records turned into the bodies the API answers with. Every view is a fresh object that
 * shares nothing mutable with the state (so callers may keep or change it).
 */
import { availableUnits } from './inventory.js';
import { ORDER_TOTALS } from './orders.js';
import type {
  MockItemBatch,
  MockOrder,
  MockOrderItem,
  MockRestockingItemV1,
  MockRestockingItemV2,
  MockRestockingShipmentV1,
  MockRestockingShipmentV2,
  MockSku,
} from './resources.js';
import { toV2Status } from './restocking-status.js';
import type {
  BatchTake,
  MockState,
  OrderRecord,
  RestockingItemRecord,
  RestockingRecord,
  SkuRecord,
} from './state.js';

/** The fields `keys` of `record`, in that order. */
function pick<T, const K extends keyof T>(record: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, record[key]])) as Pick<T, K>;
}

/**
 * A SKU with its inventory: totals, one row per warehouse of the mock, and its batches. `stocked`
 * and `total` are the units available for sale (on hand − reserved), `reserved` the units held
 * for fulfillable orders (see `inventory.ts`).
 */
export function skuView(sku: SkuRecord, state: MockState): MockSku {
  const perWarehouse = state.warehouses.map(({ id }) => {
    const level = sku.stock.get(id);
    const stocked = availableUnits(level);
    return { warehouse_id: id, reserved: level?.reserved ?? 0, stocked, total: stocked };
  });
  const sum = (key: 'reserved' | 'stocked') => perWarehouse.reduce((total, row) => total + row[key], 0);
  const stocked = sum('stocked');
  return {
    ...pick(sku, ['id', 'merchant_sku_id', 'name', 'barcode', 'batch_tracking_enabled', 'cost_in_cents']),
    cost_in_cent: sku.cost_in_cents,
    ...pick(sku, ['country_code_of_origin', 'hs_code', 'image_url', 'weight_in_kg', 'created_at', 'status']),
    fulfilled_by: 'service',
    dangerous_good: false,
    hazardous_good: false,
    h_codes: [],
    un_names: [],
    inventory: { reserved: sum('reserved'), stocked, total: stocked },
    inventory_per_warehouse: perWarehouse,
    inventory_batches: sku.batches.map((b) => ({
      ...pick(b, ['id', 'name', 'tracking_code', 'expiry_date']),
      stocked_quantities: { warehouse_id: b.warehouseId, quantity: availableUnits(b) },
    })),
  };
}

/** Batches taken by an item, as order and shipment items show them. */
export function itemBatches(takes: readonly BatchTake[]): MockItemBatch[] {
  return takes.map(({ batch, quantity }) => ({
    ...pick(batch, ['name', 'tracking_code', 'expiry_date']),
    quantity,
  }));
}

/** An order; `includeBatches` adds `batches` to its items (`include=batches`). */
export function orderView(order: OrderRecord, includeBatches: boolean): MockOrder {
  return structuredClone({
    ...pick(order, ['id', 'merchant_order_id', 'customer_order_number', 'status']),
    items: order.items.map(
      (item): MockOrderItem => ({
        ...pick(item, ['id', 'merchant_item_id']),
        sku_id: item.sku.id,
        merchant_sku_id: item.sku.merchant_sku_id,
        ...pick(item, ['quantity', 'price_per_unit_in_cents', 'price_per_unit_in_cents_with_discount']),
        ...(includeBatches && { batches: itemBatches(item.batches) }),
      }),
    ),
    ...pick(order, [
      'shipping_address',
      'carrier_preference',
      'tags',
      'custom_metadata',
      'created_at',
      'currency',
    ]),
    ...pick(order, ['financial_status', 'payment_method', ...ORDER_TOTALS]),
  });
}

function restockingItemV1(item: RestockingItemRecord): MockRestockingItemV1 {
  const { batch } = item;
  return {
    id: item.id,
    sku_id: item.sku.id,
    ...pick(item, ['announced_quantity', 'arrived_quantity', 'damaged_quantity', 'missing_quantity']),
    inventory_batches:
      batch && item.arrived_quantity !== null
        ? [
            {
              ...pick(batch, ['id', 'name', 'tracking_code', 'expiry_date']),
              arrived_quantity: item.arrived_quantity,
            },
          ]
        : [],
  };
}

/** A restocking shipment as version 1 answers it (and as the webhook sends it). */
export function restockingV1View(record: RestockingRecord): MockRestockingShipmentV1 {
  return {
    ...pick(record, ['id', 'merchant_id', 'warehouse_id', 'estimated_arrival_date', 'delivery_option']),
    ...pick(record, ['tracking_code', 'po_number', 'supplier_name', 'status', 'barcode']),
    restocking_shipment_items: record.items.map(restockingItemV1),
  };
}

/** A restocking shipment as version 2 answers it. */
export function restockingV2View(record: RestockingRecord): MockRestockingShipmentV2 {
  return {
    ...pick(record, ['id', 'warehouse_id', 'delivery_option', 'estimated_arrival_date', 'po_number']),
    ...pick(record, ['supplier_name', 'tracking_code', 'priority']),
    restocking_shipment_items: record.items.map(
      (item): MockRestockingItemV2 => ({
        ...restockingItemV1(item),
        sku_code: item.sku.merchant_sku_id,
        ...pick(item, ['remarks', 'total_cost_in_cents']),
        inventory_batch_id: item.inventory_batch_id ?? item.batch?.id ?? null,
      }),
    ),
    barcode: record.barcode,
    status: toV2Status(record.status),
    ...pick(record, ['created_at', 'updated_at', 'arrived_at', 'reopened_at', 'completed_reopens_count']),
  };
}
