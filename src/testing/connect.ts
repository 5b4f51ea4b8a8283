/**
 * `connectMock`: a typed client of the control routes (`faces/control.ts`) of a mock running in
 * another process (`merchant-fulfillment-mock`, or `api.listen()` elsewhere). Its methods are the
 * in-process control methods ({@link MockControlMethods}), async, with the same arguments and
 * results. Plain `fetch` only (the kit never loads ky); the token travels only in the
 * `Authorization` header and never shows in an error, `JSON.stringify` or `util.inspect`. An
 * argument refused is described in the error only by its type, or a string by its length.
 */
import type { MockReturnOptions } from './domain/outbound.js';
import type { MockRestockingShipmentV1, MockReturn, MockShipment } from './domain/resources.js';
import type { MockRestockQuantities } from './domain/restocking.js';
import type { RestockingStatusV1, RestockingStatusV2 } from './domain/restocking-status.js';
import type { MockStateSnapshot } from './domain/snapshot.js';
import type { MockWebhookDelivery } from './domain/webhook-event.js';
import type { FaultSummary, MockFault } from './engine/faults.js';
import { isObject } from './engine/validation.js';
import type { MockRedeliverFilter } from './engine/webhook-delivery.js';
import {
  checkDeliveriesQuery,
  checkEventFilter,
  checkStateQuery,
  describeValue,
  type MockCollectionName,
  type MockControlMethods,
  type MockControlRouteInfo,
  type MockDeliveriesPage,
  type MockDeliveriesQuery,
  type MockRemoteFaultHandle,
  type MockStateCollectionsQuery,
  type MockStatePage,
  type MockStateQuery,
} from './faces/control.js';

export type { MockRemoteFaultHandle, MockStateCollectionsQuery, MockStateQuery } from './faces/control.js';

const INSPECT = /* @__PURE__ */ Symbol.for('nodejs.util.inspect.custom');

/** The default time-out of one control call, in milliseconds. */
export const DEFAULT_CONTROL_TIMEOUT_MS = 30_000;

/** A `fetch` as a connection calls it (the global `fetch`, `api.fetch`, or any compatible one). */
export type MockConnectionFetch = (input: string, init: RequestInit) => Promise<Response>;

/** Options of {@link connectMock}. */
export interface ConnectMockOptions {
  /** An API token the mock accepts (the CLI prints it; `--token` sets it). */
  token: string;
  /** The `fetch` to send with. Default: the global `fetch`. */
  fetch?: MockConnectionFetch;
  /**
   * Time-out of each call in milliseconds, the answer's body included. Default
   * {@link DEFAULT_CONTROL_TIMEOUT_MS}. `flushWebhooks()` waits for deliveries: give it room.
   */
  timeoutMs?: number;
}

/** What went wrong with a control call (see {@link MockControlError}). */
export type MockControlErrorCode =
  /** An argument was refused before anything was sent (`argument` names it). */
  | 'invalid_argument'
  /** The mock could not be reached (connection refused, unknown host, ...). */
  | 'unreachable'
  /** The mock did not answer within the time-out. */
  | 'timeout'
  /** The mock answered with an error status (`status`, `errors`, `hint`). */
  | 'rejected'
  /** The mock answered 2xx with a body that is not JSON. */
  | 'invalid_response';

/** The one error of a connection's calls. Its message never holds the token. */
export class MockControlError extends Error {
  override readonly name = 'MockControlError';
  /** What went wrong. */
  readonly code: MockControlErrorCode;
  /** The call, e.g. `POST /__mock/orders/7/fulfill`; the method name for `invalid_argument`. */
  readonly route: string;
  /** The HTTP status the mock answered, or `null` when it did not answer (or nothing was sent). */
  readonly status: number | null;
  /** The mock's messages (`{ success: false, errors: [...] }`); empty when there are none. */
  readonly errors: readonly string[];
  /** The mock-only `x-mock-hint` header of the answer, or `null`. */
  readonly hint: string | null;
  /** The argument refused (`invalid_argument` only), e.g. `id`, `path`; otherwise `null`. */
  readonly argument: string | null;

