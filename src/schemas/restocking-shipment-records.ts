/**
 * Restocking shipment records as the API sends them, version 1 (also the webhook payload) and
 * version 2, with their status and delivery-option enums. Apart from the request bodies
 * (`restocking-shipments.ts`), so that an app that only verifies webhooks bundles no request schema.
 */
import * as z from 'zod/mini';
import { batchShape, type Fields, openEnum, orNull, sometimes } from './common.js';
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
  /** Inventory batch id. */
  id: z.number(),
  ...batchShape,
  /** Quantity of this batch that arrived. */
  arrived_quantity: orNull(z.number()),
});

/**
 * An item of a restocking shipment as both versions return it (see the `RestockingShipmentItem`
 * type). The quantities found on arrival are `null` until the shipment is `restocked`.
 */
export const RestockingShipmentItemSchema = z.looseObject({
  /** Item id. */
  id: orNull(z.number()),
  /** Provider's SKU id. */
  sku_id: orNull(z.number()),
  /** Merchant's SKU code, in the version 1 answers that carry it. */
  merchant_sku_id: sometimes(z.string()),
  /** Quantity announced. */
  announced_quantity: z.number(),
  /** Quantity that arrived: `null` until the shipment is `restocked`. */
  arrived_quantity: orNull(z.number()),
  /** Quantity that arrived damaged: `null` until the shipment is `restocked`. */
  damaged_quantity: orNull(z.number()),
  /** Quantity missing: `null` until the shipment is `restocked`. */
  missing_quantity: orNull(z.number()),
  /** Batches received (empty until restocked, and after a version 1 update). */
  inventory_batches: z._default(z.array(RestockingShipmentItemBatchSchema), []),
});

/** An item of a version 2 restocking shipment (see the `RestockingShipmentItemV2` type). */
export const RestockingShipmentItemV2Schema = z.extend(RestockingShipmentItemSchema, {
  /** Merchant's SKU code. */
  sku_code: orNull(z.string()),
  /** Remarks for the warehouse. */
  remarks: orNull(z.string()),
  /** Total cost of the item in cents. */
  total_cost_in_cents: orNull(z.number()),
  /** Inventory batch the item was announced for. */
  inventory_batch_id: orNull(z.number()),
});

/**
 * A version 1 restocking shipment as the API returns it (see the `RestockingShipmentV1` type); also
 * the body of the "Restocking shipment status updated" webhook (spec §6).
 */
export const RestockingShipmentV1Schema = z.looseObject({
  /** Provider's identifier. */
  id: z.number(),
  /** Merchant the shipment belongs to. */
  merchant_id: z.number(),
  /** Destination warehouse. */
  warehouse_id: z.number(),
  /** Estimated arrival, ISO 8601 date string, or `null`. */
  estimated_arrival_date: orNull(z.string()),
  /**
   * How the goods reach the warehouse: `courier`, `dropoff`, `service_freight` or `postal`; `null`
   * when the shipment was announced without one (version 1 does not require it).
   */
  delivery_option: orNull(DeliveryOptionSchema),
  /** Carrier tracking code. */
  tracking_code: orNull(z.string()),
  /** Purchase order number. */
  po_number: orNull(z.string()),
  /** Supplier name. */
  supplier_name: orNull(z.string()),
  /**
   * `created` (not yet shipped), `shipped` (on the way; where shipments created through the API
   * start), `delivered` (at the warehouse, not yet verified), `arrived` (documentation complete),
   * `processing` (being put into storage), `restocked` (done), `on_hold`, `cancelled`.
   */
  status: RestockingShipmentV1StatusSchema,
  /** Barcode of the shipment. */
  barcode: orNull(z.string()),
  /** Items. */
  restocking_shipment_items: z.array(RestockingShipmentItemSchema),
});

/** A version 2 restocking shipment as the API returns it (see the `RestockingShipmentV2` type). */
export const RestockingShipmentV2Schema = z.looseObject({
  /** Provider's identifier. */
  id: z.number(),
  /** Destination warehouse. */
  warehouse_id: z.number(),
  /**
   * How the goods reach the warehouse: `courier`, `dropoff`, `service_freight` or `postal`; `null`
   * for a shipment announced through version 1 without one.
   */
  delivery_option: orNull(DeliveryOptionSchema),
  /** Estimated arrival, ISO 8601 date string, or `null`. */
  estimated_arrival_date: orNull(z.string()),
  /** Purchase order number. */
  po_number: orNull(z.string()),
  /** Supplier name. */
  supplier_name: orNull(z.string()),
  /** Carrier tracking code. */
  tracking_code: orNull(z.string()),
  /** Prioritised for faster fulfillment (`false` unless set). */
  priority: z._default(z.boolean(), false),
  /** Items. */
  restocking_shipment_items: z.array(RestockingShipmentItemV2Schema),
  /** Barcode of the shipment. */
  barcode: orNull(z.string()),
  /**
   * `created`, `shipped` (where shipments created through the API start), `received` (at the
   * warehouse, not yet verified; version 1 and the webhook say `delivered`), `arrived`,
   * `processing`, `restocked`, `cancelled`.
   */
  status: RestockingShipmentV2StatusSchema,
  /** Creation time, ISO 8601 date-time string. */
  created_at: z.string(),
  /** Last update time, ISO 8601 date-time string. */
  updated_at: z.string(),
  /** Arrival time, or `null`. */
  arrived_at: orNull(z.string()),
  /** Most recent reopen, or `null` if never reopened. */
  reopened_at: orNull(z.string()),
  /** Completed reopen cycles: 0 through the initial finalization, +1 each time a reopened shipment is restocked. */
  completed_reopens_count: z._default(z.number(), 0),
});

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
