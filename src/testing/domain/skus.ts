/**
 * SKU rules: create, update (PATCH and PUT alike), bulk upsert, soft delete, and the
 * active ↔ deleted state machine (spec section 3.1).
 */
import type { JsonValue } from '../engine/json.js';
import { Fields, Invalid, isObject } from '../engine/validation.js';
import type { MockState, SkuRecord } from './state.js';

/** The optional fields of a SKU body, in the record's order, and how each is read. */
const OPTIONAL = {
  barcode: (f: Fields) => f.string('barcode'),
  batch_tracking_enabled: (f: Fields) => f.boolean('batch_tracking_enabled'),
  cost_in_cents: (f: Fields) => f.integer('cost_in_cents'),
  country_code_of_origin: (f: Fields) => f.code('country_code_of_origin', 2),
  hs_code: (f: Fields) => f.string('hs_code'),
  image_url: (f: Fields) => f.string('image_url'),
  weight_in_kg: (f: Fields) => f.number('weight_in_kg'),
};
const OPTIONAL_KEYS = Object.keys(OPTIONAL) as (keyof typeof OPTIONAL)[];

/** A validated SKU body: `undefined` = omitted, `null` = sent as null. */
type SkuInput = Partial<Pick<SkuRecord, 'merchant_sku_id' | 'name'>> & {
  [K in keyof typeof OPTIONAL]?: ReturnType<(typeof OPTIONAL)[K]>;
};

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
  const input: Record<string, unknown> = {};
  for (const key of ['name', 'merchant_sku_id'] as const)
    if (full || f.has(key)) input[key] = f.string(key, true) ?? undefined;
  for (const key of OPTIONAL_KEYS) if (f.has(key)) input[key] = OPTIONAL[key](f);
  return input as SkuInput;
}

/**
 * Sets the fields sent; omitted optional fields are kept (`keep`, an update) or become null
 * (`null`, a full body); `batch_tracking_enabled` is kept when omitted or null. The SKU becomes active.
 */
function apply(state: MockState, sku: SkuRecord, input: SkuInput, omitted: 'keep' | 'null'): SkuRecord {
  const oldCode = sku.merchant_sku_id;
  const record = sku as unknown as Record<string, unknown>;
  for (const key of ['name', 'merchant_sku_id', ...OPTIONAL_KEYS] as const) {
    const value = input[key];
    if (value !== undefined && value !== null) record[key] = value;
    else if (key === 'batch_tracking_enabled' || key === 'name' || key === 'merchant_sku_id') continue;
    else if (value === null || omitted === 'null') record[key] = null;
  }
  sku.status = 'active';
  state.reindexSku(sku, oldCode);
  return sku;
}

function newSku(state: MockState, input: SkuInput, now: Date): SkuRecord {
  const optional = Object.fromEntries(OPTIONAL_KEYS.map((key) => [key, input[key] ?? null]));
  const sku: SkuRecord = {
    id: state.skus.nextId(),
    createdMs: now.getTime(),
    created_at: now.toISOString(),
    merchant_sku_id: input.merchant_sku_id!,
    name: input.name!,
    ...(optional as Pick<SkuRecord, keyof typeof OPTIONAL>),
    batch_tracking_enabled: input.batch_tracking_enabled ?? false,
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
