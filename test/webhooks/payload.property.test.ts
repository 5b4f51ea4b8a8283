/**
 * The webhook payload check without zod (`src/webhooks/payload.ts`) against its authority, zod's
 * lenient parse with `RestockingShipmentV1Schema`: the key lists are the schema's keys, and for
 * generated JSON (valid shipments, shipments with one field replaced or removed at any depth, and
 * arbitrary JSON) both accept with equal values or both refuse with the same issues. A field added
 * to, removed from or retyped in the schema fails here until the mirror follows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { ResponseValidationError } from '../../src/core/errors.js';
import { parseResponse } from '../../src/core/validation.js';
import {
  RestockingShipmentItemBatchSchema,
  RestockingShipmentItemSchema,
  RestockingShipmentV1Schema,
} from '../../src/schemas/restocking-shipment-records.js';
import { BATCH_KEYS, ITEM_KEYS, parseShipmentPayload, SHIPMENT_KEYS } from '../../src/webhooks/payload.js';

/** Property cases per generator (bounded, inside `npm test`). */
const RUNS = 400;

const shapeKeys = (schema: z.core.$ZodType) =>
  Object.keys((schema._zod.def as unknown as { shape: Record<string, unknown> }).shape);

type Outcome = { ok: true; value: unknown } | { ok: false; issues: unknown; body: unknown };

/** What each side makes of one JSON text (each parses its own copy: the mirror completes in place). */
function both(text: string): { zod: Outcome; mirror: Outcome } {
  const run = (parse: (json: unknown) => unknown): Outcome => {
    try {
      return { ok: true, value: parse(JSON.parse(text)) };
    } catch (error) {
      if (!(error instanceof ResponseValidationError)) throw error;
      return { ok: false, issues: error.issues, body: error.body };
    }
  };
  return {
    zod: run((json) => parseResponse(RestockingShipmentV1Schema, json, 'lenient')),
    mirror: run((json) => parseShipmentPayload(json, () => JSON.parse(text))),
  };
}

/**
 * A value written out with its keys sorted and `undefined` spelled out, each object's prototype
 * checked: what "equal" means here (the key order may differ; `toStrictEqual` would compare the
 * `constructor` of objects that carry a `constructor` key of their own).
 */
