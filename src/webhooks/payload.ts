/**
 * Webhooks: the payload parsed as a version 1 restocking shipment without zod, so that an app that
 * only verifies webhooks bundles no schema library.
 *
 * The authority is `RestockingShipmentV1Schema` (`schemas/restocking-shipment-records.ts`): the
 * records below mirror it field by field, and a payload gives what `parseResponse` in `'lenient'`
 * mode gives with that schema — an equal value (defaults filled in, unknown keys kept, `__proto__`
 * dropped) or the same issues (zod's paths, messages and order); only a default's key comes after
 * the keys that were sent. `test/webhooks/payload.property.test.ts` holds the two together, so a
 * change to the schema fails there until it is made here too.
 */
import { isObject } from '../core/describe.js';
import { listIssues, ResponseValidationError, type ValidationIssue } from '../core/errors.js';
import type { RestockingShipmentV1 } from '../schemas/restocking-shipment-records.js';
import { WebhookVerificationError } from './types.js';

/** The most issues collected (the walk then stops), and how many a message names. */
const MAX_ISSUES = 100;
const SHOWN_ISSUES = 10;

/** The issues found, and the path being checked as a stack (written out only for an issue). */
class Walk {
  readonly issues: ValidationIssue[] = [];
  readonly path: (string | number)[] = [];
  /** `true` once an issue past {@link MAX_ISSUES} was found. */
  more = false;

  /** The value at the current path (and then `key`) is not of the `expected` type. */
  expected(expected: string, value: unknown, key?: string): undefined {
    if (this.issues.length >= MAX_ISSUES) {
      this.more = true;
      return undefined;
    }
    let path = '';
    for (const part of key === undefined ? this.path : [...this.path, key]) {
      path += typeof part === 'number' ? `[${part}]` : path ? `.${part}` : part;
    }
    // zod's name of the received type (`1e400`, which `JSON.parse` makes infinite, by its value).
    const received =
      value === null || (typeof value === 'number' && !Number.isFinite(value))
        ? String(value)
        : Array.isArray(value)
          ? 'array'
          : typeof value;
    this.issues.push({ path, message: `Invalid input: expected ${expected}, received ${received}` });
    return undefined;
  }
}

/**
 * A field read by name (reads by a computed key cost several times more): of `type`
 * (`z.number()`, `z.string()`, the open enums being strings), or also `null` when `or` is given:
 * `orNull(…)` gives `null` for an absent field, `sometimes(…)` leaves it absent. Returns the value
 * or its default, for the record to store back.
 */
function field(value: unknown, key: string, w: Walk, type: 'number' | 'string', or?: 'null' | 'sometimes') {
  if (value === undefined && or) return or === 'null' ? null : undefined;
  if ((value !== null || !or) && (typeof value !== type || (type === 'number' && !Number.isFinite(value))))
    w.expected(type, value, key);
  return value;
}

/** An array of objects, each checked by `check`; `[]` when absent if `orEmpty` (`z._default(…, [])`). */
function list(value: unknown, key: string, w: Walk, check: (v: unknown, w: Walk) => void, orEmpty = false) {
  if (value === undefined && orEmpty) return [];
  if (!Array.isArray(value)) return w.expected('array', value, key) ?? value;
  w.path.push(key);
  for (let i = 0; i < value.length && !w.more; i++) {
    w.path.push(i);
    check(value[i], w);
    w.path.pop();
  }
  w.path.pop();
  return value;
}

/** Whether `v` is an object (else an issue); an own `__proto__` key is dropped, as zod drops it. */
function object(v: unknown, w: Walk): v is Record<string, unknown> {
  if (!isObject(v)) return w.expected('object', v) ?? false;
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
  v.restocking_shipment_items = list(v.restocking_shipment_items, 'restocking_shipment_items', w, item);
}

const textDecoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });

/**
 * A verified body as a version 1 restocking shipment, parsed leniently: what
 * `parseResponse(RestockingShipmentV1Schema, json, 'lenient')` returns; or `invalid_payload`, for a
 * body that is not UTF-8 JSON, or with the same {@link ResponseValidationError} as cause: its `body`
 * is the value as received, its `issues` the first 100, and its message (echoed in the handler's
 * 400 answer: bounded) names the first 10 and counts the others.
 */
export function parsePayload(body: Uint8Array<ArrayBuffer> | string): RestockingShipmentV1 {
  let text: string;
  let json: unknown;
  try {
    text = typeof body === 'string' ? body : textDecoder.decode(body);
    json = JSON.parse(text);
  } catch (cause) {
    throw new WebhookVerificationError('invalid_payload', 'Webhook body is not valid UTF-8 JSON.', { cause });
  }
  const w = new Walk();
  shipment(json, w); // in place: nobody else holds what `JSON.parse` just returned
  if (w.issues.length === 0) return json as RestockingShipmentV1;
  const extra = Math.max(0, w.issues.length - SHOWN_ISSUES) + (w.more ? 1 : 0);
  const more = extra === 0 ? '' : `; … and ${w.more ? 'at least ' : ''}${extra} more`;
  const cause = new ResponseValidationError({
    body: JSON.parse(text),
    issues: w.issues,
    message: `Webhook body is not a restocking shipment: ${listIssues(w.issues.slice(0, SHOWN_ISSUES))}${more}`,
  });
  throw new WebhookVerificationError('invalid_payload', cause.message, { cause });
}