  /** @internal */
  constructor(
    message: string,
    details: {
      code: MockControlErrorCode;
      route: string;
      status?: number | null;
      errors?: readonly string[];
      hint?: string | null;
      argument?: string | null;
      cause?: unknown;
    },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = details.code;
    this.route = details.route;
    this.status = details.status ?? null;
    this.errors = details.errors ?? [];
    this.hint = details.hint ?? null;
    this.argument = details.argument ?? null;
  }
}

/** Options of one long call of a connection (`flushWebhooks`). */
export interface MockCallOptions {
  /**
   * Time-out of this call in milliseconds, the answer's body included (an integer >= 1). Default:
   * the connection's `timeoutMs`.
   */
  timeoutMs?: number;
}

/** What a connection shows to `JSON.stringify` and `util.inspect`: never the token. */
export interface MockConnectionSummary {
  /** The mock's root URL. */
  baseUrl: string;
  /** Always `'***'`. */
  token: '***';
  /** Time-out of each call, in milliseconds. */
  timeoutMs: number;
}

/**
 * A connection to a running mock, made by {@link connectMock}: the control methods of the
 * in-process mock ({@link MockControlMethods}), each a promise. Every call rejects with a
 * {@link MockControlError}.
 */
export interface MockConnection extends MockControlMethods<true> {
  /**
   * The mock's root URL (no trailing slash), e.g. `http://127.0.0.1:4010`: pass it with
   * {@link token} to a `FulfillmentClient` as its `baseUrl`.
   */
  readonly baseUrl: string;
  /** The API token of the connection (not shown by `JSON.stringify` or `util.inspect`). */
  readonly token: string;
  /** Moves a restocking shipment to `status` (version 1 or 2 name) and returns its version 1 view. */
  advanceRestockingShipment(
    id: number,
    status: RestockingStatusV1 | RestockingStatusV2,
    quantities?: MockRestockQuantities,
  ): Promise<MockRestockingShipmentV1>;
  /** Fulfils a fulfillable order and returns the shipment created. */
  fulfillOrder(id: number): Promise<MockShipment>;
  /** Records a return of a fulfilled order and returns it. */
  createReturn(orderId: number, options?: MockReturnOptions): Promise<MockReturn>;
  /**
   * Injects a fault. A RegExp `path` is sent as its source (`pathPattern`); a RegExp with flags
   * cannot be sent and is refused (`invalid_argument`, `argument: 'path'`).
   */
  injectFault(fault: MockFault): Promise<MockRemoteFaultHandle>;
  /** The faults in force, oldest first. */
  faults(): Promise<FaultSummary[]>;
  /** Removes every fault in force; resolves with how many there were. */
  clearFaults(): Promise<number>;
  /**
   * Waits until no webhook delivery is in flight; resolves with every delivery, oldest first
   * (`options.timeoutMs` overrides the connection's time-out for this call: the wait can be long).
   */
  flushWebhooks(query?: undefined, options?: MockCallOptions): Promise<MockWebhookDelivery[]>;
  /**
   * Waits until no webhook delivery is in flight; resolves with a page of those matching `query`
   * (`status`, `eventId`, `url`, `page`, `limit`).
   */
  flushWebhooks(query: MockDeliveriesQuery, options?: MockCallOptions): Promise<MockDeliveriesPage>;
  /**
   * The webhook deliveries so far, oldest first — the in-process mock's `api.deliveries` property
   * (or `api.readDeliveries()`), as a method. The same as {@link MockConnection.readDeliveries}.
   */
  deliveries(): Promise<MockWebhookDelivery[]>;
  /** A page of the webhook deliveries matching `query`, oldest first. */
  deliveries(query: MockDeliveriesQuery): Promise<MockDeliveriesPage>;
  /** Every webhook delivery so far, oldest first (the name the in-process mock shares). */
  readDeliveries(): Promise<MockWebhookDelivery[]>;
  /** A page of the webhook deliveries matching `query`, oldest first. */
  readDeliveries(query: MockDeliveriesQuery): Promise<MockDeliveriesPage>;
  /** Sends again the deliveries that were given up (all, or those matching `filter`). */
  redeliverWebhooks(filter?: MockRedeliverFilter): Promise<MockWebhookDelivery[]>;
  /** Back to the initial state. */
  reset(): Promise<void>;
  /**
   * Every record of the mock (the whole snapshot: large after a long test; prefer a query) — the
   * in-process mock's `api.state` property (or `api.readState()`), as a method. The same as
   * {@link MockConnection.readState}.
   */
  state(): Promise<MockStateSnapshot>;
  /** One page of one list of the snapshot, oldest record first. */
  state<C extends MockCollectionName>(query: MockStateQuery<C>): Promise<MockStatePage<C>>;
  /** One page of each list named. */
  state<C extends MockCollectionName>(
    query: MockStateCollectionsQuery<C>,
  ): Promise<{ [K in C]: MockStatePage<K> }>;
  /** Every record of the mock (the name the in-process mock shares); see {@link MockConnection.state}. */
  readState(): Promise<MockStateSnapshot>;
  /** One page of one list of the snapshot, oldest record first. */
  readState<C extends MockCollectionName>(query: MockStateQuery<C>): Promise<MockStatePage<C>>;
  /** One page of each list named. */
  readState<C extends MockCollectionName>(
    query: MockStateCollectionsQuery<C>,
  ): Promise<{ [K in C]: MockStatePage<K> }>;
  /** Every control route of the mock (`GET /__mock/`). */
  routes(): Promise<MockControlRouteInfo[]>;
  /** The connection without its token. */
  toJSON(): MockConnectionSummary;
}

