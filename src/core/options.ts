/**
 * Every option the SDK takes, in one place: the client's options (resolved and checked by
 * `resolveClientOptions`, with the checker of `request.ts`), and the types of the per-request
 * options every method takes last. Values are never echoed in messages: a header or token may be
 * a credential.
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
import { headersRule, inRange, is, oneOf, optionIssues, type Rule } from './request.js';
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
   * (pino's and winston's `level` when it is one of the SDK's: `pino({ level: 'debug' })` gets the
   * SDK's debug lines); else `'info'`: retries and rate-limit waits longer
   * than a second, nothing for a request that succeeds at once. `'warn'` restores the quieter
   * default of earlier versions.
   */
  logLevel?: LogLevel | undefined;
  /**
   * Where to log: anything with `error`, `warn`, `info` and `debug` methods. Default `console`.
   * Each line is a message and a details object (see `loggerStyle` for their order).
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
   * values are kept. `'off'`: no check.
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

const ms = (above = false) => inRange(0, MS, ' ms', { above });

/**
 * The service root of a base URL (no trailing slash, no `/merchant_api[/vN]`) and its origin, or
 * what is wrong with it. The value is never repeated: an API token given as the base URL would be.
 */
function parseBaseUrl(text: string): { issue: string } | { baseUrl: string; origin: string } {
  const url = URL.canParse(text.trim()) ? new URL(text.trim()) : undefined;
  if (!url) return { issue: `is not a valid URL (a string of ${text.length} characters, not shown)` };
  if (!/^https?:$/.test(url.protocol)) return { issue: `must use http or https, got ${url.protocol}` };
  if (url.search || url.hash) return { issue: 'must not carry a query string or fragment' };
  return {
    baseUrl: url.origin + url.pathname.replace(/\/*(\/merchant_api(\/v\d+)?)?\/*$/i, ''),
    origin: url.origin,
  };
}

/** Every client option and its check (`apiToken` and `baseUrl` as given or read from the environment). */
const CLIENT_OPTIONS: Readonly<Record<string, Rule>> = /* @__PURE__ */ (() => ({
  apiToken: is(
    'a string of visible ASCII characters without spaces or line breaks (not shown)',
    (v) => typeof v === 'string' && /^[\x21-\x7E]+$/.test(v),
  ),
  baseUrl: (v) =>
    typeof v === 'string'
      ? (parseBaseUrl(v) as { issue?: string }).issue
      : `expected a URL string, got ${describe(v)}`,
  timeout: ms(true),
  maxRetries: inRange(0, 100, '', { integer: true }),
  maxRetryAfter: inRange(0, Math.floor(MS / 1000), ' s'),
  retryDelay: (v, path) => optionIssues(v, { initialMs: ms(), maxMs: ms() }, path, 'retry delays'),
  fetch: is('a function', (v) => typeof v === 'function'),
  defaultHeaders: headersRule,
  logLevel: oneOf(...LEVELS),
  logger: is('an object with error, warn, info and debug methods', isLogger),
  loggerStyle: oneOf('auto', 'object-first', 'message-first'),
  validateResponses: oneOf('lenient', 'off'),
  maxResponseBytes: inRange(1, 2 ** 31 - 1, ' bytes'),
  rateLimit: (v, path) =>
    v === false ? undefined : optionIssues(v, RATE_LIMIT, path, 'rate limit options', REQUIRED_RATE),
}))();

/** What a missing required option is told; the client's two may come from the environment. */
const MISSING = {
  apiToken: 'missing: pass the option or set the FULFILLMENT_API_TOKEN environment variable',
  baseUrl:
    'missing: pass the option (the service root, e.g. https://fulfillment.example.com) or set the FULFILLMENT_BASE_URL environment variable',
};
const REQUIRED_RATE = { requests: 'is required', perMs: 'is required' };

const RATE_LIMIT: Readonly<Record<string, Rule>> = /* @__PURE__ */ (() => ({
  requests: inRange(1, 1_000_000, '', { integer: true }),
  perMs: ms(true),
  store: is('an object with acquire, release and pause methods', (store) =>
    ['acquire', 'release', 'pause'].every(
      (m) => typeof (store as Record<string, unknown>)?.[m] === 'function',
    ),
  ),
}))();

/**
 * Applies the defaults to the client's options and checks every value: what is wrong is one
 * `FulfillmentError` naming each option. An environment variable (`env`: `undefined` where there
 * is none) is read only when its option is not given. No message repeats a value (the token, or a header, could be one).
 */
export function resolveClientOptions(options: ClientOptions, env: (name: string) => string | undefined) {
  const o: ClientOptions = isObject(options) ? options : {};
  const apiToken = o.apiToken ?? (env('FULFILLMENT_API_TOKEN') || undefined);
  const baseUrl = o.baseUrl ?? (env('FULFILLMENT_BASE_URL') || undefined);
  const given = isObject(options) ? { ...o, apiToken, baseUrl } : options;
  const issues = optionIssues(given, CLIENT_OPTIONS, '', 'client options', MISSING);
  if (issues.length > 0) throw new FulfillmentError(`Invalid client options: ${listIssues(issues)}`);
  const { retryDelay, rateLimit = false } = o;
  const logger = o.logger ?? console;
  const fromEnv = o.logLevel === undefined ? env('FULFILLMENT_LOG') : undefined;
  const style = o.loggerStyle ?? 'auto';
  return {
    apiToken: apiToken as string,
    ...(parseBaseUrl(baseUrl as string) as { baseUrl: string; origin: string }),
    timeout: o.timeout ?? 60_000,
    maxRetries: o.maxRetries ?? 2,
    maxRetryAfter: o.maxRetryAfter ?? 60,
    initialRetryDelay: retryDelay?.initialMs ?? 500,
    maxRetryDelay: retryDelay?.maxMs ?? 8000,
    fetch: o.fetch,
    defaultHeaders: o.defaultHeaders ?? {},
    logLevel: o.logLevel ?? (isLogLevel(fromEnv) ? fromEnv : (loggerLevel(logger) ?? 'info')),
    logger,
    loggerStyle: style === 'auto' ? detectLoggerStyle(logger) : style,
    validateResponses: o.validateResponses ?? 'lenient',
    maxResponseBytes: o.maxResponseBytes ?? 32 * 1024 * 1024,
    rateLimit: rateLimit && { requests: rateLimit.requests, perMs: rateLimit.perMs, store: rateLimit.store },
  };
}
