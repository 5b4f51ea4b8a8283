/**
 * The webhook payload check without zod (`src/webhooks/payload.ts`) against its authority, zod's
 * lenient parse with `RestockingShipmentV1Schema`: every field the schema's shape names, at every level, is checked valid, of a wrong type, null and absent; and
 * for generated JSON (valid shipments, shipments with one field replaced or removed at any depth,
 * and arbitrary JSON) both accept with equal values or both refuse with the same issues. A field
 * added to, removed from or retyped in the schema fails here until the mirror follows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { ResponseValidationError } from '../../src/core/errors.js';
import { parseResponse } from '../../src/core/validation.js';
import { RestockingShipmentV1Schema } from '../../src/schemas/restocking-shipment-records.js';
import { parsePayload } from '../../src/webhooks/payload.js';

/** Property cases per generator (bounded, inside `npm test`). */
const RUNS = 400;

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
    mirror: run(() => {
      try {
        return parsePayload(text);
      } catch (error) {
        throw (error as Error).cause ?? error;
      }
    }),
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

// --- Every field of the schema, read from its shape ----------------------------------------------

/** A field of the schema, at its path in a payload whose lists hold one element each. */
interface SchemaField {
  path: (string | number)[];
  /** Valid values of the field. */
  valid: fc.Arbitrary<unknown>;
  /** Values of another JSON type. */
  wrong: unknown[];
  /** Whether the field may be `null`. */
  nullable: boolean;
  /** Whether the field may be left out (a default, or optional). */
  absent: boolean;
}

/** Property cases per field for its valid values (bounded: about 25 fields). */
const FIELD_RUNS = 20;

type Def = {
  type: string;
  innerType?: z.core.$ZodType;
  element?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
};
const defOf = (schema: z.core.$ZodType) => schema._zod.def as unknown as Def;

/** The kinds of wrapper around a field (`default`, `nullable`, `optional`) and the type inside. */
function unwrap(schema: z.core.$ZodType): { wrappers: string[]; inner: z.core.$ZodType } {
  const wrappers: string[] = [];
  let inner = schema;
  for (let def = defOf(inner); def.innerType; def = defOf(inner)) {
    wrappers.push(def.type);
    inner = def.innerType;
  }
  return { wrappers, inner };
}

/** The JSON type a valid value of `inner` has; a kind of field this test does not know fails it. */
function jsonType(inner: z.core.$ZodType): 'number' | 'string' | 'array' | 'object' {
  const { type } = defOf(inner);
  if (type === 'number' || type === 'string' || type === 'array' || type === 'object') return type;
  throw new Error(`a field of type '${type}': teach this test its valid and wrong values`);
}

const jsonTypeOf = (value: unknown) =>
  Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;

/** Values of every JSON type but null, the wrong ones of a field picked by their type. */
const ANY_TYPE: unknown[] = [true, 0, 1.5, '', 'x', [], [1], {}, { id: 1 }];

/** The element schema of an array field, when its elements are objects: fields to walk into. */
function objectElement(inner: z.core.$ZodType): z.core.$ZodType | undefined {
  const { element } = defOf(inner);
  if (!element) return undefined;
  const item = unwrap(element).inner;
  return defOf(item).type === 'object' ? item : undefined;
}

/** Every field of an object schema and of the objects in its lists, in the schema's order. */
function schemaFields(schema: z.core.$ZodType, prefix: (string | number)[] = []): SchemaField[] {
  const out: SchemaField[] = [];
  for (const [key, field] of Object.entries(defOf(schema).shape ?? {})) {
    const { wrappers, inner } = unwrap(field);
    const type = jsonType(inner);
    out.push({
      path: [...prefix, key],
      valid: arbitraryOf(field),
      wrong: ANY_TYPE.filter((value) => jsonTypeOf(value) !== type),
      nullable: wrappers.includes('nullable'),
      absent: wrappers.includes('default') || wrappers.includes('optional'),
    });
    const element = objectElement(inner);
    if (element) out.push(...schemaFields(element, [...prefix, key, 0]));
  }
  return out;
}

