/**
 * Every option the SDK takes, in one place: the client's options (resolved and checked by
 * `resolveClientOptions`), and the per-request options every method takes last (checked by
 * `requestOptionIssues`). Values are never echoed in messages: a header or token may be a credential.
 */
import { describe } from './describe.js';
import { FulfillmentError, listIssues, RequestValidationError, type ValidationIssue } from './errors.js';
import { MAX_TIMER_MS } from './headers.js';
import {
  detectLoggerStyle,
  isLogger,
  isLogLevel,
  type Logger,
  type LoggerStyle,
  type LogLevel,
  loggerLevel,
} from './log.js';
import type { ValidationMode } from './validation.js';

/** `{ requests, perMs }`: at most `requests` requests in any `perMs` milliseconds. */
export interface RateLimitOptions {
  requests: number;
  perMs: number;
}

/** Options of `FulfillmentClient`. Every one is optional where it has a default. */
export interface ClientOptions {
  /** API token sent as `Authorization: Bearer …`. Default: env `FULFILLMENT_API_TOKEN`. */
  apiToken?: string | undefined;
  /**
   * Service root, e.g. `https://fulfillment.example.com`; `/merchant_api/v1/…` and `/merchant_api/v2/…`
   * are appended. A trailing `/`, `/merchant_api`, `/merchant_api/v1` or `/merchant_api/v2` is removed.
   * Default: env `FULFILLMENT_BASE_URL`.
   */
  baseUrl?: string | undefined;
  /** Milliseconds allowed per attempt (connecting, waiting and reading the body). Default 60 000. */
  timeout?: number | undefined;
  /** Extra attempts after the first for retryable failures. Default 2. */
  maxRetries?: number | undefined;
  /**
   * Longest `Retry-After` in seconds the client waits for before retrying. A longer ask fails at
   * once with the error (its `retryAfter` says how long). Default 60.
   */
  maxRetryAfter?: number | undefined;
  /** Backoff between retries: first delay and cap, in ms. Default `{ initialMs: 500, maxMs: 8000 }`. */
  retryDelay?: { initialMs?: number | undefined; maxMs?: number | undefined } | undefined;
  /** A `fetch` to use instead of the global one (proxies, tests, instrumentation). */
  fetch?: typeof globalThis.fetch | undefined;
  /** Headers sent with every request. `Authorization` cannot be overridden here. */
  defaultHeaders?: Record<string, string | undefined> | undefined;
  /**
   * What to log. Default: env `FULFILLMENT_LOG`; else the level of the `logger` when it has one
   * (pino's and winston's `level`: `pino({ level: 'debug' })` gets the SDK's debug lines, `'trace'`
   * counts as `'debug'`, `'silent'` as `'off'`); else `'info'`: retries and rate-limit waits longer
   * than a second, nothing for a request that succeeds at once. `'warn'` restores the quieter
   * default of earlier versions.
   */
  logLevel?: LogLevel | undefined;
  /**
   * Where to log: anything with `error`, `warn`, `info` and `debug` methods. Default `console`.
   * Each line is a message and a details object (see `loggerStyle` for the order).
   */
  logger?: Logger | undefined;
  /**
   * The order `logger` takes a line's arguments in. `'message-first'`: `logger.info(message, details)`
   * (`console`, winston). `'object-first'`: `logger.info(details, message)` (pino, bunyan: the details
   * become fields of the JSON line). `'auto'` (default): object-first for a logger shaped like pino
   * (`child` and `bindings` methods) or bunyan (`child`, `fields`, `streams`), message-first for
   * anything else. Set it for a wrapper the guess does not recognise.
   */
  loggerStyle?: LoggerStyle | 'auto' | undefined;
  /**
   * How responses are checked. `'lenient'` (default): types are enforced, unknown fields and enum
   * values are kept. `'strict'`: unknown enum values fail too (for your own tests). `'off'`: no check.
   */
  validateResponses?: ValidationMode | undefined;
  /**
   * Largest response body the client reads, in bytes, counted on the decoded body as it streams in
   * (a small compressed body that inflates without end is cut off too). Over it, the read stops,
   * the connection is released and a `ResponseTooLargeError` is thrown (not retried).
   * Default 33 554 432 (32 MiB).
   */
  maxResponseBytes?: number | undefined;
  /**
   * Client-side rate limit shared by every request of this client (pagination, bulk upserts and
   * retries included): at most `requests` requests in any `perMs` ms, e.g. the provider's default
   * `{ requests: 100, perMs: 60_000 }`. While on, a response whose `X-Rate-Limit-Used` reaches
   * `X-Rate-Limit-Max` pauses new requests for a window. Default `false` (off).
   */
  rateLimit?: RateLimitOptions | false | undefined;
}

