/** Validation modes and open enums: the mode is an argument, unknown enum values are found by path. */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { parseResponse } from '../../src/core/validation.js';
import { openEnum } from '../../src/schemas/common.js';
import { OrderSchema } from '../../src/schemas/orders.js';
import { orderFixture } from '../fixtures/orders.js';
import { unknownEnumValues } from '../helpers/known-values.js';

const Status = openEnum(['new', 'done']);
const Item = z.looseObject({ id: z.number(), status: z.nullish(Status) });
const Thing = z.looseObject({
  status: Status,
  items: z.array(Item),
  either: z.union([z.array(Item), z.looseObject({ status: Status })]).optional(),
  byKey: z.record(z.string(), Status).optional(),
});

describe('unknownEnumValues', () => {
  it('finds every unknown value with its path, in schema order', () => {
    const body = {
      status: 'lost',
      items: [{ id: 1, status: 'new' }, { id: 2, status: 'weird' }, { id: 3 }],
      either: { status: 'odd' },
      byKey: { a: 'new', b: 'strange' },
    };
    expect(unknownEnumValues(Thing, body)).toEqual([
      { path: 'status', message: "expected one of 'new', 'done'", value: 'lost' },
      { path: 'items[1].status', message: "expected one of 'new', 'done'", value: 'weird' },
      { path: 'either.status', message: "expected one of 'new', 'done'", value: 'odd' },
      { path: 'byKey.b', message: "expected one of 'new', 'done'", value: 'strange' },
    ]);
  });

  it('finds nothing when every value is known, and ignores values of the wrong type', () => {
    expect(unknownEnumValues(Thing, { status: 'done', items: [{ id: 1, status: null }] })).toEqual([]);
    expect(unknownEnumValues(Thing, { status: 3, items: 'x' })).toEqual([]);
  });

  it('costs nothing for a schema without open enums', () => {
    expect(unknownEnumValues(z.object({ a: z.string() }), { a: 'anything' })).toEqual([]);
  });
});

describe('parseResponse modes', () => {
  const body = { ...orderFixture, status: 'on_hold' };

  it('lenient keeps an unknown value; off returns the body unchecked', () => {
    expect(parseResponse(OrderSchema, body, 'lenient').status).toBe('on_hold');
    const broken = { id: 'x' };
    expect(parseResponse(OrderSchema, broken, 'off')).toBe(broken);
  });
});
