/**
 * What a 2xx response becomes: the body read as text on arrival, then parsed as JSON and checked
 * against the method's schema in the client's `validateResponses` mode.
 */
import { describe } from './describe.js';
import { ResponseValidationError, type ValidationIssue } from './errors.js';
import { LazySchema, type SchemaLike, schemaOf, validation } from './lazy.js';
import { fast } from './lazy-compile.js';
import type { LevelledLogger } from './log.js';
import { publicUrl, type Redactor } from './redact.js';
import type { ResponseContext, UnknownEnumValue, ValidationMode } from './validation.js';

/** A response received with a 2xx status, its body already read (within the attempt's timeout). */
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
  redactor?: Redactor | undefined;
}

/** Turns a raw response into the method's result (throws a `ResponseValidationError` if it cannot). */
export type ResponseParser<T> = (raw: RawResponse) => T;

/** A `__proto__` key spelled with escapes (`\u005f_proto__`): JSON.parse reads it as `__proto__`. */
const ESCAPED = /\\u00[5-7]/i;
const dropProto = (key: string, value: unknown): unknown => (key === '__proto__' ? undefined : value);

/**
 * `JSON.parse` without own `__proto__` keys at any depth: copied with `{ ...value }` or
 * `Object.assign`, such a key would set the copy's prototype. The reviver (slow) runs only for a
 * text that may hold one.
 */
export function parseJson(text: string): unknown {
  const risky = text.includes('__proto__') || (text.includes('\\u') && ESCAPED.test(text));
  return risky ? JSON.parse(text, dropProto) : JSON.parse(text);
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
  // The context (a redacted URL) is worked out only for an error.
  if (raw.response.status === 204 || text.trim() === '') {
    if (allowEmpty) return undefined;
    throw new ResponseValidationError({
      body: text,
      issues: [{ path: '', message: 'expected a JSON body, got an empty response' }],
      ...contextOf(raw),
    });
  }
  try {
    return parseJson(text);
  } catch {
    // Where no body is documented, a plain-text acknowledgement ("OK") is not an error.
    if (allowEmpty) return undefined;
    throw new ResponseValidationError({
      body: text,
      issues: [{ path: '', message: `expected JSON, got ${JSON.stringify(text.slice(0, 80))}` }],
      ...contextOf(raw),
    });
  }
}

function isResource(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && 'id' in body;
}

/** Where a response came from, for error messages and the report of unknown enum values. */
export function contextOf(raw: RawResponse): { status: number; method: string; url: string } {
  // The URL as errors show it: a same-origin redirect or a next_page_url may carry a secret.
  // Redacting is a few string searches, cheaper than deferring it (a getter per response).
  const url = raw.redactor ? publicUrl(raw.url, raw.redactor) : raw.url;
  return { status: raw.response.status, method: raw.method, url };
}

/** Most distinct unknown enum values one client reports (each once); later ones are not logged. */
const MAX_REPORTED = 100;

/**
 * One client's response checks: the `validateResponses` mode, the parsers built once per schema,
 * and the report of enum values this SDK does not know yet (a `warn` line per field and value,
 * once per client, in `'lenient'` mode).
 */
export class ResponseParsers {
  /** How responses are checked. */
  readonly mode: ValidationMode;
  readonly #logger: LevelledLogger | undefined;
  readonly #reported = new Set<string>();
  readonly #onUnknown: ((found: readonly UnknownEnumValue[], context: ResponseContext) => void) | undefined;
  /**
   * One parser per schema, held weakly: a schema built per call (`client.get(path, { response:
   * z.object(…) })`) is collected with its parser once the call is done, so the client's memory
   * stays bounded however many schemas it sees.
   */
  readonly #parsers = new WeakMap<SchemaLike, ResponseParser<unknown>>();
  readonly #optional = new WeakMap<SchemaLike, ResponseParser<unknown>>();

  readonly #redactor: Redactor | undefined;

  constructor(mode: ValidationMode, logger?: LevelledLogger, redactor?: Redactor) {
    this.mode = mode;
    this.#logger = logger;
    this.#redactor = redactor;
    this.#onUnknown =
      mode === 'lenient' && logger?.enabled('warn') ? (f, c) => this.#report(f, c) : undefined;
  }

  /** The parser a {@link ResponseSpec} stands for. */
  of<T>(spec: ResponseSpec<T>): ResponseParser<T> {
    if (typeof spec === 'function') return spec;
    if (spec instanceof OptionalBody) return this.optional(spec.schema) as ResponseParser<T>;
    return this.required(spec);
  }

  /** A text the server sent (a cursor, say) without the client's secrets, for a message. */
  text(value: string): string {
    return this.#redactor ? this.#redactor.text(value) : value;
  }

  /** Checks an already-read body against `schema` in this client's mode. */
  parse<T>(schema: SchemaLike<T>, body: unknown, context: ResponseContext = {}): T {
    const onUnknown = this.#onUnknown;
    return validation().parseResponse(
      fast(schemaOf(schema)),
      body,
      this.mode,
      context,
      onUnknown && ((found) => onUnknown(found, context)),
    );
  }

