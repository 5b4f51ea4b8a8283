/**
 * `createMockApi`, the composition root of the testing kit: one in-memory Merchant API whose faces
 * (`faces/`: msw handlers, a real HTTP server, an in-process `fetch`, the `/__mock/` control routes)
 * call one core, the engine's request pipeline (`engine/pipeline.ts`), which answers with the
 * domain's rules (`domain/routes.ts`) — plus the control methods tests call in JS.
 *
 * Each part is created here and handed to the others: the options, the timers and the webhook
 * dispatcher live as long as the mock; the state, rate-limit windows, faults and request log form
 * an epoch that `reset()` replaces.
 */
import { createReturn, fulfilOrder } from './domain/outbound.js';
import { exportState, importState } from './domain/persist.js';
import { advanceRestocking } from './domain/restocking.js';
import { createApiRouter } from './domain/routes.js';
import { applySeed, checkSeed, type MockSeed } from './domain/seed.js';
import { type MockStateSnapshot, snapshot } from './domain/snapshot.js';
import { MockState, type OrderRecord } from './domain/state.js';
import type { MockStateFile } from './domain/state-format.js';
import { restockingV1View } from './domain/views.js';
import { type MockWebhookDelivery, type StatusUpdate, statusUpdatedEvent } from './domain/webhook-event.js';
import { Faults, type MockFault } from './engine/faults.js';
import { createPipeline, type Epoch } from './engine/pipeline.js';
import { RateLimiter } from './engine/rate-limit.js';
import { RequestLog } from './engine/request-log.js';
import { Timers } from './engine/timers.js';
import { WebhookDispatcher } from './engine/webhook-delivery.js';
import { answerControl, type ControlTarget, isControlPath, isPublicControlRoute } from './faces/control.js';
import {
  checkDeliveriesQuery,
  checkRecordId,
  checkRedeliverFilter,
  checkRestockingStatus,
  checkRestockQuantities,
  checkReturnOptions,
  checkStateQuery,
  deliveriesPage,
  type MockControlMethods,
  NoRecord,
  type Refuse,
  refuseArgument,
  refuseIn,
  stateQueryAnswer,
} from './faces/control-methods.js';
import { fetchHandler, inProcessFetch } from './faces/fetch.js';
import type { MockListenOptions, MockServer } from './faces/listen.js';
import { createMswHandlers } from './faces/msw.js';
import type { MockHandler } from './faces/msw-types.js';
import { type MockApiOptions, type MockConfig, resolveOptions } from './options.js';

/**
 * A stateful in-memory Merchant API for tests. Create it with {@link createMockApi}. Its control
 * methods ({@link MockControlMethods}) are those of a connection to a running mock (`connectMock`),
 * answered at once; a bad argument is a `TypeError` `<method>: <field>: <problem>`, thrown before
 * anything changes (by `flushWebhooks`, a rejection).
 */
export interface MockApi extends MockControlMethods {
  /** Root URL the msw handlers and `fetch` answer on (default `https://fulfillment.mock`). */
  readonly baseUrl: string;
  /** The oldest accepted token (it signs webhooks): use it as your client's API token. */
  readonly token: string;
  /** Every accepted token, oldest first. */
  readonly tokens: readonly string[];
  /**
   * msw request handlers answering `${baseUrl}/merchant_api/*` and the control routes
   * `${baseUrl}/__mock/*` (nothing else): `setupServer(...api.handlers)`.
   * Needs the optional peer dependency `msw` (v2 or v3); throws a clear error without it.
   */
  readonly handlers: MockHandler[];
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
  /**
   * A snapshot of every record (fresh copies at each read). A property here; a connection
   * (`connectMock`) has the method `state()` instead. The name both share is
   * `readState` (`api.readState()` is this snapshot).
   */
  readonly state: MockStateSnapshot;
  /**
   * The whole state as one JSON-serializable value (records, id counters, warehouses; not the
   * request log, faults or deliveries): save it, and start a mock from it with
   * `createMockApi({ initialState })`. Fresh copies at each call.
   */
  exportState(): MockStateFile;
  /**
   * Copies of the webhook deliveries so far, oldest first. A property here; a connection
   * (`connectMock`) has the method `deliveries()` instead. The name both share is
   * `readDeliveries` (`api.readDeliveries()` is this list).
   */
  readonly deliveries: MockWebhookDelivery[];
}

