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
export function isShortDigits(text: string): boolean {
  return /^\d{1,12}$/.test(text);
}

/** Schemes a refusal may name (any other could be part of a secret). */
const KNOWN_SCHEMES = new Set(['ftp:', 'file:', 'ws:', 'wss:', 'mailto:', 'data:', 'blob:', 'javascript:']);

/**
 * A URL whose scheme is refused, described for a message: `a URL with scheme ftp:` for a
 * well-known scheme, else `a URL with another scheme` (`id:secret` parses as a URL of scheme `id:`).
 */
export function describeUrlScheme(url: URL): string {
  return `a URL with ${KNOWN_SCHEMES.has(url.protocol) ? `scheme ${url.protocol}` : 'another scheme'}`;
}

/**
 * Where a value sits below the path a copy started from: the root (its path as given), or a key
 * of its parent. Built as the walk goes down, written out only for a refusal.
 */
type Where = string | { readonly parent: Where; readonly key: string | number };

/** The longest key a refusal shows; a longer one (a token pasted as a key?) is shown by its length. */
const SHOWN_KEY = 32;

/** Where `key` of `parent` sits (`parent` itself when `key` is undefined). */
function at(parent: Where, key: string | number | undefined): Where {
  return key === undefined ? parent : { parent, key };
}

/** The path of `where`: `a.b[2]`, `a["x y"]` for a key that is no name. */
function pathOf(where: Where): string {
  const keys: (string | number)[] = [];
  let node = where;
  while (typeof node !== 'string') {
    keys.push(node.key);
    node = node.parent;
  }
  let path = node;
  for (let i = keys.length - 1; i >= 0; i -= 1) {
    const key = keys[i]!;
    if (typeof key === 'number') path += `[${key}]`;
    else if (key.length > SHOWN_KEY) path += `[${describeKey(key)}]`;
    else path += /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  }
  return path;
}

/**
 * Throws for a value {@link jsonCopier} refuses: the path of the value and the problem. What a
 * getter or Proxy trap threw is never passed on (its message may hold a secret).
 */
export type JsonRefusal = (path: string, problem: string) => never;

/** What a getter or Proxy trap that threw is refused as. */
export const UNREADABLE = 'could not be read (a getter or Proxy threw)';

/** A key described by its length only (`<a key of 9 characters>`), never its text. */
export function describeKey(key: string): string {
  return `<a key of ${key.length} character${key.length === 1 ? '' : 's'}>`;
}

/** A key as a refusal shows it: as it is, or by its length when longer than 32 characters (a token?). */
export function shownKey(key: string): string {
  return key.length > SHOWN_KEY ? describeKey(key) : key;
}

/**
 * The result of `read`, a read of a value a caller gave (where a getter or a Proxy trap may
 * throw): a throw becomes `refuse(path, UNREADABLE)`, what was thrown dropped (its message may hold
 * a secret). `read` must not itself refuse anything.
 */
export function guarded<T>(path: string, read: () => T, refuse: JsonRefusal): T {
  try {
    return read();
  } catch {
    return refuse(path, UNREADABLE);
  }
}

/**
 * The own enumerable fields of `value`, an object a caller gave, each read once into a fresh plain
 * object (what the checks then look at, whatever a getter or a Proxy would answer later), or
 * `undefined` when `value` is not an object (an array and `null` are not). A getter or Proxy trap
 * that throws is refused through `refuse`, naming `name` (the object) or the field: `prefix` and
 * its key (a key over 32 characters by its length), or what `prefix` gives for the key when it is a
 * function.
 */
export function readFields(
  value: unknown,
  name: string,
  refuse: JsonRefusal,
  prefix: string | ((key: string) => string) = `${name}.`,
): Record<string, unknown> | undefined {
  if (!guarded(name, () => isObject(value), refuse)) return undefined;
  const source = value as Record<string, unknown>;
  const keys = guarded(name, () => Object.keys(source), refuse);
  const field = typeof prefix === 'function' ? prefix : (key: string) => `${prefix}${shownKey(key)}`;
  // `Object.fromEntries` defines each key as an own field (`__proto__` included).
  return Object.fromEntries(keys.map((key) => [key, guarded(field(key), () => source[key], refuse)]));
}

/**
 * The fields of `value`, as {@link readFields} reads them, or a refusal naming `name` when it is
 * not an object: `must be an object, got <what it is>` (see {@link describeValue}).
 */
export function readObject(
  value: unknown,
  name: string,
  refuse: JsonRefusal,
  prefix: string | ((key: string) => string) = `${name}.`,
): Record<string, unknown> {
  const fields = readFields(value, name, refuse, prefix);
  return fields ?? refuse(name, `must be an object, got ${describeValue(value)}`);
}

