/**
 * The SDK's error hierarchy. Every error the SDK throws is a {@link FulfillmentError}.
 *
 * `instanceof` holds across the ESM and CommonJS builds (and across duplicated copies of the
 * package): each class carries a brand registered with `Symbol.for`, and `instanceof` compares
 * brands instead of prototype identity. The brand is a string literal and is also the error's
 * `name`, so names survive minification (a bundler may rename the class itself).
 *
 * Errors only: header parsing lives in `headers.ts`, bulk-upsert results with the bulk upsert,
 * webhook reasons with the webhooks.
 */
import { isObject } from './describe.js';
import { parseRetryAfter, type RateLimitInfo, readRateLimit } from './headers.js';

const BRANDS = Symbol.for('merchant-fulfillment.error.brands');

/** Base class of every error thrown by the SDK. */
export class FulfillmentError extends Error {
  /**
   * Every class names itself with a literal (`static name`), so its name survives a bundler that
   * renames the class; the names are also the brands `instanceof` compares across module copies.
   */
  static override readonly name: string = 'FulfillmentError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    const brands: string[] = [];
    for (let ctor = new.target as unknown; typeof ctor === 'function' && ctor !== Error; ) {
      brands.push((ctor as { name: string }).name);
      ctor = Object.getPrototypeOf(ctor);
    }
    Object.defineProperty(this, BRANDS, { value: Object.freeze(brands) });
    Object.defineProperty(this, 'name', { value: brands[0], configurable: true, writable: true });
  }

  // `this` is the class on the right of `instanceof` (a subclass too): that is the point here.
  // biome-ignore-start lint/complexity/noThisInStatic: see above
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    const brands = (value as { [BRANDS]?: unknown })[BRANDS];
    if (Array.isArray(brands)) return brands.includes(this.name);
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
  // biome-ignore-end lint/complexity/noThisInStatic: see above
}

/** What an {@link APIError} is built from: the response's status, body and headers, and the request. @inline */
export interface APIErrorInit {
  status: number;
  body: unknown;
  headers: Headers;
  method: string;
  url: string;
  /** Which attempt of the request this answer came from (1 = the first). */
  attempt?: number | undefined;
}

/** Pulls the human-readable messages out of an error body in any of the forms seen in the wild. */
function errorMessages(body: unknown): string[] {
  if (!isObject(body)) return [];
  const { errors, error, message } = body;
  if (Array.isArray(errors))
    return errors.map((e) => (typeof e === 'string' ? e : String(JSON.stringify(e))));
  return [errors, error, message].filter((m) => typeof m === 'string').slice(0, 1);
}

/**
 * A text body (an HTML error page, say) as one line of at most 200 characters. A tag is matched
 * without `<` inside it, so a body of many `<` is read in linear time.
 */
function describeBody(body: unknown): string {
  if (typeof body !== 'string') return '';
  const text = body.replace(/(<[^<>]*>|\s)+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Longest query a message shows as it is. */
const MAX_QUERY = 200;

/**
 * A URL as a message shows it: a query longer than 200 characters is cut to its first three
 * parameters and their count (`?a=1&b=2&c=3… (100 parameters)`). An error's `url` keeps it whole.
 * @internal
 */
export function shortUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0 || url.length - at - 1 <= MAX_QUERY) return url;
  const params = url.slice(at + 1).split('&');
  return `${url.slice(0, at + 1)}${params.slice(0, 3).join('&').slice(0, MAX_QUERY)}… (${params.length} parameters)`;
}

/** The path and (shortened) query of a URL, for messages. */
const pathOf = (url: string): string => shortUrl(url).replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';

/** The API answered with a non-2xx status. Subclasses narrow it by status. */
export class APIError extends FulfillmentError {
  static override readonly name: string = 'APIError';
  /** HTTP status code. */
  readonly status: number;
  /** The API's `errors` array (or its `error` / `message` string), or empty when the body has none. */
  readonly errors: string[];
  /** Response body: parsed JSON when it was JSON, else the text (possibly empty). */
  readonly body: unknown;
  /** Response headers. */
  readonly headers: Headers;
  /** Request method. */
  readonly method: string;
  /** Request URL (never with credentials: the SDK sends none in URLs). */
  readonly url: string;
  /** Which attempt of the request failed (1 = the first), when the SDK sent it. */
  readonly attempt: number | undefined;

