/**
 * Validation on both sides of the wire: requests before they are sent, responses as they arrive.
 */
import * as z from 'zod';
import { withStrictEnums } from '../schemas/common.js';
import { RequestValidationError, ResponseValidationError, type ValidationIssue } from './errors.js';

/** How responses are checked: see `ClientOptions.validateResponses`. */
export type ValidationMode = 'strict' | 'lenient' | 'off';

/** Formats a Zod issue path the way users write it: `items[1].quantity`. */
export function formatPath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** Converts Zod issues into the SDK's path + message pairs (union branches flattened). */
export function toIssues(issues: readonly z.core.$ZodIssue[], prefix = ''): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const path = formatPath(issue.path, prefix);
    out.push({ path, message: issue.message });
  }
  return out;
}

const compiledCache = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The compiled form of a schema (built once per schema). Falls back silently to the schema itself
 * where the runtime forbids code generation (`new Function`), as some edge runtimes do.
 */
export function compiled<T extends z.ZodType>(schema: T): T {
  let fast = compiledCache.get(schema) as T | undefined;
  if (!fast) {
    try {
      fast = z.compile(schema);
    } catch {
      fast = schema;
    }
    compiledCache.set(schema, fast);
  }
  return fast;
}

/**
 * Validates request input against its schema and returns the wire form (the schema's output).
 * Throws one {@link RequestValidationError} listing every bad field; nothing is sent then.
 */
export function validateRequest<T extends z.ZodType>(
  schema: T,
  value: unknown,
  context?: string,
  prefix = '',
): z.output<T> {
  const result = compiled(schema).safeParse(value);
  if (result.success) return result.data;
  throw new RequestValidationError(toIssues(result.error.issues, prefix), context);
}

/** Where a response came from, for error messages. */
export interface ResponseContext {
  status?: number;
  method?: string;
  url?: string;
}

/**
 * Parses a response body with its schema according to the mode: `'lenient'` keeps unknown keys and
 * enum values, `'strict'` also rejects unknown enum values, `'off'` returns the body unchecked.
 */
export function parseResponse<T extends z.ZodType>(
  schema: T,
  body: unknown,
  mode: ValidationMode,
  context: ResponseContext = {},
): z.output<T> {
  if (mode === 'off') return body as z.output<T>;
  const fast = compiled(schema);
  const result = mode === 'strict' ? withStrictEnums(() => fast.safeParse(body)) : fast.safeParse(body);
  if (result.success) return result.data;
  throw new ResponseValidationError({ body, issues: toIssues(result.error.issues), ...context });
}
