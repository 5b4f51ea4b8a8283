/**
 * Building blocks shared by every schema: open enums, lenient response objects, and request
 * primitives with readable messages.
 */
import * as z from 'zod/mini';

/**
 * An enum typed closed and parsed open. The type is the union of the documented values, so an
 * exhaustive `switch` compiles and tells you when you miss one. At run time any string passes the
 * schema (the `'lenient'` mode keeps an unknown value as received) and the known values travel in
 * its metadata (`knownValues`). Forward compatibility without a type that accepts every string.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  // Registered, not `z.meta(…)`: a metadata check would keep every response schema off `z.compile`.
  const schema = z.string().register(z.globalRegistry, { knownValues: values });
  return schema as unknown as z.ZodMiniType<T[number], string>;
}

/**
 * A documented response field that may have no value: typed `T | null`, and `null` when the API
 * leaves the key out, so the key is always there after parsing.
 */
export const orNull = <T extends z.core.$ZodType>(schema: T) => z._default(z.nullable(schema), null);

/**
 * A response field the API sends only in some answers (`batches` with `include=batches`, the quirky
 * spellings): typed optional, `?: T | null`.
 */
export const sometimes = <T extends z.core.$ZodType>(schema: T) => z.exactOptional(z.nullable(schema));

/**
 * The output of a response schema without index signatures, at every depth (unknown keys are kept
 * at run time, but reading one is a type error); a pure record (`custom_metadata`) stays as it is.
 * The response interfaces extend it.
 */
export type Fields<S extends z.core.$ZodType> = Known<z.output<S>>;
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: 0 };
type Known<T> = T extends readonly unknown[]
  ? { [K in keyof T]: Known<T[K]> }
  : T extends object
    ? [KnownKeys<T>] extends [never]
      ? T
      : { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
    : T;

/** What identifies an inventory batch in every response that shows one. */
export const batchShape = {
  /** Batch name. */
  name: orNull(z.string()),
  /** Batch tracking code (lot number). */
  tracking_code: orNull(z.string()),
  /** Expiry date, ISO 8601 date string. */
  expiry_date: orNull(z.string()),
};

/** The message of a type check: a string, or an error map such as {@link requiredOr}'s. */
type Expected = string | ((issue: { readonly input?: unknown }) => string);

/** An ISO code of `length` letters (country, province, currency); `error`: a wrong type or missing value. */
export const letterCode = (length: number, what: string, error: Expected = 'expected string') =>
  z.string({ error }).check(z.regex(new RegExp(`^[A-Za-z]{${length}}$`), { error: `expected a ${what}` }));

// ---------------------------------------------------------------------------------------------
// Request helpers whose message for a missing value reads `required`.
// ---------------------------------------------------------------------------------------------

/**
 * Error map for a type check: `required` (or `missing`) when the value is absent, else `expected`.
 * Pass it as the `error` parameter of a schema constructor.
 */
export const requiredOr =
  (expected: string, missing = 'required') =>
  (issue: { readonly input?: unknown }): string =>
    issue.input === undefined ? missing : expected;

/**
 * Error map of a nested request object: `error` (by default `expected object`) for a wrong type or
 * missing value only; any other issue of the object keeps zod's message, so an unknown key is named.
 */
export const objectError =
  (error: Expected = 'expected object') =>
  (issue: { readonly code?: string; readonly input?: unknown }): string | undefined =>
    issue.code !== 'invalid_type' ? undefined : typeof error === 'string' ? error : error(issue);

/** Any string (optional request field); a wrong type reads `expected string`. */
export const text = () => z.string({ error: 'expected string' });
/** A string or `null` (where the API documents `null`, e.g. to clear a value). */
export const nullableText = () => z.nullable(z.string({ error: 'expected string or null' }));
/** A boolean; a wrong type reads `expected boolean`. */
export const bool = () => z.boolean({ error: 'expected boolean' });
/** A finite number; a wrong type reads `expected number`. */
export const num = () => z.number({ error: 'expected number' });

/** Required non-empty string: missing → `required`, empty → `must not be empty`. */
export const requiredText = () =>
  z.string({ error: requiredOr('expected string') }).check(z.minLength(1, { error: 'must not be empty' }));

const isPositiveOrNotInteger = (value: number): boolean => !Number.isSafeInteger(value) || value > 0;

/**
 * Integer (request side); `error` is the message of a wrong type. Not `z.int()`: a non-integer
 * number (`1.5`) must not stop the enclosing object's rules, and Zod marks `z.int()`'s failure as
 * aborting, which would hide, say, a duplicate `merchant_item_id` reported by the order's rule in
 * the same error.
 */
export const integer = (error: Expected = 'expected integer') =>
  z.number({ error }).check(z.refine(Number.isSafeInteger, { error: 'expected integer' }));
/** Integer > 0 (request side), non-aborting (see {@link integer}). */
export const positiveInteger = (error?: Expected) =>
  integer(error).check(z.refine(isPositiveOrNotInteger, { error: 'expected integer > 0' }));
/** Required integer > 0: missing → `required`, else `expected integer` / `expected integer > 0`. */
export const requiredPositiveInt = () => positiveInteger(requiredOr('expected integer'));
/** Required array: missing → `missing` (default `required`), another type → `expected array`. */
export const requiredArray = <T extends z.core.$ZodType>(item: T, missing = 'required') =>
  z.array(item, { error: requiredOr('expected array', missing) });

/**
 * ISO 8601 calendar date (`2025-01-31`) or date-time (`2025-01-31T10:00:00Z`,
 * `2025-01-31T10:00:00.123+02:00`, `…+0200`, or without offset).
 */
const ISO_DATE_OR_DATETIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3])(:?[0-5]\d)?)?)?$/i;

