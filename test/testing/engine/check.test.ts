import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { checkInput } from '../../../src/testing/engine/check.js';

const refuse = (field: string, problem: string): never => {
  throw new Error(`${field}: ${problem}`);
};
const Body = z.strictObject({
  count: z.int().check(z.minimum(0)),
  items: z.optional(z.array(z.strictObject({ sku: z.string() }))),
});

describe('checkInput', () => {
  it('returns the parsed value', () => {
    expect(checkInput(Body, { count: 2 }, refuse)).toEqual({ count: 2 });
  });
  it('refuses the first bad field by its path, after the prefix', () => {
    expect(() => checkInput(Body, { count: 1, items: [{ sku: 'a' }, { sku: 3 }] }, refuse, 'body')).toThrow(
      /^body\.items\[1\]\.sku: Invalid input: expected string, received number$/,
    );
    expect(() => checkInput(Body, { count: -1 }, refuse)).toThrow(/^count: Too small/);
  });
  it('names the closest known field for an unknown one', () => {
    expect(() => checkInput(Body, { count: 1, cuont: 2 }, refuse)).toThrow(/did you mean "count"\?/);
  });
});
