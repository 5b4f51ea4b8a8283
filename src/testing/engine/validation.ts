/**
 * Field readers that validate request bodies and collect error messages in the provider's
 * Rails-like style ("Name can't be blank", "Items quantity must be greater than 0").
 */
import { isBlank } from '../../schemas/common.js';
import type { JsonObject, JsonValue } from './json.js';

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
 * described for a message: a short run of digits as it is (`'0'`), any other text by its length
 * only, since it may be a secret pasted by mistake.
 */
export function describeText(text: string): string {
  return isShortDigits(text.startsWith('-') ? text.slice(1) : text) ? `'${text}'` : describeValue(text);
}

/**
 * Whether `text` is a short run of digits (1 to 12, no sign), which a message may show as it is:
 * too short to be a secret.
 */
function isShortDigits(text: string): boolean {
  return /^\d{1,12}$/.test(text);
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
  readonly #source: JsonObject;
  readonly #errors: string[];
  readonly #prefix: string;

  /**
   * @param source the object to read
   * @param errors the list messages are added to
   * @param prefix label of the nested object (`Shipping address`, `Items`), empty at the top level
   */
  constructor(source: JsonObject, errors: string[], prefix = '') {
    this.#source = source;
    this.#errors = errors;
    this.#prefix = prefix;
  }

  /** The message label of a field: `Name`, or `Shipping address first name` when nested. */
  label(key: string): string {
    const human = humanize(key);
    return this.#prefix ? `${this.#prefix} ${human.charAt(0).toLowerCase()}${human.slice(1)}` : human;
  }

  /** Adds `<label> <message>`. */
  error(key: string, message: string): void {
    this.#errors.push(`${this.label(key)} ${message}`);
  }

  /** Adds `<label> <message>` and answers `undefined` (the field's value when it is refused). */
  #bad(key: string, message: string): undefined {
    this.error(key, message);
  }

  /** Whether the field is present (`null` included). */
  has(key: string): boolean {
    return this.#source[key] !== undefined;
  }

  /** The raw value. */
  raw(key: string): JsonValue | undefined {
    return this.#source[key];
  }

  /** A string, as given (numbers are converted); `required` rejects blank values. */
  string(key: string, required = false): string | null | undefined {
    const value = this.#source[key];
    if (required && isBlank(value)) return this.#bad(key, "can't be blank");
    if (value === undefined || value === null || typeof value === 'string') return value;
    return typeof value === 'number' ? String(value) : this.#bad(key, 'is invalid');
  }

  /**
   * An integer (a string of digits is accepted). `required` rejects blank values; `positive`
   * requires a value greater than 0; otherwise the value must be 0 or more.
   */
  integer(key: string, options: { required?: boolean; positive?: boolean } = {}): number | null | undefined {
    const value = this.#source[key];
    if (isBlank(value)) {
      if (options.required) return this.#bad(key, "can't be blank");
      return value === undefined ? undefined : null;
    }
    const number = this.#numeric(key);
    if (number === undefined) return undefined;
    if (!Number.isInteger(number) || (typeof value === 'string' && !DIGITS.test(value.trim()))) {
      return this.#bad(key, 'must be an integer');
    }
    if (options.positive && number <= 0) return this.#bad(key, 'must be greater than 0');
    return number < 0 ? this.#bad(key, 'must be greater than or equal to 0') : number;
  }

  /** The field as a finite number (a numeric string is accepted), or `undefined` after a message. */
  #numeric(key: string): number | undefined {
    const value = this.#source[key];
    const number = typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value) : value;
    return typeof number === 'number' && Number.isFinite(number) ? number : this.#bad(key, 'is not a number');
  }

  /** A number (a numeric string is accepted), 0 or more. */
  number(key: string): number | null | undefined {
    const value = this.#source[key];
    if (isBlank(value)) return value === undefined ? undefined : null;
    const number = this.#numeric(key);
    if (number === undefined) return undefined;
    return number < 0 ? this.#bad(key, 'must be greater than or equal to 0') : number;
  }

  /** `true` or `false` (or `null`). */
  boolean(key: string): boolean | null | undefined {
    const value = this.#source[key];
    if (value === undefined || value === null || typeof value === 'boolean') return value;
    return this.#bad(key, 'is invalid');
  }

  /** A code of `length` letters (upper-cased), e.g. a 2-letter country code. */
  code(key: string, length: number, required = false): string | null | undefined {
    const value = this.string(key, required);
    if (value === undefined || value === null) return value;
    if (value.trim() === '') return null;
    return new RegExp(`^[A-Za-z]{${length}}$`).test(value)
      ? value.toUpperCase()
      : this.#bad(key, 'is invalid');
  }

  /** One of `values`. */
  oneOf<T extends string>(key: string, values: readonly T[], required = false): T | null | undefined {
    const value = this.string(key, required);
    if (value === undefined || value === null) return value;
    return values.includes(value as T) ? (value as T) : this.#bad(key, 'is not included in the list');
  }

  /** A calendar date `YYYY-MM-DD`; a date-time is accepted and its date is used. */
  date(key: string, required = false): string | null | undefined {
    const value = this.string(key, required);
    if (value === undefined || value === null) return value;
    const match = DATE.exec(value);
    const date = match && `${match[1]}-${match[2]}-${match[3]}`;
    return date && !Number.isNaN(Date.parse(date)) ? date : this.#bad(key, 'is invalid');
  }

  /** An ISO 8601 date-time, returned as its time in ms. */
  dateTime(key: string): number | null | undefined {
    const value = this.string(key);
    if (value === undefined || value === null) return value;
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? this.#bad(key, 'is invalid') : ms;
  }

  /** An array of strings. */
  strings(key: string): string[] | null | undefined {
    const value = this.#source[key];
    if (value === undefined || value === null) return value;
    const valid = Array.isArray(value) && value.every((v) => typeof v === 'string');
    return valid ? (value as string[]) : this.#bad(key, 'is invalid');
  }

  /** A JSON object (kept as given). */
  object(key: string): JsonObject | null | undefined {
    const value = this.#source[key];
    if (value === undefined || value === null) return value;
    return isObject(value) ? value : this.#bad(key, 'is invalid');
  }
}
