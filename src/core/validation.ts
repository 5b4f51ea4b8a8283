/**
 * Validation, imported on first use (`lazy.ts`): zod, the SDK's messages, the schema compiler, and
 * validation on both sides of the wire: requests before they are sent, responses as they arrive,
 * in the mode the caller passes (`'lenient'` or `'off'`).
 *
 * Open enums: a response enum is a `z.string()` registered in `z.globalRegistry` with its known
 * values (`{ knownValues }`, see `openEnum` in the schemas). Any string passes there, so a value
 * the SDK does not know yet never breaks a parse (the tests read the known values back).
 *
 * Every parse runs the schema it is given: the client passes the compiled form ({@link compiled}).
 * Messages come from the parse context, not from a global zod configuration.
 */
import { en } from 'zod/locales';
import * as z from 'zod/mini';
import { closest } from './describe.js';
import { RequestValidationError, ResponseValidationError, type ValidationIssue } from './errors.js';

/** `make`, called once per schema: its result is kept as long as the schema lives. */
function perSchema<V>(make: (schema: z.core.$ZodType) => V): (schema: z.core.$ZodType) => V {
  const cache = new WeakMap<z.core.$ZodType, V>();
  return (schema) => {
    if (!cache.has(schema)) cache.set(schema, make(schema));
    return cache.get(schema)!;
  };
}

/**
 * The compiled form of a schema (built once per schema). `z.compile` returns the schema itself
 * where it cannot compile it, or the runtime forbids code generation (`new Function`), as some
 * edge runtimes do. A failure is parsed again by the runtime parser, so the messages are the same.
 */
export const compiled = perSchema((schema) => z.compile(schema)) as <T extends z.core.$ZodType>(
  schema: T,
) => T;

/** Converts Zod issues into the SDK's path + message pairs, paths as users write them: `items[1].quantity`. */
const toIssues = (issues: readonly z.core.$ZodIssue[], prefix = ''): ValidationIssue[] =>
  issues.map(({ path, message }) => ({
    path: path.reduce<string>(
      (out, key) =>
        typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key),
      prefix,
    ),
    message,
  }));

const english = en().localeError;

/**
 * zod's message of an issue: the app's zod configuration's when it sets one (`z.config(…)`;
 * classic `zod` sets English), else English, as `zod/mini` installs no locale and the SDK leaves
 * the global configuration alone. An unknown field is followed by the known one it most likely
 * meant (the object that raised the issue knows its fields).
 */
const messages: z.core.$ZodErrorMap = (issue) => {
  const { customError, localeError } = z.config();
  const found = customError?.(issue) ?? localeError?.(issue) ?? english(issue);
  const message = typeof found === 'object' ? found?.message : found;
  if (issue.code !== 'unrecognized_keys' || message === undefined) return message;
  const known = Object.keys((issue.inst?._zod.def as { shape?: object } | undefined)?.shape ?? {});
  const meant = issue.keys.flatMap((key) => {
    const near = closest(key, known);
    return near ? [issue.keys.length > 1 ? `"${near}" for "${key}"` : `"${near}"`] : [];
  });
  return meant.length ? `${message} (did you mean ${meant.join(', ')}?)` : message;
};

/** The context of every parse of the SDK (zod copies it per parse, so one object serves all). */
const PARSE_CONTEXT: z.core.ParseContext<z.core.$ZodIssue> = { error: messages };

/**
 * Validates request input against its schema and returns the wire form (the schema's output).
 * Throws one {@link RequestValidationError} listing every bad field; nothing is sent then.
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

/** How responses are checked: see `ClientOptions.validateResponses`. @inline */
export type ValidationMode = 'lenient' | 'off';

/** `z.array(item)`, built once per item schema (a page's items). */
export const arrayOf = perSchema((item) => z.array(item));

/**
 * Parses a response body with its schema according to the mode: `'lenient'` keeps unknown keys and
 * enum values, `'off'` returns the body unchecked. A failure is a `ResponseValidationError`
 * keeping the body (the caller adds where it came from).
 */
export function parseResponse<T extends z.core.$ZodType>(
  schema: T,
  body: unknown,
  mode: ValidationMode,
): z.output<T> {
  if (mode === 'off') return body as z.output<T>;
  const result = z.safeParse(schema, body, PARSE_CONTEXT);
  if (result.success) return result.data;
  throw new ResponseValidationError({ body, issues: toIssues(result.error.issues) });
}