/** The client's options with every default applied and every value checked. */
export interface ResolvedClientOptions {
  apiToken: string;
  /** Service root, normalised, without a trailing slash. */
  baseUrl: string;
  /**
   * The origin (scheme, host and port) of `baseUrl`, worked out once per client: every request
   * path, redirect and `next_page_url` is held to it.
   */
  origin: string;
  timeout: number;
  maxRetries: number;
  /** Longest `Retry-After` (seconds) the SDK waits for; longer asks fail at once. */
  maxRetryAfter: number;
  /** First backoff delay in ms (doubles each retry). */
  initialRetryDelay: number;
  /** Cap of the backoff delay in ms. */
  maxRetryDelay: number;
  fetch: typeof globalThis.fetch | undefined;
  defaultHeaders: Record<string, string | undefined>;
  logLevel: LogLevel;
  logger: Logger;
  /** The order `logger` takes its arguments in (`'auto'` resolved). */
  loggerStyle: LoggerStyle;
  validateResponses: ValidationMode;
  maxResponseBytes: number;
  rateLimit: RateLimitOptions | false;
}

/** Per-request options: the last argument of every resource method. Never sent to the API. */
export interface RequestOptions {
  /** Aborts the request, including any retry wait (rejects with `APIUserAbortError`). */
  signal?: AbortSignal | undefined;
  /** Milliseconds per attempt; overrides the client's `timeout`. */
  timeout?: number | undefined;
  /** Extra attempts after the first; overrides the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Extra headers for this request (a value of `undefined` removes a default header). */
  headers?: Record<string, string | undefined> | undefined;
}

/** Options of list methods: the request options plus pagination controls. */
export interface ListOptions extends RequestOptions {
  /** Most pages one iteration may fetch before failing with `PaginationError`. Default 10 000. */
  maxPages?: number | undefined;
  /**
   * Pages fetched ahead while the loop works on the current one: `0` (default) or `1`. Never more
   * than one page ahead.
   */
  prefetch?: 0 | 1 | undefined;
}

/** Reads an environment variable; `undefined` where there is none (or no environment at all). */
export type EnvReader = (name: string) => string | undefined;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII, spaces and tabs inside, and obs-text; no control characters (CR, LF, NUL, …).
const HEADER_VALUE = /^[\t\x20-\x7E\x80-\xFF]*$/;
/** An API token: visible ASCII only (no spaces, no line breaks). */
const TOKEN = /^[\x21-\x7E]+$/;
/** The longest duration a timer can hold (2^31 − 1 ms): every duration option stays within it. */
const MAX_MS = MAX_TIMER_MS;
/**
 * Hop-by-hop and connection-level headers: the runtime manages them, and a request carrying one
 * fails inside `fetch` (or worse, is retried as a connection error). Refused in every header option.
 */
const FORBIDDEN_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'expect',
  'host',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The names of the request options (the last argument of every method; never query parameters). */
export const REQUEST_OPTION_KEYS: ReadonlySet<string> = new Set([
  'signal',
  'timeout',
  'maxRetries',
  'headers',
  'maxPages',
  'prefetch',
]);

function configError(message: string): FulfillmentError {
  return new FulfillmentError(message);
}

/**
 * A bad option value as a message shows it, without ever throwing: a number or boolean as it is; a
 * string quoted only when it is short (a mistyped `'verbose'`), since a long one may be a token
 * passed in the wrong option; anything else by its type.
 */
