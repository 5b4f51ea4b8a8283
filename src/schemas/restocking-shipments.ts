/**
 * Restocking shipments (inbound goods announced to a warehouse), version 1
 * (`/merchant_api/v1/restocking_shipments`, also the webhook payload) and version 2
 * (`/merchant_api/v2/restocking_shipments`): records and request bodies.
 */
import * as z from 'zod/mini';
import {
  bool,
  dateParam,
  eitherRequired,
  integer,
  nullableText,
  numberOrString,
  objectError,
  positiveInteger,
  requiredArray,
  requiredOr,
  requiredPositiveInt,
  requiredText,
  text,
} from './common.js';
import { DELIVERY_OPTIONS } from './restocking-shipment-records.js';

export * from './restocking-shipment-records.js';

/** Delivery option in requests: exactly one of the four values (closed enum). */
export const DeliveryOptionParamSchema = z.enum(DELIVERY_OPTIONS, {
  error: requiredOr(`expected one of ${DELIVERY_OPTIONS.map((v) => `'${v}'`).join(', ')}`),
});
/** Delivery option in requests. */
export type DeliveryOptionParam = z.input<typeof DeliveryOptionParamSchema>;

// ---------------------------------------------------------------------------------------------
// Requests, version 1
// ---------------------------------------------------------------------------------------------

const WAREHOUSE_ID = 'expected integer > 0 or a string of digits';

/** A field of version 2 items (spec §9.2): refused in a version 1 item, by the compiler and at run time. */
const versionTwoOnly = z.optional(
  z.never({ error: 'is a version 2 field (spec §9.2): use restockingShipments.v2 to send it' }),
);

/**
 * An item of a version 1 restocking shipment request. Required: `announced_quantity` (> 0) and
 * `sku_id` or `merchant_sku_id` (the issue is reported on `sku_id`; `sku_id` is the documented key,
 * `merchant_sku_id` is accepted by some versions of the API).
 */
export const RestockingShipmentItemV1ParamsSchema = z
  .strictObject(
    {
      /** Provider's SKU id; required if `merchant_sku_id` is absent. */
      sku_id: z.optional(positiveInteger()),
      /** Merchant's SKU code; required if `sku_id` is absent. */
      merchant_sku_id: z.optional(requiredText()),
      /** Quantity announced, an integer > 0. Required. */
      announced_quantity: requiredPositiveInt(),
      /** Version 2 only (spec §9.2): not accepted here. */
      sku_code: versionTwoOnly,
      /** Version 2 only (spec §9.2): not accepted here. */
      remarks: versionTwoOnly,
      /** Version 2 only (spec §9.2): not accepted here. */
      total_cost_in_cents: versionTwoOnly,
      /** Version 2 only (spec §9.2): not accepted here. */
      inventory_batch_id: versionTwoOnly,
    },
    { error: objectError() },
  )
  .check(eitherRequired('sku_id', 'merchant_sku_id'));
/** The type of a version 2 item field in a version 1 item: its message is the compiler's error. */
type VersionTwoOnly<K extends string> = `${K} is a version 2 field (spec §9.2): use restockingShipments.v2`;

type V1ItemInput = z.input<typeof RestockingShipmentItemV1ParamsSchema>;
/**
 * An item of a version 1 restocking shipment request: `sku_id` or `merchant_sku_id`, or both (checked
 * before sending); the version 2 fields typed so that the compiler names them.
 */
export type RestockingShipmentItemV1Params = {
  [K in keyof V1ItemInput]: V1ItemInput[K] extends undefined ? VersionTwoOnly<K> : V1ItemInput[K];
};

/** The fields of a version 1 body (create; the update makes `warehouse_id` optional). */
const v1Shape = {
  /**
   * Destination warehouse (one of the merchant's): an integer > 0 or a string of digits, converted
   * to a number so that the wire body always carries an integer. Required.
   */
  warehouse_id: z.pipe(
    numberOrString(positiveInteger(), /^0*[1-9]\d*$/, requiredOr(WAREHOUSE_ID)),
    z.transform((v: number | string): number => (typeof v === 'string' ? Number(v) : v)),
  ),
  /**
   * Estimated arrival: `YYYY-MM-DD`, an ISO date-time (the API uses its date), or a `Date` (sent as
   * its UTC calendar date).
   */
  estimated_arrival_date: z.optional(dateParam()),
  /** How the goods reach the warehouse. */
  delivery_option: z.optional(DeliveryOptionParamSchema),
  /** Carrier tracking code. */
  tracking_code: z.optional(text()),
  /** Items. Required (`[]` allowed). */
  restocking_shipment_items: requiredArray(RestockingShipmentItemV1ParamsSchema),
};

/**
 * Body of `POST /merchant_api/v1/restocking_shipments`. Required: `warehouse_id` (an integer or a
 * string of digits, sent as a number) and `restocking_shipment_items` (`[]` allowed). The spec marks
 * no field required for version 1; these two are required because a shipment needs a destination,
 * and to match the update body, where omitting the items removes them all.
 */
