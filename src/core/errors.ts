/**
 * The SDK's error hierarchy. Every error the SDK throws is a {@link FulfillmentError}.
 *
 * `instanceof` holds across the ESM and CommonJS builds (and across duplicated copies of the
 * package): each class carries a brand registered with `Symbol.for`, and `instanceof` compares
 * brands instead of prototype identity.
 */
import type { Sku } from '../schemas/skus.js';

const BRANDS = Symbol.for('merchant-fulfillment.error.brands');

type Branded = { [BRANDS]?: readonly string[] };

function brandsOf(value: object): readonly string[] | undefined {
  const brands = (value as Branded)[BRANDS];
  return Array.isArray(brands) ? brands : undefined;
}

/** Base class of every error thrown by the SDK. */
export class FulfillmentError extends Error {
  /** Brand used for `instanceof` across module copies. Subclasses set their own. */
  static readonly brand: string = 'FulfillmentError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    const brands: string[] = [];
    for (let ctor = new.target as unknown; typeof ctor === 'function' && 'brand' in ctor; ) {
      const brand = (ctor as { brand: string }).brand;
      if (!brands.includes(brand)) brands.push(brand);
      ctor = Object.getPrototypeOf(ctor);
    }
    Object.defineProperty(this, BRANDS, { value: Object.freeze(brands), enumerable: false });
    Object.defineProperty(this, 'name', {
      value: new.target.name,
      enumerable: false,
      configurable: true,
      writable: true,
    });
  }

  // `this` is the class on the right of `instanceof` (a subclass too): that is the point here.
  // biome-ignore-start lint/complexity/noThisInStatic: see above
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    const brands = brandsOf(value);
    if (brands) return brands.includes(this.brand);
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
  // biome-ignore-end lint/complexity/noThisInStatic: see above
}

/** Rate-limit figures the API reports on every response (`X-Rate-Limit-Used` / `X-Rate-Limit-Max`). */
export interface RateLimitInfo {
  /** Requests used in the current window, or `undefined` when the header is absent. */
  used: number | undefined;
  /** Requests allowed per window, or `undefined` when the header is absent. */
  max: number | undefined;
}

/** Reads the API's rate-limit headers. */
export function readRateLimit(headers: Headers): RateLimitInfo {
  const num = (name: string): number | undefined => {
    const raw = headers.get(name);
    if (raw === null || raw.trim() === '') return undefined;
    const n = Number(raw);
    return Number.isFinite(n) ? n : undefined;
  };
  return { used: num('x-rate-limit-used'), max: num('x-rate-limit-max') };
}

interface APIErrorInit {
  status: number;
  body: unknown;
  headers: Headers;
  method: string;
  url: string;
}

/** Pulls the human-readable messages out of an error body in any of the forms seen in the wild. */
function errorMessages(body: unknown): string[] {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (Array.isArray(record.errors)) {
      return record.errors.map((e) =>
        typeof e === 'string' ? e : e && typeof e === 'object' ? JSON.stringify(e) : String(e),
      );
    }
    if (typeof record.errors === 'string') return [record.errors];
    if (typeof record.error === 'string') return [record.error];
    if (typeof record.message === 'string') return [record.message];
  }
  return [];
}

function describeBody(body: unknown): string {
  if (typeof body === 'string') {
    const text = body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  }
  return '';
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/** The API answered with a non-2xx status. Subclasses narrow it by status. */
export class APIError extends FulfillmentError {
  static override readonly brand: string = 'APIError';
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
  /** Request URL. */
  readonly url: string;

  constructor(init: APIErrorInit, message?: string) {
    const errors = errorMessages(init.body);
    const detail = errors.length > 0 ? errors.join('; ') : describeBody(init.body) || 'no error details';
    super(message ?? `${init.status} ${init.method} ${pathOf(init.url)}: ${detail}`);
    this.status = init.status;
    this.errors = errors;
    this.body = init.body;
    this.headers = init.headers;
    this.method = init.method;
    this.url = init.url;
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
  static override readonly brand: string = 'BadRequestError';
}
/** 401 Unauthorized: the API token is missing, wrong or revoked. */
export class AuthenticationError extends APIError {
  static override readonly brand: string = 'AuthenticationError';
}
/** 403 Forbidden. */
export class PermissionDeniedError extends APIError {
  static override readonly brand: string = 'PermissionDeniedError';
}
/** 404 Not Found. */
export class NotFoundError extends APIError {
  static override readonly brand: string = 'NotFoundError';
}
/** 409 Conflict. */
export class ConflictError extends APIError {
  static override readonly brand: string = 'ConflictError';
}
/** 422 Unprocessable Entity: the API rejected the content of the request. */
export class UnprocessableEntityError extends APIError {
  static override readonly brand: string = 'UnprocessableEntityError';
}

/** 429 Too Many Requests. */
export class RateLimitError extends APIError {
  static override readonly brand: string = 'RateLimitError';
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit, message?: string) {
    super(init, message);
    this.retryAfter = parseRetryAfter(init.headers.get('retry-after'));
  }
}

/** A 5xx status. */
export class InternalServerError extends APIError {
  static override readonly brand: string = 'InternalServerError';
  /** Seconds the server asked to wait (`Retry-After`, usually on 503), when it said. */
  readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit, message?: string) {
    super(init, message);
    this.retryAfter = parseRetryAfter(init.headers.get('retry-after'));
  }
}