  constructor(init: APIErrorInit, message?: string) {
    const errors = errorMessages(init.body);
    const all = errors.length > 0 ? errors.join('; ') : describeBody(init.body) || 'no error details';
    // The message (and every log line that quotes it) stays short whatever the server sends; `errors` keeps all.
    const detail = all.length > 1000 ? `${all.slice(0, 1000)}… (${errors.length} errors)` : all;
    super(message ?? `${init.status} ${init.method} ${pathOf(init.url)}: ${detail}`);
    this.status = init.status;
    this.errors = errors;
    this.body = init.body;
    this.headers = init.headers;
    this.method = init.method;
    this.url = init.url;
    this.attempt = init.attempt;
  }

  /** Rate-limit figures carried by the error response. */
  get rateLimit(): RateLimitInfo {
    return readRateLimit(this.headers);
  }

  /** Builds the subclass that matches the status. */
  static from(init: APIErrorInit): APIError {
    const { status } = init;
    if (status === 400) return new BadRequestError(init);
    if (status === 401) return new AuthenticationError(init);
    if (status === 403) return new PermissionDeniedError(init);
    if (status === 404) return new NotFoundError(init);
    if (status === 409) return new ConflictError(init);
    if (status === 422) return new UnprocessableEntityError(init);
    if (status === 429) return new RateLimitError(init);
    if (status >= 500) return new InternalServerError(init);
    return new APIError(init);
  }
}

/** 400 Bad Request. */
export class BadRequestError extends APIError {
  static override readonly name: string = 'BadRequestError';
}
/** 401 Unauthorized: the API token is missing, wrong or revoked. */
export class AuthenticationError extends APIError {
  static override readonly name: string = 'AuthenticationError';
}
/** 403 Forbidden. */
export class PermissionDeniedError extends APIError {
  static override readonly name: string = 'PermissionDeniedError';
}
/** 404 Not Found. */
export class NotFoundError extends APIError {
  static override readonly name: string = 'NotFoundError';
}
/** 409 Conflict. */
export class ConflictError extends APIError {
  static override readonly name: string = 'ConflictError';
}
/** 422 Unprocessable Entity: the API rejected the content of the request. */
export class UnprocessableEntityError extends APIError {
  static override readonly name: string = 'UnprocessableEntityError';
}

/** 429 Too Many Requests. */
export class RateLimitError extends APIError {
  static override readonly name: string = 'RateLimitError';
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined = parseRetryAfter(this.headers.get('retry-after'));
}

/** A 5xx status. */
export class InternalServerError extends APIError {
  static override readonly name: string = 'InternalServerError';
  /** Seconds the server asked to wait (`Retry-After`, usually on 503), when it said. */
  readonly retryAfter: number | undefined = parseRetryAfter(this.headers.get('retry-after'));
}

/** No response was received: DNS failure, refused or reset connection, TLS failure, … */
export class APIConnectionError extends FulfillmentError {
  static override readonly name: string = 'APIConnectionError';
  /** Request method. */
  readonly method: string;
  /** Request URL. */
  readonly url: string;

  /** Which attempt of the request failed (1 = the first), when the SDK sent it. */
  readonly attempt: number | undefined;

  constructor(init: { method: string; url: string; message?: string; cause?: unknown; attempt?: number }) {
    super(init.message ?? `Connection error: ${init.method} ${pathOf(init.url)}`, { cause: init.cause });
    ({ method: this.method, url: this.url, attempt: this.attempt } = init);
  }
}

/** An attempt took longer than the `timeout` option. */
export class APITimeoutError extends APIConnectionError {
  static override readonly name: string = 'APITimeoutError';
}

