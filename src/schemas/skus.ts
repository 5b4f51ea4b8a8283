/**
 * SKUs (`/merchant_api/v1/skus`): the catalogue record with its inventory, and the request bodies
 * of create, update (PATCH / PUT), bulk upsert and list.
 */
import * as z from 'zod/mini';
import {
  batchShape,
  bool,
  type Fields,
  integer,
  letterCode,
  num,
  numberOrString,
  openEnum,
  orNull,
  requiredArray,
  requiredText,
  sometimes,
  text,
} from './common.js';
import { listQueryShape } from './envelope.js';

// ---------------------------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------------------------

/** Known values of `Sku.status`. */
export const SKU_STATUSES = ['active', 'deleted'] as const;
/** SKU status: `active`, or `deleted` after `DELETE /skus/{id}` (open enum). */
export const SkuStatusSchema = openEnum(SKU_STATUSES);
/** SKU status: `active`, `deleted`, or a value this SDK does not know yet. */
export type SkuStatus = z.infer<typeof SkuStatusSchema>;

/** Known values of `Sku.fulfilled_by`. */
export const SKU_FULFILLED_BY = ['service', 'other', 'new'] as const;
/** Who fulfils the SKU: `service` (the provider itself), `other`, `new` (open enum). */
export const SkuFulfilledBySchema = openEnum(SKU_FULFILLED_BY);
/** Who fulfils the SKU: `service`, `other`, `new`, or a value this SDK does not know yet. */
export type SkuFulfilledBy = z.infer<typeof SkuFulfilledBySchema>;

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/** Inventory of a SKU over all warehouses (see the `SkuInventory` type). */
export const SkuInventorySchema = z.looseObject({
  /** Quantity reserved for orders. */
  reserved: z.number(),
  /** Quantity available for sale, minus any configured buffer. */
  stocked: z.number(),
  /** Quantity available; equals `stocked` when the buffer is 0. */
  total: z.number(),
});

/** Inventory of a SKU in one warehouse (see the `SkuInventoryPerWarehouse` type). */
export const SkuInventoryPerWarehouseSchema = z.looseObject({
  /** The warehouse these figures are for. */
  warehouse_id: z.number(),
  ...SkuInventorySchema.shape,
});

/** Quantity of a batch available for sale in one warehouse (see the `InventoryPerWarehouse` type). */
export const InventoryPerWarehouseSchema = z.looseObject({
  /** The warehouse. */
  warehouse_id: z.number(),
  /** Quantity available for sale. */
  quantity: z.number(),
});

/**
 * One inventory batch of a SKU (see the `SkuInventoryBatch` type). `stocked_quantities` is
 * documented as "an InventoryPerWarehouse object"; since a batch can be stocked in several
 * warehouses, an array of them is accepted too (as received).
 */
export const SkuInventoryBatchSchema = z.looseObject({
  /** Batch id. */
  id: z.number(),
  ...batchShape,
  /** Stock of the batch per warehouse: one object (as documented) or a list of them, as received. */
  stocked_quantities: orNull(z.union([InventoryPerWarehouseSchema, z.array(InventoryPerWarehouseSchema)])),
});

