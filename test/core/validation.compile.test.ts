/** The compiled form of a schema: built once, the same results as the schema, a fallback when refused. */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { compiled } from '../../src/core/validation.js';
import { openEnum } from '../../src/schemas/common.js';
import { AddressParamsSchema, OrderSchema } from '../../src/schemas/orders.js';
import { orderFixture } from '../fixtures/orders.js';
import { unknownEnumValues } from '../helpers/known-values.js';

describe('compiled', () => {
  it('is built once per schema and parses like the schema', () => {
    const fast = compiled(OrderSchema);
    expect(fast).not.toBe(OrderSchema);
    expect(compiled(OrderSchema)).toBe(fast);
    expect(z.parse(fast, orderFixture)).toEqual(z.parse(OrderSchema, orderFixture));
  });

  it('keeps the open enums of the schema findable (metadata is inherited)', () => {
    const Status = openEnum(['new', 'done']);
    const Thing = z.looseObject({ status: Status });
    expect(unknownEnumValues(compiled(Status), 'lost')).toEqual([
      { path: '', message: "expected one of 'new', 'done'", value: 'lost' },
    ]);
    expect(unknownEnumValues(compiled(Thing), { status: 'lost' })).toEqual([
      { path: 'status', message: "expected one of 'new', 'done'", value: 'lost' },
    ]);
  });

  it('falls back to the schema itself when the compiler refuses it', () => {
    // Object-level rules run on the runtime parser (see `objectRule`).
    expect(compiled(AddressParamsSchema)).toBe(AddressParamsSchema);
  });
});