function argumentError(method: string, argument: string, problem: string): MockControlError {
  return new MockControlError(`${method}: ${argument} ${problem}`, {
    code: 'invalid_argument',
    route: method,
    argument,
  });
}

/** A short description of a value, for messages (a string only by its length: it may be a secret). */
const shown = describeValue;

/** A `refuse` for the checks shared with the control routes: an `invalid_argument` error. */
function refuseFor(method: string): (field: string, problem: string) => never {
  return (field, problem) => {
    throw argumentError(method, field, problem);
  };
}

/** The query string of a deliveries query (with `page`, so the answer is always a page). */
function deliveriesSearch(method: string, query: unknown): string {
  const checked = checkDeliveriesQuery(query, refuseFor(method));
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(checked)) params.set(key, String(value));
  if (!params.has('page')) params.set('page', '1');
  return params.toString();
}

/** The time-out of one call: `options.timeoutMs`, else `fallback`. */
function callTimeout(method: string, options: unknown, fallback: number): number {
  if (options === undefined) return fallback;
  if (!isObject(options)) {
    throw argumentError(method, 'options', `must be an object, got ${shown(options)}`);
  }
  const { timeoutMs } = options as MockCallOptions;
  if (timeoutMs === undefined) return fallback;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw argumentError(method, 'options.timeoutMs', `must be an integer >= 1, got ${shown(timeoutMs)}`);
  }
  return timeoutMs;
}

function positiveId(method: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw argumentError(method, name, `must be a positive integer, got ${shown(value)}`);
  }
  return value;
}

function optionalObject(method: string, name: string, value: unknown): void {
  if (value !== undefined && !isObject(value)) {
    throw argumentError(method, name, `must be an object, got ${shown(value)}`);
  }
}

/** The message of an error and of its cause (fetch reports "fetch failed" with the reason as cause). */
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

function isTimeout(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'TimeoutError' || (error.cause instanceof Error && error.cause.name === 'TimeoutError'))
  );
}

