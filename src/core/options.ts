/**
 * Every option the SDK takes, in one place: the client's options (resolved and checked by
 * `resolveClientOptions`), and the per-request options every method takes last (checked by
 * `requestOptionIssues`). Values are never echoed in messages: a header or token may be a credential.
 */
import { describe, isObject } from './describe.js';
import { FulfillmentError, listIssues } from './errors.js';
import { MAX_TIMER_MS as MS } from './headers.js';
import {
  detectLoggerStyle,
  isLogger,
  isLogLevel,
  LEVELS,
  type Logger,
  type LoggerStyle,
  type LogLevel,
  loggerLevel,
} from './log.js';
import { headerIssues, headerRecord } from './request.js';
import type { ValidationMode } from './validation.js';

export type { ListOptions, RequestOptions } from './request.js';

/** `{ requests, perMs, store? }`: at most `requests` requests in any `perMs` milliseconds. @inline */
export interface RateLimitOptions {
  requests: number;
  perMs: number;
  /**
   * Where the slots live when several processes share one API token's limit (e.g.
   * `createRedisRateLimitStore` from `merchant-fulfillment/redis`). Default: this client's memory.
   */
  store?: RateLimitStore | undefined;
}

/**
 * The slots of a rate limit that several processes share (`rateLimit.store`). A slot counts from
 * its start until `perMs` after its request's answer; at most `requests` count at once.
 */
