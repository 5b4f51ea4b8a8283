/**
 * `connectMock`: a typed client of the control routes (`faces/control.ts`) of a mock running in
 * another process (`merchant-fulfillment-mock`, or `api.listen()` elsewhere). Its methods are the
 * in-process control methods ({@link MockControlMethods}), async, with the same arguments and
 * results, each sent by one generic `call` from the route table (`CONTROL_OPERATIONS`). Plain
 * `fetch` only (the kit never loads ky); the token travels only in the `Authorization` header and
 * never shows in an error's message, `JSON.stringify` or `util.inspect`. Arguments are sent as
 * given and the mock checks them (see {@link MockControlErrorCode} for what is refused here).
 */
import * as z from 'zod/mini';
import type { MockWebhookDelivery } from './domain/webhook-event.js';
import { checkInput, type Refuse } from './engine/check.js';
import { MAX_DELAY_MS } from './engine/timers.js';
import { CONTROL_OPERATIONS, keyOf, type MockControlRouteInfo } from './faces/control.js';
import {
  type MockControlMethods,
  type MockDeliveriesPage,
  type MockDeliveriesQuery,
  refuseArgument,
} from './faces/control-methods.js';
import { TOKEN } from './options.js';

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
  readonly code!: MockControlErrorCode;
  /** The call, e.g. `POST /__mock/orders/7/fulfill`; the method name for `invalid_argument`. */
  readonly route!: string;
  /** The HTTP status the mock answered, or `null` when it did not answer (or nothing was sent). */
  readonly status: number | null = null;
  /** The mock's messages (`{ success: false, errors: [...] }`); empty when there are none. */
  readonly errors: readonly string[] = [];
  /** The mock-only `x-mock-hint` header of the answer, or `null`. */
  readonly hint: string | null = null;
  /** The argument refused (`invalid_argument` only), e.g. `id`, `path`; otherwise `null`. */
  readonly argument: string | null = null;

  /** @internal */
  constructor(
    message: string,
    details: Pick<MockControlError, 'code' | 'route'> & Partial<MockControlError>,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    Object.assign(this, details);
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
   * The webhook deliveries so far, oldest first, or a page of those matching a query — the
   * in-process mock's `api.deliveries` property (or `api.readDeliveries()`), as a method. The same
   * as {@link MockConnection.readDeliveries}.
   */
  deliveries: MockControlMethods<true>['readDeliveries'];
  /**
   * Every record of the mock (the whole snapshot: large after a long test; prefer a query), one
   * page of one list, or a page of each list named — the in-process mock's `api.state` property
   * (or `api.readState()`), as a method. The same as {@link MockConnection.readState}.
   */
  state: MockControlMethods<true>['readState'];
  /** Every control route of the mock (`GET /__mock/`). */
  routes(): Promise<MockControlRouteInfo[]>;
  /** The connection without its token. */
  toJSON(): MockConnectionSummary;
}

/** A time-out in milliseconds: from 1 to what a timer can wait (2^31 - 1, about 24.8 days). */
const Timeout = z.optional(z.int().check(z.minimum(1), z.maximum(MAX_DELAY_MS)));
const BAD_TOKEN =
  'must be a non-empty string of visible ASCII characters (no white space or control characters); the value is not shown';
const Options = z.strictObject({
  token: z.string().check(z.regex(TOKEN, BAD_TOKEN)),
  fetch: z.optional(z.custom<MockConnectionFetch>((f) => typeof f === 'function', 'must be a function')),
  timeoutMs: Timeout,
});
/** The per-call options of `flushWebhooks`. */
const CallOptions = z.strictObject({ timeoutMs: Timeout });

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
  const given = Object.entries(query).filter(([, value]) => value !== undefined);
  const fields: Record<string, string> = Object.fromEntries(given.map(([key, value]) => [key, `${value}`]));
  return new URLSearchParams({ ...fields, page: fields.page ?? '1' }).toString();
}