/** The root URL of a mock from what a user may pass (the CLI's control URL included). */
function rootUrl(url: unknown): string {
  if (typeof url !== 'string' && !(url instanceof URL)) {
    throw argumentError('connectMock', 'url', `must be a string or a URL, got ${shown(url)}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    throw argumentError('connectMock', 'url', `must be an absolute http(s) URL, got ${shown(String(url))}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw argumentError('connectMock', 'url', `must be an http(s) URL, got '${parsed.protocol}'`);
  }
  if (parsed.username || parsed.password) {
    throw argumentError(
      'connectMock',
      'url',
      'must not hold credentials: pass the token as the token option',
    );
  }
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/__mock$/, '');
  return `${parsed.origin}${path}`;
}

/** A connection (see {@link MockConnection}); the token lives in a private field. */
class Connection implements MockConnection {
  readonly baseUrl: string;
  readonly #token: string;
  readonly #fetch: MockConnectionFetch;
  readonly #timeoutMs: number;

  constructor(baseUrl: string, token: string, send: MockConnectionFetch, timeoutMs: number) {
    this.baseUrl = baseUrl;
    this.#token = token;
    this.#fetch = send;
    this.#timeoutMs = timeoutMs;
    // Safe view for `util.inspect` / `console.log`, set on the instance (see the client's).
    Object.defineProperty(this, INSPECT, { value: () => this.toJSON() });
  }

  get token(): string {
    return this.#token;
  }