export interface RateLimitStore {
  /** Takes a slot named `slot` if fewer than `requests` count now: resolves 0; else the ms to wait. */
  acquire(slot: string, requests: number, perMs: number): Promise<number>;
  /** The request of `slot` was answered: its slot counts until `perMs` from now. */
  release(slot: string, perMs: number): Promise<unknown>;
  /** The server said its budget is spent: every process waits `perMs`. */
  pause(perMs: number): Promise<unknown>;
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

/**
 * The client's options with every default applied and every value checked; `origin` is the
 * origin (scheme, host and port) of `baseUrl`, worked out once per client: every request path,
 * redirect and `next_page_url` is held to it.
 */
export type ResolvedClientOptions = ReturnType<typeof resolveClientOptions>;

/** Reads an environment variable; `undefined` where there is none (or no environment at all). */
export type EnvReader = (name: string) => string | undefined;

const STYLES = ['auto', 'object-first', 'message-first'] as const;
const MODES = ['strict', 'lenient', 'off'] as const;

/** An API token: visible ASCII only (no spaces, no line breaks). */
const TOKEN = /^[\x21-\x7E]+$/;

const fail = (message: string): never => {
  throw new FulfillmentError(message);
};

/** The service root of a base URL (no trailing slash, no `/merchant_api[/vN]`) and its origin. */
function parseBaseUrl(text: string): { baseUrl: string; origin: string } {
  // The value is never repeated: an API token passed as the base URL by mistake would be.
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return fail(`baseUrl is not a valid URL (a string of ${text.length} characters, not shown)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    fail(`baseUrl must use http or https, got ${JSON.stringify(url.protocol)}`);
  if (url.search || url.hash) fail('baseUrl must not carry a query string or fragment');
  const path = url.pathname
    .replace(/\/+$/, '')
    .replace(/\/merchant_api(\/v\d+)?$/i, '')
    .replace(/\/+$/, '');
  return { baseUrl: `${url.origin}${path}`, origin: url.origin };
}

/** A number option within `min`–`max` (`min` excluded when `exclusive`), or its default. */
function ranged(
  name: string,
  value: unknown,
  fallback: number,
  min: number,
  max: number,
  unit = '',
  exclusive = false,
): number {
  if (value === undefined) return fallback;
  // NaN fails every comparison, ±Infinity the range.
  if (!(typeof value === 'number' && value >= min && value <= max && !(exclusive && value === min))) {
    const got = typeof value === 'number' ? value : describe(value);
    fail(
      `${name} must be a number ${exclusive ? `more than ${min}` : `from ${min}`} up to ${max}${unit}, got ${got}`,
    );
  }
  return value as number;
}

/** An option that must be one of `allowed`; the value is not repeated (it may be a secret). */
function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T))
    fail(`${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${describe(value)}`);
  return value as T;
}

/**
 * Applies the defaults to the client's options and checks every value; the first problem is a
 * `FulfillmentError` naming the option. An environment variable is read only when its option is
 * not given.
 */
export function resolveClientOptions(options: ClientOptions, env: EnvReader) {
  if (!isObject(options)) fail(`FulfillmentClient options must be an object, got ${describe(options)}`);
  const apiToken = options.apiToken ?? env('FULFILLMENT_API_TOKEN');
  if (!apiToken) {
    fail(
      'Missing API token: pass the apiToken option or set the FULFILLMENT_API_TOKEN environment variable.',
    );
  }
  if (typeof apiToken !== 'string' || !TOKEN.test(apiToken)) {
    fail(
      'Invalid API token (apiToken option or FULFILLMENT_API_TOKEN): it must be a string of visible ASCII characters without spaces or line breaks. The value is not shown.',
    );
  }
  const defaultHeaders = headerRecord(options.defaultHeaders) ?? {};
  const headerProblems = headerIssues(defaultHeaders, 'defaultHeaders');
  if (headerProblems.length > 0) fail(`Invalid ${listIssues(headerProblems)}`);
  const rawBase = options.baseUrl ?? env('FULFILLMENT_BASE_URL');
  if (!rawBase) {
    fail(
      'Missing base URL: pass the baseUrl option (the service root, e.g. https://fulfillment.example.com) or set the FULFILLMENT_BASE_URL environment variable.',
    );
  }
  if (typeof rawBase !== 'string') fail(`baseUrl must be a URL string, got ${describe(rawBase)}`);
  const { baseUrl, origin } = parseBaseUrl(rawBase as string);

  const logger = options.logger ?? console;
  if (!isLogger(logger)) fail('logger must be an object with error, warn, info and debug methods');
  const style = oneOf('loggerStyle', options.loggerStyle ?? 'auto', STYLES);
  const fromEnv = options.logLevel === undefined ? env('FULFILLMENT_LOG') : undefined;
  const level = options.logLevel ?? (isLogLevel(fromEnv) ? fromEnv : (loggerLevel(logger) ?? 'info'));
  const logLevel = oneOf('logLevel', level, LEVELS);
  const maxRetries = ranged('maxRetries', options.maxRetries, 2, 0, 100);
  if (!Number.isInteger(maxRetries)) fail(`maxRetries must be an integer, got ${maxRetries}`);
  const retryDelay: unknown = options.retryDelay;
  if (retryDelay !== undefined && !isObject(retryDelay)) {
    fail(`retryDelay must be an object { initialMs?, maxMs? }, got ${describe(retryDelay)}`);
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') fail('fetch must be a function');
  const rateLimit = options.rateLimit === undefined ? false : options.rateLimit;
  if (rateLimit !== false) {
    if (!isObject(rateLimit))
      fail(`rateLimit must be false or an object { requests, perMs }, got ${describe(rateLimit)}`);
    const { requests } = rateLimit;
    if (!Number.isInteger(requests) || requests < 1 || requests > 1_000_000) {
      const got = typeof requests === 'number' ? requests : describe(requests);
      fail(`rateLimit.requests must be an integer from 1 up to 1000000, got ${got}`);
    }
    ranged('rateLimit.perMs', rateLimit.perMs ?? Number.NaN, 0, 0, MS, ' ms', true);
    const { store } = rateLimit;
    if (
      store !== undefined &&
      !['acquire', 'release', 'pause'].every((m) => typeof store?.[m as 'pause'] === 'function')
    ) {
      fail(
        `rateLimit.store must be an object with acquire, release and pause methods, got ${describe(store)}`,
      );
    }
  }
  return {
    apiToken: apiToken as string,
    baseUrl,
    origin,
    timeout: ranged('timeout', options.timeout, 60_000, 0, MS, ' ms', true),
    maxRetries,
    maxRetryAfter: ranged('maxRetryAfter', options.maxRetryAfter, 60, 0, Math.floor(MS / 1000), ' s'),
    initialRetryDelay: ranged('retryDelay.initialMs', options.retryDelay?.initialMs, 500, 0, MS, ' ms'),
    maxRetryDelay: ranged('retryDelay.maxMs', options.retryDelay?.maxMs, 8000, 0, MS, ' ms'),
    fetch: options.fetch,
    defaultHeaders: defaultHeaders as Record<string, string | undefined>,
    logLevel,
    logger,
    loggerStyle: style === 'auto' ? detectLoggerStyle(logger) : style,
    validateResponses: oneOf('validateResponses', options.validateResponses ?? 'lenient', MODES),
    maxResponseBytes: ranged(
      'maxResponseBytes',
      options.maxResponseBytes,
      32 * 1024 * 1024,
      1,
      2 ** 31 - 1,
      ' bytes',
    ),
    rateLimit: rateLimit && { requests: rateLimit.requests, perMs: rateLimit.perMs, store: rateLimit.store },
  };
}