/**
 * A copy of `value`, an array a caller gave (read once), or `undefined` when it is not an array.
 * A getter or Proxy trap that throws is refused through `refuse`, naming `name`.
 */
export function readList(value: unknown, name: string, refuse: JsonRefusal): unknown[] | undefined {
  if (!guarded(name, () => Array.isArray(value), refuse)) return undefined;
  return guarded(name, () => Array.from(value as readonly unknown[]), refuse);
}

/**
 * A function copying JSON values a caller gave (the `warehouses` option, the fields of a saved
 * state), checking them as it goes: `null`, strings, booleans, finite numbers, arrays and plain
 * objects (a property set to `undefined` is left out and an array's `undefined` or hole becomes
 * `null`, as `JSON.stringify` does; other objects, such as a `Date`, a `Map` or a class instance,
 * are refused), at most `maxDepth` levels of arrays and objects (the value itself included), no
 * cycle. A refusal names the path of the field at fault (`warehouses[1].address.city`; a key over
 * 32 characters by its length), through `refuse`. The copy is a tree: a value met several times
 * is copied (and counted) each time, and at most `maxValues` values are copied over all the calls
 * of one copier, so neither the walk nor the answers serializing the copy can blow up (a value
 * shared at each of 30 levels is 2^30 values). Each field is read once; a getter or Proxy trap
 * that throws is refused as such.
 */
export function jsonCopier(
  limits: { maxDepth: number; maxValues: number },
  refuse: JsonRefusal,
): (value: unknown, path: string) => JsonValue {
  const { maxDepth, maxValues } = limits;
  const ancestors = new Set<object>();
  let count = 0;
  // Annotated, so that the compiler knows a call does not return.
  const fail: (where: Where, problem: string) => never = (where, problem) => refuse(pathOf(where), problem);
  // `key` of `parent` (the root when `key` is undefined): a path object is made only for a
  // container (its children point to it) or a refusal, not for every value.
  const copy = (
    value: unknown,
    parent: Where,
    key: string | number | undefined,
    depth: number,
  ): JsonValue => {
    count += 1;
    if (count > maxValues)
      fail(at(parent, key), `is one value too many: at most ${maxValues} JSON values in all`);
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') {
      if (!Number.isFinite(value))
        fail(at(parent, key), `must be a finite number, got ${describeValue(value)}`);
      return value;
    }
    if (typeof value !== 'object') {
      fail(
        at(parent, key),
        `must be a JSON value (null, a string, a boolean, a number, an array or an object), got ${describeValue(value)}`,
      );
    }
    const where = at(parent, key);
    if (ancestors.has(value)) fail(where, 'holds itself (a cycle): it must be a JSON value');
    if (depth >= maxDepth) fail(where, `nests deeper than ${maxDepth} levels of arrays and objects`);
    const source = value as Record<string, unknown>;
    let isArray: boolean;
    let plain: boolean;
    try {
      // Plain: made by `{}` or `Object.create(null)` (in any realm), not a Date, a Map, a class instance.
      isArray = Array.isArray(source);
      const proto: unknown = Object.getPrototypeOf(source);
      plain = proto === null || Object.getPrototypeOf(proto) === null;
    } catch {
      return fail(where, UNREADABLE);
    }
    ancestors.add(value);
    let result: JsonValue;
    if (isArray) {
      let length: number;
      try {
        length = (source as unknown as unknown[]).length;
      } catch {
        return fail(where, UNREADABLE);
      }
      const items: JsonValue[] = [];
      for (let i = 0; i < length; i += 1) {
        let item: unknown;
        try {
          item = source[i];
        } catch {
          return fail({ parent: where, key: i }, UNREADABLE);
        }
        // As JSON writes it: `undefined` (or a hole) in an array is `null`.
        items.push(item === undefined ? null : copy(item, where, i, depth + 1));
      }
      result = items;
    } else {
      if (!plain) fail(where, 'must be a JSON value, got an object that is not a plain object');
      let keys: string[];
      try {
        keys = Object.keys(source);
      } catch {
        return fail(where, UNREADABLE);
      }
      const out: Record<string, JsonValue> = {};
      for (const name of keys) {
        let field: unknown;
        try {
          field = source[name];
        } catch {
          return fail({ parent: where, key: name }, UNREADABLE);
        }
        if (field === undefined) continue;
        const copied = copy(field, where, name, depth + 1);
        // An own property `__proto__`: an assignment would set the prototype instead.
        if (name === '__proto__') {
          Object.defineProperty(out, name, {
            value: copied,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else {
          out[name] = copied;
        }
      }
      result = out;
    }
    ancestors.delete(value);
    return result;
  };
  return (value, path) => copy(value, path, undefined, 0);
}

/** `String(value)`, or its {@link describeValue} when that throws (an object without a prototype). */
export function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return describeValue(value);
  }
}

