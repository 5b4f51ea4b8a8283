/**
 * Restocking shipments (inbound goods announced to a warehouse), version 1
 * (`/merchant_api/v1/restocking_shipments`, also the webhook payload) and version 2
 * (`/merchant_api/v2/restocking_shipments`): records and request bodies.
 */
import * as z from 'zod';
import {
  batchShape,
  bool,
  dateParam,
  integer,
  isBlank,
  nullableText,
  type OneOrBoth,
  objectRule,
  openEnum,
  orNull,
  positiveInteger,
  requiredArray,
  requiredOr,
  requiredPositiveInt,
  requiredText,
  sometimes,
  text,
} from './common.js';

// ---------------------------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------------------------

/** The four delivery options of a restocking shipment (both versions). */
export const DELIVERY_OPTIONS = ['courier', 'dropoff', 'service_freight', 'postal'] as const;
/** Delivery option in responses (open enum). */
export const DeliveryOptionSchema = openEnum(DELIVERY_OPTIONS);
/** Delivery option in responses: a known value or one this SDK does not know yet. */
export type DeliveryOption = z.infer<typeof DeliveryOptionSchema>;

/** Delivery option in requests: exactly one of the four values (closed enum). */
export const DeliveryOptionParamSchema = z.enum(DELIVERY_OPTIONS, {
  error: requiredOr(`expected one of ${DELIVERY_OPTIONS.map((v) => `'${v}'`).join(', ')}`),
});
/** Delivery option in requests. */
export type DeliveryOptionParam = z.input<typeof DeliveryOptionParamSchema>;

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
/**
 * Status of a version 1 restocking shipment (open enum): `created` (not yet shipped), `shipped`
 * (on the way; initial status through the API), `delivered` (at the warehouse, not verified),
 * `arrived` (documentation complete), `processing` (being put into storage), `restocked` (done),
 * `on_hold`, `cancelled`.
 */
export const RestockingShipmentV1StatusSchema = openEnum(RESTOCKING_SHIPMENT_V1_STATUSES);
/** Status of a version 1 restocking shipment. */
export type RestockingShipmentV1Status = z.infer<typeof RestockingShipmentV1StatusSchema>;

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
  inventory_batches: z.array(RestockingShipmentItemBatchSchema).default([]),
});

/** An item of a version 2 restocking shipment (see the `RestockingShipmentItemV2` type). */
export const RestockingShipmentItemV2Schema = RestockingShipmentItemSchema.extend({
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
  priority: z.boolean().default(false),
  restocking_shipment_items: z.array(RestockingShipmentItemV2Schema),
  barcode: orNull(z.string()),
  status: RestockingShipmentV2StatusSchema,
  created_at: z.string(),
  updated_at: z.string(),
  arrived_at: orNull(z.string()),
  reopened_at: orNull(z.string()),
  completed_reopens_count: z.number().default(0),
});

// ---------------------------------------------------------------------------------------------
// Requests, version 1
// ---------------------------------------------------------------------------------------------

const WAREHOUSE_ID = 'expected integer > 0 or a string of digits';

/** A field of version 2 items (spec §9.2): refused in a version 1 item, by the compiler and at run time. */
const versionTwoOnly = z
  .never({ error: 'is a version 2 field (spec §9.2): use restockingShipments.v2 to send it' })
  .optional();

/**
 * Version 1 `warehouse_id`: an integer > 0 or a string of digits. A string is converted to a
 * number, so the wire body always carries an integer.
 */
const warehouseIdV1 = z
  .union([positiveInteger(), z.string().regex(/^0*[1-9]\d*$/, { error: WAREHOUSE_ID })], {
    error: requiredOr(WAREHOUSE_ID),
  })
  .transform((v): number => (typeof v === 'string' ? Number(v) : v));

/**
 * An item of a version 1 restocking shipment request. Required: `announced_quantity` (> 0) and
 * `sku_id` or `merchant_sku_id` (the issue is reported on `sku_id`; `sku_id` is the documented key,
 * `merchant_sku_id` is accepted by some versions of the API).
 */
export const RestockingShipmentItemV1ParamsSchema = z
  .strictObject(
    {
      /** Provider's SKU id; required if `merchant_sku_id` is absent. */
      sku_id: positiveInteger().optional(),
      /** Merchant's SKU code; required if `sku_id` is absent. */
      merchant_sku_id: requiredText().optional(),
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
    { error: 'expected object' },
  )
  .check(
    objectRule((item, ctx) => {
      if (isBlank(item.sku_id) && isBlank(item.merchant_sku_id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['sku_id'],
          message: 'sku_id or merchant_sku_id is required',
          input: item.sku_id,
        });
      }
    }),
  );
/** The type of a version 2 item field in a version 1 item: its message is the compiler's error. */
type VersionTwoOnly<K extends string> = `${K} is a version 2 field (spec §9.2): use restockingShipments.v2`;

