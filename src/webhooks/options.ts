/**
 * Webhooks: the checks of the options of verify and sign — the options object, header names, the
 * headers, the event id and `maxBodyBytes`. Every problem is a {@link WebhookVerificationError} with
 * reason `invalid_options` whose message names the option; no message ever quotes a secret.
 */
import { describe } from '../core/describe.js';
import { WebhookVerificationError } from './errors.js';
import { DEFAULT_MAX_BODY_BYTES, type WebhookHeaders } from './types.js';

function invalid(option: string, message: string, cause?: unknown): WebhookVerificationError {
  return new WebhookVerificationError(
    'invalid_options',
    `Webhook option '${option}' ${message}`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * What a failed read threw, for a message: its kind (`an Error`, `a TypeError`, `a string`), never
 * its content (an error thrown by a getter may quote anything, a secret included).
 */
function thrownKind(error: unknown): string {
  try {
    if (error instanceof Error) {
      const name = error.constructor?.name;
      if (typeof name === 'string' && /^[A-Za-z_$][\w$]{0,63}$/.test(name)) {
        return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
      }
      return 'an error';
    }
    return describe(error);
  } catch {
    return 'something';
  }
}

/**
 * The `invalid_options` error of an option whose value could not be read or inspected (a throwing
 * getter, a hostile Proxy). The cause is not kept: what a getter throws may quote the value.
 */
export function unreadable(option: string, error: unknown): WebhookVerificationError {
  return invalid(
    option,
    `could not be read: reading or inspecting it threw ${thrownKind(error)} (a throwing getter or a Proxy?). ` +
      'Pass plain values.',
  );
}

/**
 * Runs `check` (the check of the option named `option`); what it throws besides a
 * {@link WebhookVerificationError} (a getter or a Proxy trap of the value) becomes an
 * `invalid_options` error naming the option.
 */
export function guarded<T>(option: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw checkFailure(option, error);
  }
}

/**
 * What the check of `option` threw, as the error to throw: a {@link WebhookVerificationError} as
 * it is, anything else (a getter or a Proxy trap of the value) as {@link unreadable}. For a
 * `try`/`catch` on a hot path, where {@link guarded}'s closure would be built on every call.
 */
export function checkFailure(option: string, error: unknown): WebhookVerificationError {
  return error instanceof WebhookVerificationError ? error : unreadable(option, error);
}

/** The options object itself: a non-null object, not an array. */
export function checkOptions<T extends object>(options: unknown, fn: string): T {
  let isArray: boolean;
  try {
    isArray = Array.isArray(options);
  } catch (error) {
    // A revoked Proxy.
    throw unreadable('options', error);
  }
  if (options === null || typeof options !== 'object' || isArray) {
    throw new WebhookVerificationError(
      'invalid_options',
      `${fn} takes one options object ({ body, secret, ... }), got ${describe(options)}.`,
    );
  }
  return options as T;
}

/**
 * The options object checked, and each of `keys` read from it once (so that a getter runs once and
 * later checks see the same value): what a getter or a Proxy trap throws is an `invalid_options`
 * error naming the option.
 */
export function readOptions<K extends string>(
  options: unknown,
  fn: string,
  keys: readonly K[],
): { readonly [P in K]: unknown } {
  const object = checkOptions<Record<string, unknown>>(options, fn);
  const out = {} as Record<K, unknown>;
  let reading = '';
  try {
    for (const key of keys) {
      reading = key;
      out[key] = object[key];
    }
  } catch (error) {
    throw unreadable(reading, error);
  }
  return out;
}

/**
 * Fails when two header names (option name → value) are the same header (compared
 * case-insensitively), or one is `content-type` (which {@link createWebhookHeaders} also sets, when
 * `reserved` names it): one value would overwrite the other.
 */
export function distinctHeaderNames(names: Readonly<Record<string, string>>, reserved?: string): void {
  const seen = new Map<string, string>();
  if (reserved !== undefined) seen.set(reserved.toLowerCase(), `the '${reserved}' header it sets itself`);
  for (const [option, name] of Object.entries(names)) {
    const lower = name.toLowerCase();
    const other = seen.get(lower);
    if (other !== undefined) {
      throw invalid(
        option,
        `names the same header as ${other} (header names are case-insensitive): use distinct header names.`,
      );
    }
    seen.set(lower, `option '${option}'`);
  }
}

/**
 * {@link distinctHeaderNames} of the signature and event-id header names, without building
 * anything (the check of every verification).
 */
export function distinctSignatureAndEventId(signatureHeader: string, eventIdHeader: string): void {
  if (
    signatureHeader.length === eventIdHeader.length &&
    signatureHeader.toLowerCase() === eventIdHeader.toLowerCase()
  ) {
    distinctHeaderNames({ signatureHeader, eventIdHeader });
  }
}

/** RFC 9110 `token`: the characters a header name may have. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A header name option (`undefined` or `null`: the default), checked as an HTTP token. */
export function headerName(value: unknown, option: string, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string')
    throw invalid(option, `must be a header name (a string), got ${describe(value)}.`);
  if (!TOKEN.test(value)) {
    throw invalid(
      option,
      `must be a valid HTTP header name (letters, digits and !#$%&'*+-.^_\`|~), got a string of length ${value.length}.`,
    );
  }
  return value;
}

/** Visible ASCII (or obs-text) with inner spaces/tabs: a header value `fetch` accepts and that survives trimming. */
const HEADER_VALUE = /^[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$/;

/** The `eventId` of a delivery to send: a non-empty header value without surrounding whitespace. */
export function eventIdValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid('eventId', `must be a string, got ${describe(value)}.`);
  if (!HEADER_VALUE.test(value)) {
    throw invalid(
      'eventId',
      'must be a non-empty header value: visible characters (code points up to U+00FF), no line ' +
        'breaks or control characters, no surrounding whitespace.',
    );
  }
  return value;
}

/** `maxBodyBytes` (`undefined` or `null`: the default): a positive safe integer. */
export function maxBodyBytes(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_MAX_BODY_BYTES;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    const got = typeof value === 'number' ? String(value) : describe(value);
    throw invalid('maxBodyBytes', `must be a positive integer (a number of bytes), got ${got}.`);
  }
  return value;
}

