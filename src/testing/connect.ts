/**
 * `connectMock`: a typed client of the control routes (`faces/control.ts`) of a mock running in
 * another process (`merchant-fulfillment-mock`, or `api.listen()` elsewhere). Its methods are the
 * in-process control methods ({@link MockControlMethods}), async, with the same arguments and
 * results. Plain `fetch` only (the kit never loads ky); the token travels only in the
 * `Authorization` header and never shows in an error, `JSON.stringify` or `util.inspect`.
 * Arguments are sent as given and the mock checks them, as it checks them in-process: its 4xx
 * answer is a `rejected` error with its status and messages. Only what cannot be sent is refused
 * here (`invalid_argument`): a bad URL, token or time-out, a value JSON cannot carry, a RegExp path
 * with flags, quantities or a query that is not an object.
 */
import type { MockReturnOptions } from './domain/outbound.js';
import type { MockRestockingShipmentV1, MockReturn, MockShipment } from './domain/resources.js';
import type { MockRestockQuantities } from './domain/restocking.js';
import type { RestockingStatusV1, RestockingStatusV2 } from './domain/restocking-status.js';
import type { MockStateSnapshot } from './domain/snapshot.js';
import type { MockWebhookDelivery } from './domain/webhook-event.js';
import type { FaultSummary, MockFault } from './engine/faults.js';
import { MAX_DELAY_MS } from './engine/timers.js';
import { describeUrlScheme, describeValue, isObject, messageOf, safeString } from './engine/validation.js';
import type { MockRedeliverFilter } from './engine/webhook-delivery.js';
import type {
  MockCollectionName,
  MockControlMethods,
  MockControlRouteInfo,
  MockDeliveriesPage,
  MockDeliveriesQuery,
  MockRemoteFaultHandle,
  MockStateCollectionsQuery,
  MockStatePage,
  MockStateQuery,
} from './faces/control.js';
import { TOKEN } from './options.js';

export type { MockRemoteFaultHandle, MockStateCollectionsQuery, MockStateQuery } from './faces/control.js';

const INSPECT = /* @__PURE__ */ Symbol.for('nodejs.util.inspect.custom');

/** The default time-out of one control call, in milliseconds. */
export const DEFAULT_CONTROL_TIMEOUT_MS = 30_000;

/** The longest time-out of a call, in milliseconds (what a timer can wait: 2^31 - 1, about 24.8 days). */
const MAX_CONTROL_TIMEOUT_MS = MAX_DELAY_MS;

/** A `fetch` as a connection calls it (the global `fetch`, `api.fetch`, or any compatible one). */
export type MockConnectionFetch = (input: string, init: RequestInit) => Promise<Response>;

/** Options of {@link connectMock}. */
export interface ConnectMockOptions {
  /** An API token the mock accepts (the CLI prints it; `--token` sets it). */
  token: string;
  /** The `fetch` to send with. Default: the global `fetch`. */
  fetch?: MockConnectionFetch;
  /**
   * Time-out of each call in milliseconds, the answer's body included: an integer from 1 to
   * 2147483647 (2^31 - 1, what a timer can wait). Default {@link DEFAULT_CONTROL_TIMEOUT_MS}. Enforced whatever
   * the `fetch` does with its `signal`. `flushWebhooks()` waits for deliveries: give it room.
   */
  timeoutMs?: number;
}

/** What went wrong with a control call (see {@link MockControlError}). */
export type MockControlErrorCode =
  /**
   * An argument that cannot be sent was refused before sending (`argument` names it): the URL,
   * token or a time-out, a value JSON cannot carry, a RegExp path with flags, quantities or a query
   * that is not an object. Everything else is checked by the mock (`rejected`).
   */
  | 'invalid_argument'
  /** The mock could not be reached (connection refused, unknown host, ...). */
  | 'unreachable'
  /** The mock did not answer within the time-out. */
  | 'timeout'
  /**
   * The mock answered with an error status (`status`, `errors`, `hint`): e.g. 422 for an argument
   * it refuses (`status: must be one of …`), 404 for an unknown id.
   */
  | 'rejected'
  /**
   * The mock answered 2xx with a body that is not what the call expects: not JSON, empty, or JSON
   * of the wrong shape (e.g. `null`, `42`, an object without its `data` list).
   */
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
   * Time-out of this call in milliseconds, the answer's body included (an integer from 1 to
   * 2147483647). Default: the connection's `timeoutMs`.
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
  /**
   * Sends again the deliveries that were given up (all, or those to `filter.url`); with
   * `filter.eventId`, that event's delivery whatever its outcome (a delivered one too: to test a
   * receiver's dedupe).
   */
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

