/**
 * Shipments and warehouses as the API returns them. The spec does not show these records: the
 * fields are the provider notes', documented on the schemas. `test/schemas/interfaces.test-d.ts`
 * proves each interface equal to its schema's output.
 */
import type { Fields } from '../common.js';
import type { ShipmentItemSchema, ShipmentSchema, ShipmentSerialNumberSchema } from '../shipments.js';
import type { WarehouseSchema } from '../warehouses.js';

/** A serial number recorded for a shipped unit. */
export interface ShipmentSerialNumber extends Fields<typeof ShipmentSerialNumberSchema> {}

/** An item of a shipment. */
export interface ShipmentItem extends Fields<typeof ShipmentItemSchema> {}

/** A shipment (an outbound parcel of an order) as `GET /shipments` returns it. */
export interface Shipment extends Fields<typeof ShipmentSchema> {}

/**
 * A warehouse. Only `id` is documented; `name` is what the answers seen carry. Every other field
 * the API sends stays on the object (see README, "Types").
 */
export interface Warehouse extends Fields<typeof WarehouseSchema> {}
