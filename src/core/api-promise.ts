/**
 * APIPromise: what every method returns. Await it for the parsed data; `.withResponse()` also
 * gives the raw `Response` and the rate-limit figures; `.asResponse()` gives the unread `Response`.
 */
import { type RateLimitInfo, readRateLimit } from './headers.js';
import type { RawResponse, ResponseParsers, ResponseSpec } from './response.js';

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
    super((resolve) => {
      resolve(null as T);
    });
    // A method's promise may be awaited late (or never): its failure is reported to whoever awaits
    // it, and must not surface as an unhandled rejection before that.
    raw.catch(() => {});
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

  #data(): Promise<T> {
    return this.#result().then((r) => r.data);
  }

  // biome-ignore lint/suspicious/noThenProperty: APIPromise is a Promise subclass by design.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#data().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#data().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#data().finally(onfinally);
  }
}
