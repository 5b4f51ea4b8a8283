/**
 * Restocking shipment records as the API sends them, version 1 (also the webhook payload) and
 * version 2, with their status and delivery-option enums. Apart from the request bodies
 * (`restocking-shipments.ts`), so that an app that only verifies webhooks bundles no request schema.
 */
import * as z from 'zod/mini';
import { batchShape, openEnum, orNull, sometimes } from './common.js';
import { RESTOCKING_SHIPMENT_V1_STATUSES, RESTOCKING_SHIPMENT_V2_STATUSES } from './statuses.js';

export { RESTOCKING_SHIPMENT_V1_STATUSES, RESTOCKING_SHIPMENT_V2_STATUSES };

// ---------------------------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------------------------

/** The four delivery options of a restocking shipment (both versions). */
export const DELIVERY_OPTIONS = ['courier', 'dropoff', 'service_freight', 'postal'] as const;
/** Delivery option in responses (open enum). */
export const DeliveryOptionSchema = openEnum(DELIVERY_OPTIONS);
/** Delivery option in responses: a known value or one this SDK does not know yet. */
export type DeliveryOption = z.infer<typeof DeliveryOptionSchema>;

/**
 * Status of a version 1 restocking shipment (open enum): `created` (not yet shipped), `shipped`
 * (on the way; initial status through the API), `delivered` (at the warehouse, not verified),
 * `arrived` (documentation complete), `processing` (being put into storage), `restocked` (done),
 * `on_hold`, `cancelled`.
 */
export const RestockingShipmentV1StatusSchema = openEnum(RESTOCKING_SHIPMENT_V1_STATUSES);
/** Status of a version 1 restocking shipment. */
export type RestockingShipmentV1Status = z.infer<typeof RestockingShipmentV1StatusSchema>;

/** Status of a version 2 restocking shipment (open enum). */
export const RestockingShipmentV2StatusSchema = openEnum(RESTOCKING_SHIPMENT_V2_STATUSES);
/** Status of a version 2 restocking shipment. */
export type RestockingShipmentV2Status = z.infer<typeof RestockingShipmentV2StatusSchema>;

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/** A batch received for an item of a restocking shipment (see the `RestockingShipmentItemBatch` type). */
export const RestockingShipmentItemBatchSchema = z.looseObject({
  id: z.number(),
  ...batchShape,
  arrived_quantity: orNull(z.number()),
});

/**
 * An item of a restocking shipment as both versions return it (see the `RestockingShipmentItem`
 * type). The quantities found on arrival are `null` until the shipment is `restocked`.
 */
export const RestockingShipmentItemSchema = z.looseObject({
  id: orNull(z.number()),
  sku_id: orNull(z.number()),
  merchant_sku_id: sometimes(z.string()),
  announced_quantity: z.number(),
  arrived_quantity: orNull(z.number()),
  damaged_quantity: orNull(z.number()),
  missing_quantity: orNull(z.number()),
  inventory_batches: z._default(z.array(RestockingShipmentItemBatchSchema), []),
});

/** An item of a version 2 restocking shipment (see the `RestockingShipmentItemV2` type). */
export const RestockingShipmentItemV2Schema = z.extend(RestockingShipmentItemSchema, {
  sku_code: orNull(z.string()),
  remarks: orNull(z.string()),
  total_cost_in_cents: orNull(z.number()),
  inventory_batch_id: orNull(z.number()),
});

/**
 * A version 1 restocking shipment as the API returns it (see the `RestockingShipmentV1` type); also
 * the body of the "Restocking shipment status updated" webhook (spec §6).
 */
export const RestockingShipmentV1Schema = z.looseObject({
  id: z.number(),
  merchant_id: z.number(),
  warehouse_id: z.number(),
  estimated_arrival_date: orNull(z.string()),
  delivery_option: orNull(DeliveryOptionSchema),
  tracking_code: orNull(z.string()),
  po_number: orNull(z.string()),
  supplier_name: orNull(z.string()),
  status: RestockingShipmentV1StatusSchema,
  barcode: orNull(z.string()),
  restocking_shipment_items: z.array(RestockingShipmentItemSchema),
});

/** A version 2 restocking shipment as the API returns it (see the `RestockingShipmentV2` type). */
export const RestockingShipmentV2Schema = z.looseObject({
  id: z.number(),
  warehouse_id: z.number(),
  delivery_option: DeliveryOptionSchema,
  estimated_arrival_date: orNull(z.string()),
  po_number: orNull(z.string()),
  supplier_name: orNull(z.string()),
  tracking_code: orNull(z.string()),
  priority: z._default(z.boolean(), false),
  restocking_shipment_items: z.array(RestockingShipmentItemV2Schema),
  barcode: orNull(z.string()),
  status: RestockingShipmentV2StatusSchema,
  created_at: z.string(),
  updated_at: z.string(),
  arrived_at: orNull(z.string()),
  reopened_at: orNull(z.string()),
  completed_reopens_count: z._default(z.number(), 0),
});
