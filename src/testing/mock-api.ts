/**
 * `createMockApi`: one in-memory Merchant API with two faces (msw handlers and a real HTTP server)
 * over one framework-free core, `handle(Request) → Response`, plus control methods for tests —
 * in JS, and over HTTP as the control routes under `/__mock/` (see `control.ts`).
 *
 * Order of checks for every API request: injected fault → response latency → authentication
 * (401) → rate limit (429) → route (404 / 405) → JSON body (400) → the endpoint (2xx / 404 / 422).
 * Control routes: authentication (401) → route (404 / 405) → JSON body (400) → the action.
 */
import type { HttpHandler } from 'msw';
import { answerControl, type ControlTarget, isControlPath } from './control.js';
import { Faults } from './faults.js';
import {
  failure,
  fromFetchRequest,
  type MockRequest,
  type MockResult,
  toFetchResponse,
  unauthorized,
} from './http.js';
import { createMswHandlers } from './msw.js';
import { type MockConfig, resolveOptions } from './options.js';
import { createReturn, fulfilOrder } from './outbound.js';
import { RateLimiter, retryAfterSeconds } from './rate-limit.js';
import { advanceRestocking } from './restocking.js';
import { matchRoute } from './router.js';
import { MockState } from './state.js';
import { Timers } from './timers.js';
import type {
  JsonValue,
  MockApiOptions,
  MockFault,
  MockFaultHandle,
  MockListenOptions,
  MockRestockingShipmentV1,
  MockRestockQuantities,
  MockReturn,
  MockReturnOptions,
  MockServer,
  MockShipment,
  MockStateSnapshot,
  MockWebhookDelivery,
  RestockingStatusV1,
  RestockingStatusV2,
} from './types.js';
import { orderView, restockingV1View, restockingV2View, skuView } from './views.js';
import { WebhookDispatcher } from './webhooks.js';

