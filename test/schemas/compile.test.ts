import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as schemas from '../../src/schemas/index.js';

const exported: Record<string, unknown> = { ...schemas };
const all = Object.entries(exported).filter(
  (entry): entry is [string, z.core.$ZodType] => entry[1] instanceof z.core.$ZodType,
);
/** Request schemas with object-level rules run those rules on the runtime parser (see `objectRule`). */
const runtimeOnly = new Set([
  'AddressParamsSchema',
  'OrderItemParamsSchema',
  'OrderCreateParamsSchema',
  'OrderUpdateParamsSchema',
  'RestockingShipmentItemV1ParamsSchema',
  'RestockingShipmentItemV2ParamsSchema',
]);

describe('schemas and z.compile', () => {
  it('exports a schema for every public name ending in Schema', () => {
    const names = Object.keys(exported).filter((name) => /^[A-Z]\w*Schema$/.test(name));
    expect(names.length).toBeGreaterThan(50);
    expect(all.map(([name]) => name).sort()).toEqual(names.sort());
  });

  it.each(all.filter(([name]) => !runtimeOnly.has(name)))('%s compiles to the fast path', (_name, schema) => {
    expect(() => z.compile(schema, { strict: true })).not.toThrow();
  });

  it('only request schemas leave the fast path (response parsing stays fast)', () => {
    for (const name of runtimeOnly) {
      expect(name).toMatch(/ParamsSchema$/);
      expect(() => z.compile(exported[name] as z.core.$ZodType, { strict: true })).toThrow(
        /custom "when" condition/,
      );
    }
  });
});
