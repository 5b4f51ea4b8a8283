/**
 * FulfillmentClient: options, the transport, and one field per API namespace.
 */
import type * as z from 'zod';
import { APIPromise, type ResponseParser } from './core/api-promise.js';
import { FulfillmentError, RequestValidationError, readRateLimit } from './core/errors.js';
import { isLogLevel, LevelledLogger, type Logger, type LogLevel } from './core/log.js';
import { headerIssues, REQUEST_OPTION_KEYS, TOKEN } from './core/options.js';
import { type ListOptions, type ListParams, PagePromise } from './core/pagination.js';
import { RateLimiter, type RateLimitOptions } from './core/rate-limit.js';
import { type RawResponse, type RequestSpec, readJson, Transport } from './core/transport.js';
import { parseResponse, type ValidationMode, validateRequest } from './core/validation.js';
import { Orders } from './resources/orders.js';
import { RestockingShipments } from './resources/restocking-shipments.js';
import { Returns } from './resources/returns.js';
import { Shipments } from './resources/shipments.js';
import { Skus } from './resources/skus.js';
import { Warehouses } from './resources/warehouses.js';
import { Webhooks } from './resources/webhooks.js';

/** Options of {@link FulfillmentClient}. Every one is optional where it has a default. */
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
  /** What to log. Default: env `FULFILLMENT_LOG`, else `'warn'`. */
  logLevel?: LogLevel | undefined;
  /** Where to log. Default `console`. */
  logger?: Logger | undefined;
  /**
   * How responses are checked. `'lenient'` (default): types are enforced, unknown fields and enum
   * values are kept. `'strict'`: unknown enum values fail too (for your own tests). `'off'`: no check.
   */
  validateResponses?: ValidationMode | undefined;
  /**
   * Client-side rate limit shared by every request of this client (pagination, bulk upserts and
   * retries included): at most `requests` requests in any `perMs` ms, e.g. the provider's default
   * `{ requests: 100, perMs: 60_000 }`. While on, a response whose `X-Rate-Limit-Used` reaches
   * `X-Rate-Limit-Max` pauses new requests for a window. Default `false` (off).
   */
  rateLimit?: RateLimitOptions | false | undefined;
}

type Env = Record<string, string | undefined>;

function env(): Env {
  return (globalThis as { process?: { env?: Env } }).process?.env ?? {};
}

function configError(message: string): FulfillmentError {
  return new FulfillmentError(message);
}

