/**
 * Field readers that validate request bodies and collect error messages in the provider's
 * Rails-like style ("Name can't be blank", "Items quantity must be greater than 0").
 */
import { isBlank } from '../../schemas/common.js';
import type { JsonObject } from './json.js';

export { isBlank };

/** The outcome of a rejected write: the messages of a 422 answer. */
export class Invalid {
  /** The error messages, in the order found, without duplicates. */
  readonly errors: string[];
  constructor(errors: readonly string[]) {
    this.errors = [...new Set(errors)];
  }
}

/** `true` for a plain JSON object (not an array, not `null`). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A short description of a value, for messages: a string only by its length (`a string of 7
 * characters`), never its text, since it may be a secret sent by mistake (a token as `status`).
 */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === 'string')
    return `a string of ${value.length} character${value.length === 1 ? '' : 's'}`;
  if (Array.isArray(value)) return 'an array';
  // A BigInt by its kind: its digits would read as a number.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Text a caller typed or sent (a query parameter, a path segment, a word of the command line),
 * described for a message: a short run of digits (1 to 12, a sign allowed: too short to be a
 * secret) as it is (`'0'`), any other text by its length only, since it may be a secret pasted by
 * mistake.
 */
export function describeText(text: string): string {
  return /^-?\d{1,12}$/.test(text) ? `'${text}'` : describeValue(text);
}

/**
 * The message of an error and of its cause (`fetch` reports "fetch failed" with the reason as
 * cause); anything thrown that is not an `Error` as text.
 */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/** Rails' `humanize`: `merchant_sku_id` → `Merchant sku`, `line1` → `Line1`. */
function humanize(attribute: string): string {
  const words = attribute.replace(/_id$/, '').replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const DIGITS = /^-?\d+$/;
const NUMERIC = /^-?(\d+(\.\d*)?|\.\d+)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/;

/**
 * Reads the fields of one JSON object, converting and checking each, and adds a message to the
 * shared list for every problem. Each reader returns `undefined` when the field is absent, `null`
 * when it is `null`, the converted value when it is valid, and `undefined` (after adding a message)
 * when it is not.
 */
export class Fields {
  /**
   * @param source the object to read
   * @param errors the list messages are added to
   * @param prefix label of the nested object (`Shipping address`, `Items`), empty at the top level
   */
  constructor(
    private readonly source: JsonObject,
    private readonly errors: string[],
    private readonly prefix = '',
  ) {}

  /**
   * Adds `<label> <message>`, the label being `Name`, or `Shipping address first name` when nested;
   * answers `undefined` (the field's value when it is refused).
   */
  error(key: string, message: string): undefined {
    const human = humanize(key);
    const label = this.prefix ? `${this.prefix} ${human.charAt(0).toLowerCase()}${human.slice(1)}` : human;
    this.errors.push(`${label} ${message}`);
  }

  /** Whether the field is present (`null` included). */
  has(key: string): boolean {
    return this.source[key] !== undefined;
  }

  /** A string, as given (numbers are converted); `required` rejects blank values. */
  string(key: string, required = false): string | null | undefined {
    const value = this.source[key];
    if (required && isBlank(value)) return this.error(key, "can't be blank");
    if (value === undefined || value === null || typeof value === 'string') return value;
    return typeof value === 'number' ? String(value) : this.error(key, 'is invalid');
  }

  /**
   * An integer (a string of digits is accepted). `required` rejects blank values; `positive`
   * requires a value greater than 0; otherwise the value must be 0 or more.
   */
  integer(key: string, options: { required?: boolean; positive?: boolean } = {}): number | null | undefined {
    return this.number(key, { ...options, integer: true });
  }

  /** A number (a numeric string is accepted), 0 or more, with the options of {@link integer}. */
  number(
    key: string,
    options: { required?: boolean; positive?: boolean; integer?: boolean } = {},
  ): number | null | undefined {
    const value = this.source[key];
    if (isBlank(value)) {
      if (options.required) return this.error(key, "can't be blank");
      return value === undefined ? undefined : null;
    }
    const text = typeof value === 'string' ? value.trim() : undefined;
    const number = text !== undefined && NUMERIC.test(text) ? Number(text) : value;
    if (typeof number !== 'number' || !Number.isFinite(number)) return this.error(key, 'is not a number');
    if (options.integer && (!Number.isInteger(number) || (text !== undefined && !DIGITS.test(text)))) {
      return this.error(key, 'must be an integer');
    }
    if (options.positive && number <= 0) return this.error(key, 'must be greater than 0');
    return number < 0 ? this.error(key, 'must be greater than or equal to 0') : number;
  }

  /** `true` or `false` (or `null`). */
  boolean(key: string): boolean | null | undefined {
    const value = this.source[key];
    if (value === undefined || value === null || typeof value === 'boolean') return value;
    return this.error(key, 'is invalid');
  }

  /** A code of `length` letters (upper-cased), e.g. a 2-letter country code. */
  code(key: string, length: number, required = false): string | null | undefined {
    const value = this.string(key, required);
    if (value === undefined || value === null) return value;
    if (value.trim() === '') return null;
    return new RegExp(`^[A-Za-z]{${length}}$`).test(value)
      ? value.toUpperCase()
      : this.error(key, 'is invalid');
  }

  /** One of `values`. */
  oneOf<T extends string>(key: string, values: readonly T[], required = false): T | null | undefined {
    const value = this.string(key, required);
    if (value === undefined || value === null) return value;
    return values.includes(value as T) ? (value as T) : this.error(key, 'is not included in the list');
  }

  /** A calendar date `YYYY-MM-DD`; a date-time is accepted and its date is used. */
  date(key: string, required = false): string | null | undefined {
    const value = this.string(key, required);
    if (value === undefined || value === null) return value;
    const match = DATE.exec(value);
    const date = match && `${match[1]}-${match[2]}-${match[3]}`;
    return date && !Number.isNaN(Date.parse(date)) ? date : this.error(key, 'is invalid');
  }

  /** An ISO 8601 date-time, returned as its time in ms. */
  dateTime(key: string): number | null | undefined {
    const value = this.string(key);
    if (value === undefined || value === null) return value;
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? this.error(key, 'is invalid') : ms;
  }

  /** An array of strings. */
  strings(key: string): string[] | null | undefined {
    const value = this.source[key];
    if (value === undefined || value === null) return value;
    const valid = Array.isArray(value) && value.every((v) => typeof v === 'string');
    return valid ? (value as string[]) : this.error(key, 'is invalid');
  }

  /** A JSON object (kept as given). */
  object(key: string): JsonObject | null | undefined {
    const value = this.source[key];
    if (value === undefined || value === null) return value;
    return isObject(value) ? value : this.error(key, 'is invalid');
  }
}
