/**
 * SKUs (`/merchant_api/v1/skus`): the catalogue record with its inventory, and the request bodies
 * of create, update (PATCH / PUT), bulk upsert and list.
 */
import * as z from 'zod';
import {
  batchShape,
  bool,
  integer,
  num,
  openEnum,
  requiredArray,
  requiredText,
  text,
  twoLetterCode,
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

/**
 * Inventory of a SKU over all warehouses (all integers, read-only). The figures are nullish: the
 * spec does not promise their presence, and a missing figure must not fail a whole page.
 */
export const SkuInventorySchema = z.looseObject({
  /** Quantity reserved for orders. */
  reserved: z.number().nullish(),
  /** Quantity available for sale, minus any configured buffer. */
  stocked: z.number().nullish(),
  /** Quantity available; equals `stocked` when the buffer is 0. */
  total: z.number().nullish(),
});
/** Inventory of a SKU over all warehouses. */
export type SkuInventory = z.infer<typeof SkuInventorySchema>;

/** Inventory of a SKU in one warehouse. `warehouse_id` (the row's key) is required. */
export const SkuInventoryPerWarehouseSchema = z.looseObject({
  /** The warehouse these figures are for. */
  warehouse_id: z.number(),
  /** Quantity reserved for orders. */
  reserved: z.number().nullish(),
  /** Quantity available for sale, minus any configured buffer. */
  stocked: z.number().nullish(),
  /** Quantity available; equals `stocked` when the buffer is 0. */
  total: z.number().nullish(),
});
/** Inventory of a SKU in one warehouse. */
export type SkuInventoryPerWarehouse = z.infer<typeof SkuInventoryPerWarehouseSchema>;

/** Quantity of a batch available for sale in one warehouse. `warehouse_id` is required. */
export const InventoryPerWarehouseSchema = z.looseObject({
  /** The warehouse. */
  warehouse_id: z.number(),
  /** Quantity available for sale. */
  quantity: z.number().nullish(),
});
/** Quantity of a batch available for sale in one warehouse. */
export type InventoryPerWarehouse = z.infer<typeof InventoryPerWarehouseSchema>;

/**
 * One inventory batch of a SKU (`inventory_batches`). Only `id` is required.
 *
 * `stocked_quantities` is documented as "an InventoryPerWarehouse object"; since a batch can be
 * stocked in several warehouses, both one object and an array of them are accepted (as received).
 */
export const SkuInventoryBatchSchema = z.looseObject({
  /** Batch id. */
  id: z.number(),
  ...batchShape,
  /** Stock of the batch per warehouse: one object or an array of them, as the API sent it. */
  stocked_quantities: z.union([InventoryPerWarehouseSchema, z.array(InventoryPerWarehouseSchema)]).nullish(),
});
/** One inventory batch of a SKU. */
export type SkuInventoryBatch = z.infer<typeof SkuInventoryBatchSchema>;

const SkuObjectSchema = z.looseObject({
  /** Provider's identifier. Required. */
  id: z.number(),
  /**
   * Merchant's SKU code, unique within the sales channel. Nullish: the spec only promises it for
   * SKUs created through the API.
   */
  merchant_sku_id: z.string().nullish(),
  /** Human-readable name. Required (`name*` in the spec; the API rejects a blank name). */
  name: z.string(),
  /** Barcode. */
  barcode: z.string().nullish(),
  /** Whether inventory is tracked per batch. */
  batch_tracking_enabled: z.boolean().nullish(),
  /** Cost (not price) of one unit, in cents. Filled from `cost_in_cent` when absent. */
  cost_in_cents: z.number().nullish(),
  /** Quirk: the singular spelling some responses carry (same value as `cost_in_cents`). */
  cost_in_cent: z.number().nullish(),
  /** 2-letter ISO 3166-1 country of origin. */
  country_code_of_origin: z.string().nullish(),
  /** Harmonized System code. */
  hs_code: z.string().nullish(),
  /** Public URL of an image. */
  image_url: z.string().nullish(),
  /** Weight of one unit in kg. */
  weight_in_kg: z.number().nullish(),
  /** Creation time, ISO 8601 date-time string. */
  created_at: z.string().nullish(),
  /**
   * `active` or `deleted` (open enum). Required: every SKU is in one of these states (spec §3.1),
   * so a body without a status is not a SKU.
   */
  status: SkuStatusSchema,
  /** Who fulfils the SKU (open enum). */
  fulfilled_by: SkuFulfilledBySchema.nullish(),
  /** Whether the SKU is a dangerous good. */
  dangerous_good: z.boolean().nullish(),
  /** Whether the SKU is a hazardous good. */
  hazardous_good: z.boolean().nullish(),
  /** Hazard statement codes. */
  h_codes: z.array(z.string()).nullish(),
  /** UN numbers of the dangerous-good classifications. Filled from `un_numbers` when absent. */
  un_names: z.array(z.string()).nullish(),
  /** Quirk: the name a sample response uses for `un_names` (kept as received). */
  un_numbers: z.array(z.string()).nullish(),
  /** Inventory over all warehouses. */
  inventory: SkuInventorySchema.nullish(),
  /** Inventory per warehouse. */
  inventory_per_warehouse: z.array(SkuInventoryPerWarehouseSchema).nullish(),
  /** Inventory per batch. */
  inventory_batches: z.array(SkuInventoryBatchSchema).nullish(),
});

type SkuObject = z.infer<typeof SkuObjectSchema>;

/** Fills the documented names from the quirky ones; returns the same object when nothing is missing. */
function normaliseSku(sku: SkuObject): SkuObject {
  const fillUnNames = sku.un_names == null && sku.un_numbers != null;
  const fillCost = sku.cost_in_cents == null && sku.cost_in_cent != null;
  if (!fillUnNames && !fillCost) return sku;
  const out: SkuObject = { ...sku };
  if (fillUnNames) out.un_names = sku.un_numbers;
  if (fillCost) out.cost_in_cents = sku.cost_in_cent;
  return out;
}

/**
 * A SKU as the API returns it. Required: `id`, `name`, `status`; everything else is nullish.
 *
 * Quirks are normalised: a body with `un_numbers` but no `un_names` gets `un_names` (same value),
 * and `cost_in_cent` fills `cost_in_cents` when that is absent; the quirky keys are kept.
 */
export const SkuSchema = SkuObjectSchema.transform(normaliseSku);
/** A SKU as the API returns it (after quirk normalisation). */
export type Sku = z.infer<typeof SkuSchema>;

/**
 * A reference to a SKU embedded in shipment and return items: `{ id, sku_code }`. `id` is required;
 * unknown keys (for example `merchant_sku_id`) are kept.
 */
export const SkuRefSchema = z.looseObject({
  /** Provider's SKU id. */
  id: z.number(),
  /** Merchant's SKU code. */
  sku_code: z.string().nullish(),
});
/** A reference to a SKU embedded in shipment and return items. */
export type SkuRef = z.infer<typeof SkuRefSchema>;

/**
 * A list of SKUs in any of the shapes the API may use where it documents none (the bulk upsert
 * answer, the lookup by merchant SKU code): a bare array, `{ data }` or `{ skus }`.
 */
export const SkuListBodySchema = z.union([
  z.array(SkuSchema),
  z.looseObject({ data: z.array(SkuSchema) }).transform((v) => v.data),
  z.looseObject({ skus: z.array(SkuSchema) }).transform((v) => v.skus),
]);

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

const skuCreateShape = {
  /** Human-readable name. Required. */
  name: requiredText(),
  /** Merchant's SKU code, unique within the sales channel. Required. */
  merchant_sku_id: requiredText(),
  /** Cost (not price) of one unit, integer cents. */
  cost_in_cents: integer().optional(),
  /** 2-letter ISO 3166-1 country of origin. */
  country_code_of_origin: twoLetterCode().optional(),
  /** Harmonized System code. */
  hs_code: text().optional(),
  /** Weight of one unit in kg. */
  weight_in_kg: num().optional(),
  /** Publicly accessible URL of an image. */
  image_url: text().optional(),
  /** Barcode. */
  barcode: text().optional(),
  /** Enables inventory tracking per batch (defaults to `false` on create). */
  batch_tracking_enabled: bool().optional(),
};

/** Body of `POST /skus`. `name` and `merchant_sku_id` are required; unknown keys are refused. */
export const SkuCreateParamsSchema = z.strictObject(skuCreateShape);
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
  merchant_sku_id: requiredText().optional(),
  /** Human-readable name. */
  name: requiredText().optional(),
  /** Cost of one unit in cents: an integer or a string of digits. */
  cost_in_cents: z
    .union([z.int({ error: DIGITS }), z.string().regex(/^\d+$/, { error: DIGITS })], { error: DIGITS })
    .optional(),
  /** 2-letter ISO 3166-1 country of origin. */
  country_code_of_origin: twoLetterCode().optional(),
  /** Harmonized System code. */
  hs_code: text().optional(),
  /** Weight of one unit in kg: a number or a numeric string such as `"0.25"`. */
  weight_in_kg: z
    .union([z.number({ error: NUMERIC }), z.string().regex(/^(\d+(\.\d*)?|\.\d+)$/, { error: NUMERIC })], {
      error: NUMERIC,
    })
    .optional(),
  /** Publicly accessible URL of an image. */
  image_url: text().optional(),
  /** Barcode. */
  barcode: text().optional(),
  /** `true` / `false` to change batch tracking; `null` leaves it unchanged. */
  batch_tracking_enabled: z.boolean({ error: 'expected boolean or null' }).nullable().optional(),
});
/** Body of `PATCH /skus/{id}` and `PUT /skus/{id}`. */
export type SkuUpdateParams = z.input<typeof SkuUpdateParamsSchema>;

