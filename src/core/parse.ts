/**
 * Parsing with the SDK's messages: the parse context every parse uses, and requests checked before
 * they are sent. The response modes and the open-enum walk build on it in `validation.ts`.
 */
import { en } from 'zod/locales';
import * as z from 'zod/mini';
import { RequestValidationError, type ValidationIssue } from './errors.js';

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

let english: z.core.$ZodErrorMap | undefined;

/**
 * The messages of zod's own issues: those of the app's zod configuration when it sets any
 * (`z.config(…)`; classic `zod` sets English), else English. `zod/mini` installs no locale and
 * the SDK leaves the global configuration alone, so the English locale travels with each parse.
 */
const messages: z.core.$ZodErrorMap = (issue) => {
  const { customError, localeError } = z.config();
  const configured = customError?.(issue) ?? localeError?.(issue);
  if (configured !== undefined && configured !== null) return configured;
  english ??= en().localeError;
  return english(issue);
};

/** The context of every parse of the SDK (zod copies it per parse, so one object serves all). */
export const PARSE_CONTEXT: z.core.ParseContext<z.core.$ZodIssue> = { error: messages };

/**
 * Validates request input against its schema and returns the wire form (the schema's output).
 * Throws one {@link RequestValidationError} listing every bad field; nothing is sent then. The
 * client passes the compiled schema (`fast(schema)`, see `lazy-compile.ts`).
 */
export function validateRequest<T extends z.core.$ZodType>(
  schema: T,
  value: unknown,
  context?: string,
  prefix = '',
): z.output<T> {
  const result = z.safeParse(schema, value, PARSE_CONTEXT);
  if (result.success) return result.data;
  throw new RequestValidationError(toIssues(result.error.issues, prefix), context);
}

/** Whether `value` passes `schema` (no messages needed). */
export function accepts(schema: z.core.$ZodType, value: unknown): boolean {
  return z.safeParse(schema, value).success;
}
