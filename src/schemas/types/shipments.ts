/**
 * Shipments and warehouses as the API returns them. The spec does not show these records: the
 * fields are the provider notes'. `test/schemas/interfaces.test-d.ts` proves each interface equal
 * to its schema's output.
 */
import type { ShipmentStatus } from '../shipments.js';
import type { OrderItemBatch } from './orders.js';
import type { SkuRef } from './skus.js';

/** A serial number recorded for a shipped unit. */
export interface ShipmentSerialNumber {
  /** The serial number. */
  serial_number: string;
}

/** An item of a shipment. */
export interface ShipmentItem {
  /** Shipment item id. */
  id: number;
  /** Merchant's id of the order line item; `null` for add-ons that are not order line items. */
  merchant_item_id: string | null;
  /** Quantity shipped. */
  quantity: number;
  /** The SKU shipped. */
  sku: SkuRef | null;
  /** Batches the units were taken from. */
  batches: OrderItemBatch[];
  /** Serial numbers of the units. */
  serial_numbers: ShipmentSerialNumber[];
}

/** A shipment (an outbound parcel of an order) as `GET /shipments` returns it. */
export interface Shipment {
  /** Provider's identifier. */
  id: number;
  /** Provider's id of the order. */
  order_id: number | null;
  /** Merchant's id of the order. */
  merchant_order_id: string | null;
  /** Creation time, ISO 8601 date-time string. */
  created_at: string | null;
  /** Time the parcel left the warehouse. */
  shipped_at: string | null;
  /** Time the parcel was delivered. */
  delivered_at: string | null;
  /** Carrier. */
  shipment_provider: string | null;
  /**
   * Warehouse status: `waiting_for_picking`, `on_hold`, `picking_assigned`, `in_picking`,
   * `picked`, `in_packing`, `packed`, `in_shipping`, `shipped`, `cancelled`.
   */
  status: ShipmentStatus;
  /** Human-readable delivery status ("In transit", "Delivered", "Returned to sender", …). */
  delivery_status: string | null;
  /** Items shipped. */
  items: ShipmentItem[];
}

/**
 * A warehouse. Only `id` is documented; `name` is what the answers seen carry. Every other field
 * the API sends stays on the object (see README, "Types").
 */
export interface Warehouse {
  /** Provider's identifier (the `warehouse_id` of SKU inventory and restocking shipments). */
  id: number;
  /** Name of the warehouse, where the API sends one (not documented). */
  name?: string | null;
}
