/**
 * The base of every resource namespace: it holds the request surface its methods call. Also the
 * one check of the options the helpers read themselves (the rest go on to their requests, which
 * check them as every method does).
 */

import { isObject } from '../core/describe.js';
import { RequestValidationError } from '../core/errors.js';
import type { RequestSurface } from '../core/pagination.js';
import { requestOptionIssues } from '../core/request.js';

/** Base of every resource namespace. */
export abstract class APIResource {
  /** @internal */
  protected readonly _client: RequestSurface;

  constructor(client: RequestSurface) {
    this._client = client;
  }
}

/** A helper's own option: whether a value given is valid, and the message when it is not. */
export type OptionRule = readonly [valid: (value: unknown) => boolean, message: string];

/** An integer from `min` up to `max`. */
export const integer = (min: number, max?: number): OptionRule => [
  (v) => Number.isSafeInteger(v) && (v as number) >= min && (max === undefined || (v as number) <= max),
  max === undefined ? `expected an integer >= ${min}` : `expected an integer from ${min} to ${max}`,
];

/** A callback such as `onProgress`. */
export const callback: OptionRule = [(v) => typeof v === 'function', 'expected a function'];

/**
 * Refuses options that are not an object, and a helper's own option that breaks its rule: one
 * `RequestValidationError` naming each, before anything is sent.
 */
export function checkOwnOptions(options: unknown, rules: Record<string, OptionRule>, context: string): void {
  const given = options === undefined ? {} : options;
  const issues = !isObject(given)
    ? requestOptionIssues(given)
    : Object.entries(rules)
        .filter(([key, [valid]]) => given[key] !== undefined && !valid(given[key]))
        .map(([path, [, message]]) => ({ path, message }));
  if (issues.length > 0) throw new RequestValidationError(issues, context);
}