/**
 * One item of `POST /skus/bulk_upsert`: the `POST /skus` shape (`name` and `merchant_sku_id`
 * required). For an existing SKU, every omitted field that has a value is set to `null` by the API,
 * except `batch_tracking_enabled`, which is kept when omitted.
 */
export const SkuBulkUpsertItemSchema = z.strictObject(skuCreateShape);
/** One item of `POST /skus/bulk_upsert`. */
export type SkuBulkUpsertItem = z.input<typeof SkuBulkUpsertItemSchema>;

/** Body of `POST /skus/bulk_upsert`: `skus`, 1 to 100 items. */
export const SkuBulkUpsertParamsSchema = z.strictObject({
  /** The SKUs to create or update (1 to 100). */
  skus: requiredArray(SkuBulkUpsertItemSchema)
    .min(1, { error: 'expected at least 1 SKU' })
    .max(100, { error: 'expected at most 100 SKUs' }),
});
/** Body of `POST /skus/bulk_upsert`. */
export type SkuBulkUpsertParams = z.input<typeof SkuBulkUpsertParamsSchema>;

/** Query of `GET /skus`. */
export const SkuListParamsSchema = z.strictObject({
  /** Only these merchant SKU codes (`merchant_sku_ids[]=…`). */
  merchant_sku_ids: z.array(text(), { error: 'expected array of strings' }).optional(),
  ...listQueryShape,
});
/** Query of `GET /skus`. */
export type SkuListParams = z.input<typeof SkuListParamsSchema>;
