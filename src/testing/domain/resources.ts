/**
 * The resources as the mock answers them (public types): SKUs with their inventory, orders,
 * restocking shipments in both versions, outbound shipments, returns and warehouses. The views
 * (`views.ts`) build them from the internal records (`state.ts`).
 */
import type { Address } from '../../schemas/types/orders.js';
import type { JsonObject, JsonValue } from '../engine/json.js';
import type { RestockingStatusV1, RestockingStatusV2 } from './restocking-status.js';

/** A warehouse of the mock. Only `id` is required; every other field is answered as given. */
export interface MockWarehouse {
  /** Warehouse id (the `warehouse_id` of inventory and restocking shipments). */
  id: number;
  /** Display name. */
  name?: string;
  /** Any other field, answered as given by `GET /warehouses`. */
  [key: string]: JsonValue | undefined;
}

/**
 * Inventory figures of a SKU (over all warehouses, or in one), as spec section 2.1 defines them.
 * The mock keeps the units on hand and the units reserved; it shows:
 * - `reserved`: units reserved for fulfillable orders;
 * - `stocked`: units available for sale = on hand − reserved (never below 0; no buffer);
 * - `total`: units available, equal to `stocked` (the mock has no buffer).
 *
 * An order moves units from `stocked` to `reserved` (cancelling moves them back); `fulfillOrder`
 * ships them, so `reserved` goes down and nothing else changes; a restocked shipment adds the
 * arrived units to `stocked`. E.g. 10 restocked, then an order of 2: `{ reserved: 2, stocked: 8,
 * total: 8 }`; once fulfilled: `{ reserved: 0, stocked: 8, total: 8 }`.
 */
export interface MockInventory {
  /** Units reserved for fulfillable orders (not yet shipped). */
  reserved: number;
  /** Units available for sale: on hand minus reserved (never below 0). */
  stocked: number;
  /** Units available; equals `stocked` (the mock has no buffer). */
  total: number;
}

/** A SKU as the mock answers it (`GET /skus`, `POST /skus`, ...). */
export interface MockSku {
  id: number;
  merchant_sku_id: string;
  name: string;
  barcode: string | null;
  batch_tracking_enabled: boolean;
  cost_in_cents: number | null;
  /** Same value as `cost_in_cents` (the provider's sample responses carry both). */
  cost_in_cent: number | null;
  country_code_of_origin: string | null;
  hs_code: string | null;
  image_url: string | null;
  weight_in_kg: number | null;
  created_at: string;
  status: 'active' | 'deleted';
  fulfilled_by: 'service';
  dangerous_good: boolean;
  hazardous_good: boolean;
  h_codes: string[];
  un_names: string[];
  inventory: MockInventory;
  /** One row per warehouse of the mock. */
  inventory_per_warehouse: (MockInventory & { warehouse_id: number })[];
  inventory_batches: MockSkuBatch[];
}

/** An inventory batch of a SKU. A batch lives in one warehouse. */
export interface MockSkuBatch {
  id: number;
  name: string;
  tracking_code: string | null;
  expiry_date: string | null;
  /** Units of the batch available for sale in its warehouse (on hand − reserved, as `stocked`). */
  stocked_quantities: { warehouse_id: number; quantity: number };
}

/** A shipping address as the mock answers it: the SDK's `Address` (every field, `null` when not given). */
export type MockAddress = Address;

/** A batch allocated to an order item or a shipment item. */
export interface MockItemBatch {
  name: string;
  tracking_code: string | null;
  expiry_date: string | null;
  quantity: number;
}

/** An order line item as the mock answers it. */
export interface MockOrderItem {
  id: number;
  merchant_item_id: string;
  sku_id: number;
  merchant_sku_id: string;
  quantity: number;
  price_per_unit_in_cents: number;
  price_per_unit_in_cents_with_discount: number | null;
  /** Only with `include=batches`: the batches reserved for the item. */
  batches?: MockItemBatch[];
}

