/**
 * One response, from its arrival to the method's result: the body read as it streams in, bounded
 * in time (the attempt's `timeout`) and size (`maxResponseBytes`, counted on the decoded bytes, so
 * a small compressed body that inflates without end is cut off too); then, when the method's
 * `APIPromise` is awaited, parsed as JSON and checked against the method's schema in the client's
 * `validateResponses` mode. `.withResponse()` also gives the `Response` and its rate-limit figures.
 */

import { isObject } from './describe.js';
import { ResponseValidationError } from './errors.js';
import { type RateLimitInfo, readRateLimit } from './headers.js';
import { OptionalBody, type SchemaLike, schemaOf, validation } from './lazy.js';
import { publicUrl, type Redactor } from './redact.js';
import type { ValidationMode } from './validation.js';

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

/** `value` without an own `__proto__` key (a copy only when it has one). */
export function withoutProto<T extends object>(value: T): T {
  if (!Object.hasOwn(value, '__proto__')) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== '__proto__')) as T;
}

/**
 * Parses a body the SDK hands over raw (an error's `body`) as JSON when it is JSON, otherwise
 * returns the text. Own `__proto__` keys are dropped at any depth: copied with `{ ...value }` or
 * `Object.assign`, such a key would set the copy's prototype. (A 2xx body is parsed plainly: its
 * records go through the schemas, which drop such keys, the pagination block through {@link withoutProto}.)
 */
export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value));
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
  let message = 'expected a JSON body, got an empty response';
  if (raw.response.status !== 204 && text.trim() !== '') {
    try {
      return JSON.parse(text);
    } catch {
      message = `expected JSON, got ${JSON.stringify(text.slice(0, 80))}`;
    }
  }
  // Where no body is documented, nothing or a plain-text acknowledgement ("OK") is not an error.
  if (allowEmpty) return undefined;
  throw new ResponseValidationError({ body: text, issues: [{ path: '', message }] });
}

/** Where a response came from, for error messages: its URL without the request's secrets. */
export function contextOf(raw: RawResponse): { status: number; method: string; url: string } {
  return { status: raw.response.status, method: raw.method, url: publicUrl(raw.url, raw.redactor) };
}

/** One client's response checks, in its `validateResponses` mode. */
export class ResponseParsers {
  /** How responses are checked. */
  readonly mode: ValidationMode;

  constructor(mode: ValidationMode) {
    this.mode = mode;
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
      if (body === undefined || (optional && !(isObject(body) && 'id' in body))) return undefined as T;
      return this.parse((optional ? spec.schema : spec) as SchemaLike<T>, body);
    } catch (error) {
      throw this.clean(error, raw);
    }
  }

  /** Checks an already-read body against `schema` in this client's mode. */
  parse<T>(schema: SchemaLike<T>, body: unknown): T {
    const v = validation();
    return v.parseResponse(v.compiled(schemaOf(schema)), body, this.mode);
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
}

/** The body did not arrive within the attempt's timeout: named as ky's, it becomes an `APITimeoutError`. */
const bodyTimeout = () =>
  Object.assign(new Error('The response body did not arrive in time.'), { name: 'TimeoutError' });

/**
 * Reads the whole body as UTF-8 text (decoded as `Response.text()` does) within `timeoutMs` and
 * `limit` bytes. Past the time limit the stream is cancelled, which ends the pending read, so no
 * promise is raced per chunk. Past `limit` bytes (received or announced), the read stops with the
 * error `tooLarge` makes.
 */
export async function readBody(
  response: Response,
  limit: number,
  timeoutMs: number,
  tooLarge: (size: number) => Error,
): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit) {
    await body.cancel().catch(() => {});
    throw tooLarge(declared);
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    reader.cancel().catch(() => {});
  }, timeoutMs);
  let size = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) throw bodyTimeout();
      if (done) return text + decoder.decode();
      size += value.byteLength;
      if (size > limit) throw tooLarge(size);
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    // Stops the transfer and releases the connection.
    reader.cancel().catch(() => {});
    throw timedOut ? bodyTimeout() : error;
  } finally {
    clearTimeout(timer);
  }
}