/** The root URL of a mock from what a user may pass (the CLI's control URL included). */
function rootUrl(url: string | URL): string {
  const parsed = URL.canParse(String(url)) ? new URL(String(url)) : undefined;
  const refuse = refuseIn('connectMock');
  if (!/^https?:$/.test(parsed?.protocol ?? '')) refuse('url', 'must be an absolute http(s) URL');
  if (parsed!.username || parsed!.password) {
    refuse('url', 'must not hold credentials: pass the token as the token option');
  }
  return `${parsed!.origin}${parsed!.pathname.replace(/\/+$/, '').replace(/\/__mock$/, '')}`;
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
   * Sends the control operation `name` with the method's arguments (`[id?, input?]`, as the route
   * table says) and reads its result from the answer. A 4xx or 5xx answer is `rejected`; the
   * time-out covers the `fetch` and the body read.
   */
  async function call(name: string, args: unknown[] = [], wait = timeoutMs): Promise<never> {
    const op = CONTROL_OPERATIONS[name]!;
    const [method, path] = op.route.split(' ') as [string, string];
    const [id, input] = path.includes('{id}') ? args : [undefined, ...args];
    const query = op.input === 'query' && input !== undefined ? `?${searchOf(input as object)}` : '';
    const route = `${path.replace('{id}', encodeURIComponent(String(id)))}${query}`;
    const label = redact(`${method} ${route}`);
    const init: RequestInit = { method, redirect: 'manual', signal: AbortSignal.timeout(wait) };
    init.headers = { accept: 'application/json', authorization: `Bearer ${token}` };
    if (op.input !== 'query' && input !== undefined) {
      let problem = 'it is not a JSON value';
      try {
        init.body = JSON.stringify(input);
      } catch (error) {
        problem = (error as Error).message;
      }
      if (init.body === undefined) refuseIn(name)(op.input!, `cannot be sent as JSON: ${problem}`);
      init.headers['content-type'] = 'application/json';
    }
    let response: Response;
    let text: string;
    try {
      response = await send(`${baseUrl}${route}`, init);
      text = await response.text();
    } catch (error) {
      // Only the call's own time-out: a `fetch` rejecting with its own TimeoutError did not answer.
      if (init.signal!.aborted) {
        const message = `The mock at ${baseUrl} did not answer ${label} within ${wait} ms`;
        throw new MockControlError(message, { code: 'timeout', route: label });
      }
      const failed = Object(error) as Partial<Error> & { cause?: Error };
      const why = `${failed.message ?? error}${failed.cause?.message ? `: ${failed.cause.message}` : ''}`;
      const text = redact(`Cannot reach the mock at ${baseUrl} (${label}): ${why}. Is it running?`);
      throw new MockControlError(text, { code: 'unreachable', route: label }, error);
    }
    const details = { route: label, status: response.status };
    let json: Record<string, unknown> | undefined;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {}
    if (!response.ok) {
      const errors = Array.isArray(json?.errors)
        ? json.errors.map((e) => redact(typeof e === 'string' ? e : JSON.stringify(e)))
        : [];
      const hint = response.headers.get('x-mock-hint') && redact(response.headers.get('x-mock-hint')!);
      const detail = `${errors.join('; ') || `status ${details.status}`}${hint ? ` (${hint})` : ''}`;
      const error = { code: 'rejected', ...details, errors, hint } as const;
      throw new MockControlError(`${label} answered ${details.status}: ${detail}`, error);
    }
    if (details.status === 204) return undefined as never;
    const key = keyOf(op, input);
    // Every answer is a JSON object, holding the result under the operation's key when it has one.
    if (json?.constructor !== Object || (key !== undefined && !(key in json))) {
      const problem = text === '' ? 'an empty body' : 'a body that is not the JSON object expected';
      const error = { code: 'invalid_response', ...details } as const;
      throw new MockControlError(`${label} answered ${details.status} with ${problem}`, error);
    }
    return (key === undefined ? json : json[key]) as never;
  }

  // One method per operation (a fault is removed through its handle).
  const names = Object.keys(CONTROL_OPERATIONS).filter((name) => name !== 'removeFault');
  const calls = Object.fromEntries(
    names.map((name) => [name, (...args: unknown[]) => call(name, args)]),
  ) as unknown as MockConnection;
  const connection: MockConnection = {
    ...calls,
    deliveries: calls.readDeliveries,
    state: calls.readState,
    baseUrl,
    token,
    toJSON: () => ({ baseUrl, token: '***', timeoutMs }),
    async advanceRestockingShipment(id, status, quantities) {
      // The route reads the quantities among the body's fields: only an object can be sent so.
      if (quantities !== undefined && (typeof quantities !== 'object' || quantities === null)) {
        refuseIn('advanceRestockingShipment')('quantities', 'must be an object');
      }
      return call('advanceRestockingShipment', [id, { ...quantities, status }]);
    },
    async injectFault(fault) {
      // A RegExp path is sent as its source (pathPattern); the mock checks the fault.
      const { path, ...rest } = fault ?? {};
      if (path instanceof RegExp && path.flags !== '') {
        const problem = `cannot be a RegExp with flags (got ${path}) on a running mock: only the source is sent (pathPattern)`;
        refuseIn('injectFault')('path', problem);
      }
      const id: number = await call('injectFault', [
        path instanceof RegExp ? { ...rest, pathPattern: path.source } : fault,
      ]);
      // Already used up or removed: the mock answers 404, `false`.
      const remove = () =>
        call('removeFault', [id]).then(
          () => true,
          (e) => (e instanceof MockControlError && e.status === 404 ? false : Promise.reject(e)),
        );
      return { id, remove };
    },
    flushWebhooks: (async (query?: MockDeliveriesQuery, callOptions: MockCallOptions = {}) => {
      const refuse = refuseArgument('options', 'options.', refuseIn('flushWebhooks'));
      const { timeoutMs: wait } = checkInput(CallOptions, callOptions, refuse);
      return call('flushWebhooks', [query], wait);
    }) as MockConnection['flushWebhooks'],
  };
  // Safe views for `util.inspect` / `console.log`; the token is no enumerable field.
  Object.defineProperty(connection, INSPECT, { value: () => connection.toJSON() });
  Object.defineProperty(connection, 'token', { enumerable: false });
  return connection;
}