/** A stateful in-memory Merchant API for tests. Create it with {@link createMockApi}. */
export interface MockApi {
  /** Root URL the msw handlers and `fetch` answer on (default `https://fulfillment.mock`). */
  readonly baseUrl: string;
  /** The oldest accepted token (it signs webhooks): use it as your client's API token. */
  readonly token: string;
  /** Every accepted token, oldest first. */
  readonly tokens: readonly string[];
  /**
   * msw request handlers answering `${baseUrl}/merchant_api/*` and the control routes
   * `${baseUrl}/__mock/*` (nothing else): `setupServer(...api.handlers)`.
   * Needs the optional peer dependency `msw` (v3); throws a clear error without it.
   */
  readonly handlers: HttpHandler[];
  /** Answers one Fetch API request (the core both faces use). A dropped connection is `Response.error()`. */
  handle(request: Request): Promise<Response>;
  /**
   * A `fetch` served by the mock in-process (no network, no msw): pass it to a client as its
   * `fetch`. A dropped connection (fault `reset`) rejects with a `TypeError`, as `fetch` does.
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /**
   * Starts a real HTTP server (`node:http`) on `host` (default 127.0.0.1) and `port` (default: a
   * free one), answering `/merchant_api/*` and the control routes `/__mock/*`. Its `close()` ends
   * every connection and abandons the webhook deliveries in flight (see {@link MockApi.close}).
   */
  listen(options?: MockListenOptions): Promise<MockServer>;
  /**
   * Closes every server started with {@link listen}, abandons the webhook deliveries in flight
   * (their records stay in {@link deliveries}, `finished`, with `error: "abandoned: …"`) and cancels
   * every timer of the mock, so the process can exit. The mock stays usable in-process (`fetch`,
   * `handlers`, control methods); later status changes are delivered as usual.
   */
  close(): Promise<void>;
  /** A snapshot of every record (fresh copies at each read). */
  readonly state: MockStateSnapshot;
  /** Copies of the webhook deliveries so far, oldest first. */
  readonly deliveries: MockWebhookDelivery[];
  /** Resolves once every webhook delivery in flight has finished (delivered or out of attempts). */
  flushWebhooks(): Promise<void>;
  /**
   * Moves a restocking shipment to `status` (a version 1 or version 2 name; `received` = `delivered`)
   * as the warehouse would, and sends the webhook when the status changes. Moving to `restocked`
   * adds what arrived to the stock; `quantities` (only for `restocked`) say what arrived, per item
   * (one number for every item, or a record keyed by `sku_id`). Leaving `restocked` reopens the
   * shipment. Returns the shipment's version 1 view. Throws for an unknown id or status.
   */
  advanceRestockingShipment(
    id: number,
    status: RestockingStatusV1 | RestockingStatusV2,
    quantities?: MockRestockQuantities,
  ): MockRestockingShipmentV1;
  /**
   * Fulfils a fulfillable order and returns the shipment created: its reserved units leave the
   * warehouse, so `reserved` goes down and `stocked` (units available for sale) does not change.
   */
  fulfillOrder(id: number): MockShipment;
  /** Records a return of a fulfilled order and returns it. */
  createReturn(orderId: number, options?: MockReturnOptions): MockReturn;
  /** Adds a fault (see {@link MockFault}) and returns a handle to inspect or remove it. */
  injectFault(fault: MockFault): MockFaultHandle;
  /**
   * Back to the initial state: records, ids, request log, rate-limit windows and deliveries cleared
   * (in-flight deliveries abandoned), injected faults removed and the `faults` option's restored.
   * Requests in progress (waiting on latency) answer 503 `{ success: false, errors: ["mock was
   * reset"] }` and leave the fresh state untouched.
   */
  reset(): void;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** What `reset()` replaces: a request runs against the epoch it started in. */
interface Epoch {
  state: MockState;
  limiter: RateLimiter;
  faults: Faults;
}

/** The answer to a request that was in progress when `reset()` was called. */
const resetDuringRequest = (): MockResult => failure(503, 'mock was reset');

/**
 * Creates a stateful in-memory mock of the whole Merchant API.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockApi } from 'merchant-fulfillment/testing';
 *
 * const api = createMockApi();
 * const server = setupServer(...api.handlers);
 * server.listen({ onUnhandledFrame: 'error' });
 * const client = new FulfillmentClient({ apiToken: api.token, baseUrl: api.baseUrl });
 * ```
 */
export function createMockApi(options?: MockApiOptions): MockApi {
  const config: MockConfig = resolveOptions(options);
  const tokens = new Set(config.tokens);
  const timers = new Timers();
  const servers = new Set<MockServer>();
  const newEpoch = (): Epoch => {
    const faults = new Faults();
    for (const fault of config.faults) faults.add(fault);
    return {
      state: new MockState(config.warehouses),
      limiter: config.rateLimit
        ? new RateLimiter(config.rateLimit.requests, config.rateLimit.perMs, true)
        : new RateLimiter(100, 60_000, false),
      faults,
    };
  };
  let epoch = newEpoch();
  const dispatcher = new WebhookDispatcher({
    urls: config.webhooks,
    ...config.webhookRetry,
    fetch: () => config.webhookFetch ?? globalThis.fetch,
    timers,
  });
  let handlers: HttpHandler[] | undefined;

  function rateHeaders(limiter: RateLimiter, used: number): Record<string, string> {
    return { 'x-rate-limit-used': String(used), 'x-rate-limit-max': String(limiter.max) };
  }

  /** Answers an API request against `at` (the epoch it started in). */
  async function answer(
    at: Epoch,
    request: MockRequest,
    token: string | undefined,
    body: { value: JsonValue | undefined; bad: boolean },
  ): Promise<MockResult> {
    const { limiter } = at;
    const known = token !== undefined && tokens.has(token);
    const fault = at.faults.take(request.method, request.path);
    if (fault) {
      await timers.delay(fault.latency);
      if (epoch !== at) return resetDuringRequest();
      if (fault.result) {
        const used = known ? limiter.used(token, config.now().getTime()) : 0;
        return { ...fault.result, headers: { ...rateHeaders(limiter, used), ...fault.result.headers } };
      }
    }
    await timers.delay(config.latency);
    if (epoch !== at) return resetDuringRequest();
    if (!known) return unauthorized(rateHeaders(limiter, 0));
    const now = config.now();
    const verdict = limiter.hit(token, now.getTime());
    const headers = rateHeaders(limiter, verdict.used);
    if (!verdict.allowed) {
      headers['retry-after'] = retryAfterSeconds(verdict.retryAfterMs);
      return { ...failure(429, 'rate limit exceeded'), headers };
    }
    const match = matchRoute(request.method, request.path);
    if (match.kind === 'not_found') return { ...failure(404, 'not found'), headers };
    if (match.kind === 'wrong_method') {
      return {
        ...failure(405, 'method not allowed'),
        headers: { ...headers, allow: match.allow.join(', ') },
      };
    }
    if (body.bad) return { ...failure(400, 'bad request'), headers };
    const result = match.handler({
      state: at.state,
      config,
      now,
      query: new URLSearchParams(request.search),
      body: body.value,
      id: match.id,
    });
    return { ...result, headers: { ...headers, ...result.headers } };
  }

  /**
   * The core: answers a request and logs it. A request runs against the state it started with:
   * when `reset()` happens while it waits (latency), it answers 503 `mock was reset` and leaves
   * the fresh state alone (nothing written, nothing logged).
   */
  async function dispatch(request: MockRequest): Promise<MockResult> {
    const at = epoch;
    const started = config.now().toISOString();
    const body = parseBody(request);
    const token = BEARER.exec(request.authorization ?? '')?.[1];
    if (isControlPath(request.path)) {
      if (token === undefined || !tokens.has(token)) return unauthorized();
      try {
        return await answerControl(control, request.method, request.path, body);
      } catch (error) {
        return failure(500, `mock error: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    let result: MockResult;
    try {
      result = await answer(at, request, token, body);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result = failure(500, `mock error: ${message}`);
    }
    if (epoch !== at) return resetDuringRequest();
    at.state.logRequest({
      method: request.method,
      path: request.path,
      query: request.search,
      rawBody: request.body,
      status: result.drop ? 0 : result.status,
      at: started,
    });
    return result;
  }

  async function handle(request: Request): Promise<Response> {
    const converted = await fromFetchRequest(request, config.basePath);
    return toFetchResponse(await dispatch(converted), converted.method === 'HEAD');
  }

  /** Abandons the deliveries in flight and ends every timer (records stay). */
  function abandonBackground(): void {
    dispatcher.abandon('the mock was closed');
    timers.cancelAll();
  }

  function advance(
    id: number,
    status: RestockingStatusV1 | RestockingStatusV2,
    quantities: MockRestockQuantities | undefined,
  ): MockRestockingShipmentV1 | undefined {
    const record = epoch.state.restockingShipments.get(id);
    if (!record) return undefined;
    if (advanceRestocking(epoch.state, record, status, quantities, config.now())) {
      dispatcher.emit({
        body: JSON.stringify(restockingV1View(record)),
        secret: config.tokens[0]!,
        restockingShipmentId: record.id,
        status: record.status,
      });
    }
    return restockingV1View(record);
  }

  function fulfill(id: number): MockShipment | undefined {
    const order = epoch.state.orders.get(id);
    return order ? fulfilOrder(epoch.state, order, config.now()) : undefined;
  }

  function returnOf(orderId: number, returnOptions: MockReturnOptions): MockReturn | undefined {
    const order = epoch.state.orders.get(orderId);
    return order ? createReturn(epoch.state, order, returnOptions, config.now()) : undefined;
  }

  function reset(): void {
    timers.cancelAll();
    dispatcher.reset();
    epoch.faults.clear();
    epoch = newEpoch();
  }

  const control: ControlTarget = {
    advance: (id, status, quantities) =>
      advance(id, status as RestockingStatusV1 | RestockingStatusV2, quantities),
    fulfill,
    createReturn: returnOf,
    addFault: (fault) => epoch.faults.add(fault).id,
    listFaults: () => epoch.faults.list(),
    removeFault: (id) => epoch.faults.remove(id),
    clearFaults: () => epoch.faults.clear(),
    reset,
    deliveries: () => dispatcher.deliveries(),
    flush: () => dispatcher.flush(),
    state: () => snapshot(epoch.state),
  };

  const api: MockApi = {
    baseUrl: config.baseUrl,
    token: config.tokens[0]!,
    tokens: config.tokens,
    get handlers(): HttpHandler[] {
      handlers ??= createMswHandlers(config.baseUrl, handle);
      return handlers;
    },
    handle,
    async fetch(input, init) {
      const response = await handle(new Request(input, init));
      if (response.type === 'error') {
        throw new TypeError('fetch failed', {
          cause: new Error('connection reset by the mock (injected fault)'),
        });
      }
      return response;
    },
    async listen(listenOptions = {}) {
      const { startServer } = await import('./server.js');
      const server = await startServer(dispatch, listenOptions, () => {
        servers.delete(server);
        timers.cancelDelays();
        dispatcher.abandon('the mock was closed');
      });
      servers.add(server);
      return server;
    },
    async close() {
      const closing = [...servers].map((server) => server.close());
      abandonBackground();
      await Promise.all(closing);
    },
    get state(): MockStateSnapshot {
      return snapshot(epoch.state);
    },
    get deliveries() {
      return dispatcher.deliveries();
    },
    flushWebhooks: () => dispatcher.flush(),
    advanceRestockingShipment(id, status, quantities) {
      const view = advance(id, status, quantities);
      if (!view) throw new Error(`No restocking shipment with id ${id}`);
      return view;
    },
    fulfillOrder(id) {
      const shipment = fulfill(id);
      if (!shipment) throw new Error(`No order with id ${id}`);
      return shipment;
    },
    createReturn(orderId, returnOptions = {}) {
      const record = returnOf(orderId, returnOptions);
      if (!record) throw new Error(`No order with id ${orderId}`);
      return record;
    },
    injectFault: (fault) => epoch.faults.add(fault),
    reset,
  };
  return api;
}

/** Parses the JSON body of a POST / PUT / PATCH (other methods' bodies are ignored). */
function parseBody(request: MockRequest): { value: JsonValue | undefined; bad: boolean } {
  if (!BODY_METHODS.has(request.method) || request.body.trim() === '')
    return { value: undefined, bad: false };
  try {
    return { value: JSON.parse(request.body) as JsonValue, bad: false };
  } catch {
    return { value: undefined, bad: true };
  }
}

/** A snapshot whose lists are built (as fresh copies) when read. */
function snapshot(state: MockState): MockStateSnapshot {
  return {
    get skus() {
      return state.skus.all().map((s) => skuView(s, state));
    },
    get orders() {
      return state.orders.all().map((o) => orderView(o, true));
    },
    get restockingShipments() {
      return state.restockingShipments.all().map(restockingV1View);
    },
    get restockingShipmentsV2() {
      return state.restockingShipments.all().map(restockingV2View);
    },
    get shipments() {
      return state.shipments.all().map((s) => structuredClone(s.view));
    },
    get returns() {
      return state.returns.all().map((r) => structuredClone(r.view));
    },
    get warehouses() {
      return structuredClone([...state.warehouses]);
    },
    get requests() {
      return state.requestLog();
    },
  };
}