/** The caller's `AbortSignal` aborted the request (or a retry wait). */
export class APIUserAbortError extends FulfillmentError {
  static override readonly name: string = 'APIUserAbortError';
  constructor(message = 'Request was aborted.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The `APIUserAbortError` of an aborted `signal` (its reason is the cause). @internal */
export const aborted = (signal: AbortSignal | undefined): APIUserAbortError =>
  new APIUserAbortError(undefined, { cause: signal?.reason });

/**
 * The client's shared rate-limit store (`rateLimit.store`) failed or did not answer in time: the
 * request was not sent (the limit is never bypassed). The store's own error is the `cause`.
 */
export class RateLimitStoreError extends FulfillmentError {
  static override readonly name: string = 'RateLimitStoreError';
}

/** One problem found in a value, located by its path (`items[1].quantity`). */
export interface ValidationIssue {
  /** Dotted path with array indices, e.g. `items[1].quantity`; empty for the value itself. */
  path: string;
  /** What is wrong. */
  message: string;
}

/**
 * The issues as one line, as the validation errors' messages name them: `path: message`, or the
 * message alone for the value itself, joined by `; `. The webhook payload check uses it too. @internal
 */
export function listIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}

/** Client-side validation failed: nothing was sent. */
export class RequestValidationError extends FulfillmentError {
  static override readonly name: string = 'RequestValidationError';
  /** Every bad field, by path. */
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], context?: string) {
    super(`Invalid request${context ? ` to ${context}` : ''}: ${listIssues(issues)}`);
    this.issues = issues;
  }
}

/** The API answered 2xx but the body does not have the documented shape. */
export class ResponseValidationError extends FulfillmentError {
  static override readonly name: string = 'ResponseValidationError';
  /** The body exactly as received (parsed JSON or text). */
  readonly body: unknown;
  /** Every problem found, by path. */
  readonly issues: readonly ValidationIssue[];
  /** HTTP status of the response. */
  readonly status: number | undefined;
  /** Request URL. */
  readonly url: string | undefined;

  constructor(init: {
    body: unknown;
    issues: readonly ValidationIssue[];
    status?: number;
    method?: string;
    url?: string;
    message?: string;
  }) {
    const where = init.method && init.url ? ` from ${init.method} ${pathOf(init.url)}` : '';
    super(init.message ?? `Unexpected response${where}: ${listIssues(init.issues)}`);
    this.body = init.body;
    this.issues = init.issues;
    this.status = init.status;
    this.url = init.url;
  }
}

/**
 * The API answered with a redirect the SDK does not follow: to another origin (scheme, host or
 * port), for a request with a body, without a readable `Location`, or past the redirect limit.
 * Nothing was sent to the target. Never retried.
 */
export class RedirectError extends APIError {
  static override readonly name: string = 'RedirectError';
  /** Where the server redirected to (the origin only when it is another one), or `undefined` when not exposed. */
  readonly target: string | undefined;

  constructor(init: APIErrorInit, target: string | undefined, reason: string) {
    super(init, `${init.status} ${init.method} ${pathOf(init.url)}: redirect not followed: ${reason}`);
    this.target = target;
  }
}

/**
 * A response body was larger than `maxResponseBytes` (counted as it is decoded): the read stopped
 * and the connection was released. Never retried.
 */
export class ResponseTooLargeError extends FulfillmentError {
  static override readonly name: string = 'ResponseTooLargeError';
  /** HTTP status of the response. */
  readonly status: number;
  /** Request method. */
  readonly method: string;
  /** Request URL. */
  readonly url: string;
  /** Bytes received (or announced by `Content-Length`) when the read stopped. */
  readonly size: number;
  /** The limit (`maxResponseBytes`). */
  readonly limit: number;

  constructor(init: { status: number; method: string; url: string; size: number; limit: number }) {
    super(
      `${init.status} ${init.method} ${pathOf(init.url)}: response body larger than maxResponseBytes (${init.size} bytes received or announced, limit ${init.limit}); the read was stopped`,
    );
    ({ status: this.status, method: this.method, url: this.url, size: this.size, limit: this.limit } = init);
  }
}

/** Pagination could not continue safely (no next page, a loop, a foreign origin, the page cap). */
export class PaginationError extends FulfillmentError {
  static override readonly name: string = 'PaginationError';
}

/**
 * A lookup that scans a list (`orders.findByMerchantOrderId`) stopped at its page budget with more
 * pages left: the item may exist further back. Narrow the scan (`createdAfter`) or raise `maxPages`.
 */
export class LookupLimitError extends FulfillmentError {
  static override readonly name: string = 'LookupLimitError';
  /** Pages read before the budget ran out. */
  readonly pagesScanned: number;
  /** Items looked at on those pages. */
  readonly itemsScanned: number;

  constructor(message: string, scanned: { pages: number; items: number }) {
    super(message);
    this.pagesScanned = scanned.pages;
    this.itemsScanned = scanned.items;
  }
}
