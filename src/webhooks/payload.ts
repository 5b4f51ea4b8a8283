/**
 * Webhooks: the payload parsed as a version 1 restocking shipment without zod, so that an app that
 * only verifies webhooks bundles no schema library and a verification costs little more than its
 * HMAC and its `JSON.parse`.
 *
 * The authority is `RestockingShipmentV1Schema` (`schemas/restocking-shipment-records.ts`): this
 * module mirrors it field by field and gives, for every JSON value, what `parseResponse` in `'lenient'` mode gives with
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
import { listIssues, ResponseValidationError, type ValidationIssue } from '../core/errors.js';
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

/** The most issues collected; past it, the walk stops and the error says more were found. */
const MAX_ISSUES = 100;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** zod's name for the type of a JSON value (`util.parsedType`). */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  // What `JSON.parse` makes of `1e400`; zod's English names it by its value.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
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

/**
 * Checks a field read by name (a read by a computed key costs several times more on every field):
 * of `type` (`z.number()`, `z.string()`, the open enums being strings), or also `null` when `or` is
 * given: `orNull(…)` gives `null` for an absent field, `sometimes(…)` leaves it absent. Returns the
 * value, or its default, for the record to store back.
 */
function field(value: unknown, key: string, w: Walk, type: 'number' | 'string', or?: 'null' | 'sometimes') {
  if (value === undefined && or) return or === 'null' ? null : undefined;
  if ((value !== null || !or) && (typeof value !== type || (type === 'number' && !Number.isFinite(value))))
    w.expected(type, value, key);
  return value;
}

/** An array of objects, each checked by `check`; `[]` when absent if `orEmpty` (`z._default(…, [])`). */
function list(
  value: unknown,
  key: string,
  w: Walk,
  check: (v: unknown, w: Walk) => void,
  orEmpty: boolean,
): unknown {
  if (value === undefined && orEmpty) return [];
  if (!Array.isArray(value)) {
    w.expected('array', value, key);
    return value;
  }
  w.path.push(key);
  for (let i = 0; i < value.length && !w.more; i++) {
    w.path.push(i);
    check(value[i], w);
    w.path.pop();
  }
  w.path.pop();
  return value;
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
  field(v.id, 'id', w, 'number');
  v.name = field(v.name, 'name', w, 'string', 'null');
  v.tracking_code = field(v.tracking_code, 'tracking_code', w, 'string', 'null');
  v.expiry_date = field(v.expiry_date, 'expiry_date', w, 'string', 'null');
  v.arrived_quantity = field(v.arrived_quantity, 'arrived_quantity', w, 'number', 'null');
}

/** `RestockingShipmentItemSchema`. */
function item(v: unknown, w: Walk): void {
  if (!object(v, w)) return;
  v.id = field(v.id, 'id', w, 'number', 'null');
  v.sku_id = field(v.sku_id, 'sku_id', w, 'number', 'null');
  field(v.merchant_sku_id, 'merchant_sku_id', w, 'string', 'sometimes');
  field(v.announced_quantity, 'announced_quantity', w, 'number');
  v.arrived_quantity = field(v.arrived_quantity, 'arrived_quantity', w, 'number', 'null');
  v.damaged_quantity = field(v.damaged_quantity, 'damaged_quantity', w, 'number', 'null');
  v.missing_quantity = field(v.missing_quantity, 'missing_quantity', w, 'number', 'null');
  v.inventory_batches = list(v.inventory_batches, 'inventory_batches', w, batch, true);
}

/** `RestockingShipmentV1Schema`. */
function shipment(v: unknown, w: Walk): void {
  if (!object(v, w)) return;
  field(v.id, 'id', w, 'number');
  field(v.merchant_id, 'merchant_id', w, 'number');
  field(v.warehouse_id, 'warehouse_id', w, 'number');
  v.estimated_arrival_date = field(v.estimated_arrival_date, 'estimated_arrival_date', w, 'string', 'null');
  v.delivery_option = field(v.delivery_option, 'delivery_option', w, 'string', 'null');
  v.tracking_code = field(v.tracking_code, 'tracking_code', w, 'string', 'null');
  v.po_number = field(v.po_number, 'po_number', w, 'string', 'null');
  v.supplier_name = field(v.supplier_name, 'supplier_name', w, 'string', 'null');
  field(v.status, 'status', w, 'string');
  v.barcode = field(v.barcode, 'barcode', w, 'string', 'null');
  v.restocking_shipment_items = list(
    v.restocking_shipment_items,
    'restocking_shipment_items',
    w,
    item,
    false,
  );
}

/**
 * A freshly parsed JSON value as a version 1 restocking shipment, parsed leniently (unknown keys
 * and unknown enum values kept): completed in place and returned, equal to what
 * `parseResponse(RestockingShipmentV1Schema, json, 'lenient')` returns; or the same
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

/** How many issues a message names; the others are counted. */
const SHOWN_ISSUES = 10;

/**
 * The issues as a message names them: the first {@link SHOWN_ISSUES}, then how many more were
 * found (`… and 5 more`; `… and at least 91 more` when `more` were found past {@link MAX_ISSUES}).
 */
function describeIssues(issues: readonly ValidationIssue[], more = false): string {
  const shown = listIssues(issues.slice(0, SHOWN_ISSUES));
  const extra = issues.length - Math.min(issues.length, SHOWN_ISSUES) + (more ? 1 : 0);
  if (extra === 0) return shown;
  return `${shown}; … and ${more ? 'at least ' : ''}${extra} more`;
}