/** Normalises a base URL to the service root: no trailing slash, no `/merchant_api[/vN]`. */
export function normaliseBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw configError(`baseUrl is not a valid URL: ${JSON.stringify(input)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw configError(`baseUrl must use http or https, got ${JSON.stringify(url.protocol)}`);
  }
  if (url.search || url.hash) throw configError('baseUrl must not carry a query string or fragment');
  let path = url.pathname.replace(/\/+$/, '');
  path = path.replace(/\/merchant_api(\/v\d+)?$/i, '').replace(/\/+$/, '');
  return `${url.origin}${path}`;
}

function isResource(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && 'id' in body;
}

function positive(name: string, value: number | undefined, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw configError(
      `${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${String(value)}`,
    );
  }
  return value;
}

function rateLimiter(option: RateLimitOptions | false | undefined): RateLimiter | undefined {
  if (option === undefined || option === false) return undefined;
  const { requests, perMs } = option ?? {};
  if (!Number.isInteger(requests) || requests < 1) {
    throw configError(`rateLimit.requests must be an integer >= 1, got ${String(requests)}`);
  }
  if (typeof perMs !== 'number' || !Number.isFinite(perMs) || perMs <= 0) {
    throw configError(`rateLimit.perMs must be a positive number, got ${String(perMs)}`);
  }
  return new RateLimiter({ requests, perMs });
}

/**
 * The client of the Merchant Fulfillment API.
 *
 * ```ts
 * const client = new FulfillmentClient({ apiToken, baseUrl: 'https://fulfillment.example.com' });
 * for await (const warehouse of client.warehouses.list()) console.log(warehouse.id);
 * ```
 */
export class FulfillmentClient {
  /** SKUs and their inventory: `list`, `create`, `update`, `put`, `bulkUpsert`, `delete`, `retrieveByMerchantSkuId`. */
  readonly skus: Skus;
  /** Orders: `list`, `retrieve`, `create`, `update`, `cancel`. */
  readonly orders: Orders;
  /** Restocking shipments: `v1` (`create`, `update`, `retrieve`) and `v2` (`create`, `replace`, `retrieve`). */
  readonly restockingShipments: RestockingShipments;
  /** Shipments: `list`. */
  readonly shipments: Shipments;
  /** Returns: `list`, `retrieve`. */
  readonly returns: Returns;
  /** Warehouses: `list`. */
  readonly warehouses: Warehouses;
  /** Webhooks: `verify(body, headers)`, checked against this client's token. */
  readonly webhooks: Webhooks;

  /** The service root every path is appended to. */
  readonly baseUrl: string;
  /** How responses are checked. */
  readonly validateResponses: ValidationMode;
  /** @internal */
  readonly _transport: Transport;
  /** @internal */
  readonly _logger: LevelledLogger;
  readonly #parsers = new Map<z.ZodType, ResponseParser<unknown>>();
  readonly #emptyParsers = new Map<z.ZodType, ResponseParser<unknown>>();
  readonly #options: Readonly<Record<string, unknown>>;

  constructor(options: ClientOptions = {}) {
    const vars = env();
    const apiToken = options.apiToken ?? vars.FULFILLMENT_API_TOKEN;
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
    const headerProblems = headerIssues(options.defaultHeaders, 'defaultHeaders');
    if (headerProblems.length > 0) {
      throw configError(`Invalid ${headerProblems.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    }
    const rawBase = options.baseUrl ?? vars.FULFILLMENT_BASE_URL;
    if (!rawBase) {
      throw configError(
        'Missing base URL: pass the baseUrl option (the service root, e.g. https://fulfillment.example.com) or set the FULFILLMENT_BASE_URL environment variable.',
      );
    }
    this.baseUrl = normaliseBaseUrl(rawBase);

    const envLevel = vars.FULFILLMENT_LOG;
    const logLevel = options.logLevel ?? (isLogLevel(envLevel) ? envLevel : 'warn');
    if (!isLogLevel(logLevel)) {
      throw configError(`logLevel must be one of off, error, warn, info, debug; got ${String(logLevel)}`);
    }
    this._logger = new LevelledLogger(logLevel, options.logger ?? console);

    const mode = options.validateResponses ?? 'lenient';
    if (mode !== 'strict' && mode !== 'lenient' && mode !== 'off') {
      throw configError(`validateResponses must be 'strict', 'lenient' or 'off'; got ${String(mode)}`);
    }
    this.validateResponses = mode;

    const timeout = positive('timeout', options.timeout, 60_000);
    const maxRetries = positive('maxRetries', options.maxRetries, 2, true);
    if (!Number.isInteger(maxRetries)) throw configError(`maxRetries must be an integer, got ${maxRetries}`);
    const maxRetryAfter = positive('maxRetryAfter', options.maxRetryAfter, 60, true);
    const initialRetryDelay = positive('retryDelay.initialMs', options.retryDelay?.initialMs, 500, true);
    const maxRetryDelay = positive('retryDelay.maxMs', options.retryDelay?.maxMs, 8000, true);
    if (options.fetch !== undefined && typeof options.fetch !== 'function') {
      throw configError('fetch must be a function');
    }

    const limiter = rateLimiter(options.rateLimit);

    this._transport = new Transport({
      apiToken,
      baseUrl: this.baseUrl,
      timeout,
      maxRetries,
      maxRetryAfter,
      initialRetryDelay,
      maxRetryDelay,
      fetch: options.fetch,
      defaultHeaders: options.defaultHeaders ?? {},
      logger: this._logger,
      beforeAttempt: limiter && ((signal) => limiter.acquire(signal)),
      onResponse:
        limiter &&
        ((response) => {
          const { used, max } = readRateLimit(response.headers);
          if (used !== undefined && max !== undefined && used >= max) limiter.exhausted();
        }),
    });
    this.#options = Object.freeze({
      baseUrl: this.baseUrl,
      apiToken: '***',
      timeout,
      maxRetries,
      maxRetryAfter,
      logLevel,
      validateResponses: mode,
      rateLimit: limiter ? { requests: limiter.requests, perMs: limiter.perMs } : false,
    });

    this.skus = new Skus(this);
    this.orders = new Orders(this);
    this.restockingShipments = new RestockingShipments(this);
    this.shipments = new Shipments(this);
    this.returns = new Returns(this);
    this.warehouses = new Warehouses(this);
    this.webhooks = new Webhooks(() => apiToken);
  }

  /**
   * Sends a request and parses its JSON body with `schema`. `spec` may be a function so that input
   * checks (ids, bodies) reject the returned promise instead of throwing; nothing is sent then.
   * With `allowEmpty`, an empty body or a 204 gives `undefined`.
   * @internal
   */
  _request<S extends z.ZodType>(spec: RequestSpec | (() => RequestSpec), schema: S): APIPromise<z.output<S>>;
  _request<S extends z.ZodType>(
    spec: RequestSpec | (() => RequestSpec),
    schema: S,
    allowEmpty: true,
  ): APIPromise<z.output<S> | undefined>;
  _request<S extends z.ZodType>(
    spec: RequestSpec | (() => RequestSpec),
    schema: S,
    allowEmpty = false,
  ): APIPromise<unknown> {
    return new APIPromise(this._send(spec), this._parser(schema, allowEmpty));
  }

  /** Sends a request built by `spec`; a throwing builder gives a rejected promise. @internal */
  _send(spec: RequestSpec | (() => RequestSpec)): Promise<RawResponse> {
    try {
      return this._transport.send(typeof spec === 'function' ? spec() : spec);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Starts a list request and returns its `PagePromise`. The query parameters are validated with
   * `paramsSchema` (an invalid one rejects the promise, nothing is sent) and a request option put
   * among them by mistake is refused, so none can leak into the query string.
   * @internal
   */
  _list<S extends z.ZodType>(
    path: string,
    paramsSchema: z.ZodType,
    params: object | undefined,
    item: S,
    options: ListOptions | undefined,
    toQuery?: (params: Record<string, unknown>) => ListParams,
  ): PagePromise<z.output<S>> {
    let query: ListParams | undefined;
    let failure: unknown;
    try {
      if (params !== undefined) {
        const misplaced = Object.keys(params).filter((key) => REQUEST_OPTION_KEYS.has(key));
        if (misplaced.length > 0) {
          throw new RequestValidationError(
            misplaced.map((key) => ({
              path: key,
              message: 'is a request option, not a query parameter: pass it in the last argument',
            })),
            `GET ${path}`,
          );
        }
        const valid = validateRequest(paramsSchema, params, `GET ${path}`) as Record<string, unknown>;
        query = toQuery ? toQuery(valid) : (valid as ListParams);
      }
    } catch (error) {
      failure = error;
    }
    return new PagePromise(this, { path, params: query, options }, item as z.ZodType<z.output<S>>, failure);
  }

  /** The (cached) parser turning a raw response into `schema`'s output. @internal */
  _parser<S extends z.ZodType>(schema: S, allowEmpty = false): ResponseParser<z.output<S>> {
    const cache = allowEmpty ? this.#emptyParsers : this.#parsers;
    let parser = cache.get(schema) as ResponseParser<z.output<S>> | undefined;
    if (!parser) {
      parser = (raw: RawResponse) => {
        const body = readJson(raw, allowEmpty);
        // Where the API documents no body, anything but a resource (`{"success":true}`, "OK") means
        // "done": `undefined`, with the raw body still available through `.withResponse()`.
        if (body === undefined || (allowEmpty && !isResource(body))) return undefined as z.output<S>;
        return parseResponse(schema, body, this.validateResponses, {
          status: raw.response.status,
          method: raw.method,
          url: raw.url,
        });
      };
      cache.set(schema, parser as ResponseParser<unknown>);
    }
    return parser;
  }

  /** Safe view for `JSON.stringify`: the token is never included. */
  toJSON(): Record<string, unknown> {
    return { ...this.#options };
  }

  /** Safe view for `util.inspect` / `console.log`: the token is never included. */
  [Symbol.for('nodejs.util.inspect.custom')](): Record<string, unknown> {
    return { ...this.#options };
  }
}