export const RestockingShipmentV1CreateParamsSchema = z.strictObject(v1Shape);
/** Body of `POST /merchant_api/v1/restocking_shipments`. */
export interface RestockingShipmentV1CreateParams
  extends Omit<z.input<typeof RestockingShipmentV1CreateParamsSchema>, 'restocking_shipment_items'> {
  /** Items (`[]` allowed); each names its SKU by `sku_id` or `merchant_sku_id`. */
  restocking_shipment_items: RestockingShipmentItemV1Params[];
}

/** Message for a version 1 update without `restocking_shipment_items`. */
export const MISSING_V1_ITEMS_MESSAGE =
  'required: omitting restocking_shipment_items would remove every item of the shipment; pass the full list, or [] to clear it';

/**
 * Body of `PUT /merchant_api/v1/restocking_shipments/{id}` (allowed while the status is `created`
 * or `shipped`). Omitted top-level properties keep their value (the spec; one version of the
 * reference says PUT replaces the whole resource) — except `restocking_shipment_items`, which
 * replaces the whole list and, when omitted, removes every item. It is therefore required here:
 * pass the full list, or `[]` to clear it on purpose.
 */
export const RestockingShipmentV1UpdateParamsSchema = z.strictObject({
  ...v1Shape,
  /** Destination warehouse (an integer or a string of digits, sent as a number). */
  warehouse_id: z.optional(v1Shape.warehouse_id),
  /** The complete new item list (replaces the current one). Required; `[]` clears it. */
  restocking_shipment_items: requiredArray(RestockingShipmentItemV1ParamsSchema, MISSING_V1_ITEMS_MESSAGE),
});
/** Body of `PUT /merchant_api/v1/restocking_shipments/{id}`. */
export interface RestockingShipmentV1UpdateParams
  extends Omit<z.input<typeof RestockingShipmentV1UpdateParamsSchema>, 'restocking_shipment_items'> {
  /** The complete new item list (replaces the current one); `[]` clears it. */
  restocking_shipment_items: RestockingShipmentItemV1Params[];
}

// ---------------------------------------------------------------------------------------------
// Requests, version 2
// ---------------------------------------------------------------------------------------------

/**
 * An item of a version 2 restocking shipment request. Required: `announced_quantity` (> 0) and
 * `sku_id` or `sku_code` (the issue is reported on `sku_id`).
 */
export const RestockingShipmentItemV2ParamsSchema = z
  .strictObject(
    {
      /** Provider's SKU id; required if `sku_code` is absent. */
      sku_id: z.optional(positiveInteger()),
      /** Merchant's SKU code; required if `sku_id` is absent. */
      sku_code: z.optional(requiredText()),
      /** Quantity announced, an integer > 0. Required. */
      announced_quantity: requiredPositiveInt(),
      /** Remarks for the warehouse. */
      remarks: z.optional(text()),
      /** Total cost of the item, integer cents. */
      total_cost_in_cents: z.optional(integer()),
      /** Inventory batch the goods belong to. */
      inventory_batch_id: z.optional(positiveInteger()),
    },
    { error: objectError() },
  )
  .check(eitherRequired('sku_id', 'sku_code'));
/** An item of a version 2 restocking shipment request: `sku_id` or `sku_code`, or both (checked before sending). */
export type RestockingShipmentItemV2Params = z.input<typeof RestockingShipmentItemV2ParamsSchema>;

/**
 * Body of `POST /merchant_api/v2/restocking_shipments`. Required: `delivery_option`,
 * `estimated_arrival_date`, `warehouse_id` (integer > 0), `restocking_shipment_items`.
 * `po_number`, `supplier_name` and `tracking_code` accept `null`.
 */
export const RestockingShipmentV2CreateParamsSchema = z.strictObject({
  /** How the goods reach the warehouse. Required. */
  delivery_option: DeliveryOptionParamSchema,
  /**
   * Estimated arrival: `YYYY-MM-DD`, an ISO date-time (the API uses its date), or a `Date` (sent as
   * its UTC calendar date). Required.
   */
  estimated_arrival_date: dateParam(),
  /** Destination warehouse. Required. */
  warehouse_id: requiredPositiveInt(),
  /** Items. Required. */
  restocking_shipment_items: requiredArray(RestockingShipmentItemV2ParamsSchema),
  /** Purchase order number, or `null`. */
  po_number: z.optional(nullableText()),
  /** Prioritise for faster fulfillment (default `false`). */
  priority: z.optional(bool()),
  /** Supplier name, or `null`. */
  supplier_name: z.optional(nullableText()),
  /** Carrier tracking code, or `null`. */
  tracking_code: z.optional(nullableText()),
});
/** Body of `POST /merchant_api/v2/restocking_shipments`; each item names its SKU by `sku_id` or `sku_code`. */
export type RestockingShipmentV2CreateParams = z.input<typeof RestockingShipmentV2CreateParamsSchema>;

/**
 * Body of `PUT /merchant_api/v2/restocking_shipments/{id}`: the create body, since PUT replaces the
 * entire resource (send every field you want to keep: an omitted optional field, `priority`
 * included, may be reset to its default). Allowed while the status is `created` or `shipped`.
 */
export const RestockingShipmentV2ReplaceParamsSchema = RestockingShipmentV2CreateParamsSchema;
/** Body of `PUT /merchant_api/v2/restocking_shipments/{id}`: the create body. */
export type RestockingShipmentV2ReplaceParams = RestockingShipmentV2CreateParams;
