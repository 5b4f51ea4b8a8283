/**
 * Webhooks: the payload parsed as a version 1 restocking shipment without zod, so that an app that
 * only verifies webhooks bundles no schema library and a verification costs little more than its
 * HMAC and its `JSON.parse`.
 *
 * The authority is `RestockingShipmentV1Schema` (`schemas/restocking-shipment-records.ts`): this
 * module mirrors it field by field and gives, for every JSON value, what `parseLenient` gives with
 * that schema — an equal value (defaults filled in, unknown keys kept, `__proto__` dropped) or the
 * same issues (paths and zod's English messages, in zod's order). Only the order of keys may
 * differ: a default is added after the keys that were sent. `test/webhooks/payload.property.test.ts`
 * holds the two together: the key lists must be the schema's keys, and generated payloads (valid,
 * mutated, arbitrary JSON) must give equal results, so a change to the schema fails that test until
 * it is made here too.
 *
 * The value is checked and completed in place, without a copy: it must be one nobody else holds
 * (what `JSON.parse` just returned).
 *
 * At most {@link MAX_ISSUES} (100) issues are collected: once one more is found, the walk stops
 * (`ResponseValidationError.issues` then holds the first 100, and the error says more were
 * found), so that a correctly signed body of many bad items costs a bounded error and message.
 * Below the cap, the issues are zod's exactly.
 */
import { ResponseValidationError, type ValidationIssue } from '../core/errors.js';
import type { RestockingShipmentV1 } from '../schemas/types/restocking-shipments.js';

/** The keys of `RestockingShipmentItemBatchSchema`, in its order. @internal */
export const BATCH_KEYS = ['id', 'name', 'tracking_code', 'expiry_date', 'arrived_quantity'] as const;

/** The keys of `RestockingShipmentItemSchema`, in its order. @internal */
export const ITEM_KEYS = [
  'id',
  'sku_id',
  'merchant_sku_id',
  'announced_quantity',
  'arrived_quantity',
  'damaged_quantity',
  'missing_quantity',
  'inventory_batches',
] as const;

/** The keys of `RestockingShipmentV1Schema`, in its order. @internal */
export const SHIPMENT_KEYS = [
  'id',
  'merchant_id',
  'warehouse_id',
  'estimated_arrival_date',
  'delivery_option',
  'tracking_code',
  'po_number',
  'supplier_name',
  'status',
  'barcode',
  'restocking_shipment_items',
] as const;

type Json = Record<string, unknown>;

/** The most issues collected; past it, the walk stops and the error says more were found. @internal */
export const MAX_ISSUES = 100;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** zod's name for the type of a JSON value (`util.parsedType`). */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * The issues found, and the path to the object being checked, kept as a stack of keys and indexes
 * and written out (`items[1].quantity`) only for an issue: a valid payload builds no path string.
 */
class Walk {
  readonly issues: ValidationIssue[] = [];
  readonly path: (string | number)[] = [];
  /** `true` once an issue past {@link MAX_ISSUES} was found: the walk stops (lists are left). */
  more = false;

  /** Records that the value at the current path (and then `key`) is not of the `expected` type. */
  expected(expected: string, value: unknown, key?: string): undefined {
    if (this.issues.length >= MAX_ISSUES) {
      this.more = true;
      return undefined;
    }
    let path = '';
    for (const part of key === undefined ? this.path : [...this.path, key]) {
      path += typeof part === 'number' ? `[${part}]` : path ? `.${part}` : part;
    }
    this.issues.push({ path, message: `Invalid input: expected ${expected}, received ${typeName(value)}` });
    return undefined;
  }
}

// One function per kind of field, each checking `o[key]` and filling in its default, called per
// record below: written out rather than driven by a table, so that a check costs about as much as
// reading the fields once.

/** `z.number()`: a required number. */
function num(o: Json, key: string, w: Walk): void {
  if (typeof o[key] !== 'number') w.expected('number', o[key], key);
}

/** `z.string()`: a required string (the open enums are strings). */
function str(o: Json, key: string, w: Walk): void {
  if (typeof o[key] !== 'string') w.expected('string', o[key], key);
}

/** `orNull(z.number())`: `null` when absent. */
function numOrNull(o: Json, key: string, w: Walk): void {
  const v = o[key];
  if (v === undefined) o[key] = null;
  else if (v !== null && typeof v !== 'number') w.expected('number', v, key);
}

/** `orNull(z.string())`: `null` when absent. */
function strOrNull(o: Json, key: string, w: Walk): void {
  const v = o[key];
  if (v === undefined) o[key] = null;
  else if (v !== null && typeof v !== 'string') w.expected('string', v, key);
}