function shown(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  if (typeof value === 'string') {
    return value.length <= 12 && /^[\w .:/-]*$/.test(value)
      ? JSON.stringify(value)
      : `a string of ${value.length} characters (not shown)`;
  }
  return describe(value);
}

/**
 * Headers as a record: a plain object as given, a `Headers` instance read into one (its entries
 * are not own properties, so it would otherwise be dropped without a word).
 */
function headerRecord(headers: unknown): unknown {
  return typeof Headers === 'function' && headers instanceof Headers ? Object.fromEntries(headers) : headers;
}

/** Normalises a base URL to the service root: no trailing slash, no `/merchant_api[/vN]`. */
export function normaliseBaseUrl(input: unknown): string {
  return parseBaseUrl(input).baseUrl;
}

/** The service root ({@link normaliseBaseUrl}) and its origin, from one parse of the base URL. */
function parseBaseUrl(input: unknown): { baseUrl: string; origin: string } {
  if (typeof input !== 'string') throw configError(`baseUrl must be a URL string, got ${describe(input)}`);
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    // The value is not repeated: an API token passed as the base URL by mistake would be.
    throw configError(`baseUrl is not a valid URL (a string of ${input.length} characters, not shown)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw configError(`baseUrl must use http or https, got ${JSON.stringify(url.protocol)}`);
  }
  if (url.search || url.hash) throw configError('baseUrl must not carry a query string or fragment');
  let path = url.pathname.replace(/\/+$/, '');
  path = path.replace(/\/merchant_api(\/v\d+)?$/i, '').replace(/\/+$/, '');
  return { baseUrl: `${url.origin}${path}`, origin: url.origin };
}

/**
 * A duration or count option within its range (`min` excluded when `exclusive`), or its default.
 * The message names the option and its range.
 */
function ranged(
  name: string,
  value: number | undefined,
  fallback: number,
  range: { min: number; max: number; exclusive?: boolean; unit?: string },
): number {
  if (value === undefined) return fallback;
  const { min, max, exclusive = false, unit = '' } = range;
  const inRange =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (exclusive ? value > min : value >= min) &&
    value <= max;
  if (!inRange) {
    const from = exclusive ? `more than ${min}` : `from ${min}`;
    throw configError(`${name} must be a number ${from} up to ${max}${unit}, got ${shown(value)}`);
  }
  return value;
}

function rateLimitOption(option: RateLimitOptions | false | undefined): RateLimitOptions | false {
  if (option === undefined || option === false) return false;
  if (option === null || typeof option !== 'object' || Array.isArray(option)) {
    throw configError(`rateLimit must be false or an object { requests, perMs }, got ${shown(option)}`);
  }
  const { requests, perMs } = option;
  if (!Number.isInteger(requests) || requests < 1 || requests > 1_000_000) {
    throw configError(`rateLimit.requests must be an integer from 1 up to 1000000, got ${shown(requests)}`);
  }
  return {
    requests,
    perMs: ranged('rateLimit.perMs', perMs, Number.NaN, {
      min: 0,
      max: MAX_MS,
      exclusive: true,
      unit: ' ms',
    }),
  };
}

/**
 * Applies the defaults to the client's options and checks every value; the first problem is a
 * `FulfillmentError` naming the option. An environment variable is read only when its option is
 * not given.
 */
export function resolveClientOptions(options: ClientOptions, env: EnvReader): ResolvedClientOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw configError(`FulfillmentClient options must be an object, got ${describe(options)}`);
  }
  const apiToken = options.apiToken ?? env('FULFILLMENT_API_TOKEN');
  if (!apiToken) {
    throw configError(
      'Missing API token: pass the apiToken option or set the FULFILLMENT_API_TOKEN environment variable.',
    );
  }
  if (typeof apiToken !== 'string' || !TOKEN.test(apiToken)) {
    throw configError(
      'Invalid API token (apiToken option or FULFILLMENT_API_TOKEN): it must be a string of visible ASCII characters without spaces or line breaks. The value is not shown.',
    );
  }
  const defaultHeaders = headerRecord(options.defaultHeaders) as
    | Record<string, string | undefined>
    | undefined;
  const headerProblems = headerIssues(defaultHeaders, 'defaultHeaders');
  if (headerProblems.length > 0) {
    throw configError(`Invalid ${listIssues(headerProblems)}`);
  }
  const rawBase = options.baseUrl ?? env('FULFILLMENT_BASE_URL');
  if (!rawBase) {
    throw configError(
      'Missing base URL: pass the baseUrl option (the service root, e.g. https://fulfillment.example.com) or set the FULFILLMENT_BASE_URL environment variable.',
    );
  }
  const { baseUrl, origin } = parseBaseUrl(rawBase);

  const logger = options.logger ?? console;
  if (!isLogger(logger)) {
    throw configError('logger must be an object with error, warn, info and debug methods');
  }
  const style = options.loggerStyle ?? 'auto';
  if (style !== 'auto' && style !== 'object-first' && style !== 'message-first') {
    throw configError(`loggerStyle must be 'auto', 'object-first' or 'message-first'; got ${shown(style)}`);
  }
  const loggerStyle = style === 'auto' ? detectLoggerStyle(logger) : style;

  let logLevel = options.logLevel;
  if (logLevel === undefined) {
    const fromEnv = env('FULFILLMENT_LOG');
    logLevel = isLogLevel(fromEnv) ? fromEnv : (loggerLevel(logger) ?? 'info');
  }
  if (!isLogLevel(logLevel)) {
    throw configError(`logLevel must be one of off, error, warn, info, debug; got ${shown(logLevel)}`);
  }

  const validateResponses = options.validateResponses ?? 'lenient';
  if (validateResponses !== 'strict' && validateResponses !== 'lenient' && validateResponses !== 'off') {
    throw configError(
      `validateResponses must be 'strict', 'lenient' or 'off'; got ${shown(validateResponses)}`,
    );
  }

  const timeout = ranged('timeout', options.timeout, 60_000, {
    min: 0,
    max: MAX_MS,
    exclusive: true,
    unit: ' ms',
  });
  const maxRetries = ranged('maxRetries', options.maxRetries, 2, { min: 0, max: 100 });
  if (!Number.isInteger(maxRetries))
    throw configError(`maxRetries must be an integer, got ${shown(maxRetries)}`);
  const retryDelay: unknown = options.retryDelay;
  if (
    retryDelay !== undefined &&
    (retryDelay === null || typeof retryDelay !== 'object' || Array.isArray(retryDelay))
  ) {
    throw configError(`retryDelay must be an object { initialMs?, maxMs? }, got ${shown(retryDelay)}`);
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw configError('fetch must be a function');
  }

  return {
    apiToken,
    baseUrl,
    origin,
    timeout,
    maxRetries,
    maxRetryAfter: ranged('maxRetryAfter', options.maxRetryAfter, 60, {
      min: 0,
      max: Math.floor(MAX_MS / 1000),
      unit: ' s',
    }),
    initialRetryDelay: ranged('retryDelay.initialMs', options.retryDelay?.initialMs, 500, {
      min: 0,
      max: MAX_MS,
      unit: ' ms',
    }),
    maxRetryDelay: ranged('retryDelay.maxMs', options.retryDelay?.maxMs, 8000, {
      min: 0,
      max: MAX_MS,
      unit: ' ms',
    }),
    fetch: options.fetch,
    defaultHeaders: defaultHeaders ?? {},
    logLevel,
    logger,
    loggerStyle,
    validateResponses,
    maxResponseBytes: ranged('maxResponseBytes', options.maxResponseBytes, 32 * 1024 * 1024, {
      min: 1,
      max: 2 ** 31 - 1,
      unit: ' bytes',
    }),
    rateLimit: rateLimitOption(options.rateLimit),
  };
}

/** Issues with a headers record (`undefined` values allowed: they remove a header). */
export function headerIssues(headers: unknown, path: string): ValidationIssue[] {
  if (headers === undefined) return [];
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) {
    return [{ path, message: 'expected an object of header names to string values' }];
  }
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) {
      issues.push({ path: `${path}[${JSON.stringify(name)}]`, message: 'is not a valid header name' });
    } else if (FORBIDDEN_HEADERS.has(name.toLowerCase())) {
      issues.push({
        path: `${path}.${name}`,
        message: 'is a connection-level header the runtime sets itself; it cannot be sent',
      });
    } else if (value !== undefined && (typeof value !== 'string' || !HEADER_VALUE.test(value))) {
      issues.push({
        path: `${path}.${name}`,
        message: 'expected a string without line breaks or control characters (value not shown)',
      });
    }
  }
  return issues;
}

/** A real `AbortSignal` (the runtime combines it with the SDK's own; a look-alike object fails there). */
function isSignal(value: unknown): value is AbortSignal {
  return typeof AbortSignal === 'function' && value instanceof AbortSignal;
}

/**
 * The per-request options as they are when the method is called: a copy (the headers too), so
 * that what is checked is what is sent, whatever the caller's object becomes afterwards. Anything
 * that is not a plain options object is returned as it is, for {@link requestOptionIssues} to refuse.
 */
export function snapshotOptions<T>(options: T): T {
  if (!isOptionsObject(options)) return options;
  const copy: Record<string, unknown> = { ...(options as Record<string, unknown>) };
  const headers = headerRecord(copy.headers);
  if (isOptionsObject(headers)) copy.headers = { ...headers };
  return copy as T;
}

/** Whether a value is an object at all (not `null`, an array or a primitive): options, headers. */
function isOptionsObject(options: unknown): options is object {
  return typeof options === 'object' && options !== null && !Array.isArray(options);
}

/** The issue of per-request options that are not an object. */
function notAnObject(): ValidationIssue {
  return { path: 'options', message: 'expected an object of request options' };
}

/**
 * Refuses options that are neither `undefined` nor an object (a string, a number, `null`, an
 * array) with the `RequestValidationError` every request method gives (`options: expected an
 * object of request options`), `context` naming the call in its message (`Invalid request to
 * <context>: …`; without it, `Invalid request: …`). For the callers that read their own options out
 * of the object before the request options reach the request builder (the resource helpers,
 * `Page.getNextPage`). The value is never shown.
 */
export function checkOptionsObject(options: unknown, context?: string): void {
  if (options === undefined || isOptionsObject(options)) return;
  throw new RequestValidationError([notAnObject()], context);
}

/** Issues with the per-request options every method takes (and the list options, when given). */
export function requestOptionIssues(options: unknown): ValidationIssue[] {
  if (options === undefined) return [];
  if (!isOptionsObject(options)) return [notAnObject()];
  const o = options as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(o)) {
    // A key left `undefined` is an option not given, whatever its name.
    if (!REQUEST_OPTION_KEYS.has(key) && o[key] !== undefined) {
      issues.push({
        path: `options.${key}`,
        message: `is not a request option (they are: ${[...REQUEST_OPTION_KEYS].join(', ')})`,
      });
    }
  }
  if (o.signal !== undefined && !isSignal(o.signal)) {
    issues.push({ path: 'options.signal', message: 'expected an AbortSignal' });
  }
  if (
    o.timeout !== undefined &&
    (typeof o.timeout !== 'number' || !Number.isFinite(o.timeout) || o.timeout <= 0 || o.timeout > MAX_MS)
  ) {
    issues.push({ path: 'options.timeout', message: `expected milliseconds > 0 and <= ${MAX_MS}` });
  }
  if (
    o.maxRetries !== undefined &&
    (!Number.isInteger(o.maxRetries) || (o.maxRetries as number) < 0 || (o.maxRetries as number) > 100)
  ) {
    issues.push({ path: 'options.maxRetries', message: 'expected an integer from 0 up to 100' });
  }
  if (o.maxPages !== undefined && (!Number.isInteger(o.maxPages) || (o.maxPages as number) < 1)) {
    issues.push({ path: 'options.maxPages', message: 'expected an integer >= 1' });
  }
  if (o.prefetch !== undefined && o.prefetch !== 0 && o.prefetch !== 1) {
    issues.push({ path: 'options.prefetch', message: 'expected 0 or 1' });
  }
  issues.push(...headerIssues(o.headers, 'options.headers'));
  return issues;
}