/**
 * The query string of a query (an object: anything else cannot be sent), each field as text (a list
 * joined with commas), with `page` when it has none so that the answer is always a page. The mock
 * checks the fields.
 */
function searchOf(method: string, query: unknown): string {
  if (!isObject(query))
    throw argumentError(method, 'query', `must be an object, got ${describeValue(query)}`);
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  if (!params.has('page')) params.set('page', '1');
  return params.toString();
}

/** `timeoutMs` checked: an integer from 1 to {@link MAX_CONTROL_TIMEOUT_MS} (a timer's limit). */
function checkTimeout(method: string, argument: string, timeoutMs: unknown): number {
  if (
    typeof timeoutMs !== 'number' ||
    !Number.isInteger(timeoutMs) ||
    timeoutMs < 1 ||
    timeoutMs > MAX_CONTROL_TIMEOUT_MS
  ) {
    throw argumentError(
      method,
      argument,
      `must be an integer from 1 to ${MAX_CONTROL_TIMEOUT_MS}, got ${describeValue(timeoutMs)}`,
    );
  }
  return timeoutMs;
}

/** The time-out of one call: `options.timeoutMs`, else `fallback`. */
function callTimeout(method: string, options: MockCallOptions | undefined, fallback: number): number {
  const timeoutMs = options?.timeoutMs;
  return timeoutMs === undefined ? fallback : checkTimeout(method, 'options.timeoutMs', timeoutMs);
}

/**
 * `value` as the JSON text of a request body, serialized BEFORE anything is sent: a value that
 * cannot be (a BigInt, a cycle, a throwing `toJSON`) is an `invalid_argument` naming `argument`.
 */
function serialize(method: string, argument: string, value: unknown): string {
  let problem = 'it is not a JSON value';
  try {
    const text = JSON.stringify(value);
    if (typeof text === 'string') return text;
  } catch (error) {
    problem = messageOf(error);
  }
  throw argumentError(method, argument, `cannot be sent as JSON: ${problem}`);
}

/** The shape a call expects of a 2xx answer (anything else is `invalid_response`). */
interface Expected {
  /** What the answer must be, for the message (`an object with a data list`). */
  what: string;
  test: (value: unknown) => boolean;
}

/** An answer that is a JSON object. */
const AN_OBJECT: Expected = { what: 'a JSON object', test: isObject };

/** An answer `{ <key>: [...] }`. */
function listIn(key: string): Expected {
  return {
    what: `a JSON object with a '${key}' list`,
    test: (value) => isObject(value) && Array.isArray(value[key]),
  };
}

/** An answer `{ data: [...], pagination: {...} }`. */
const A_PAGE: Expected = {
  what: "a JSON object with a 'data' list and a 'pagination' object",
  test: (value) => isObject(value) && Array.isArray(value.data) && isObject(value.pagination),
};

/** An answer `{ <key>: <integer >= min> }`. */
function integerIn(key: string, min: number): Expected {
  return {
    what: `a JSON object with an integer '${key}'`,
    test: (value) => {
      const n = isObject(value) ? value[key] : undefined;
      return typeof n === 'number' && Number.isSafeInteger(n) && n >= min;
    },
  };
}

/** What a call sends and expects (see `Connection#call`). */
interface CallOptions {
  /** The JSON text of the body (see {@link serialize}). */
  body?: string;
  /** Default: the connection's. */
  timeoutMs?: number;
  /** The shape of a 2xx answer; without it any answer (an empty one included) is taken. */
  expect?: Expected;
}

/** The rejection of a call's time-out (told apart from what the `fetch` rejects with). */
const TIMED_OUT: unique symbol = Symbol('timed out');