/** The executor of an `APIPromise`'s own promise state, never used (`then` reads `raw`): one for all. */
const settled = (resolve: (value: never) => void): void => resolve(null as never);
const ignore = (): void => {};

/** The parsed data together with the response it came from. */
export interface WithResponse<T> {
  data: T;
  /** The raw response (its body has been read). */
  response: Response;
  /** `X-Rate-Limit-Used` / `X-Rate-Limit-Max` of the response. */
  rateLimit: RateLimitInfo;
}

/**
 * A `Promise<T>` with access to the underlying response. The request starts when the method is
 * called; the body is read and parsed when the promise is first awaited.
 */
export class APIPromise<T> extends Promise<T> {
  readonly #raw: Promise<RawResponse>;
  readonly #spec: ResponseSpec<T>;
  readonly #reader: Pick<ResponseParsers, 'read'> | undefined;
  #parsed: Promise<{ data: T; raw: RawResponse }> | undefined;

  /** `spec` says how the body becomes `T`: a parser, or a schema that `reader` applies. @internal */
  constructor(raw: Promise<RawResponse>, spec: ResponseSpec<T>, reader?: Pick<ResponseParsers, 'read'>) {
    super(settled);
    // A method's promise may be awaited late (or never): its failure is reported to whoever awaits
    // it, and must not surface as an unhandled rejection before that.
    raw.catch(ignore);
    this.#raw = raw;
    this.#spec = spec;
    this.#reader = reader;
  }

  #read(raw: RawResponse): T {
    const spec = this.#spec;
    return typeof spec === 'function' ? spec(raw) : this.#reader!.read(spec, raw);
  }

  // Derived promises (from then/catch/finally) are plain Promises.
  static override get [Symbol.species]() {
    return Promise;
  }

  /**
   * The raw `Response`, unparsed: status, headers and a body you can read. Rejects like the method
   * itself on errors. (The SDK reads each body as it arrives, so this is a copy with the same
   * status, headers and body.)
   */
  asResponse(): Promise<Response> {
    return this.#raw.then(({ response: { status, statusText, headers }, text }) => {
      return new Response(text, { status, statusText, headers });
    });
  }

  /**
   * The same request with its data transformed by `map`; `.withResponse()` still gives the response.
   * @internal
   */
  _map<U>(map: (data: T) => U): APIPromise<U> {
    return new APIPromise(this.#raw, (raw) => map(this.#read(raw)));
  }

  /**
   * Continues with `next` once the data is in. When `next` returns another `APIPromise` (a read-back
   * request), the result and the response are that request's; when it returns a value or a plain
   * promise, the response stays this one. A failure of what `next` started is reported with the
   * message prefixed by `changed` ("… succeeded, but reading the result back failed: …"), since the
   * change itself went through. @internal
   */
  _then<U>(next: (data: T) => U | Promise<U> | APIPromise<U>, changed: string): APIPromise<U> {
    const results = new WeakMap<RawResponse, U>();
    const raw = this.#raw.then(async (first) => {
      const out = next(this.#read(first));
      try {
        if (out instanceof APIPromise) {
          const second = await out.#raw;
          results.set(second, out.#read(second));
          return second;
        }
        results.set(first, await out);
        return first;
      } catch (error) {
        if (error instanceof Error) {
          error.message = `${changed} succeeded, but reading the result back failed: ${error.message}`;
        }
        throw error;
      }
    });
    return new APIPromise(raw, (r) => results.get(r) as U);
  }

  /** The parsed data, the `Response` and its rate-limit figures. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result().then(({ data, raw: { response } }) => ({
      data,
      response,
      rateLimit: readRateLimit(response.headers),
    }));
  }

  #result(): Promise<{ data: T; raw: RawResponse }> {
    this.#parsed ??= this.#raw.then((raw) => ({ data: this.#read(raw), raw }));
    return this.#parsed;
  }

  // biome-ignore lint/suspicious/noThenProperty: APIPromise is a Promise subclass by design.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#result()
      .then((r) => r.data)
      .then(onfulfilled, onrejected);
  }
}
