/**
 * What a 2xx response becomes: the body read as text on arrival, then parsed as JSON and checked
 * against the method's schema in the client's `validateResponses` mode.
 */
import { ResponseValidationError } from './errors.js';
import { OptionalBody, type SchemaLike, schemaOf, validation } from './lazy.js';
import type { LevelledLogger } from './log.js';
import { publicUrl, type Redactor } from './redact.js';
import type { UnknownEnumValue, ValidationMode } from './validation.js';

/** A response received with a 2xx status, its body already read (within the attempt's timeout). @inline */
export interface RawResponse {
  /** The response (its body has been read: see `text`). */
  response: Response;
  /** The body as text. */
  text: string;
  /** Request method, for messages. */
  method: string;
  /** Request URL, for messages. */
  url: string;
  /** What must not appear in an error about this response (the request's own credentials included). @internal */
  redactor: Redactor;
}

/** Turns a raw response into the method's result (throws a `ResponseValidationError` if it cannot). @inline */
export type ResponseParser<T> = (raw: RawResponse) => T;

/** How a method's 2xx body becomes its result: a schema, an optional-body schema, or a parser. @inline */
export type ResponseSpec<T> = SchemaLike<T> | OptionalBody<T> | ResponseParser<T>;

/** `schema` for an endpoint that documents no body: the result is `undefined` without a resource. */
export function optionalBody<T>(schema: SchemaLike<T>): OptionalBody<T | undefined> {
  return new OptionalBody<T | undefined>(schema as SchemaLike<Exclude<T | undefined, undefined>>);
}

/** A `__proto__` key spelled with escapes (`\u005f_proto__`): JSON.parse reads it as `__proto__`. */
const ESCAPED = /\\u00[5-7]/i;
const dropProto = (key: string, value: unknown): unknown => (key === '__proto__' ? undefined : value);

/**
 * `JSON.parse` without own `__proto__` keys at any depth: copied with `{ ...value }` or
 * `Object.assign`, such a key would set the copy's prototype. For the bodies the SDK hands over
 * raw (an error's `body`); a 2xx body is parsed plainly (its records go through the schemas, which
 * drop such keys, and the page's pagination block through {@link withoutProto}). The reviver
 * (slow) runs only for a text that may hold one.
 */
function parseJson(text: string): unknown {
  const risky = text.includes('__proto__') || (text.includes('\\u') && ESCAPED.test(text));
  return risky ? JSON.parse(text, dropProto) : JSON.parse(text);
}

/** `value` without an own `__proto__` key (a copy only when it has one). */
export function withoutProto<T extends object>(value: T): T {
  if (!Object.hasOwn(value, '__proto__')) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== '__proto__')) as T;
}

/** Parses a body as JSON when it looks like JSON; otherwise returns the text. */
export function parseBody(text: string): unknown {
  if (text === '') return text;
  try {
    return parseJson(text);
  } catch {
    return text;
  }
}

/**
 * Reads a 2xx body as JSON. With `allowEmpty` (endpoints that document no body), an empty body, a
 * 204 or a body that is not JSON gives `undefined`; otherwise those are a `ResponseValidationError`
 * keeping the text.
 */
export function readJson(raw: RawResponse, allowEmpty: boolean): unknown {
  const text = raw.text;
  if (raw.response.status === 204 || text.trim() === '') {
    if (allowEmpty) return undefined;
    const issues = [{ path: '', message: 'expected a JSON body, got an empty response' }];
    throw new ResponseValidationError({ body: text, issues });
  }
  try {
    return JSON.parse(text);
  } catch {
    // Where no body is documented, a plain-text acknowledgement ("OK") is not an error.
    if (allowEmpty) return undefined;
    const issues = [{ path: '', message: `expected JSON, got ${JSON.stringify(text.slice(0, 80))}` }];
    throw new ResponseValidationError({ body: text, issues });
  }
}

/** Where a response came from, for error messages: its URL without the request's secrets. */
export function contextOf(raw: RawResponse): { status: number; method: string; url: string } {
  return { status: raw.response.status, method: raw.method, url: publicUrl(raw.url, raw.redactor) };
}

/** Most distinct unknown enum values one client reports (each once); later ones are not logged. */
const MAX_REPORTED = 100;

/**
 * One client's response checks: the `validateResponses` mode, and the report of enum values this
 * SDK does not know yet (a `warn` line per field and value, once per client, in `'lenient'` mode).
 */
export class ResponseParsers {
  /** How responses are checked. */
  readonly mode: ValidationMode;
  readonly #logger: LevelledLogger | undefined;
  readonly #reported = new Set<string>();
  /** Whether unknown enum values are looked for, to be logged. */
  readonly #reporting: boolean;

  constructor(mode: ValidationMode, logger?: LevelledLogger) {
    this.mode = mode;
    this.#logger = logger;
    this.#reporting = mode === 'lenient' && logger !== undefined && logger.enabled('warn');
  }

  /**
   * The method's result from its 2xx response, as `spec` says: a parser is called; a schema parses
   * the JSON body; an {@link OptionalBody} parses a resource in the body and gives `undefined` for
   * anything else (`{"success":true}`, "OK", nothing), the raw body still available through
   * `.withResponse()`. An empty or non-JSON body is a `ResponseValidationError` otherwise.
   */
  read<T>(spec: ResponseSpec<T>, raw: RawResponse): T {
    const optional = spec instanceof OptionalBody;
    try {
      const body = readJson(raw, optional);
      if (body === undefined || (optional && !isResource(body))) return undefined as T;
      return this.parse((optional ? spec.schema : spec) as SchemaLike<T>, body, raw);
    } catch (error) {
      throw this.clean(error, raw);
    }
  }

  /** Checks an already-read body against `schema` in this client's mode (`raw`: where it came from). */
  parse<T>(schema: SchemaLike<T>, body: unknown, raw?: RawResponse): T {
    const v = validation();
    const own = schemaOf(schema);
    const data = v.parseResponse(v.compiled(own), body, this.mode);
    if (this.#reporting) {
      const found = v.unknownEnumValues(own, body);
      if (found.length > 0) this.#report(found, raw);
    }
    return data;
  }

  /**
   * A response error without the secrets of its request (a server may echo a credential back),
   * with where the response came from: every parse of a 2xx body goes through it, pages included.
   * @internal
   */
  clean(error: unknown, raw: RawResponse): unknown {
    if (!(error instanceof ResponseValidationError)) return error;
    const r = raw.redactor;
    const issues = error.issues.map((i) => ({ path: r.text(i.path), message: r.text(i.message) }));
    return new ResponseValidationError({ body: r.value(error.body), issues, ...contextOf(raw) });
  }

  #report(found: readonly UnknownEnumValue[], raw: RawResponse | undefined): void {
    const context = raw && contextOf(raw);
    for (const { path, value, message } of found) {
      // Once per field and value: `items[3].status` and `items[7].status` are the same field.
      const key = `${path.replace(/\[\d+\]/g, '[]')}\u0000${value}`;
      if (this.#reported.has(key) || this.#reported.size >= MAX_REPORTED) continue;
      this.#reported.add(key);
      const where = context ? ` in ${context.method} ${new URL(context.url).pathname}` : '';
      this.#logger?.warn(
        `Unknown value ${JSON.stringify(value)} at ${path || 'the top level'}${where} (${message}); kept as received. A newer version of the SDK may know it.`,
        { method: context?.method, url: context?.url, path, value },
      );
    }
  }
}

function isResource(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && 'id' in body;
}