const SkuObjectSchema = z.looseObject({
  /** Provider's identifier. */
  id: z.number(),
  /** Merchant's SKU code, unique within the sales channel; always set for SKUs created through the API. */
  merchant_sku_id: orNull(z.string()),
  /** Human-readable name. */
  name: z.string(),
  /** Barcode. */
  barcode: orNull(z.string()),
  /** Whether inventory is tracked per batch (`false` unless enabled). */
  batch_tracking_enabled: z._default(z.boolean(), false),
  /** Cost (not price) of one unit, in cents (filled from `cost_in_cent` when only that is sent). */
  cost_in_cents: orNull(z.number()),
  /** The singular spelling some responses carry, as received (same value as `cost_in_cents`). */
  cost_in_cent: sometimes(z.number()),
  /** 2-letter ISO 3166-1 country of origin. */
  country_code_of_origin: orNull(z.string()),
  /** Harmonized System code. */
  hs_code: orNull(z.string()),
  /** Public URL of an image. */
  image_url: orNull(z.string()),
  /** Weight of one unit in kg. */
  weight_in_kg: orNull(z.number()),
  /** Creation time, ISO 8601 date-time string. */
  created_at: z.string(),
  /** `active`, or `deleted` (after `skus.delete`; any update makes it active again). */
  status: SkuStatusSchema,
  /** Who fulfils the SKU: `service` (the provider itself), `other` or `new`. */
  fulfilled_by: SkuFulfilledBySchema,
  /** Whether the SKU is a dangerous good. */
  dangerous_good: z.boolean(),
  /** Whether the SKU is a hazardous good. */
  hazardous_good: z.boolean(),
  /** Hazard statement codes. */
  h_codes: z.array(z.string()),
  /** UN numbers of the dangerous-good classifications (filled from `un_numbers`; empty when neither is sent). */
  un_names: sometimes(z.array(z.string())),
  /** The name a sample response uses for `un_names`, as received. */
  un_numbers: sometimes(z.array(z.string())),
  /** Inventory over all warehouses. */
  inventory: SkuInventorySchema,
  /** Inventory per warehouse. */
  inventory_per_warehouse: z.array(SkuInventoryPerWarehouseSchema),
  /** Inventory per batch. */
  inventory_batches: z.array(SkuInventoryBatchSchema),
});

/**
 * A SKU as the API returns it (see the `Sku` type), its quirks normalised: `un_numbers` fills
 * `un_names` (an empty list when the API sends neither), `cost_in_cent` fills `cost_in_cents`. The
 * quirky keys are kept as received.
 */
export const SkuSchema = z.pipe(
  SkuObjectSchema,
  z.transform((sku: z.output<typeof SkuObjectSchema>): typeof sku & { un_names: string[] } => ({
    ...sku,
    cost_in_cents: sku.cost_in_cents ?? sku.cost_in_cent ?? null,
    un_names: sku.un_names ?? sku.un_numbers ?? [],
  })),
);

/** A reference to a SKU embedded in shipment and return items (see the `SkuRef` type). */
export const SkuRefSchema = z.looseObject({
  /** Provider's SKU id. */
  id: z.number(),
  /** Merchant's SKU code. */
  sku_code: orNull(z.string()),
});

/** Inventory of a SKU over all warehouses. */
export interface SkuInventory extends Fields<typeof SkuInventorySchema> {}
/** Inventory of a SKU in one warehouse. */
export interface SkuInventoryPerWarehouse extends Fields<typeof SkuInventoryPerWarehouseSchema> {}
/** Quantity of a batch available for sale in one warehouse. */
export interface InventoryPerWarehouse extends Fields<typeof InventoryPerWarehouseSchema> {}
/** One inventory batch of a SKU. */
export interface SkuInventoryBatch extends Fields<typeof SkuInventoryBatchSchema> {}
/** A SKU as the API returns it, its quirks normalised (`un_names` always a list). */
export interface Sku extends Fields<typeof SkuSchema> {}
/** A reference to a SKU in shipment and return items. */
export interface SkuRef extends Fields<typeof SkuRefSchema> {}

/** `{ [key]: Sku[] }`, read as its list. */
const skusUnder = <K extends string>(key: K) =>
  z.pipe(
    z.looseObject({ [key]: z.array(SkuSchema) } as { [P in K]: z.ZodMiniArray<typeof SkuSchema> }),
    z.transform((v) => v[key]),
  );

/**
 * A list of SKUs in any of the shapes the API may use where it documents none (the bulk upsert
 * answer, the lookup by merchant SKU code): a bare array, `{ data }` or `{ skus }`.
 */