/** Valid values of a field, generated from its schema. */
function arbitraryOf(schema: z.core.$ZodType): fc.Arbitrary<unknown> {
  const { wrappers, inner } = unwrap(schema);
  let valid: fc.Arbitrary<unknown>;
  const type = jsonType(inner);
  if (type === 'number') valid = num;
  else if (type === 'string') valid = text;
  else if (type === 'array') valid = fc.array(arbitraryOf(defOf(inner).element!), { maxLength: 2 });
  else {
    const shape = defOf(inner).shape!;
    const required = Object.keys(shape).filter((k) => {
      const w = unwrap(shape[k]!).wrappers;
      return !w.includes('default') && !w.includes('optional');
    });
    const parts = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, arbitraryOf(v)]));
    valid = fc.record(parts, { requiredKeys: required });
  }
  return wrappers.includes('nullable') ? fc.option(valid, { nil: null }) : valid;
}

/**
 * A valid value of a schema: its required fields (every field with `all`), each list of objects
 * with one element (so that every field has a place), other lists empty.
 */
function validOf(schema: z.core.$ZodType, all: boolean): unknown {
  const { inner } = unwrap(schema);
  const type = jsonType(inner);
  if (type === 'number') return 1;
  if (type === 'string') return 's';
  if (type === 'array') {
    const element = objectElement(inner);
    return element ? [validOf(element, all)] : [];
  }
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(defOf(inner).shape!)) {
    const { wrappers, inner: fieldInner } = unwrap(field);
    const optional = wrappers.includes('default') || wrappers.includes('optional');
    if (all || !optional || objectElement(fieldInner)) out[key] = validOf(field, all);
  }
  return out;
}

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

  it('agrees on every field the schema knows, optional ones included: valid, wrong type, null and absent', () => {
    const fields = schemaFields(RestockingShipmentV1Schema);
    // The list is the schema's, at every level: none is left to the random properties above.
    expect(fields.length).toBeGreaterThan(0);
    // Exactly the fields that may be left out (optional, or with a default), at every level.
    expect(fields.filter((f) => f.absent).map((f) => f.path.join('.'))).toEqual([
      'estimated_arrival_date',
      'delivery_option',
      'tracking_code',
      'po_number',
      'supplier_name',
      'barcode',
      'restocking_shipment_items.0.id',
      'restocking_shipment_items.0.sku_id',
      'restocking_shipment_items.0.merchant_sku_id',
      'restocking_shipment_items.0.arrived_quantity',
      'restocking_shipment_items.0.damaged_quantity',
      'restocking_shipment_items.0.missing_quantity',
      'restocking_shipment_items.0.inventory_batches',
      'restocking_shipment_items.0.inventory_batches.0.name',
      'restocking_shipment_items.0.inventory_batches.0.tracking_code',
      'restocking_shipment_items.0.inventory_batches.0.expiry_date',
      'restocking_shipment_items.0.inventory_batches.0.arrived_quantity',
    ]);
    // Each field is changed in a payload of the required fields only (and the lists that lead to
    // it) and in one with every field present.
    const bases = [validOf(RestockingShipmentV1Schema, false), validOf(RestockingShipmentV1Schema, true)];
    for (const base of bases) expect(expectSame(toText(base)).ok).toBe(true);
    for (const field of fields) {
      fc.assert(
        fc.property(fc.constantFrom(...bases), field.valid, (base, value) => {
          expect(expectSame(toText(mutate(base, field.path, value))).ok).toBe(true);
        }),
        { numRuns: FIELD_RUNS },
      );
      for (const base of bases) {
        for (const value of field.wrong)
          expect(expectSame(toText(mutate(base, field.path, value))).ok).toBe(false);
        expect(expectSame(toText(mutate(base, field.path, null))).ok).toBe(field.nullable);
        expect(expectSame(toText(mutate(base, field.path, undefined))).ok).toBe(field.absent);
      }
    }
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
