/**
 * FulfillmentClient: construction, one field per API namespace, and the one request surface
 * (`get`, `post`, `put`, `patch`, `delete`, `getAPIList`) that every resource method goes through.
 */

import { ClientEmitter, type ClientEventListener, type ClientEventName } from './core/events.js';
import { prepare, type SchemaLike } from './core/lazy.js';
import { LevelledLogger } from './core/log.js';
import { type ClientOptions, resolveClientOptions } from './core/options.js';
import {
  type ClientListInit,
  type ClientRequestInit,
  PagePromise,
  type PageRequest,
} from './core/pagination.js';
import { RateLimiter } from './core/rate-limit.js';
import { Redactor } from './core/redact.js';
import { buildRequest, type HttpMethod, type RequestParts, type RequestPath } from './core/request.js';
import { APIPromise, type RawResponse, ResponseParsers } from './core/response.js';
import { Transport } from './core/transport.js';
import { encodeQuery, splitQuery } from './core/url.js';
import type * as Validation from './core/validation.js';
import type { ValidationMode } from './core/validation.js';
import { Orders } from './resources/orders.js';
import { RestockingShipments } from './resources/restocking-shipments.js';
import { Returns } from './resources/returns.js';
import { Shipments } from './resources/shipments.js';
import { Skus } from './resources/skus.js';
import { Warehouses } from './resources/warehouses.js';
import { Webhooks } from './resources/webhooks.js';

export type { ClientOptions } from './core/options.js';

/** The validation module, or the promise of it on a first request. */
type Loading = typeof Validation | Promise<typeof Validation>;
type Init = RequestParts & { response: unknown };
type Sent = Promise<RawResponse>;

const INSPECT = /* @__PURE__ */ Symbol.for('nodejs.util.inspect.custom');