/** `sometimes(z.string())`: absent stays absent. */
function strSometimes(o: Json, key: string, w: Walk): void {
  const v = o[key];
  if (v !== undefined && v !== null && typeof v !== 'string') w.expected('string', v, key);
}

/** An array of objects, each checked by `check`; `[]` when absent if `orEmpty` (`z._default(…, [])`). */
function list(o: Json, key: string, w: Walk, check: (v: unknown, w: Walk) => void, orEmpty: boolean): void {
  const v = o[key];
  if (v === undefined && orEmpty) {
    o[key] = [];
    return;
  }
  if (!Array.isArray(v)) {
    w.expected('array', v, key);
    return;
  }
  w.path.push(key);
  for (let i = 0; i < v.length && !w.more; i++) {
    w.path.push(i);
    check(v[i], w);
    w.path.pop();
  }
  w.path.pop();
}

/**
 * Whether `v` is an object, recording the issue when it is not. An own `__proto__` key (which
 * `JSON.parse` can create) is dropped, as zod drops it, so that copying the value with
 * `Object.assign` cannot replace a prototype.
 */
function object(v: unknown, w: Walk): v is Json {
  if (!isObject(v)) {
    w.expected('object', v);
    return false;
  }
  if (Object.hasOwn(v, '__proto__')) Reflect.deleteProperty(v, '__proto__');
  return true;
}

/** `RestockingShipmentItemBatchSchema`. */
function batch(v: unknown, w: Walk): void {
  if (!object(v, w)) return;
  num(v, 'id', w);
  strOrNull(v, 'name', w);
  strOrNull(v, 'tracking_code', w);
  strOrNull(v, 'expiry_date', w);
  numOrNull(v, 'arrived_quantity', w);
}

/** `RestockingShipmentItemSchema`. */
function item(v: unknown, w: Walk): void {
  if (!object(v, w)) return;
  numOrNull(v, 'id', w);
  numOrNull(v, 'sku_id', w);
  strSometimes(v, 'merchant_sku_id', w);
  num(v, 'announced_quantity', w);
  numOrNull(v, 'arrived_quantity', w);
  numOrNull(v, 'damaged_quantity', w);
  numOrNull(v, 'missing_quantity', w);
  list(v, 'inventory_batches', w, batch, true);
}

/** `RestockingShipmentV1Schema`. */
function shipment(v: unknown, w: Walk): void {
  if (!object(v, w)) return;
  num(v, 'id', w);
  num(v, 'merchant_id', w);
  num(v, 'warehouse_id', w);
  strOrNull(v, 'estimated_arrival_date', w);
  strOrNull(v, 'delivery_option', w);
  strOrNull(v, 'tracking_code', w);
  strOrNull(v, 'po_number', w);
  strOrNull(v, 'supplier_name', w);
  str(v, 'status', w);
  strOrNull(v, 'barcode', w);
  list(v, 'restocking_shipment_items', w, item, false);
}

/**
 * A freshly parsed JSON value as a version 1 restocking shipment, parsed leniently (unknown keys
 * and unknown enum values kept): completed in place and returned, equal to what
 * `parseLenient(RestockingShipmentV1Schema, json)` returns; or the same
 * {@link ResponseValidationError}, whose `body` is `original()` (the value as received: the check
 * may have filled in defaults before it found an issue), whose `issues` are the first
 * {@link MAX_ISSUES}, and whose message names the first {@link SHOWN_ISSUES} and counts the others.
 */
export function parseShipmentPayload(json: unknown, original: () => unknown): RestockingShipmentV1 {
  const walk = new Walk();
  shipment(json, walk);
  if (walk.issues.length > 0) {
    throw new ResponseValidationError({
      body: original(),
      issues: walk.issues,
      message: `Webhook body is not a restocking shipment: ${describeIssues(walk.issues, walk.more)}`,
    });
  }
  return json as RestockingShipmentV1;
}

/** How many issues a message names; the others are counted. @internal */
export const SHOWN_ISSUES = 10;

/**
 * The issues as a message names them: the first {@link SHOWN_ISSUES}, then how many more were
 * found (`… and 5 more`; `… and at least 91 more` when `more` were found past {@link MAX_ISSUES}).
 */
export function describeIssues(issues: readonly ValidationIssue[], more = false): string {
  const shown = issues
    .slice(0, SHOWN_ISSUES)
    .map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
    .join('; ');
  const extra = issues.length - Math.min(issues.length, SHOWN_ISSUES) + (more ? 1 : 0);
  if (extra === 0) return shown;
  return `${shown}; … and ${more ? 'at least ' : ''}${extra} more`;
}
