/**
 * `connectMock`: a typed client of the control routes (`faces/control.ts`) of a mock running in
 * another process (`merchant-fulfillment-mock`, or `api.listen()` elsewhere). Its methods are the
 * in-process control methods ({@link MockControlMethods}), async, with the same arguments and
 * results. Plain `fetch` only (the kit never loads ky); the token travels only in the
 * `Authorization` header and never shows in an error's message, `JSON.stringify` or
 * `util.inspect`. Arguments are sent as given and the mock checks them, with the checkers of the
 * in-process methods: its 4xx answer is a `rejected` error with its status and messages. Only what
 * cannot be sent is refused here (`invalid_argument`): a bad URL, token, option or time-out, a
 * value JSON cannot carry, a RegExp path with flags, quantities that are not an object.
 */
import * as z from 'zod/mini';
import type { MockStateSnapshot } from './domain/snapshot.js';
import type { MockWebhookDelivery } from './domain/webhook-event.js';
import { checkInput, type Refuse } from './engine/check.js';
import { MAX_DELAY_MS } from './engine/timers.js';
import type { MockControlRouteInfo } from './faces/control.js';
import {
  type MockCollectionName,
  type MockControlMethods,
  type MockDeliveriesPage,
  type MockDeliveriesQuery,
  type MockStateCollectionsQuery,
  type MockStatePage,
  type MockStateQuery,
  refuseArgument,
} from './faces/control-methods.js';
import { TOKEN } from './options.js';

export type {
  MockRemoteFaultHandle,
  MockStateCollectionsQuery,
  MockStateQuery,
} from './faces/control-methods.js';

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
   * Time-out of each call in milliseconds, the answer's body included: an integer from 1 to
   * 2147483647 (2^31 - 1, what a timer can wait). Default {@link DEFAULT_CONTROL_TIMEOUT_MS}, enforced
   * through the `signal` given to the `fetch`. `flushWebhooks()` waits for deliveries: give it room.
   */
  timeoutMs?: number;
}

/** What went wrong with a control call (see {@link MockControlError}). */
export type MockControlErrorCode =
  /**
   * An argument that cannot be sent was refused before sending (`argument` names it): the URL,
   * token, an option or a time-out, a value JSON cannot carry, a RegExp path with flags, quantities
   * that are not an object. Everything else is checked by the mock (`rejected`).
   */
  | 'invalid_argument'
  /** The mock could not be reached (connection refused, unknown host, ...). */
  | 'unreachable'
  /** The mock did not answer within the time-out. */
  | 'timeout'
  /**
   * The mock answered with an error status (`status`, `errors`, `hint`): e.g. 422 for an argument
   * it refuses (`status: Invalid option: expected one of …`), 404 for an unknown id.
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
  /** Every control route of the mock (`GET /__mock/`). */
  routes(): Promise<MockControlRouteInfo[]>;
  /** The connection without its token. */
  toJSON(): MockConnectionSummary;
}

/** A time-out in milliseconds: from 1 to what a timer can wait (2^31 - 1, about 24.8 days). */
const Timeout = z.int().check(z.minimum(1), z.maximum(MAX_DELAY_MS));
const BAD_TOKEN =
  'must be a non-empty string of visible ASCII characters (no white space or control characters); the value is not shown';
const Options = z.strictObject({
  token: z.string().check(z.regex(TOKEN, BAD_TOKEN)),
  fetch: z.optional(z.custom<MockConnectionFetch>((f) => typeof f === 'function', 'must be a function')),
  timeoutMs: z.optional(Timeout),
});

/** Options of one call (`flushWebhooks`). */
const CallOptionsSchema = z.strictObject({ timeoutMs: z.optional(Timeout) });

/** A refusal of an argument of `method`: an `invalid_argument` naming the field. */
const refuseIn =
  (method: string): Refuse =>
  (argument, problem) => {
    const details = { code: 'invalid_argument', route: method, argument } as const;
    throw new MockControlError(`${method}: ${argument}: ${problem}`, details);
  };

/**
 * The query string of a query, each field as text (a list joined with commas), with `page` when it
 * has none so that the answer is always a page. The mock checks the fields.
 */
function searchOf(query: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  if (!params.has('page')) params.set('page', '1');
  return params.toString();
}

/**
 * `value` as the JSON text of a request body, serialized BEFORE anything is sent: a value that
 * cannot be (a BigInt, a cycle, a throwing `toJSON`) is an `invalid_argument` naming `argument`.
 */
