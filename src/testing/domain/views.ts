/**
 * Views: records turned into the bodies the API answers with. Every view is a fresh object that
 * shares nothing mutable with the state (so callers may keep or change it).
 */
import { availableUnits } from './inventory.js';
import type {
  MockItemBatch,
  MockOrder,
  MockOrderItem,
  MockRestockingItemBatch,
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
  OrderItemRecord,
  OrderRecord,
  RestockingItemRecord,
  RestockingRecord,
  SkuRecord,
} from './state.js';

/**
 * A SKU with its inventory: totals, one row per warehouse of the mock, and its batches. `stocked`
 * and `total` are the units available for sale (on hand − reserved), `reserved` the units held
 * for fulfillable orders (see `inventory.ts`).
 */
export function skuView(sku: SkuRecord, state: MockState): MockSku {
  let reserved = 0;
  let stocked = 0;
  const perWarehouse: MockSku['inventory_per_warehouse'] = [];
  for (const warehouse of state.warehouses) {
    const level = sku.stock.get(warehouse.id);
    const r = level?.reserved ?? 0;
    const s = availableUnits(level);
    reserved += r;
    stocked += s;
    perWarehouse.push({ warehouse_id: warehouse.id, reserved: r, stocked: s, total: s });
  }
  return {
    id: sku.id,
    merchant_sku_id: sku.merchant_sku_id,
    name: sku.name,
    barcode: sku.barcode,
    batch_tracking_enabled: sku.batch_tracking_enabled,
    cost_in_cents: sku.cost_in_cents,
    cost_in_cent: sku.cost_in_cents,
    country_code_of_origin: sku.country_code_of_origin,
    hs_code: sku.hs_code,
    image_url: sku.image_url,
    weight_in_kg: sku.weight_in_kg,
    created_at: sku.created_at,
    status: sku.status,
    fulfilled_by: 'service',
    dangerous_good: false,
    hazardous_good: false,
    h_codes: [],
    un_names: [],
    inventory: { reserved, stocked, total: stocked },
    inventory_per_warehouse: perWarehouse,
    inventory_batches: sku.batches.map((b) => ({
      id: b.id,
      name: b.name,
      tracking_code: b.tracking_code,
      expiry_date: b.expiry_date,
      stocked_quantities: { warehouse_id: b.warehouseId, quantity: availableUnits(b) },
    })),
  };
}

/** Batches taken by an item, as order and shipment items show them. */
export function itemBatches(takes: readonly BatchTake[]): MockItemBatch[] {
  return takes.map(({ batch, quantity }) => ({
    name: batch.name,
    tracking_code: batch.tracking_code,
    expiry_date: batch.expiry_date,
    quantity,
  }));
}

function orderItemView(item: OrderItemRecord, includeBatches: boolean): MockOrderItem {
  const view: MockOrderItem = {
    id: item.id,
    merchant_item_id: item.merchant_item_id,
    sku_id: item.sku.id,
    merchant_sku_id: item.sku.merchant_sku_id,
    quantity: item.quantity,
    price_per_unit_in_cents: item.price_per_unit_in_cents,
    price_per_unit_in_cents_with_discount: item.price_per_unit_in_cents_with_discount,
  };
  if (includeBatches) view.batches = itemBatches(item.batches);
  return view;
}

/** An order; `includeBatches` adds `batches` to its items (`include=batches`). */
export function orderView(order: OrderRecord, includeBatches: boolean): MockOrder {
  return {
    id: order.id,
    merchant_order_id: order.merchant_order_id,
    customer_order_number: order.customer_order_number,
    status: order.status,
    items: order.items.map((item) => orderItemView(item, includeBatches)),
    shipping_address: { ...order.shipping_address },
    carrier_preference: order.carrier_preference,
    tags: [...order.tags],
    custom_metadata: order.custom_metadata === null ? null : structuredClone(order.custom_metadata),
    created_at: order.created_at,
    currency: order.currency,
    financial_status: order.financial_status,
    payment_method: order.payment_method,
    total_price_in_cents: order.total_price_in_cents,
    total_net_revenue_in_cents: order.total_net_revenue_in_cents,
    total_tax_in_cents: order.total_tax_in_cents,
    total_net_refunds_in_cents: order.total_net_refunds_in_cents,
    total_tax_refunds_in_cents: order.total_tax_refunds_in_cents,
  };
}

function restockingBatches(item: RestockingItemRecord): MockRestockingItemBatch[] {
  if (!item.batch || item.arrived_quantity === null) return [];
  const { batch } = item;
  return [
    {
      id: batch.id,
      name: batch.name,
      tracking_code: batch.tracking_code,
      expiry_date: batch.expiry_date,
      arrived_quantity: item.arrived_quantity,
    },
  ];
}

function restockingItemV1(item: RestockingItemRecord): MockRestockingItemV1 {
  return {
    id: item.id,
    sku_id: item.sku.id,
    announced_quantity: item.announced_quantity,
    arrived_quantity: item.arrived_quantity,
    damaged_quantity: item.damaged_quantity,
    missing_quantity: item.missing_quantity,
    inventory_batches: restockingBatches(item),
  };
}

/** A restocking shipment as version 1 answers it (and as the webhook sends it). */
export function restockingV1View(record: RestockingRecord): MockRestockingShipmentV1 {
  return {
    id: record.id,
    merchant_id: record.merchant_id,
    warehouse_id: record.warehouse_id,
    estimated_arrival_date: record.estimated_arrival_date,
    delivery_option: record.delivery_option,
    tracking_code: record.tracking_code,
    po_number: record.po_number,
    supplier_name: record.supplier_name,
    status: record.status,
    barcode: record.barcode,
    restocking_shipment_items: record.items.map(restockingItemV1),
  };
}

/** A restocking shipment as version 2 answers it. */
export function restockingV2View(record: RestockingRecord): MockRestockingShipmentV2 {
  return {
    id: record.id,
    warehouse_id: record.warehouse_id,
    delivery_option: record.delivery_option,
    estimated_arrival_date: record.estimated_arrival_date,
    po_number: record.po_number,
    supplier_name: record.supplier_name,
    tracking_code: record.tracking_code,
    priority: record.priority,
    restocking_shipment_items: record.items.map(
      (item): MockRestockingItemV2 => ({
        ...restockingItemV1(item),
        sku_code: item.sku.merchant_sku_id,
        remarks: item.remarks,
        total_cost_in_cents: item.total_cost_in_cents,
        inventory_batch_id: item.inventory_batch_id ?? item.batch?.id ?? null,
      }),
    ),
    barcode: record.barcode,
    status: toV2Status(record.status),
    created_at: record.created_at,
    updated_at: record.updated_at,
    arrived_at: record.arrived_at,
    reopened_at: record.reopened_at,
    completed_reopens_count: record.completed_reopens_count,
  };
}
