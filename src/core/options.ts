/**
 * Checks of what callers pass besides bodies: header names and values, and `RequestOptions`.
 * Values are never echoed in messages: a header may carry a credential.
 */
import type { ValidationIssue } from './errors.js';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII, spaces and tabs inside, and obs-text; no control characters (CR, LF, NUL, …).
const HEADER_VALUE = /^[\t\x20-\x7E\x80-\xFF]*$/;
/** An API token: visible ASCII only (no spaces, no line breaks). */
export const TOKEN = /^[\x21-\x7E]+$/;
const MAX_TIMEOUT = 2_147_483_647;

/** The names of the request options (the last argument of every method; never query parameters). */
export const REQUEST_OPTION_KEYS: ReadonlySet<string> = new Set([
  'signal',
  'timeout',
  'maxRetries',
  'headers',
  'maxPages',
  'prefetch',
]);

/** Issues with a headers record (`undefined` values allowed: they remove a header). */
export function headerIssues(headers: unknown, path: string): ValidationIssue[] {
  if (headers === undefined) return [];
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) {
    return [{ path, message: 'expected an object of header names to string values' }];
  }
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) {
      issues.push({ path: `${path}[${JSON.stringify(name)}]`, message: 'is not a valid header name' });
    } else if (value !== undefined && (typeof value !== 'string' || !HEADER_VALUE.test(value))) {
      issues.push({
        path: `${path}.${name}`,
        message: 'expected a string without line breaks or control characters (value not shown)',
      });
    }
  }
  return issues;
}

function isSignal(value: unknown): value is AbortSignal {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function'
  );
}

/** Issues with the per-request options every method takes (and the list options, when given). */
export function requestOptionIssues(options: unknown): ValidationIssue[] {
  if (options === undefined) return [];
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    return [{ path: 'options', message: 'expected an object of request options' }];
  }
  const o = options as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (o.signal !== undefined && !isSignal(o.signal)) {
    issues.push({ path: 'options.signal', message: 'expected an AbortSignal' });
  }
  if (
    o.timeout !== undefined &&
    (typeof o.timeout !== 'number' ||
      !Number.isFinite(o.timeout) ||
      o.timeout <= 0 ||
      o.timeout > MAX_TIMEOUT)
  ) {
    issues.push({ path: 'options.timeout', message: `expected milliseconds > 0 and <= ${MAX_TIMEOUT}` });
  }
  if (o.maxRetries !== undefined && (!Number.isInteger(o.maxRetries) || (o.maxRetries as number) < 0)) {
    issues.push({ path: 'options.maxRetries', message: 'expected an integer >= 0' });
  }
  if (o.maxPages !== undefined && (!Number.isInteger(o.maxPages) || (o.maxPages as number) < 1)) {
    issues.push({ path: 'options.maxPages', message: 'expected an integer >= 1' });
  }
  if (o.prefetch !== undefined && o.prefetch !== 0 && o.prefetch !== 1) {
    issues.push({ path: 'options.prefetch', message: 'expected 0 or 1' });
  }
  issues.push(...headerIssues(o.headers, 'options.headers'));
  return issues;
}
