/**
 * Shipments and warehouses as the API returns them. The spec does not show these records: the
 * fields are the provider notes', documented on the schemas. `test/schemas/interfaces.test-d.ts`
 * proves each interface equal to its schema's output.
 */
import type { Fields } from '../common.js';
import type { ShipmentItemSchema, ShipmentSchema, ShipmentSerialNumberSchema } from '../shipments.js';
import type { WarehouseSchema } from '../warehouses.js';
import type { OrderItemBatch } from './orders.js';
import type { SkuRef } from './skus.js';

/** A serial number recorded for a shipped unit. */
export interface ShipmentSerialNumber extends Fields<typeof ShipmentSerialNumberSchema> {}

/** An item of a shipment. */
export interface ShipmentItem
  extends Omit<Fields<typeof ShipmentItemSchema>, 'sku' | 'batches' | 'serial_numbers'> {
  /** The SKU shipped. */
  sku: SkuRef | null;
  /** Batches the units were taken from. */
  batches: OrderItemBatch[];
  /** Serial numbers of the units. */
  serial_numbers: ShipmentSerialNumber[];
}

/** A shipment (an outbound parcel of an order) as `GET /shipments` returns it. */
export interface Shipment extends Omit<Fields<typeof ShipmentSchema>, 'items'> {
  /** Items shipped. */
  items: ShipmentItem[];
}

/**
 * A warehouse. Only `id` is documented; `name` is what the answers seen carry. Every other field
 * the API sends stays on the object (see README, "Types").
 */
export interface Warehouse extends Fields<typeof WarehouseSchema> {}