/** Reads an environment variable where the runtime has an environment. */
function readEnv(name: string): string | undefined {
  try {
    return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  } catch {
    // Deno without `--allow-env` throws on the read: no environment, then.
  }
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
  readonly skus: Skus = new Skus(this);
  /** Orders: `list`, `retrieve`, `findByMerchantOrderId`, `create`, `update`, `cancel`. */
  readonly orders: Orders = new Orders(this);
  /** Restocking shipments: `v1` (`create`, `update`, `retrieve`) and `v2` (`create`, `replace`, `retrieve`). */
  readonly restockingShipments: RestockingShipments = new RestockingShipments(this);
  /** Shipments: `list`. */
  readonly shipments: Shipments = new Shipments(this);
  /** Returns: `list`, `retrieve`. */
  readonly returns: Returns = new Returns(this);
  /** Warehouses: `list`. */
  readonly warehouses: Warehouses = new Warehouses(this);
  /** Webhooks: `verify(body, headers)`, checked against this client's token. */
  readonly webhooks: Webhooks;

  /** The service root every path is appended to. */
  readonly baseUrl: string;
  /** How responses are checked. */
  readonly validateResponses: ValidationMode;
  /**
   * The origin (scheme, host and port) of {@link baseUrl}, worked out once when the options are
   * resolved: request paths and `next_page_url`s are held to it. @internal
   */
  readonly _origin: string;
  readonly #transport: Transport;
  readonly #events: ClientEmitter;
  /** @internal */
  readonly _responses: ResponseParsers;
  /** What `toJSON` and `util.inspect` show: the options without the token. */
  readonly #summary: Readonly<Record<string, unknown>>;

  constructor(options: ClientOptions = {}) {
    const resolved = resolveClientOptions(options, readEnv);
    const { apiToken, defaultHeaders, logger: given, fetch, origin, rateLimit, ...shown } = resolved;
    ({ baseUrl: this.baseUrl, validateResponses: this.validateResponses, origin: this._origin } = resolved);
    // Secrets: the token and every default header value never appear in an error or a log line.
    const redactor = new Redactor([apiToken, ...Object.values(defaultHeaders)], Object.keys(defaultHeaders));
    const logger = new LevelledLogger(resolved.logLevel, given, { style: resolved.loggerStyle, redactor });
    // A listener that fails is reported here, never re-emitted as an event, never propagated.
    this.#events = new ClientEmitter((event, error) => {
      const { name, message } = redactor.cause(error) ?? { name: 'Error', message: '' };
      const line = `A listener of the '${event}' event failed (the request goes on): ${name}: ${message}`;
      logger.write('error', line, { event, error: { name, message } });
    });
    this._responses = new ResponseParsers(resolved.validateResponses);
    const rateLimiter = rateLimit ? new RateLimiter(rateLimit) : undefined;
    this.#transport = new Transport({ ...resolved, logger, redactor, rateLimiter, events: this.#events });
    // What `toJSON` and `util.inspect` show: no secret, and no store (its client may hold one).
    const limit = rateLimit && { requests: rateLimit.requests, perMs: rateLimit.perMs };
    this.#summary = Object.freeze({ ...shown, apiToken: '***', rateLimit: limit });

    this.webhooks = new Webhooks(() => apiToken);
    // Safe view for `util.inspect` / `console.log`: the token is never included. Set on the
    // instance, not declared as a method: a computed method key would keep the class (and all it
    // reaches) in every bundle that imports the package, used or not.
    Object.defineProperty(this, INSPECT, { value: () => this.toJSON() });
  }

  /**
   * Calls `listener` with every `event` of this client's requests, synchronously, in the order the
   * listeners were added: `'request'` (an attempt is sent), `'response'` (the request succeeded),
   * `'retry'` (an attempt failed and will be retried after `delayMs`), `'error'` (the request failed
   * for good). Each attempt ends in exactly one of `response`, `retry` or `error`. Events carry no
   * credential. A listener observes only: what it throws, or the promise it returns rejects with,
   * is logged at `error` and the request goes on unchanged. A listener is added at most once per
   * event. Requests already under way when the first listener is added may not report. A request
   * refused before anything is sent (`RequestValidationError`) emits nothing; a body that fails
   * validation after its `response` event (`ResponseValidationError`) emits no `error`.
   *
   * ```ts
   * client.on('retry', (e) => console.log(`${e.method} ${e.url}: ${e.reason}, next try in ${e.delayMs} ms`));
   * ```
   *
   * @throws {FulfillmentError} when `event` is not one of the four names or `listener` is not a function.
   */
  on<E extends ClientEventName>(event: E, listener: ClientEventListener<E>): this {
    this.#events.add(event, listener);
    return this;
  }

  /**
   * Removes a listener added with {@link on}; nothing happens when it is not there.
   *
   * @throws {FulfillmentError} when `event` is not one of the four names or `listener` is not a function.
   */
  off<E extends ClientEventName>(event: E, listener: ClientEventListener<E>): this {
    this.#events.remove(event, listener);
    return this;
  }

  /** `GET` a path of the API. Input problems reject the promise; nothing is sent then. */
  get<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T> {
    return this.request('GET', path, init);
  }

  /** `POST` to a path of the API (not retried once it may have reached the server, unless idempotent). */
  post<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T> {
    return this.request('POST', path, init);
  }

  /** `PUT` to a path of the API. */
  put<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T> {
    return this.request('PUT', path, init);
  }

  /** `PATCH` a path of the API. */
  patch<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T> {
    return this.request('PATCH', path, init);
  }

  /** `DELETE` a path of the API. */
  delete<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T> {
    return this.request('DELETE', path, init);
  }

  /**
   * Builds, sends and reads one request: what every method above does. Once validation and the
   * call's schemas are loaded (every request after the first), this reads top to bottom: build
   * (`core/request.ts`), send with retries (`core/transport.ts`), and, when the promise is awaited,
   * parse (`core/response.ts`). @internal
   */
  request<T>(method: HttpMethod, path: RequestPath, init: ClientRequestInit<T>): APIPromise<T> {
    const raw = this.#send(method, path, init, prepare(init?.querySchema, init?.bodySchema, init?.response));
    return new APIPromise(raw, init?.response, this._responses);
  }

  /**
   * Starts a list request and returns its `PagePromise`: `await` it for the first page, `for await`
   * it for every item. Every next page is fetched through {@link get}.
   */
  getAPIList<T>(path: RequestPath, item: SchemaLike<T>, init: ClientListInit = {}): PagePromise<T> {
    // Where the pages continue from: the path and the validated query, known once it is built.
    const request: PageRequest = { path: '', params: undefined, options: undefined };
    const listInit = { ...init, response: item };
    const raw = this.#send('GET', path, listInit, prepare(init.querySchema, item), request);
    return new PagePromise(this, raw, request, item);
  }

  /** Builds the request (a problem with the input rejects; nothing is sent then) and sends it. */
  #send(method: HttpMethod, path: RequestPath, init: Init, v: Loading, page?: PageRequest): Sent {
    if (v instanceof Promise) return v.then((loaded) => this.#send(method, path, init, loaded, page));
    try {
      const spec = buildRequest(method, path, init, this._origin, v);
      if (page) {
        // A list filter too long for one URL: this request sends the first part, the pages go on to the rest.
        const [params, ...queries] = spec.params
          ? splitQuery(this.baseUrl + spec.path, spec.params, spec.query)
          : [];
        const rest = queries.length > 0 ? { path: spec.path, queries } : undefined;
        if (rest) Object.assign(spec, { params, query: encodeQuery(params) });
        Object.assign(page, { path: spec.path, params, options: spec.options, rest });
      }
      return this.#transport.send(spec);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Safe view for `JSON.stringify`: the token is never included. */
  toJSON(): Record<string, unknown> {
    return { ...this.#summary };
  }
}