  toJSON(): MockConnectionSummary {
    return { baseUrl: this.baseUrl, token: '***', timeoutMs: this.#timeoutMs };
  }

  advanceRestockingShipment(
    id: number,
    status: RestockingStatusV1 | RestockingStatusV2,
    quantities?: MockRestockQuantities,
  ): Promise<MockRestockingShipmentV1> {
    const method = 'advanceRestockingShipment';
    return this.#later(() => {
      positiveId(method, 'id', id);
      if (typeof status !== 'string' || (status as string) === '') {
        throw argumentError(method, 'status', `must be a restocking shipment status, got ${shown(status)}`);
      }
      optionalObject(method, 'quantities', quantities);
      return this.#call('POST', `/__mock/restocking_shipments/${id}/advance`, { ...quantities, status });
    });
  }

  fulfillOrder(id: number): Promise<MockShipment> {
    return this.#later(() => {
      positiveId('fulfillOrder', 'id', id);
      return this.#call('POST', `/__mock/orders/${id}/fulfill`);
    });
  }

  createReturn(orderId: number, options: MockReturnOptions = {}): Promise<MockReturn> {
    return this.#later(() => {
      positiveId('createReturn', 'orderId', orderId);
      optionalObject('createReturn', 'options', options);
      return this.#call('POST', `/__mock/orders/${orderId}/returns`, options);
    });
  }

  injectFault(fault: MockFault): Promise<MockRemoteFaultHandle> {
    const method = 'injectFault';
    return this.#later(async () => {
      if (typeof fault !== 'object' || fault === null || Array.isArray(fault)) {
        throw argumentError(method, 'fault', `must be an object, got ${shown(fault)}`);
      }
      const { path, ...rest } = fault;
      let body: Record<string, unknown>;
      if (path instanceof RegExp) {
        if (path.flags !== '') {
          throw argumentError(
            method,
            'path',
            `cannot be a RegExp with flags (got /${path.source}/${path.flags}) on a running mock: only the source is sent (pathPattern)`,
          );
        }
        body = { ...rest, pathPattern: path.source };
      } else if (typeof path === 'string') {
        body = { ...rest, path };
      } else {
        throw argumentError(method, 'path', `must be a string or a RegExp, got ${shown(path)}`);
      }
      const { id } = await this.#call<{ id: number }>('POST', '/__mock/faults', body);
      return {
        id,
        remove: async () => {
          try {
            await this.#call('DELETE', `/__mock/faults/${id}`);
            return true;
          } catch (error) {
            if (error instanceof MockControlError && error.status === 404) return false;
            throw error;
          }
        },
      };
    });
  }

  async faults(): Promise<FaultSummary[]> {
    return (await this.#call<{ data: FaultSummary[] }>('GET', '/__mock/faults')).data;
  }

  async clearFaults(): Promise<number> {
    return (await this.#call<{ removed: number }>('DELETE', '/__mock/faults')).removed;
  }

  flushWebhooks(query?: undefined, options?: MockCallOptions): Promise<MockWebhookDelivery[]>;
  flushWebhooks(query: MockDeliveriesQuery, options?: MockCallOptions): Promise<MockDeliveriesPage>;
  flushWebhooks(query?: MockDeliveriesQuery, options?: MockCallOptions): Promise<unknown> {
    const method = 'flushWebhooks';
    return this.#later(async () => {
      const timeoutMs = callTimeout(method, options, this.#timeoutMs);
      if (query === undefined) {
        const all = await this.#call<{ data: MockWebhookDelivery[] }>(
          'POST',
          '/__mock/webhooks/flush',
          undefined,
          timeoutMs,
        );
        return all.data;
      }
      const search = deliveriesSearch(method, query);
      return this.#call('POST', `/__mock/webhooks/flush?${search}`, undefined, timeoutMs);
    });
  }

  deliveries(): Promise<MockWebhookDelivery[]>;
  deliveries(query: MockDeliveriesQuery): Promise<MockDeliveriesPage>;
  deliveries(query?: MockDeliveriesQuery): Promise<unknown> {
    return this.#deliveries('deliveries', query);
  }

  readDeliveries(): Promise<MockWebhookDelivery[]>;
  readDeliveries(query: MockDeliveriesQuery): Promise<MockDeliveriesPage>;
  readDeliveries(query?: MockDeliveriesQuery): Promise<unknown> {
    return this.#deliveries('readDeliveries', query);
  }

  #deliveries(method: string, query: MockDeliveriesQuery | undefined): Promise<unknown> {
    return this.#later(async () => {
      if (query === undefined) {
        return (await this.#call<{ data: MockWebhookDelivery[] }>('GET', '/__mock/deliveries')).data;
      }
      return this.#call('GET', `/__mock/deliveries?${deliveriesSearch(method, query)}`);
    });
  }

  redeliverWebhooks(filter: MockRedeliverFilter = {}): Promise<MockWebhookDelivery[]> {
    const method = 'redeliverWebhooks';
    return this.#later(async () => {
      optionalObject(method, 'filter', filter);
      checkEventFilter(filter as Record<string, unknown>, (field, problem) => {
        throw argumentError(method, `filter.${field}`, problem);
      });
      const answer = await this.#call<{ data: MockWebhookDelivery[] }>('POST', '/__mock/webhooks/redeliver', {
        ...filter,
      });
      return answer.data;
    });
  }

  async reset(): Promise<void> {
    await this.#call('POST', '/__mock/reset');
  }

  state(): Promise<MockStateSnapshot>;
  state<C extends MockCollectionName>(query: MockStateQuery<C>): Promise<MockStatePage<C>>;
  state<C extends MockCollectionName>(
    query: MockStateCollectionsQuery<C>,
  ): Promise<{ [K in C]: MockStatePage<K> }>;
  state(
    query?: MockStateQuery<MockCollectionName> | MockStateCollectionsQuery<MockCollectionName>,
  ): Promise<unknown> {
    return this.#state('state', query);
  }

  readState(): Promise<MockStateSnapshot>;
  readState<C extends MockCollectionName>(query: MockStateQuery<C>): Promise<MockStatePage<C>>;
  readState<C extends MockCollectionName>(
    query: MockStateCollectionsQuery<C>,
  ): Promise<{ [K in C]: MockStatePage<K> }>;
  readState(
    query?: MockStateQuery<MockCollectionName> | MockStateCollectionsQuery<MockCollectionName>,
  ): Promise<unknown> {
    return this.#state('readState', query);
  }

  #state(method: string, query: unknown): Promise<unknown> {
    return this.#later(() => {
      if (query === undefined) return this.#call('GET', '/__mock/state');
      const { names, one, page, limit } = checkStateQuery(query, refuseFor(method));
      const params = new URLSearchParams();
      params.set(one ? 'collection' : 'collections', names.join(','));
      params.set('page', String(page));
      params.set('limit', String(limit));
      return this.#call('GET', `/__mock/state?${params}`);
    });
  }

  async routes(): Promise<MockControlRouteInfo[]> {
    return (await this.#call<{ routes: MockControlRouteInfo[] }>('GET', '/__mock/')).routes;
  }

  /** Runs `action` as a promise: an argument error rejects instead of throwing. */
  async #later<T>(action: () => Promise<T>): Promise<T> {
    return action();
  }

  /** `text` without the token. */
  #redact(text: string): string {
    return text.split(this.#token).join('***');
  }

  /** Sends one control request and reads its JSON answer (`undefined` for an empty one). */
  async #call<T>(method: string, route: string, body?: unknown, timeoutMs = this.#timeoutMs): Promise<T> {
    const label = `${method} ${route}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.#token}`,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const signal = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(`${this.baseUrl}${route}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'manual',
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (isTimeout(error) || signal.aborted) {
        throw new MockControlError(
          `The mock at ${this.baseUrl} did not answer ${label} within ${timeoutMs} ms`,
          { code: 'timeout', route: label },
        );
      }
      throw new MockControlError(
        this.#redact(
          `Cannot reach the mock at ${this.baseUrl} (${label}): ${messageOf(error)}. Is it running?`,
        ),
        { code: 'unreachable', route: label, cause: error },
      );
    }
    const hint = response.headers.get('x-mock-hint');
    if (!response.ok) {
      let errors: string[] = [];
      try {
        const parsed: unknown = JSON.parse(text);
        const list = (parsed as { errors?: unknown } | null)?.errors;
        if (Array.isArray(list)) errors = list.map((e) => this.#redact(String(e)));
      } catch {
        // Not the mock's error format: the status says it all.
      }
      const detail = errors.length > 0 ? errors.join('; ') : `status ${response.status}`;
      const why = hint === null ? '' : ` (${this.#redact(hint)})`;
      throw new MockControlError(`${label} answered ${response.status}: ${detail}${why}`, {
        code: 'rejected',
        route: label,
        status: response.status,
        errors,
        hint: hint === null ? null : this.#redact(hint),
      });
    }
    if (text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new MockControlError(`${label} answered ${response.status} with a body that is not JSON`, {
        code: 'invalid_response',
        route: label,
        status: response.status,
      });
    }
  }
}