/**
 * The message of an error and of its cause (`fetch` reports "fetch failed" with the reason as
 * cause); anything thrown that is not an `Error` as text, never throwing itself.
 */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return safeString(error);
  const cause = error.cause instanceof Error ? `: ${safeString(error.cause.message)}` : '';
  return `${safeString(error.message)}${cause}`;
}

/** Rails' `humanize`: `merchant_sku_id` → `Merchant sku`, `line1` → `Line1`. */
export function humanize(attribute: string): string {
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
    if (required && isBlank(value)) {
      this.error(key, "can't be blank");
      return undefined;
    }
    if (value === undefined || value === null) return value;
    if (typeof value === 'number') return String(value);
    if (typeof value !== 'string') {
      this.error(key, 'is invalid');
      return undefined;
    }
    return value;
  }

  /**
   * An integer (a string of digits is accepted). `required` rejects blank values; `positive`
   * requires a value greater than 0; otherwise the value must be 0 or more.
   */
  integer(key: string, options: { required?: boolean; positive?: boolean } = {}): number | null | undefined {
    const value = this.#source[key];
    if (isBlank(value)) {
      if (options.required) {
        this.error(key, "can't be blank");
        return undefined;
      }
      return value === undefined ? undefined : null;
    }
    const number = typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isFinite(number)) {
      this.error(key, 'is not a number');
      return undefined;
    }
    if (!Number.isInteger(number) || (typeof value === 'string' && !DIGITS.test(value.trim()))) {
      this.error(key, 'must be an integer');
      return undefined;
    }
    if (options.positive ? number <= 0 : number < 0) {
      this.error(key, options.positive ? 'must be greater than 0' : 'must be greater than or equal to 0');
      return undefined;
    }
    return number;
  }

  /** A number (a numeric string is accepted), 0 or more. */
  number(key: string): number | null | undefined {
    const value = this.#source[key];
    if (isBlank(value)) return value === undefined ? undefined : null;
    const number = typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isFinite(number)) {
      this.error(key, 'is not a number');
      return undefined;
    }
    if (number < 0) {
      this.error(key, 'must be greater than or equal to 0');
      return undefined;
    }
    return number;
  }

  /** `true` or `false` (or `null`). */
  boolean(key: string): boolean | null | undefined {
    const value = this.#source[key];
    if (value === undefined || value === null || typeof value === 'boolean') return value;
    this.error(key, 'is invalid');
    return undefined;
  }

  /** A code of `length` letters (upper-cased), e.g. a 2-letter country code. */
  code(key: string, length: number, required = false): string | null | undefined {
    const value = this.string(key, required);
    if (value === undefined || value === null) return value;
    if (value.trim() === '') return null;
    if (!new RegExp(`^[A-Za-z]{${length}}$`).test(value)) {
      this.error(key, 'is invalid');
      return undefined;
    }
    return value.toUpperCase();
  }

  /** One of `values`. */
  oneOf<T extends string>(key: string, values: readonly T[], required = false): T | null | undefined {
    const value = this.string(key, required);
    if (value === undefined || value === null) return value;
    if (!(values as readonly string[]).includes(value)) {
      this.error(key, 'is not included in the list');
      return undefined;
    }
    return value as T;
  }

  /** A calendar date `YYYY-MM-DD`; a date-time is accepted and its date is used. */
  date(key: string, required = false): string | null | undefined {
    const value = this.string(key, required);
    if (value === undefined || value === null) return value;
    const match = DATE.exec(value);
    if (!match || Number.isNaN(Date.parse(`${match[1]}-${match[2]}-${match[3]}`))) {
      this.error(key, 'is invalid');
      return undefined;
    }
    return `${match[1]}-${match[2]}-${match[3]}`;
  }

  /** An ISO 8601 date-time, returned as its time in ms. */
  dateTime(key: string): number | null | undefined {
    const value = this.string(key);
    if (value === undefined || value === null) return value;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) {
      this.error(key, 'is invalid');
      return undefined;
    }
    return ms;
  }

  /** An array of strings. */
  strings(key: string): string[] | null | undefined {
    const value = this.#source[key];
    if (value === undefined || value === null) return value;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
      this.error(key, 'is invalid');
      return undefined;
    }
    return value as string[];
  }

  /** A JSON object (kept as given). */
  object(key: string): JsonObject | null | undefined {
    const value = this.#source[key];
    if (value === undefined || value === null) return value;
    if (!isObject(value)) {
      this.error(key, 'is invalid');
      return undefined;
    }
    return value;
  }
}