export const SkuListBodySchema = z.union([z.array(SkuSchema), skusUnder('data'), skusUnder('skus')]);

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** The optional fields of a SKU body, as `POST /skus` takes them. */
const skuFields = {
  /** Cost (not price) of one unit, integer cents. */
  cost_in_cents: z.optional(integer()),
  /** 2-letter ISO 3166-1 country of origin. */
  country_code_of_origin: z.optional(letterCode(2, '2-letter code')),
  /** Harmonized System code. */
  hs_code: z.optional(text()),
  /** Weight of one unit in kg. */
  weight_in_kg: z.optional(num()),
  /** Publicly accessible URL of an image. */
  image_url: z.optional(text()),
  /** Barcode. */
  barcode: z.optional(text()),
  /** Enables inventory tracking per batch (defaults to `false` on create). */
  batch_tracking_enabled: z.optional(bool()),
};

/** Body of `POST /skus`. `name` and `merchant_sku_id` are required; unknown keys are refused. */
export const SkuCreateParamsSchema = z.strictObject({
  /** Human-readable name. Required. */
  name: requiredText(),
  /** Merchant's SKU code, unique within the sales channel. Required. */
  merchant_sku_id: requiredText(),
  ...skuFields,
});
/** Body of `POST /skus`. */
export type SkuCreateParams = z.input<typeof SkuCreateParamsSchema>;

const DIGITS = 'expected integer or a string of digits';
const NUMERIC = 'expected number or a numeric string';

/**
 * Body of `PATCH /skus/{id}` and `PUT /skus/{id}` (identical: omitted properties keep their value).
 * Everything is optional; `cost_in_cents` also accepts a string of digits and `weight_in_kg` a
 * numeric string (sent as given); `batch_tracking_enabled: null` leaves the setting unchanged.
 */
export const SkuUpdateParamsSchema = z.strictObject({
  /** Merchant's SKU code. */
  merchant_sku_id: z.optional(requiredText()),
  /** Human-readable name. */
  name: z.optional(requiredText()),
  ...skuFields,
  /** Cost of one unit in cents: an integer or a string of digits. */
  cost_in_cents: z.optional(numberOrString(z.int({ error: DIGITS }), /^\d+$/, DIGITS)),
  /** Weight of one unit in kg: a number or a numeric string such as `"0.25"`. */
  weight_in_kg: z.optional(numberOrString(z.number({ error: NUMERIC }), /^(\d+(\.\d*)?|\.\d+)$/, NUMERIC)),
  /** `true` / `false` to change batch tracking; `null` leaves it unchanged. */
  batch_tracking_enabled: z.optional(z.nullable(z.boolean({ error: 'expected boolean or null' }))),
});
/** Body of `PATCH /skus/{id}` and `PUT /skus/{id}`. */
export type SkuUpdateParams = z.input<typeof SkuUpdateParamsSchema>;

/**
 * One item of `POST /skus/bulk_upsert`: the `POST /skus` shape (`name` and `merchant_sku_id`
 * required). For an existing SKU, every omitted field that has a value is set to `null` by the API,
 * except `batch_tracking_enabled`, which is kept when omitted.
 */
export const SkuBulkUpsertItemSchema = SkuCreateParamsSchema;
/** One item of `POST /skus/bulk_upsert`. */
export type SkuBulkUpsertItem = z.input<typeof SkuBulkUpsertItemSchema>;

/** Body of `POST /skus/bulk_upsert`: `skus`, 1 to 100 items. */
export const SkuBulkUpsertParamsSchema = z.strictObject({
  /** The SKUs to create or update (1 to 100). */
  skus: requiredArray(SkuBulkUpsertItemSchema).check(
    z.minLength(1, { error: 'expected at least 1 SKU' }),
    z.maxLength(100, { error: 'expected at most 100 SKUs' }),
  ),
});
/** Body of `POST /skus/bulk_upsert`. */
export type SkuBulkUpsertParams = z.input<typeof SkuBulkUpsertParamsSchema>;

/** Query of `GET /skus`. */
export const SkuListParamsSchema = z.strictObject({
  /** Only these merchant SKU codes (`merchant_sku_ids[]=…`). */
  merchant_sku_ids: z.optional(z.array(text(), { error: 'expected array of strings' })),
  ...listQueryShape,
});
/** Query of `GET /skus`. */
export type SkuListParams = z.input<typeof SkuListParamsSchema>;
