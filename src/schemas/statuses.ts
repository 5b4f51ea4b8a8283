/**
 * The known status values of restocking shipments, in both versions: plain constants with no zod,
 * so that modules which only need the names (the webhook handler's routing keys) import no schema.
 */

/** Known status values of a version 1 restocking shipment. */
export const RESTOCKING_SHIPMENT_V1_STATUSES = [
  'created',
  'shipped',
  'delivered',
  'arrived',
  'processing',
  'restocked',
  'on_hold',
  'cancelled',
] as const;

/** Known status values of a version 2 restocking shipment (`received` instead of `delivered`; no `on_hold`). */
export const RESTOCKING_SHIPMENT_V2_STATUSES = [
  'arrived',
  'cancelled',
  'created',
  'processing',
  'received',
  'restocked',
  'shipped',
] as const;