  /** Parses the body with `schema`; an empty or non-JSON body is a `ResponseValidationError`. */
  required<T>(schema: SchemaLike<T>): ResponseParser<T> {
    return this.#cached(this.#parsers, schema, false) as ResponseParser<T>;
  }

  /**
   * For endpoints that document no body: a resource in the body is parsed with `schema`; anything
   * else (`{"success":true}`, "OK", nothing) means "done" and gives `undefined`, with the raw body
   * still available through `.withResponse()`.
   */
  optional<T>(schema: SchemaLike<T>): ResponseParser<T | undefined> {
    return this.#cached(this.#optional, schema, true) as ResponseParser<T | undefined>;
  }

  #cached(cache: WeakMap<SchemaLike, ResponseParser<unknown>>, schema: SchemaLike, allowEmpty: boolean) {
    let parser = cache.get(schema);
    if (!parser) {
      parser = (raw: RawResponse) => {
        try {
          const body = readJson(raw, allowEmpty);
          if (body === undefined || (allowEmpty && !isResource(body))) return undefined;
          return this.parse(schema, body, contextOf(raw));
        } catch (error) {
          throw this.clean(error, raw.redactor);
        }
      };
      cache.set(schema, parser);
    }
    return parser;
  }

  /**
   * A response error without the client's secrets (a server may echo a credential back): every
   * parse of a 2xx body goes through it, pages included. @internal
   */
  clean(error: unknown, redactor = this.#redactor): unknown {
    if (!redactor || !(error instanceof ResponseValidationError)) return error;
    return new ResponseValidationError({
      body: redactor.value(error.body),
      issues: error.issues.map((i) => ({ path: redactor.text(i.path), message: redactor.text(i.message) })),
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.url === undefined ? {} : { url: publicUrl(error.url, redactor) }),
      message: redactor.text(error.message),
    });
  }

  #report(found: readonly UnknownEnumValue[], context: ResponseContext): void {
    for (const { path, value, message } of found) {
      // Once per field and value: `items[3].status` and `items[7].status` are the same field.
      const key = `${path.replace(/\[\d+\]/g, '[]')}\u0000${value}`;
      if (this.#reported.has(key) || this.#reported.size >= MAX_REPORTED) continue;
      this.#reported.add(key);
      const where =
        context.method && context.url
          ? ` in ${context.method} ${context.url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0]}`
          : '';
      this.#logger?.warn(
        `Unknown value ${JSON.stringify(value)} at ${path || 'the top level'}${where} (${message}); kept as received. A newer version of the SDK may know it.`,
        { method: context.method, url: context.url, path, value },
      );
    }
  }
}

/**
 * Marks a response schema whose endpoint documents no body: see {@link ResponseParsers.optional}.
 * Build it once, at module level.
 */
export class OptionalBody<T> {
  readonly schema: SchemaLike<Exclude<T, undefined>>;

  constructor(schema: SchemaLike<Exclude<T, undefined>>) {
    this.schema = schema;
  }
}

/** `schema` for an endpoint that documents no body: the result is `undefined` without a resource. */
export function optionalBody<T>(schema: SchemaLike<T>): OptionalBody<T | undefined> {
  return new OptionalBody<T | undefined>(schema as SchemaLike<Exclude<T | undefined, undefined>>);
}

/** The lazy schema a {@link ResponseSpec} holds, if any (to load before the response is read). */
export function lazyOf(spec: ResponseSpec<unknown>): LazySchema<unknown> | undefined {
  const schema = spec instanceof OptionalBody ? spec.schema : spec;
  return schema instanceof LazySchema ? schema : undefined;
}

/**
 * What is wrong with a value given as a {@link ResponseSpec} (`response` of `client.get/post/…`,
 * the item schema of `getAPIList`), by `name`; `undefined` when it is one. Checked before anything
 * is sent, so that a missing or mistyped `response` is a typed error naming it, not a `TypeError`
 * from deep inside the parse after the request went out.
 */
export function responseSpecIssue(spec: unknown, name: string, parser = true): ValidationIssue | undefined {
  if (typeof spec === 'function' && parser) return undefined;
  const schema = spec instanceof OptionalBody && parser ? spec.schema : spec;
  if (schema instanceof LazySchema) return undefined;
  if (
    typeof schema === 'object' &&
    schema !== null &&
    typeof (schema as { _zod?: unknown })._zod === 'object'
  ) {
    return undefined;
  }
  const got = typeof spec === 'function' ? 'a function' : describe(spec);
  return { path: name, message: `expected a zod schema${parser ? ' or a parser function' : ''}, got ${got}` };
}

/** How a method's 2xx body becomes its result: a schema, an optional-body schema, or a parser. */
export type ResponseSpec<T> = SchemaLike<T> | OptionalBody<T> | ResponseParser<T>;
