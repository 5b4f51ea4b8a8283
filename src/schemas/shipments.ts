/**
 * Shipments (`GET /merchant_api/v1/shipments`): outbound parcels of orders. The spec does not show
 * the record; the fields come from the provider notes, so only `id` is required and every other
 * field is nullish.
 */
import * as z from 'zod';
import { openEnum } from './common.js';
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

/** A serial number recorded for a shipped unit. */
export const ShipmentSerialNumberSchema = z.looseObject({
  /** The serial number. */
  serial_number: z.string().nullish(),
});
/** A serial number recorded for a shipped unit. */
export type ShipmentSerialNumber = z.infer<typeof ShipmentSerialNumberSchema>;

/** An item of a shipment. Only `id` is required. */
export const ShipmentItemSchema = z.looseObject({
  /** Shipment item id. */
  id: z.number(),
  /** Merchant's id of the order line item; `null` for add-ons that are not order line items. */
  merchant_item_id: z.string().nullish(),
  /** Quantity shipped. */
  quantity: z.number().nullish(),
  /** The SKU shipped: `{ id, sku_code }`. */
  sku: SkuRefSchema.nullish(),
  /** Batches the units were taken from. */
  batches: z.array(OrderItemBatchSchema).nullish(),
  /** Serial numbers of the units. */
  serial_numbers: z.array(ShipmentSerialNumberSchema).nullish(),
});
/** An item of a shipment. */
export type ShipmentItem = z.infer<typeof ShipmentItemSchema>;

/** A shipment as `GET /shipments` returns it. Only `id` is required. */
export const ShipmentSchema = z.looseObject({
  /** Provider's identifier. */
  id: z.number(),
  /** Provider's id of the order. */
  order_id: z.number().nullish(),
  /** Merchant's id of the order. */
  merchant_order_id: z.string().nullish(),
  /** Creation time, ISO 8601 date-time string. */
  created_at: z.string().nullish(),
  /** Time the parcel left the warehouse. */
  shipped_at: z.string().nullish(),
  /** Time the parcel was delivered. */
  delivered_at: z.string().nullish(),
  /** Carrier. */
  shipment_provider: z.string().nullish(),
  /** Warehouse status (open enum). */
  status: ShipmentStatusSchema.nullish(),
  /** Human-readable delivery status ("In transit", "Delivered", "Returned to sender", …). */
  delivery_status: z.string().nullish(),
  /** Items shipped. */
  items: z.array(ShipmentItemSchema).nullish(),
});
/** A shipment as `GET /shipments` returns it. */
export type Shipment = z.infer<typeof ShipmentSchema>;

/**
 * Query of `GET /shipments`: `limit`, `page`, `created_at`. The provider documents no other parameters
 * for this endpoint, so further ones are passed through as given (request options never are).
 */
export const ShipmentListParamsSchema = openListParamsSchema();
/** Query of `GET /shipments`. */
export type ShipmentListParams = z.input<typeof ShipmentListParamsSchema>;