/**
 * Connects to a running mock (`merchant-fulfillment-mock`, or `api.listen()` in another process)
 * through its control routes. `url` is the mock's root URL as the CLI prints it (a trailing
 * `/__mock/` is accepted). Nothing is sent until a method is called. Throws a
 * {@link MockControlError} (`invalid_argument`) for a bad URL, token or option.
 *
 * @example
 * ```ts
 * const mock = connectMock('http://127.0.0.1:4010', { token: process.env.FULFILLMENT_MOCK_TOKEN! });
 * await mock.fulfillOrder(42);
 * ```
 */
export function connectMock(url: string | URL, options: ConnectMockOptions): MockConnection {
  const baseUrl = rootUrl(url);
  if (typeof options !== 'object' || options === null) {
    throw argumentError('connectMock', 'options', `must be an object with a token, got ${shown(options)}`);
  }
  const { token, fetch: send, timeoutMs = DEFAULT_CONTROL_TIMEOUT_MS } = options;
  if (typeof token !== 'string' || token === '' || /\s/.test(token)) {
    throw argumentError('connectMock', 'token', 'must be a non-empty string without white space');
  }
  if (send !== undefined && typeof send !== 'function') {
    throw argumentError('connectMock', 'fetch', `must be a function, got ${shown(send)}`);
  }
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw argumentError('connectMock', 'timeoutMs', `must be an integer >= 1, got ${shown(timeoutMs)}`);
  }
  const fetchFn: MockConnectionFetch = send ?? ((input, init) => globalThis.fetch(input, init));
  return new Connection(baseUrl, token, fetchFn, timeoutMs);
}