function serialize(method: string, argument: string, value: unknown): string {
  let problem = 'it is not a JSON value';
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return text;
  } catch (error) {
    problem = (error as Error).message;
  }
  return refuseIn(method)(argument, `cannot be sent as JSON: ${problem}`);
}

/** The shape a call expects of a 2xx answer (anything else is `invalid_response`). */
type Expected = z.core.$ZodType;

const AN_OBJECT = z.looseObject({});
const LISTS = {
  data: z.looseObject({ data: z.array(z.unknown()) }),
  routes: z.looseObject({ routes: z.array(z.unknown()) }),
};
const A_PAGE = z.looseObject({ data: z.array(z.unknown()), pagination: z.looseObject({}) });
const AN_ID = z.looseObject({ id: z.int().check(z.minimum(1)) });
const REMOVED = z.looseObject({ removed: z.int().check(z.minimum(0)) });

/** What a call sends and expects (see `call` in {@link connectMock}). */
interface CallOptions {
  /** The JSON text of the body (see {@link serialize}). */
  body?: string | undefined;
  /** Default: the connection's. */
  timeoutMs?: number | undefined;
  /** The shape of a 2xx answer; without it any answer (an empty one included) is taken. */
  expect?: Expected;
}

/** The root URL of a mock from what a user may pass (the CLI's control URL included). */
function rootUrl(url: string | URL): string {
  const parsed = URL.canParse(String(url)) ? new URL(String(url)) : undefined;
  const refuse = refuseIn('connectMock');
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    return refuse('url', 'must be an absolute http(s) URL');
  }
  const credentials = 'must not hold credentials: pass the token as the token option';
  if (parsed.username || parsed.password) refuse('url', credentials);
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '').replace(/\/__mock$/, '')}`;
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
  const checked = checkInput(Options, options, refuseArgument('options', '', refuseIn('connectMock')));
  const { token, fetch: send = (input, init) => globalThis.fetch(input, init) } = checked;
  const timeoutMs = checked.timeoutMs ?? DEFAULT_CONTROL_TIMEOUT_MS;
  /** `text` without the token. */
  const redact = (text: string): string => text.split(token).join('***');

  /**
   * Sends one control request and reads its JSON answer (`undefined` for an empty one, unless
   * `expect` says what it must be). The time-out covers the `fetch` and the body read.
   */
  async function call<T>(method: string, route: string, options: CallOptions = {}): Promise<T> {
    const { body, timeoutMs: wait = timeoutMs, expect } = options;
    const label = redact(`${method} ${route}`);
    const type = body === undefined ? {} : { 'content-type': 'application/json' };
    const headers = { accept: 'application/json', authorization: `Bearer ${token}`, ...type };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), wait);
    let response: Response;
    let text: string;
    try {
      const init = { method, headers, redirect: 'manual' as const, signal: controller.signal };
      response = await send(`${baseUrl}${route}`, body === undefined ? init : { ...init, body });
      text = await response.text();
    } catch (error) {
      // Only the call's own time-out: a `fetch` rejecting with its own TimeoutError did not answer.
      if (controller.signal.aborted) {
        const message = `The mock at ${baseUrl} did not answer ${label} within ${wait} ms`;
        throw new MockControlError(message, { code: 'timeout', route: label });
      }
      const cause = error instanceof Error ? (error.cause as Error | undefined)?.message : undefined;
      const why = error instanceof Error ? `${error.message}${cause ? `: ${cause}` : ''}` : String(error);
      const text = redact(`Cannot reach the mock at ${baseUrl} (${label}): ${why}. Is it running?`);
      throw new MockControlError(text, { code: 'unreachable', route: label, cause: error });
    } finally {
      clearTimeout(timer);
    }
    const { status, ok } = response;
    const details = { code: 'invalid_response', route: label, status } as const;
    const invalid = (problem: string) =>
      new MockControlError(`${label} answered ${status} with ${problem}`, details);
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      if (ok) throw invalid('a body that is not JSON');
    }
    if (!ok) {
      const list = (json as { errors?: unknown } | undefined)?.errors;
      const errors = Array.isArray(list) ? list.map((e) => redact(String(e))) : [];
      const given = response.headers.get('x-mock-hint');
      const hint = given === null ? null : redact(given);
      const detail = `${errors.length > 0 ? errors.join('; ') : `status ${status}`}${hint ? ` (${hint})` : ''}`;
      const error = { code: 'rejected', route: label, status, errors, hint } as const;
      throw new MockControlError(`${label} answered ${status}: ${detail}`, error);
    }
    if (expect === undefined) return json as T;
    return checkInput(expect, json, (field, problem) => {
      throw invalid(
        `${text === '' ? 'an empty body' : 'a body of the wrong shape'} (${field || 'body'}: ${problem})`,
      );
    }) as T;
  }

  /** The `key` list of a call's answer. */
  async function listOf<T>(
    key: keyof typeof LISTS,
    method: string,
    route: string,
    options: CallOptions = {},
  ) {
    return (await call<Record<string, T[]>>(method, route, { ...options, expect: LISTS[key] }))[key]!;
  }
  /** Without a query every item (`{ data }`), else the page the query asks for. */
  const pageOrAll = (method: string, route: string, query: object | undefined, wait?: number) =>
    query === undefined
      ? listOf('data', method, route, { timeoutMs: wait })
      : call(method, `${route}?${searchOf(query)}`, { timeoutMs: wait, expect: A_PAGE });
  const deliveries = (async (query?: MockDeliveriesQuery) =>
    pageOrAll('GET', '/__mock/deliveries', query)) as MockConnection['deliveries'];
  const state = (async (query?: object) => {
    if (query === undefined) return call('GET', '/__mock/state', { expect: AN_OBJECT });
    const expect = (query as { collections?: unknown }).collections !== undefined ? AN_OBJECT : A_PAGE;
    return call('GET', `/__mock/state?${searchOf(query)}`, { expect });
  }) as MockConnection['state'];
  const post = async <T>(route: string, body?: string, expect: Expected = AN_OBJECT) =>
    call<T>('POST', route, { body, expect });
  const connection: MockConnection = {
    baseUrl,
    token,
    toJSON: () => ({ baseUrl, token: '***', timeoutMs }),
    async advanceRestockingShipment(id, status, quantities) {
      const method = 'advanceRestockingShipment';
      // The route reads the quantities among the body's fields: only an object can be sent so.
      if (quantities !== undefined && (typeof quantities !== 'object' || quantities === null)) {
        refuseIn(method)('quantities', 'must be an object');
      }
      const body = serialize(method, 'quantities', { ...quantities, status });
      return post(`/__mock/restocking_shipments/${encodeURIComponent(id)}/advance`, body);
    },
    fulfillOrder: async (id) => post(`/__mock/orders/${encodeURIComponent(id)}/fulfill`),
    async createReturn(orderId, options = {}) {
      const body = serialize('createReturn', 'options', options);
      return post(`/__mock/orders/${encodeURIComponent(orderId)}/returns`, body);
    },
    async injectFault(fault) {
      // A RegExp path is sent as its source (pathPattern); the mock checks the fault.
      const { path, ...rest } = fault ?? {};
      if (path instanceof RegExp && path.flags !== '') {
        const problem = `cannot be a RegExp with flags (got ${path}) on a running mock: only the source is sent (pathPattern)`;
        refuseIn('injectFault')('path', problem);
      }
      const sent = path instanceof RegExp ? { ...rest, pathPattern: path.source } : fault;
      const body = serialize('injectFault', 'fault', sent);
      const { id } = await post<{ id: number }>('/__mock/faults', body, AN_ID);
      // Already used up or removed: the mock answers 404, `false`.
      const remove = () =>
        call('DELETE', `/__mock/faults/${id}`).then(
          () => true,
          (e) => (e instanceof MockControlError && e.status === 404 ? false : Promise.reject(e)),
        );
      return { id, remove };
    },
    faults: async () => listOf('data', 'GET', '/__mock/faults'),
    clearFaults: async () =>
      (await call<{ removed: number }>('DELETE', '/__mock/faults', { expect: REMOVED })).removed,
    flushWebhooks: (async (query?: MockDeliveriesQuery, callOptions: MockCallOptions = {}) => {
      const refuse = refuseArgument('options', 'options.', refuseIn('flushWebhooks'));
      const { timeoutMs: wait } = checkInput(CallOptionsSchema, callOptions, refuse);
      return pageOrAll('POST', '/__mock/webhooks/flush', query, wait);
    }) as MockConnection['flushWebhooks'],
    deliveries,
    readDeliveries: deliveries,
    redeliverWebhooks: async (filter = {}) =>
      listOf('data', 'POST', '/__mock/webhooks/redeliver', {
        body: serialize('redeliverWebhooks', 'filter', filter),
      }),
    async reset() {
      await call('POST', '/__mock/reset');
    },
    state,
    readState: state,
    routes: async () => listOf('routes', 'GET', '/__mock/'),
  };
  // Safe views for `util.inspect` / `console.log`; the token is no enumerable field.
  Object.defineProperty(connection, INSPECT, { value: () => connection.toJSON() });
  Object.defineProperty(connection, 'token', { enumerable: false });
  return connection;
}
