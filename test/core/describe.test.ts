/**
 * `describe` (`core/describe.ts`): what a value is, for a message, never its content.
 */
import { expect, it, describe as suite } from 'vitest';
import { describe } from '../../src/core/describe.js';

suite('describe', () => {
  it('names the kind or the class, never the content', () => {
    expect(describe(null)).toBe('null');
    expect(describe(undefined)).toBe('undefined');
    expect(describe('tok_SECRET')).toBe('string');
    expect(describe(5)).toBe('number');
    expect(describe([1])).toBe('an array');
    expect(describe({ a: 1 })).toBe('an object');
    expect(describe(Object.create(null))).toBe('an object');
    expect(describe(new Date(0))).toBe('a Date');
  });
});