/** Throws the {@link NoRecord} error `message` (a route answers it 404). */
function noRecord(message: string): never {
  throw new NoRecord(message);
}

/** `listener` with its errors ignored: a failing listener does not change the answer. */
const quietly = <A extends unknown[]>(listener?: (...args: A) => void) =>
  listener &&
  ((...args: A) => {
    try {
      listener(...args);
    } catch {}
  });

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
  const timers = new Timers();
  const servers = new Set<MockServer>();
  if (config.initialState !== undefined && config.seed !== undefined) {
    throw new TypeError('createMockApi: initialState and seed cannot be used together');
  }
  // Own checked copies: reset() starts from them again, whatever the caller does with theirs.
  const initial = config.initialState && exportState(importState(config.initialState));
  const seed = config.seed && (structuredClone(checkSeed(config.seed)) as MockSeed);
  const freshState = (): MockState => {
    if (initial) return importState(initial);
    const fresh = new MockState(config.warehouses);
    if (seed) applySeed(fresh, seed, config, config.now());
    return fresh;
  };
  const changed = quietly(config.onChange) ?? (() => {});
  const observe = quietly(config.onRequest);
  const newEpoch = (): Epoch<MockState> => {
    const faults = new Faults();
    for (const fault of config.faults) faults.addChecked(fault as MockFault);
    return {
      state: freshState(),
      limiter: new RateLimiter(config.rateLimit),
      faults,
      log: new RequestLog(),
    };
  };
  let epoch = newEpoch();
  const dispatcher = new WebhookDispatcher<StatusUpdate>({
    urls: config.webhooks,
    ...config.webhookRetry,
    fetch: () => config.webhookFetch ?? globalThis.fetch,
    secret: config.tokens[0]!,
    timers,
  });
  let handlers: MockHandler[] | undefined;
  /** What closing does besides the servers: deliveries in flight abandoned, every timer ended. */
  const abandon = () => {
    dispatcher.abandon('the mock was closed');
    timers.cancelAll();
  };

  /** What `make` makes of order `id` (the state changed); {@link NoRecord} when there is no such order. */
  function onOrder<T>(id: number, make: (order: OrderRecord) => T): T {
    const order = epoch.state.orders.get(id) ?? noRecord(`No order with id ${id}`);
    const made = make(order);
    changed();
    return made;
  }

  function reset(): void {
    dispatcher.reset();
    timers.cancelAll();
    epoch.faults.clear();
    epoch = newEpoch();
    changed();
  }

  const state = (): MockStateSnapshot => snapshot(epoch.state, epoch.log.entries.bind(epoch.log));

  const dispatch = createPipeline({
    tokens: new Set(config.tokens),
    latency: config.latency,
    now: config.now,
    timers,
    epoch: () => epoch,
    route: createApiRouter(config),
    onRequest: observe,
    // Only a 2xx answer of a mutating API route: refused requests change nothing. The control
    // routes tell of their changes through the control methods (advance, fulfil, return, reset).
    onChange: config.onChange && changed,
    sideDoor: {
      owns: isControlPath,
      isPublic: isPublicControlRoute,
      answer: (method, path, body, search) => answerControl(control, method, path, body, search),
    },
  });
  const handle = fetchHandler(dispatch, config.basePath);

  const api: MockApi = {
    baseUrl: config.baseUrl,
    token: config.tokens[0]!,
    tokens: config.tokens,
    get handlers(): MockHandler[] {
      handlers ??= createMswHandlers(config.baseUrl, handle);
      return handlers;
    },
    handle: (request) => handle(request), // the server's raw method and path are not for callers
    fetch: inProcessFetch(handle),
    async listen(listenOptions = {}) {
      // The server face (node:http) is loaded only now, so the rest of the kit runs anywhere.
      const { startServer } = await import('./faces/server.js');
      const server = await startServer(
        dispatch,
        listenOptions,
        () => {
          servers.delete(server);
          abandon();
        },
        observe,
      );
      servers.add(server);
      return server;
    },
    async close() {
      const closing = [...servers].map((server) => server.close());
      abandon();
      await Promise.all(closing);
    },
    get state(): MockStateSnapshot {
      return state();
    },
    exportState: () => exportState(epoch.state),
    get deliveries(): MockWebhookDelivery[] {
      return dispatcher.deliveries();
    },
    readState: ((query?: unknown) => {
      if (query === undefined) return state();
      return stateQueryAnswer(state(), checkStateQuery(query, refuseIn('readState')));
    }) as MockApi['readState'],
    readDeliveries: ((query?: unknown) => {
      if (query === undefined) return dispatcher.deliveries();
      return deliveriesPage(dispatcher.deliveries(), checkDeliveriesQuery(query, refuseIn('readDeliveries')));
    }) as MockApi['readDeliveries'],
    flushWebhooks: (async (query?: unknown) => {
      // The query is checked first: a mistake rejects at once, not after the wait.
      const checked =
        query === undefined ? undefined : checkDeliveriesQuery(query, refuseIn('flushWebhooks'));
      await dispatcher.flush();
      return checked ? deliveriesPage(dispatcher.deliveries(), checked) : dispatcher.deliveries();
    }) as MockApi['flushWebhooks'],
    advanceRestockingShipment(id, status, quantities) {
      const refuse: Refuse = refuseIn('advanceRestockingShipment');
      const checkedId = checkRecordId(id, 'id', refuse);
      // Checked as `POST /__mock/restocking_shipments/{id}/advance` checks its body (one checker).
      const checkedStatus = checkRestockingStatus(status, 'status', refuse);
      const checked = checkRestockQuantities(
        quantities,
        checkedStatus,
        refuseArgument('quantities', 'quantities.', refuse),
      );
      const record =
        epoch.state.restockingShipments.get(checkedId) ?? noRecord(`No restocking shipment with id ${id}`);
      if (advanceRestocking(epoch.state, record, checkedStatus, checked, config.now())) {
        dispatcher.emit(statusUpdatedEvent(record));
        changed();
      }
      return restockingV1View(record);
    },
    fulfillOrder: (id) =>
      onOrder(checkRecordId(id, 'id', refuseIn('fulfillOrder')), (order) =>
        fulfilOrder(epoch.state, order, config.now()),
      ),
    createReturn(orderId, returnOptions = {}) {
      const refuse: Refuse = refuseIn('createReturn');
      const checkedId = checkRecordId(orderId, 'orderId', refuse);
      // Checked as `POST /__mock/orders/{id}/returns` checks a body (one checker).
      const options = checkReturnOptions(returnOptions, refuseArgument('options', 'options.', refuse));
      return onOrder(checkedId, (order) => createReturn(epoch.state, order, options, config.now()));
    },
    injectFault: (fault) => epoch.faults.add(fault),
    faults: () => epoch.faults.list(),
    clearFaults: () => epoch.faults.clear(),
    redeliverWebhooks: (filter = {}) =>
      dispatcher.redeliver(
        checkRedeliverFilter(filter, refuseArgument('filter', 'filter.', refuseIn('redeliverWebhooks'))),
      ),
    reset,
  };
  const control: ControlTarget = Object.assign(Object.create(api), {
    removeFault: (id: number) => epoch.faults.remove(id),
  });
  return api;
}
