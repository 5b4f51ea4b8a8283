/**
 * SKU rules: create, update (PATCH and PUT alike), bulk upsert, soft delete, and the
 * active ↔ deleted state machine (spec section 3.1).
 */
import type { JsonValue } from '../engine/json.js';
import { Fields, Invalid, isObject } from '../engine/validation.js';
import type { MockState, SkuRecord } from './state.js';

/** A validated SKU body: `undefined` = omitted, `null` = sent as null. */
interface SkuInput {
  merchant_sku_id?: string | undefined;
  name?: string | undefined;
  barcode?: string | null | undefined;
  batch_tracking_enabled?: boolean | null | undefined;
  cost_in_cents?: number | null | undefined;
  country_code_of_origin?: string | null | undefined;
  hs_code?: string | null | undefined;
  image_url?: string | null | undefined;
  weight_in_kg?: number | null | undefined;
}

/**
 * Reads a SKU body. `full` (create, bulk upsert item) requires `name` and `merchant_sku_id`; an
 * update only rejects them blank when sent.
 */
function readSku(body: JsonValue | undefined, full: boolean, errors: string[], prefix = ''): SkuInput {
  if (!isObject(body)) {
    errors.push(prefix ? `${prefix} is invalid` : 'Sku is invalid');
    return {};
  }
  const f = new Fields(body, errors, prefix);
  const input: SkuInput = {};
  if (full || f.has('name')) input.name = f.string('name', true) ?? undefined;
  if (full || f.has('merchant_sku_id'))
    input.merchant_sku_id = f.string('merchant_sku_id', true) ?? undefined;
  if (f.has('barcode')) input.barcode = f.string('barcode');
  if (f.has('batch_tracking_enabled')) input.batch_tracking_enabled = f.boolean('batch_tracking_enabled');
  if (f.has('cost_in_cents')) input.cost_in_cents = f.integer('cost_in_cents');
  if (f.has('country_code_of_origin')) input.country_code_of_origin = f.code('country_code_of_origin', 2);
  if (f.has('hs_code')) input.hs_code = f.string('hs_code');
  if (f.has('image_url')) input.image_url = f.string('image_url');
  if (f.has('weight_in_kg')) input.weight_in_kg = f.number('weight_in_kg');
  return input;
}

/**
 * Sets the fields sent; omitted optional fields are kept (`keep`, an update) or become null
 * (`null`, a full body); `batch_tracking_enabled` is kept when omitted. The SKU becomes active.
 */
function apply(state: MockState, sku: SkuRecord, input: SkuInput, omitted: 'keep' | 'null'): SkuRecord {
  const oldCode = sku.merchant_sku_id;
  const pick = <T>(value: T | undefined, current: T | null): T | null =>
    value !== undefined ? value : omitted === 'keep' ? current : null;
  if (input.name !== undefined) sku.name = input.name;
  if (input.merchant_sku_id !== undefined) sku.merchant_sku_id = input.merchant_sku_id;
  sku.barcode = pick(input.barcode, sku.barcode);
  sku.cost_in_cents = pick(input.cost_in_cents, sku.cost_in_cents);
  sku.country_code_of_origin = pick(input.country_code_of_origin, sku.country_code_of_origin);
  sku.hs_code = pick(input.hs_code, sku.hs_code);
  sku.image_url = pick(input.image_url, sku.image_url);
  sku.weight_in_kg = pick(input.weight_in_kg, sku.weight_in_kg);
  sku.batch_tracking_enabled = input.batch_tracking_enabled ?? sku.batch_tracking_enabled;
  sku.status = 'active';
  state.reindexSku(sku, oldCode);
  return sku;
}

function newSku(state: MockState, input: SkuInput, now: Date): SkuRecord {
  const sku: SkuRecord = {
    id: state.skus.nextId(),
    createdMs: now.getTime(),
    created_at: now.toISOString(),
    merchant_sku_id: input.merchant_sku_id!,
    name: input.name!,
    barcode: input.barcode ?? null,
    batch_tracking_enabled: input.batch_tracking_enabled ?? false,
    cost_in_cents: input.cost_in_cents ?? null,
    country_code_of_origin: input.country_code_of_origin ?? null,
    hs_code: input.hs_code ?? null,
    image_url: input.image_url ?? null,
    weight_in_kg: input.weight_in_kg ?? null,
    status: 'active',
    stock: new Map(),
    batches: [],
  };
  state.addSku(sku);
  return sku;
}

/**
 * `POST /skus`. A code held by an active SKU is taken; the code of a deleted SKU reactivates that
 * SKU, its fields set as by bulk upsert (omitted ones become null, batch tracking kept).
 */
export function createSku(state: MockState, body: JsonValue | undefined, now: Date): SkuRecord | Invalid {
  const errors: string[] = [];
  const input = readSku(body, true, errors);
  if (input.merchant_sku_id !== undefined && state.activeSkuByCode(input.merchant_sku_id)) {
    errors.push('Merchant sku has already been taken');
  }
  if (errors.length > 0) return new Invalid(errors);
  const deleted = state.deletedSkuByCode(input.merchant_sku_id!);
  return deleted ? apply(state, deleted, input, 'null') : newSku(state, input, now);
}

/**
 * `PATCH` and `PUT /skus/{id}` (identical): sent fields change, omitted ones keep their value,
 * `batch_tracking_enabled: null` leaves it unchanged, and a deleted SKU becomes active again.
 */
export function updateSku(
  state: MockState,
  sku: SkuRecord,
  body: JsonValue | undefined,
): SkuRecord | Invalid {
  const errors: string[] = [];
  const input = readSku(body, false, errors);
  const code = input.merchant_sku_id ?? sku.merchant_sku_id;
  const holder = state.activeSkuByCode(code);
  if (holder && holder !== sku) errors.push('Merchant sku has already been taken');
  if (errors.length > 0) return new Invalid(errors);
  return apply(state, sku, input, 'keep');
}

/**
 * `POST /skus/bulk_upsert`: 1 to 100 items, all validated before any is written. Each item updates
 * the active SKU with its code, else reactivates the deleted one, else creates a SKU. On existing
 * SKUs omitted fields become null, except `batch_tracking_enabled` (kept when omitted or null).
 */
export function bulkUpsertSkus(
  state: MockState,
  body: JsonValue | undefined,
  now: Date,
): SkuRecord[] | Invalid {
  const items = isObject(body) ? body.skus : undefined;
  if (!Array.isArray(items) || items.length < 1 || items.length > 100) {
    return new Invalid(['Skus must contain between 1 and 100 items']);
  }
  const errors: string[] = [];
  const inputs = items.map((item, index) => readSku(item, true, errors, `Skus[${index}]`));
  if (errors.length > 0) return new Invalid(errors);
  return inputs.map((input) => {
    const existing =
      state.activeSkuByCode(input.merchant_sku_id!) ?? state.deletedSkuByCode(input.merchant_sku_id!);
    return existing ? apply(state, existing, input, 'null') : newSku(state, input, now);
  });
}

/** `DELETE /skus/{id}`: an active SKU becomes deleted (its stock and history stay). */
export function deleteSku(sku: SkuRecord): SkuRecord | Invalid {
  if (sku.status === 'deleted') return new Invalid(['Sku has already been deleted']);
  sku.status = 'deleted';
  return sku;
}