/** The root URL of a mock from what a user may pass (the CLI's control URL included). */
function rootUrl(url: unknown): string {
  if (typeof url !== 'string' && !(url instanceof URL)) {
    throw argumentError('connectMock', 'url', `must be a string or a URL, got ${describeValue(url)}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    throw argumentError(
      'connectMock',
      'url',
      `must be an absolute http(s) URL, got ${describeValue(String(url))}`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw argumentError('connectMock', 'url', `must be an http(s) URL, got ${describeUrlScheme(parsed)}`);
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

  async advanceRestockingShipment(
    id: number,
    status: RestockingStatusV1 | RestockingStatusV2,
    quantities?: MockRestockQuantities,
  ): Promise<MockRestockingShipmentV1> {
    const method = 'advanceRestockingShipment';
    // The route reads the quantities among the body's fields: only an object can be sent so.
    if (quantities !== undefined && !isObject(quantities)) {
      throw argumentError(method, 'quantities', `must be an object, got ${describeValue(quantities)}`);
    }
    const body = serialize(method, 'quantities', { ...quantities, status });
    return this.#call('POST', `/__mock/restocking_shipments/${encodeURIComponent(id)}/advance`, {
      body,
      expect: AN_OBJECT,
    });
  }

  async fulfillOrder(id: number): Promise<MockShipment> {
    return this.#call('POST', `/__mock/orders/${encodeURIComponent(id)}/fulfill`, { expect: AN_OBJECT });
  }

  async createReturn(orderId: number, options: MockReturnOptions = {}): Promise<MockReturn> {
    const body = serialize('createReturn', 'options', options);
    return this.#call('POST', `/__mock/orders/${encodeURIComponent(orderId)}/returns`, {
      body,
      expect: AN_OBJECT,
    });
  }

  async injectFault(fault: MockFault): Promise<MockRemoteFaultHandle> {
    const method = 'injectFault';
    // A RegExp path is sent as its source (pathPattern); the mock checks the fault.
    let body: unknown = fault;
    if (fault?.path instanceof RegExp) {
      const { path, ...rest } = fault;
      const { source, flags } = path;
      if (flags !== '') {
        throw argumentError(
          method,
          'path',
          `cannot be a RegExp with flags (got /${source}/${flags}) on a running mock: only the source is sent (pathPattern)`,
        );
      }
      body = { ...rest, pathPattern: source };
    }
    const { id } = await this.#call<{ id: number }>('POST', '/__mock/faults', {
      body: serialize(method, 'fault', body),
      expect: integerIn('id', 1),
    });
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
  }

  async faults(): Promise<FaultSummary[]> {
    return (await this.#call<{ data: FaultSummary[] }>('GET', '/__mock/faults', { expect: listIn('data') }))
      .data;
  }

  async clearFaults(): Promise<number> {
    return (
      await this.#call<{ removed: number }>('DELETE', '/__mock/faults', { expect: integerIn('removed', 0) })
    ).removed;
  }

  flushWebhooks(query?: undefined, options?: MockCallOptions): Promise<MockWebhookDelivery[]>;
  flushWebhooks(query: MockDeliveriesQuery, options?: MockCallOptions): Promise<MockDeliveriesPage>;
  async flushWebhooks(query?: MockDeliveriesQuery, options?: MockCallOptions): Promise<unknown> {
    const method = 'flushWebhooks';
    const timeoutMs = callTimeout(method, options, this.#timeoutMs);
    if (query === undefined) {
      const all = await this.#call<{ data: MockWebhookDelivery[] }>('POST', '/__mock/webhooks/flush', {
        timeoutMs,
        expect: listIn('data'),
      });
      return all.data;
    }
    return this.#call('POST', `/__mock/webhooks/flush?${searchOf(method, query)}`, {
      timeoutMs,
      expect: A_PAGE,
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

  async #deliveries(method: string, query: MockDeliveriesQuery | undefined): Promise<unknown> {
    if (query === undefined) {
      const all = await this.#call<{ data: MockWebhookDelivery[] }>('GET', '/__mock/deliveries', {
        expect: listIn('data'),
      });
      return all.data;
    }
    return this.#call('GET', `/__mock/deliveries?${searchOf(method, query)}`, { expect: A_PAGE });
  }

  async redeliverWebhooks(filter: MockRedeliverFilter = {}): Promise<MockWebhookDelivery[]> {
    const answer = await this.#call<{ data: MockWebhookDelivery[] }>('POST', '/__mock/webhooks/redeliver', {
      body: serialize('redeliverWebhooks', 'filter', filter),
      expect: listIn('data'),
    });
    return answer.data;
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

  async #state(method: string, query: object | undefined): Promise<unknown> {
    if (query === undefined) return this.#call('GET', '/__mock/state', { expect: AN_OBJECT });
    const search = searchOf(method, query);
    return this.#call('GET', `/__mock/state?${search}`, {
      expect: 'collections' in query ? AN_OBJECT : A_PAGE,
    });
  }

  async routes(): Promise<MockControlRouteInfo[]> {
    return (
      await this.#call<{ routes: MockControlRouteInfo[] }>('GET', '/__mock/', { expect: listIn('routes') })
    ).routes;
  }

  /** `text` without the token. */
  #redact(text: string): string {
    return text.split(this.#token).join('***');
  }

  /**
   * A copy of what the `fetch` rejected with, safe to keep as a `cause`: its name, redacted message
   * and `code` (and the same of its own cause), nothing else — an error of `fetch` may quote the
   * `Authorization` header, and its other properties are not ours to vouch for.
   */
  #safeCause(error: unknown, depth = 0): Error | undefined {
    if (!(error instanceof Error)) return undefined;
    const inner = depth < 1 ? this.#safeCause(error.cause, depth + 1) : undefined;
    const copy = new Error(
      this.#redact(safeString(error.message)),
      inner === undefined ? undefined : { cause: inner },
    );
    copy.name = this.#redact(safeString(error.name));
    const { code } = error as { code?: unknown };
    if (typeof code === 'string') (copy as { code?: string }).code = this.#redact(code);
    copy.stack = `${copy.name}: ${copy.message}`;
    return copy;
  }

  /**
   * Sends one control request and reads its JSON answer (`undefined` for an empty one, unless
   * `expect` says what it must be). The time-out covers the `fetch` and the body read, and is
   * enforced by a race: a `fetch` that ignores its `signal` still ends in a `timeout` error.
   */
  async #call<T>(method: string, route: string, options: CallOptions = {}): Promise<T> {
    const { body, timeoutMs = this.#timeoutMs, expect } = options;
    // Without the token, should an argument of the query hold it.
    const label = this.#redact(`${method} ${route}`);
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.#token}`,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const controller = new AbortController();
    const { signal } = controller;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
        reject(TIMED_OUT);
      }, timeoutMs);
    });
    let received: Response | undefined;
    const exchange = (async (): Promise<[Response, string]> => {
      received = await this.#fetch(`${this.baseUrl}${route}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        redirect: 'manual',
        signal,
      });
      return [received, await received.text()];
    })();
    // Whichever loses the race must not be reported as an unhandled rejection.
    exchange.catch(() => {});
    timedOut.catch(() => {});
    let response: Response;
    let text: string;
    try {
      [response, text] = await Promise.race([exchange, timedOut]);
    } catch (error) {
      // Only the call's own time-out: a `fetch` rejecting with its own TimeoutError did not answer.
      if (error === TIMED_OUT || signal.aborted) {
        // A body still streaming after the time-out is let go (a custom fetch may not heed the signal).
        try {
          received?.body?.cancel().catch(() => {});
        } catch {
          // Nothing more to release.
        }
        throw new MockControlError(
          `The mock at ${this.baseUrl} did not answer ${label} within ${timeoutMs} ms`,
          { code: 'timeout', route: label },
        );
      }
      throw new MockControlError(
        this.#redact(
          `Cannot reach the mock at ${this.baseUrl} (${label}): ${messageOf(error)}. Is it running?`,
        ),
        { code: 'unreachable', route: label, cause: this.#safeCause(error) },
      );
    } finally {
      clearTimeout(timer);
    }
    const hint = response.headers.get('x-mock-hint');
    if (!response.ok) {
      let errors: string[] = [];
      try {
        const parsed: unknown = JSON.parse(text);
        const list = (parsed as { errors?: unknown } | null)?.errors;
        if (Array.isArray(list)) errors = list.map((e) => this.#redact(safeString(e)));
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
    const invalid = (problem: string): MockControlError =>
      new MockControlError(`${label} answered ${response.status} with ${problem}`, {
        code: 'invalid_response',
        route: label,
        status: response.status,
      });
    if (text === '') {
      if (expect === undefined) return undefined as T;
      throw invalid(`an empty body (expected ${expect.what})`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalid('a body that is not JSON');
    }
    if (expect !== undefined && !expect.test(parsed)) {
      throw invalid(`a body that is not ${expect.what}`);
    }
    return parsed as T;
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
  if (!isObject(options)) {
    throw argumentError(
      'connectMock',
      'options',
      `must be an object with a token, got ${describeValue(options)}`,
    );
  }
  const { token, fetch: send, timeoutMs = DEFAULT_CONTROL_TIMEOUT_MS }: Record<string, unknown> = options;
  if (typeof token !== 'string' || !TOKEN.test(token)) {
    // Never quoted: a token that cannot be sent as a header would otherwise travel in fetch's error.
    throw argumentError(
      'connectMock',
      'token',
      'must be a non-empty string of visible ASCII characters (no white space or control characters); the value is not shown',
    );
  }
  if (send !== undefined && typeof send !== 'function') {
    throw argumentError('connectMock', 'fetch', `must be a function, got ${describeValue(send)}`);
  }
  const checkedTimeout = checkTimeout('connectMock', 'timeoutMs', timeoutMs);
  const fetchFn: MockConnectionFetch =
    (send as MockConnectionFetch | undefined) ?? ((input, init) => globalThis.fetch(input, init));
  return new Connection(baseUrl, token, fetchFn, checkedTimeout);
}