/** An order as the mock answers it. */
export interface MockOrder {
  id: number;
  merchant_order_id: string;
  customer_order_number: string | null;
  status: 'fulfillable' | 'unfulfillable' | 'fulfilled';
  items: MockOrderItem[];
  shipping_address: MockAddress;
  carrier_preference: string | null;
  tags: string[];
  custom_metadata: JsonObject | null;
  created_at: string;
  currency: string;
  financial_status: string | null;
  payment_method: string | null;
  total_price_in_cents: number | null;
  total_net_revenue_in_cents: number | null;
  total_tax_in_cents: number | null;
  total_net_refunds_in_cents: number | null;
  total_tax_refunds_in_cents: number | null;
}

/** A batch received for a restocking shipment item (once restocked). */
export interface MockRestockingItemBatch {
  id: number;
  name: string;
  tracking_code: string | null;
  expiry_date: string | null;
  arrived_quantity: number;
}

/** A version 1 restocking shipment item. */
export interface MockRestockingItemV1 {
  id: number;
  sku_id: number;
  announced_quantity: number;
  /** `null` until the shipment is restocked. */
  arrived_quantity: number | null;
  /** `null` until the shipment is restocked. */
  damaged_quantity: number | null;
  /** `null` until the shipment is restocked. */
  missing_quantity: number | null;
  inventory_batches: MockRestockingItemBatch[];
}

/** A version 2 restocking shipment item. */
export interface MockRestockingItemV2 extends MockRestockingItemV1 {
  sku_code: string;
  remarks: string | null;
  total_cost_in_cents: number | null;
  inventory_batch_id: number | null;
}

/** A restocking shipment in its version 1 view (also the webhook body). */
export interface MockRestockingShipmentV1 {
  id: number;
  merchant_id: number;
  warehouse_id: number;
  estimated_arrival_date: string | null;
  delivery_option: string | null;
  tracking_code: string | null;
  po_number: string | null;
  supplier_name: string | null;
  status: RestockingStatusV1;
  barcode: string;
  restocking_shipment_items: MockRestockingItemV1[];
}

/** A restocking shipment in its version 2 view. */
export interface MockRestockingShipmentV2 {
  id: number;
  warehouse_id: number;
  delivery_option: string | null;
  estimated_arrival_date: string | null;
  po_number: string | null;
  supplier_name: string | null;
  tracking_code: string | null;
  priority: boolean;
  restocking_shipment_items: MockRestockingItemV2[];
  barcode: string;
  status: RestockingStatusV2;
  created_at: string;
  updated_at: string;
  arrived_at: string | null;
  reopened_at: string | null;
  completed_reopens_count: number;
}

/** An outbound shipment (`GET /shipments`), created by `api.fulfillOrder`. */
export interface MockShipment {
  id: number;
  order_id: number;
  merchant_order_id: string;
  created_at: string;
  shipped_at: string;
  delivered_at: string | null;
  shipment_provider: string;
  status: string;
  delivery_status: string;
  items: MockShipmentItem[];
}

/** An item of an outbound shipment. */
export interface MockShipmentItem {
  id: number;
  merchant_item_id: string | null;
  quantity: number;
  sku: { id: number; sku_code: string };
  batches: MockItemBatch[];
  serial_numbers: { serial_number: string }[];
}

/** A return (`GET /returns`), created by `api.createReturn`. */
export interface MockReturn {
  id: number;
  status: 'on_the_way' | 'arrived' | 'processing' | 'action_required' | 'handling_completed';
  carrier: string | null;
  tracking_code: string | null;
  tracking_url: string | null;
  created_at: string;
  received_at: string | null;
  started_processing_at: string | null;
  completed_handling_at: string | null;
  order: { id: number; merchant_order_id: string; customer_order_number: string | null };
  photos: { id: number; image_url: string; photo_type: string }[];
  return_reason: MockReturnReason | null;
  return_reason_type: 'active' | 'passive' | null;
  return_items: MockReturnItem[];
  return_line_items: JsonObject[];
}

/** Reasons of a return. */
export type MockReturnReason =
  | 'customer_return'
  | 'not_picked_up'
  | 'invalid_address'
  | 'rejected_by_customer'
  | 'customs_documents_missing'
  | 'other';

/** An announced item of a return. */
export interface MockReturnItem {
  id: number;
  quantity: number;
  sku: { id: number; sku_code: string };
  customer_return_reason: string | null;
  customer_return_message: string | null;
}