function canon(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `[${value.map(canon).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  const keys = Reflect.ownKeys(value).map(String).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canon((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

function expectSame(text: string): Outcome {
  const { zod, mirror } = both(text);
  expect(canon(mirror)).toBe(canon(zod));
  return zod;
}

// --- Generators ----------------------------------------------------------------------------------

const int = fc.integer({ min: -1e6, max: 1e9 });
const num = fc.oneof(int, fc.double({ noNaN: true, noDefaultInfinity: true }));
const text = fc.string({ maxLength: 12 });
/** A documented field that may be absent (`orNull`) or `null`. */
const orNull = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null });
/** Extra keys the provider may add (kept), `__proto__` among them (dropped). */
const extras = fc.dictionary(
  fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'toString', 'note')),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 },
);

/** `record` with the keys of `optional` left out at random. */
function withOptional<T extends Record<string, unknown>>(
  fields: { [K in keyof T]: fc.Arbitrary<T[K]> },
  required: readonly (keyof T)[],
) {
  return fc
    .tuple(fc.record(fields, { requiredKeys: required as (keyof T)[] }), extras)
    .map(([known, extra]) => ({ ...extra, ...known }));
}

const batch = withOptional(
  {
    id: int,
    name: orNull(text),
    tracking_code: orNull(text),
    expiry_date: orNull(text),
    arrived_quantity: orNull(num),
  },
  ['id'],
);

const item = withOptional(
  {
    id: orNull(int),
    sku_id: orNull(int),
    merchant_sku_id: orNull(text),
    announced_quantity: num,
    arrived_quantity: orNull(num),
    damaged_quantity: orNull(num),
    missing_quantity: orNull(num),
    inventory_batches: fc.array(batch, { maxLength: 3 }),
  },
  ['announced_quantity'],
);

const shipment = withOptional(
  {
    id: int,
    merchant_id: int,
    warehouse_id: int,
    estimated_arrival_date: orNull(text),
    delivery_option: orNull(
      fc.oneof(fc.constantFrom('courier', 'dropoff', 'service_freight', 'postal'), text),
    ),
    tracking_code: orNull(text),
    po_number: orNull(text),
    supplier_name: orNull(text),
    status: fc.oneof(fc.constantFrom('created', 'shipped', 'delivered', 'arrived', 'restocked'), text),
    barcode: orNull(text),
    restocking_shipment_items: fc.array(item, { maxLength: 4 }),
  },
  ['id', 'merchant_id', 'warehouse_id', 'status', 'restocking_shipment_items'],
);

/** A JSON text built by `JSON.stringify`, which keeps an own `__proto__` key as a key. */
const toText = (value: unknown) => JSON.stringify(value);

/** Every path to a value inside `value` (keys and indexes). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) out.push(...paths(value[i], [...prefix, i]));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  }
  return out;
}

/** `value` with the value at `path` replaced by `replacement`, or removed when it is `undefined`. */
function mutate(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  const [head, ...tail] = path as [string | number, ...(string | number)[]];
  const next = mutate(copy[head], tail, replacement);
  if (next === undefined && !Array.isArray(copy)) delete copy[head];
  else copy[head] = next === undefined ? null : next;
  return copy;
}

const mutated = shipment.chain((valid) =>
  fc
    .tuple(
      fc.constantFrom(...paths(valid).slice(1)),
      fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(null, '', 0, [], {})),
    )
    .map(([path, replacement]) => mutate(valid, path, replacement)),
);

// --- Properties ----------------------------------------------------------------------------------

describe('webhook payload mirror (payload.ts) against RestockingShipmentV1Schema', () => {
  it("names exactly the schema's keys, in its order, at every level", () => {
    expect(SHIPMENT_KEYS).toEqual(shapeKeys(RestockingShipmentV1Schema));
    expect(ITEM_KEYS).toEqual(shapeKeys(RestockingShipmentItemSchema));
    expect(BATCH_KEYS).toEqual(shapeKeys(RestockingShipmentItemBatchSchema));
  });

  it('accepts every valid shipment with the value zod gives', () => {
    fc.assert(
      fc.property(shipment, (value) => {
        expect(expectSame(toText(value)).ok).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('agrees on a shipment with one value replaced or removed at any depth', () => {
    let refused = 0;
    fc.assert(
      fc.property(mutated, (value) => {
        if (!expectSame(toText(value)).ok) refused++;
      }),
      { numRuns: RUNS },
    );
    // The generator reaches refusals, not only harmless changes.
    expect(refused).toBeGreaterThan(RUNS / 10);
  });

  it('agrees on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expectSame(toText(value));
      }),
      { numRuns: RUNS },
    );
  });

  it('agrees field by field on every wrong type, and on every field left out', () => {
    const valid = {
      id: 1,
      merchant_id: 2,
      warehouse_id: 3,
      status: 'shipped',
      restocking_shipment_items: [
        { id: 4, sku_id: 5, merchant_sku_id: 'M', announced_quantity: 6, inventory_batches: [{ id: 7 }] },
      ],
    };
    const wrong = [null, true, 0, 'x', [], {}];
    const cases = paths(valid).filter((p) => p.length > 0);
    for (const path of cases) {
      expectSame(toText(mutate(valid, path, undefined)));
      for (const replacement of wrong) expectSame(toText(mutate(valid, path, replacement)));
    }
    // Every field of the three levels was reached.
    expect(cases.length).toBeGreaterThanOrEqual(5 + 5 + 2);
  });

  it('agrees on numbers JSON.parse makes infinite (1e400), which zod refuses', () => {
    const texts = [
      '{"id":1e400,"merchant_id":2,"warehouse_id":3,"status":"s","restocking_shipment_items":[]}',
      '{"id":1,"merchant_id":-1e400,"warehouse_id":3,"status":"s","restocking_shipment_items":[]}',
      '{"id":1,"merchant_id":2,"warehouse_id":3,"status":"s","restocking_shipment_items":[{"announced_quantity":-1e400,"arrived_quantity":1e999,"inventory_batches":[{"id":1e400,"arrived_quantity":-1e400}]}]}',
    ];
    for (const text of texts) expect(expectSame(text).ok).toBe(false);
    const { mirror } = both(texts[0]!);
    expect(mirror).toMatchObject({
      issues: [{ path: 'id', message: 'Invalid input: expected number, received Infinity' }],
    });
  });

  it('fills in the defaults, keeps unknown keys and drops an own __proto__ key', () => {
    const text =
      '{"__proto__":{"polluted":true},"id":1,"merchant_id":2,"warehouse_id":3,"status":"lost","extra":{"a":1},' +
      '"restocking_shipment_items":[{"announced_quantity":5,"inventory_batches":[{"id":9,"__proto__":1}]}]}';
    const outcome = expectSame(text);
    expect(outcome.ok).toBe(true);
    const value = (outcome as { value: Record<string, unknown> }).value;
    expect(Object.hasOwn(value, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value).toMatchObject({ barcode: null, status: 'lost', extra: { a: 1 } });
    const copied = Object.assign({}, value) as Record<string, unknown>;
    expect(copied.polluted).toBeUndefined();
  });

  it("refuses with zod's issues, and the body as it was received", () => {
    const text = '{"id":"1","merchant_id":2,"restocking_shipment_items":[{"id":"x"},4]}';
    const { zod, mirror } = both(text);
    expect(canon(mirror)).toBe(canon(zod));
    expect(mirror).toMatchObject({
      ok: false,
      body: JSON.parse(text),
      issues: [
        { path: 'id', message: 'Invalid input: expected number, received string' },
        { path: 'warehouse_id', message: 'Invalid input: expected number, received undefined' },
        { path: 'status', message: 'Invalid input: expected string, received undefined' },
        {
          path: 'restocking_shipment_items[0].id',
          message: 'Invalid input: expected number, received string',
        },
        {
          path: 'restocking_shipment_items[0].announced_quantity',
          message: 'Invalid input: expected number, received undefined',
        },
        { path: 'restocking_shipment_items[1]', message: 'Invalid input: expected object, received number' },
      ],
    });
  });
});