/**
 * The headers, checked: a `Headers`-like object (with a `get` method) or a record. `undefined` and
 * `null` give `undefined` when `required` is false.
 */
export function checkHeaders(value: unknown, required: boolean): WebhookHeaders | undefined {
  if ((value === undefined || value === null) && !required) return undefined;
  if (value === null || typeof value !== 'object' || guarded('headers', () => Array.isArray(value))) {
    throw invalid(
      'headers',
      `must be the request headers: a Headers object, Node's req.headers or a record of names to values, got ${describe(value)}.`,
    );
  }
  return value as WebhookHeaders;
}

/**
 * A header's value, looked up case-insensitively; the first value of an array; `undefined` when
 * absent or not a string. A `get` method or a getter that throws is an `invalid_options` error.
 */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  let value: unknown;
  try {
    if (typeof (headers as { get?: unknown }).get === 'function') {
      value = (headers as Headers).get(name);
    } else {
      const record = headers as Readonly<Record<string, unknown>>;
      const lower = name.toLowerCase();
      value = Object.hasOwn(record, lower) ? record[lower] : undefined;
      if (value === undefined) {
        for (const key of Object.keys(record)) {
          if (key.toLowerCase() === lower) {
            value = record[key];
            break;
          }
        }
      }
    }
    if (Array.isArray(value)) value = value[0];
  } catch (cause) {
    throw invalid('headers', `could not be read (reading '${name}' threw).`, cause);
  }
  return typeof value === 'string' ? value : undefined;
}
