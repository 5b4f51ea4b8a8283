/**
 * Shipments (`GET /merchant_api/v1/shipments`): outbound parcels of orders. The spec does not show
 * the record; the fields come from the provider notes (see the `Shipment` type).
 */
import * as z from 'zod/mini';
import { openEnum, orNull } from './common.js';
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
  serial_number: z.string(),
});

/** An item of a shipment (see the `ShipmentItem` type). */
export const ShipmentItemSchema = z.looseObject({
  id: z.number(),
  merchant_item_id: orNull(z.string()),
  quantity: z.number(),
  sku: orNull(SkuRefSchema),
  batches: z._default(z.array(OrderItemBatchSchema), []),
  serial_numbers: z._default(z.array(ShipmentSerialNumberSchema), []),
});

/** A shipment as `GET /shipments` returns it (see the `Shipment` type). */
export const ShipmentSchema = z.looseObject({
  id: z.number(),
  order_id: orNull(z.number()),
  merchant_order_id: orNull(z.string()),
  created_at: orNull(z.string()),
  shipped_at: orNull(z.string()),
  delivered_at: orNull(z.string()),
  shipment_provider: orNull(z.string()),
  status: ShipmentStatusSchema,
  delivery_status: orNull(z.string()),
  items: z.array(ShipmentItemSchema),
});

/**
 * Query of `GET /shipments`: `limit`, `page`, `created_at`. The provider documents no other parameters
 * for this endpoint, so further ones are passed through as given (request options never are).
 */
export const ShipmentListParamsSchema = openListParamsSchema();
/** Query of `GET /shipments`. */
export type ShipmentListParams = z.input<typeof ShipmentListParamsSchema>;