/** The fields of a version 1 item: the version 2 ones typed so that the compiler names them. */
interface RestockingShipmentItemV1Fields
  extends Omit<
    z.input<typeof RestockingShipmentItemV1ParamsSchema>,
    'sku_code' | 'remarks' | 'total_cost_in_cents' | 'inventory_batch_id'
  > {
  /** Version 2 only (spec §9.2): not accepted here. */
  sku_code?: VersionTwoOnly<'sku_code'>;
  /** Version 2 only (spec §9.2): not accepted here. */
  remarks?: VersionTwoOnly<'remarks'>;
  /** Version 2 only (spec §9.2): not accepted here. */
  total_cost_in_cents?: VersionTwoOnly<'total_cost_in_cents'>;
  /** Version 2 only (spec §9.2): not accepted here. */
  inventory_batch_id?: VersionTwoOnly<'inventory_batch_id'>;
}

/** An item of a version 1 restocking shipment request: `sku_id` or `merchant_sku_id`, or both. */
export type RestockingShipmentItemV1Params = OneOrBoth<
  RestockingShipmentItemV1Fields,
  'sku_id',
  'merchant_sku_id'
>;

/**
 * Body of `POST /merchant_api/v1/restocking_shipments`. Required: `warehouse_id` (an integer or a
 * string of digits, sent as a number) and `restocking_shipment_items` (`[]` allowed). The spec marks
 * no field required for version 1; these two are required because a shipment needs a destination,
 * and to match the update body, where omitting the items removes them all.
 */
export const RestockingShipmentV1CreateParamsSchema = z.strictObject({
  /** Destination warehouse (one of the merchant's). Required. */
  warehouse_id: warehouseIdV1,
  /**
   * Estimated arrival: `YYYY-MM-DD`, an ISO date-time (the API uses its date), or a `Date` (sent as
   * its UTC calendar date).
   */
  estimated_arrival_date: dateParam().optional(),
  /** How the goods reach the warehouse. */
  delivery_option: DeliveryOptionParamSchema.optional(),
  /** Carrier tracking code. */
  tracking_code: text().optional(),
  /** Items. Required (`[]` allowed). */
  restocking_shipment_items: requiredArray(RestockingShipmentItemV1ParamsSchema),
});
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
  /** Destination warehouse (an integer or a string of digits, sent as a number). */
  warehouse_id: warehouseIdV1.optional(),
  /** Estimated arrival: `YYYY-MM-DD`, an ISO date-time, or a `Date` (sent as its UTC date). */
  estimated_arrival_date: dateParam().optional(),
  /** How the goods reach the warehouse. */
  delivery_option: DeliveryOptionParamSchema.optional(),
  /** Carrier tracking code. */
  tracking_code: text().optional(),
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
      sku_id: positiveInteger().optional(),
      /** Merchant's SKU code; required if `sku_id` is absent. */
      sku_code: requiredText().optional(),
      /** Quantity announced, an integer > 0. Required. */
      announced_quantity: requiredPositiveInt(),
      /** Remarks for the warehouse. */
      remarks: text().optional(),
      /** Total cost of the item, integer cents. */
      total_cost_in_cents: integer().optional(),
      /** Inventory batch the goods belong to. */
      inventory_batch_id: positiveInteger().optional(),
    },
    { error: 'expected object' },
  )
  .check(
    objectRule((item, ctx) => {
      if (isBlank(item.sku_id) && isBlank(item.sku_code)) {
        ctx.addIssue({
          code: 'custom',
          path: ['sku_id'],
          message: 'sku_id or sku_code is required',
          input: item.sku_id,
        });
      }
    }),
  );
/** An item of a version 2 restocking shipment request: `sku_id` or `sku_code`, or both. */
export type RestockingShipmentItemV2Params = OneOrBoth<
  z.input<typeof RestockingShipmentItemV2ParamsSchema>,
  'sku_id',
  'sku_code'
>;

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
  po_number: nullableText().optional(),
  /** Prioritise for faster fulfillment (default `false`). */
  priority: bool().optional(),
  /** Supplier name, or `null`. */
  supplier_name: nullableText().optional(),
  /** Carrier tracking code, or `null`. */
  tracking_code: nullableText().optional(),
});
/** Body of `POST /merchant_api/v2/restocking_shipments`. */
export interface RestockingShipmentV2CreateParams
  extends Omit<z.input<typeof RestockingShipmentV2CreateParamsSchema>, 'restocking_shipment_items'> {
  /** Items; each names its SKU by `sku_id` or `sku_code`. */
  restocking_shipment_items: RestockingShipmentItemV2Params[];
}

/**
 * Body of `PUT /merchant_api/v2/restocking_shipments/{id}`: the create body, since PUT replaces the
 * entire resource (send every field you want to keep: an omitted optional field, `priority`
 * included, may be reset to its default). Allowed while the status is `created` or `shipped`.
 */
export const RestockingShipmentV2ReplaceParamsSchema = RestockingShipmentV2CreateParamsSchema;
/** Body of `PUT /merchant_api/v2/restocking_shipments/{id}`: the create body. */
export type RestockingShipmentV2ReplaceParams = RestockingShipmentV2CreateParams;