/** No response was received: DNS failure, refused or reset connection, TLS failure, … */
export class APIConnectionError extends FulfillmentError {
  static override readonly brand: string = 'APIConnectionError';
  /** Request method. */
  readonly method: string;
  /** Request URL. */
  readonly url: string;

  constructor(init: { method: string; url: string; message?: string; cause?: unknown }) {
    super(init.message ?? `Connection error: ${init.method} ${pathOf(init.url)}`, { cause: init.cause });
    this.method = init.method;
    this.url = init.url;
  }
}

/** An attempt took longer than the `timeout` option. */
export class APITimeoutError extends APIConnectionError {
  static override readonly brand: string = 'APITimeoutError';
}

/** The caller's `AbortSignal` aborted the request (or a retry wait). */
export class APIUserAbortError extends FulfillmentError {
  static override readonly brand: string = 'APIUserAbortError';
  constructor(message = 'Request was aborted.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** One problem found in a value, located by its path (`items[1].quantity`). */
export interface ValidationIssue {
  /** Dotted path with array indices, e.g. `items[1].quantity`; empty for the value itself. */
  path: string;
  /** What is wrong. */
  message: string;
}

function listIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}

/** Client-side validation failed: nothing was sent. */
export class RequestValidationError extends FulfillmentError {
  static override readonly brand: string = 'RequestValidationError';
  /** Every bad field, by path. */
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], context?: string) {
    super(`Invalid request${context ? ` to ${context}` : ''}: ${listIssues(issues)}`);
    this.issues = issues;
  }
}

/** The API answered 2xx but the body does not have the documented shape. */
export class ResponseValidationError extends FulfillmentError {
  static override readonly brand: string = 'ResponseValidationError';
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

/** Pagination could not continue safely (no next page, a loop, a foreign origin, the page cap). */
export class PaginationError extends FulfillmentError {
  static override readonly brand: string = 'PaginationError';
}

/** One request of a bulk upsert (see `Skus.bulkUpsert`): which items it carried and how it ended. */
export interface BulkUpsertChunk {
  /** Index (in the list you passed) of the first item of this request. */
  start: number;
  /** Index after the last item of this request. */
  end: number;
  /** `written`: the API accepted it; `failed`: it answered with an error; `skipped`: not sent after a failure. */
  status: 'written' | 'failed' | 'skipped';
  /** The error, for a failed request. */
  error?: unknown;
  /** The response body as received (parsed JSON, or `undefined` when empty). */
  body?: unknown;
}

/** What a bulk upsert did. */
export interface BulkUpsertResult {
  /** SKUs the API returned, in request order; `undefined` when the API answered without a list of SKUs. */
  skus: Sku[] | undefined;
  /** Number of SKUs written. */
  written: number;
  /** One entry per request. */
  chunks: BulkUpsertChunk[];
}

/**
 * A bulk upsert stopped part-way: some requests were written, one or more failed, the rest were not
 * sent. `written`, `failed` and `skipped` list the indices (in the list you passed) of each group.
 */
export class BulkUpsertError extends FulfillmentError {
  static override readonly brand: string = 'BulkUpsertError';
  /** Every request with its item range and outcome. */
  readonly chunks: readonly BulkUpsertChunk[];
  /** Indices of the items the API accepted. */
  readonly written: readonly number[];
  /** Indices of the items whose request failed. */
  readonly failed: readonly number[];
  /** Indices of the items not sent because an earlier request failed. */
  readonly skipped: readonly number[];
  /** The error of the first failed request. */
  override readonly cause: unknown;
  /** The partial result (SKUs returned by the written requests). */
  readonly result: BulkUpsertResult;

  constructor(result: BulkUpsertResult, total: number) {
    const indices = (status: BulkUpsertChunk['status']) =>
      result.chunks
        .filter((c) => c.status === status)
        .flatMap((c) => Array.from({ length: c.end - c.start }, (_, i) => c.start + i));
    const written = indices('written');
    const failed = indices('failed');
    const skipped = indices('skipped');
    const first = result.chunks.find((c) => c.status === 'failed');
    const reason = first?.error instanceof Error ? first.error.message : String(first?.error);
    const range = (list: number[]) =>
      list.length === 0 ? 'none' : `${list.length} (items ${describe(list)})`;
    super(
      `Bulk upsert stopped: written ${range(written)} of ${total}; failed ${range(failed)}; not sent ${range(skipped)}. First failure: ${reason}`,
      { cause: first?.error },
    );
    this.cause = first?.error;
    this.chunks = result.chunks;
    this.result = result;
    this.written = written;
    this.failed = failed;
    this.skipped = skipped;
  }
}

function describe(indices: number[]): string {
  const ranges: string[] = [];
  let start = indices[0]!;
  let prev = start;
  for (const index of [...indices.slice(1), Number.NaN]) {
    if (index === prev + 1) {
      prev = index;
      continue;
    }
    ranges.push(start === prev ? `${start}` : `${start}–${prev}`);
    start = index;
    prev = index;
  }
  return ranges.join(', ');
}

/**
 * Parses a `Retry-After` header: seconds (fractional allowed) or an HTTP-date.
 * Returns seconds (never negative), or `undefined` when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}
