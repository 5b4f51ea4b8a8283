/**
 * Restocking shipments as the API returns them (spec §2.5, §9.2; provider notes): named interfaces
 * over the schemas' outputs, their fields documented on the schemas.
 * `test/schemas/interfaces.test-d.ts` proves each equal to its schema's output.
 */
import type { Fields } from '../common.js';
import type {
  RestockingShipmentItemBatchSchema,
  RestockingShipmentItemSchema,
  RestockingShipmentItemV2Schema,
  RestockingShipmentV1Schema,
  RestockingShipmentV2Schema,
} from '../restocking-shipment-records.js';

/** A batch received for an item of a restocking shipment. */
export interface RestockingShipmentItemBatch extends Fields<typeof RestockingShipmentItemBatchSchema> {}

/** An item of a restocking shipment, as both versions return it. */
export interface RestockingShipmentItem extends Fields<typeof RestockingShipmentItemSchema> {}

/** An item of a version 2 restocking shipment: the version 1 fields and four of its own (spec §9.2). */
export interface RestockingShipmentItemV2 extends Fields<typeof RestockingShipmentItemV2Schema> {}

/**
 * A version 1 restocking shipment as the API returns it; also the body of the webhook (spec §6),
 * which shows a version 2 shipment moving to `received` as `delivered`.
 */
export interface RestockingShipmentV1 extends Fields<typeof RestockingShipmentV1Schema> {}

/** A version 2 restocking shipment as the API returns it. */
export interface RestockingShipmentV2 extends Fields<typeof RestockingShipmentV2Schema> {}
