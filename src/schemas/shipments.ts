/**
 * Shipments (`GET /merchant_api/v1/shipments`): outbound parcels of orders. The spec does not show
 * the record; the fields come from the provider notes (see the `Shipment` type).
 */
import * as z from 'zod/mini';
import { type Fields, openEnum, orNull } from './common.js';
import { openListParamsSchema } from './envelope.js';
import { OrderItemBatchSchema } from './orders.js';
import { SkuRefSchema } from './skus.js';

/** Known values of `Shipment.status`. */
export const SHIPMENT_STATUSES = [
  'waiting_for_picking',
  'on_hold',
  'picking_assigned',
  'in_picking',
  'picked',
  'in_packing',
  'packed',
  'in_shipping',
  'shipped',
  'cancelled',
] as const;
/** Warehouse status of a shipment (open enum). */
export const ShipmentStatusSchema = openEnum(SHIPMENT_STATUSES);
/** Warehouse status of a shipment: a known value or one this SDK does not know yet. */
export type ShipmentStatus = z.infer<typeof ShipmentStatusSchema>;

/** A serial number recorded for a shipped unit (see the `ShipmentSerialNumber` type). */
export const ShipmentSerialNumberSchema = z.looseObject({
  /** The serial number. */
  serial_number: z.string(),
});

/** An item of a shipment (see the `ShipmentItem` type). */
export const ShipmentItemSchema = z.looseObject({
  /** Shipment item id. */
  id: z.number(),
  /** Merchant's id of the order line item; `null` for add-ons that are not order line items. */
  merchant_item_id: orNull(z.string()),
  /** Quantity shipped. */
  quantity: z.number(),
  /** The SKU shipped. */
  sku: orNull(SkuRefSchema),
  /** Batches the units were taken from. */
  batches: z._default(z.array(OrderItemBatchSchema), []),
  /** Serial numbers of the units. */
  serial_numbers: z._default(z.array(ShipmentSerialNumberSchema), []),
});

/** A shipment as `GET /shipments` returns it (see the `Shipment` type). */
export const ShipmentSchema = z.looseObject({
  /** Provider's identifier. */
  id: z.number(),
  /** Provider's id of the order. */
  order_id: orNull(z.number()),
  /** Merchant's id of the order. */
  merchant_order_id: orNull(z.string()),
  /** Creation time, ISO 8601 date-time string. */
  created_at: orNull(z.string()),
  /** Time the parcel left the warehouse. */
  shipped_at: orNull(z.string()),
  /** Time the parcel was delivered. */
  delivered_at: orNull(z.string()),
  /** Carrier. */
  shipment_provider: orNull(z.string()),
  /**
   * Warehouse status: `waiting_for_picking`, `on_hold`, `picking_assigned`, `in_picking`,
   * `picked`, `in_packing`, `packed`, `in_shipping`, `shipped`, `cancelled`.
   */
  status: ShipmentStatusSchema,
  /** Human-readable delivery status ("In transit", "Delivered", "Returned to sender", …). */
  delivery_status: orNull(z.string()),
  /** Items shipped. */
  items: z.array(ShipmentItemSchema),
});

/** A serial number recorded for a shipped unit. */
export interface ShipmentSerialNumber extends Fields<typeof ShipmentSerialNumberSchema> {}
/** An item of a shipment. */
export interface ShipmentItem extends Fields<typeof ShipmentItemSchema> {}
/** A shipment (an outbound parcel of an order) as `GET /shipments` returns it. */
export interface Shipment extends Fields<typeof ShipmentSchema> {}

/**
 * Query of `GET /shipments`: `limit`, `page`, `created_at`. The provider documents no other parameters
 * for this endpoint, so further ones are passed through as given (request options never are).
 */
export const ShipmentListParamsSchema = openListParamsSchema();
/** Query of `GET /shipments`. */
export type ShipmentListParams = z.input<typeof ShipmentListParamsSchema>;
