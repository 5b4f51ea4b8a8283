/**
 * Request bodies as JSON: what `JSON.stringify` cannot send faithfully is found before anything is
 * sent, by path, without recursion (so a hostile value cannot overflow the stack).
 */
import type { ValidationIssue } from './errors.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string is well-formed UTF-16 (no lone surrogate), so it can be encoded as UTF-8. */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** Deepest nesting of objects and arrays a request body may have. */
export const MAX_JSON_DEPTH = 64;

function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/**
 * The first value of `body` that cannot be sent as JSON: a `bigint`, a function or symbol inside an
 * array, a cycle, a nesting deeper than {@link MAX_JSON_DEPTH}, a number that is not finite, an
 * invalid `Date` (which `JSON.stringify` would send as `null`), or a lone UTF-16 surrogate. `undefined` when the body is sendable.
 */
export function jsonIssue(body: unknown, root = 'body'): ValidationIssue | undefined {
  const stack: { value: unknown; path: string; depth: number; ancestors: readonly object[] }[] = [
    { value: body, path: '', depth: 0, ancestors: [] },
  ];
  while (stack.length > 0) {
    const { value, path, depth, ancestors } = stack.pop()!;
    const where = path || root;
    if (typeof value === 'bigint') return { path: where, message: 'a BigInt cannot be sent as JSON' };
    if (typeof value === 'number' && !Number.isFinite(value)) {
      return { path: where, message: `${value} cannot be sent as JSON` };
    }
    if (typeof value === 'string' && !isWellFormed(value)) {
      return { path: where, message: 'contains a lone UTF-16 surrogate, which cannot be sent' };
    }
    if (typeof value !== 'object' || value === null) continue;
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) return { path: where, message: 'an invalid Date cannot be sent' };
      continue;
    }
    if (ancestors.includes(value)) return { path: where, message: 'refers to itself (a cycle)' };
    if (depth >= MAX_JSON_DEPTH) {
      return { path: where, message: `is nested deeper than ${MAX_JSON_DEPTH} levels` };
    }
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') continue;
    const next = [...ancestors, value];
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const item: unknown = value[i];
        if (typeof item === 'function' || typeof item === 'symbol') {
          return { path: child(path, i), message: `a ${typeof item} cannot be sent as JSON` };
        }
        stack.push({ value: item, path: child(path, i), depth: depth + 1, ancestors: next });
      }
    } else {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        if (!isWellFormed(key)) {
          return { path: where, message: 'has a key with a lone UTF-16 surrogate, which cannot be sent' };
        }
        stack.push({ value: item, path: child(path, key), depth: depth + 1, ancestors: next });
      }
    }
  }
  return undefined;
}