/** A `Date` or an ISO 8601 date / date-time string; anything else reads `expected`. */
const dateOrIsoString = (expected: string) =>
  z.union([z.date(), z.string().check(z.regex(ISO_DATE_OR_DATETIME, { error: expected }))], {
    error: requiredOr(expected),
  });

/**
 * A `Date` or an ISO 8601 date / date-time string, kept as given (for query filters, which
 * are encoded elsewhere). An invalid `Date` fails.
 */
export const dateTimeInput = () => dateOrIsoString('expected a Date or an ISO 8601 date-time string');

/**
 * A date sent in a body: a `Date` as `toISOString()` (cut to its UTC calendar date `YYYY-MM-DD` with
 * `dateOnly`), a string as given (with `dateOnly`, an ISO date-time too: the API uses its date).
 */
const sentDate = (expected: string, dateOnly: boolean) =>
  z.pipe(
    dateOrIsoString(expected),
    z.transform((v: Date | string): string =>
      v instanceof Date ? v.toISOString().slice(0, dateOnly ? 10 : undefined) : v,
    ),
  );
/** A date-time sent in a body: a `Date` is sent as `toISOString()`, a string as given. */
export const dateTimeParam = () => sentDate('expected a Date or an ISO 8601 date-time string', false);
/** A calendar date sent in a body: a `Date` as its UTC `YYYY-MM-DD`, a string as given. */
export const dateParam = () =>
  sentDate('expected a Date or an ISO 8601 date (YYYY-MM-DD) or date-time string', true);

/** A number, or a string that `pattern` accepts (sent as given); anything else reads `error`. */
export const numberOrString = <T extends z.core.$ZodType>(number: T, pattern: RegExp, error: Expected) =>
  z.union([number, z.string().check(z.regex(pattern, { error }))], { error });

/** A request value that counts as absent for "one of A or B is required" rules. */
export const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Reports a problem found by an object rule: where, what, and the value at fault. */
type Report = (path: (string | number)[], message: string, input: unknown) => void;

/**
 * An object-level rule that runs even when some fields already failed, so that one
 * `RequestValidationError` lists every problem. The rule receives the (possibly partly invalid)
 * object as a plain record and must check the types it relies on. Zod still skips it after an
 * issue it marks as aborting, such as `int()`'s on a non-integer (hence {@link integer}). Request
 * side only: such a rule keeps the object off `z.compile`'s fast path.
 */
export function objectRule(rule: (value: Record<string, unknown>, report: Report) => void) {
  return z.superRefine<unknown>(
    (value, ctx) => {
      if (isRecord(value))
        rule(value, (path, message, input) => ctx.addIssue({ code: 'custom', path, message, input }));
    },
    { when: (payload) => isRecord(payload.value) },
  );
}

/** `[index, first, value]` for each item of `list` whose string `key` an earlier item (`first`) has too. */
export function repeats(list: unknown, key: string): [index: number, first: number, value: string][] {
  const seen = new Map<string, number>();
  return (Array.isArray(list) ? list : []).flatMap((item, index): [number, number, string][] => {
    const value = (item as Record<string, unknown> | null | undefined)?.[key];
    if (typeof value !== 'string') return [];
    const first = seen.get(value) ?? seen.set(value, index).get(value)!;
    return first === index ? [] : [[index, first, value]];
  });
}

/** The rule "`a` or `b` is required" (each {@link isBlank} counts as absent), reported on `a`. */
export const eitherRequired = (a: string, b: string) =>
  objectRule((value, report) => {
    if (isBlank(value[a]) && isBlank(value[b])) report([a], `${a} or ${b} is required`, value[a]);
  });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
