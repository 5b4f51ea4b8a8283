/**
 * The control methods the in-process mock (`MockApi`) and a connection to a running mock
 * (`MockConnection`) share: their arguments and answers, and one zod schema per operation, read
 * through `checkInput` by the in-process method. The control routes (`faces/control.ts`) pass
 * their body or query to that method, and a connection passes on the route's 422: each way in
 * refuses the same values with the same words.
 */
import * as z from 'zod/mini';
import { type MockReturnOptions, RETURN_REASONS } from '../domain/outbound.js';
import type { MockRestockingShipmentV1, MockReturn, MockShipment } from '../domain/resources.js';
import { type MockRestockQuantities, RESTOCK_FIGURES } from '../domain/restocking.js';
import {
  RESTOCKING_STATUS_NAMES,
  type RestockingStatusV1,
  type RestockingStatusV2,
  toV1Status,
} from '../domain/restocking-status.js';
import type { MockStateSnapshot } from '../domain/snapshot.js';
import type { MockWebhookDelivery } from '../domain/webhook-event.js';
import { checkInput, type Refuse } from '../engine/check.js';
import { pageBody, pageOfList } from '../engine/collection.js';
import type { FaultSummary, MockFault, MockFaultHandle } from '../engine/faults.js';
import { isIdText } from '../engine/router.js';
import {
  deliveryStatus,
  MOCK_DELIVERY_STATUSES,
  type MockDeliveryStatus,
  type MockRedeliverFilter,
} from '../engine/webhook-delivery.js';

export type { Refuse } from '../engine/check.js';

/**
 * `T` as the in-process mock answers it (`Remote` false) or as a connection to a running mock
 * does (`Remote` true: a promise of it).
 */
export type MockControlAnswer<T, Remote extends boolean> = Remote extends true ? Promise<T> : T;

/** A fault injected through a connection (see `MockConnection.injectFault`). */
export interface MockRemoteFaultHandle {
  /** The fault's id (as `faults()` lists it). */
  readonly id: number;
  /** Removes the fault: `true` when it was in force, `false` when it was already used up or removed. */
  remove(): Promise<boolean>;
}

/**
 * The handle `injectFault` gives: the in-process {@link MockFaultHandle} (live counters, removed at
 * once) or, through a connection, a {@link MockRemoteFaultHandle} (its id; removed by a call).
 */
export type MockInjectedFault<Remote extends boolean> = Remote extends true
  ? Promise<MockRemoteFaultHandle>
  : MockFaultHandle;

/** The query of `readState` / `state` for one list of the snapshot. */
export interface MockStateQuery<C extends MockCollectionName> {
  /** The list to read. */
  collection: C;
  /** The page (of each list, of the deliveries), from 1. Default 1. */
  page?: number;
  /** Records (deliveries) per page, 1 to 1000. Default 50. */
  limit?: number;
}

/** The query of `readState` / `state` for several lists of the snapshot (each paginated). */
export interface MockStateCollectionsQuery<C extends MockCollectionName>
  extends Omit<MockStateQuery<C>, 'collection'> {
  /** The lists to read (a page of each). */
  collections: readonly C[];
}

/**
 * Which webhook deliveries to read, and which page of them (`GET /__mock/deliveries?…`,
 * `readDeliveries(query)`, `flushWebhooks(query)`). Every filter given must match.
 */
export interface MockDeliveriesQuery extends Omit<MockStateQuery<MockCollectionName>, 'collection'> {
  /** Only the delivery of this event (`x-service-event-id`). */
  eventId?: string;
  /** Only the deliveries to this receiver URL. */
  url?: string;
  /** Only the deliveries in this state (see {@link MockDeliveryStatus}). */
  status?: MockDeliveryStatus;
}

/** A page of the webhook deliveries that match a {@link MockDeliveriesQuery}, oldest first. */
export interface MockDeliveriesPage {
  /** The deliveries of the page (with their bodies). */
  data: MockWebhookDelivery[];
  /** Where the page lies among the deliveries that match. */
  pagination: MockStatePagination;
}

/**
 * The control methods the in-process mock (`MockApi`, `Remote` false) and a connection to a running
 * mock (`MockConnection`, `Remote` true) share: the same arguments and results, the connection's
 * wrapped in a promise. Each argument is checked by the one checker of its operation, which the
 * control route uses too: a bad one is refused naming the field (in-process a `TypeError`
 * `<method>: <field>: <problem>`; through a connection, the route's 422), before anything changes. Two differences remain, as far as a remote allows: `injectFault` gives a
 * live handle in-process and a {@link MockRemoteFaultHandle} remotely; and the in-process
 * `api.state` / `api.deliveries` are properties while a connection's `state()` / `deliveries()` are
 * methods — `readState()` / `readDeliveries()` are the names both share. A connection's
 * `flushWebhooks` also takes a per-call `{ timeoutMs }`.
 */
export interface MockControlMethods<Remote extends boolean = false> {
  /**
   * Moves a restocking shipment to `status` (a version 1 or version 2 name; `received` =
   * `delivered`) as the warehouse would, and sends the webhook when the status changes. Moving to
   * `restocked` adds what arrived to the stock; `quantities` (only for `restocked`) say what
   * arrived, per item (one number for every item, or a record keyed by `sku_id`). Leaving
   * `restocked` reopens the shipment. Returns the shipment's version 1 view. Refused: an unknown
   * id, an id that is not an integer >= 1, a `status` that is no status name, quantities that are
   * not an object, an unknown field, a figure that is not an integer >= 0 (or an object of such
   * integers keyed by sku id), quantities with a status other than `restocked`.
   */
  advanceRestockingShipment(
    id: number,
    status: RestockingStatusV1 | RestockingStatusV2,
    quantities?: MockRestockQuantities,
  ): MockControlAnswer<MockRestockingShipmentV1, Remote>;
  /**
   * Fulfils a fulfillable order and returns the shipment created: its reserved units leave the
   * warehouse, so `reserved` goes down and `stocked` (units available for sale) does not change.
   */
  fulfillOrder(id: number): MockControlAnswer<MockShipment, Remote>;
  /**
   * Records a return of a fulfilled order and returns it. Refused: an unknown order, bad options
   * (`createReturn: options.items[0].quantity: Too small: expected number to be >=1`), an unknown
   * field, options that are not an object.
   */
  createReturn(orderId: number, options?: MockReturnOptions): MockControlAnswer<MockReturn, Remote>;
  /** The faults in force, oldest first. */
  faults(): MockControlAnswer<FaultSummary[], Remote>;
  /** Removes every fault in force (injected or from the `faults` option); returns how many there were. */
  clearFaults(): MockControlAnswer<number, Remote>;
  /**
   * Sends again the webhook deliveries that were given up (out of attempts, or abandoned by
   * `close()`) — every one, or those to `filter.url`; with `filter.eventId`, that delivery whatever
   * its outcome (a delivered one too, to test a receiver's dedupe). The same record is re-queued:
   * same event id and body, a fresh budget of attempts, `redeliveries` counted up. Returns copies of
   * the deliveries re-queued (at once: await `flushWebhooks` to see them delivered). Refused: a
   * filter that is not an object, an `eventId` or `url` that is not a non-empty string, an unknown
   * field.
   */
  redeliverWebhooks(filter?: MockRedeliverFilter): MockControlAnswer<MockWebhookDelivery[], Remote>;
  /**
   * Back to the initial state — the `initialState` or `seed` option's when given (applied again),
   * else empty: records, ids, request log, rate-limit windows and deliveries cleared (in-flight
   * deliveries abandoned), injected faults removed and the `faults` option's restored. Requests in
   * progress (waiting on latency) answer 503 `{ success: false, errors: ["mock was reset"] }` and
   * leave the fresh state untouched.
   */
  reset(): MockControlAnswer<void, Remote>;
  /**
   * Adds a fault (see {@link MockFault}). In-process: a {@link MockFaultHandle} (live counters,
   * `remove()` at once); through a connection: a {@link MockRemoteFaultHandle} (a RegExp `path` is
   * sent as its source, and one with flags is refused). A bad fault is refused naming the field
   * (`Invalid fault: …`; an unknown field with the closest name).
   */
  injectFault(fault: MockFault): MockInjectedFault<Remote>;
  /**
   * Waits until no webhook delivery is in flight (delivered or given up), then resolves with every
   * delivery, oldest first — a promise in-process too.
   */
  flushWebhooks(): Promise<MockWebhookDelivery[]>;
  /** Waits until no webhook delivery is in flight, then resolves with a page of those matching `query`. */
  flushWebhooks(query: MockDeliveriesQuery): Promise<MockDeliveriesPage>;
  /**
   * Every webhook delivery so far, oldest first (copies). The in-process mock also has the property
   * `api.deliveries` (the same list); a connection's `deliveries()` is this method.
   */
  readDeliveries(): MockControlAnswer<MockWebhookDelivery[], Remote>;
  /** A page of the webhook deliveries matching `query`, oldest first. */
  readDeliveries(query: MockDeliveriesQuery): MockControlAnswer<MockDeliveriesPage, Remote>;
  /**
   * Every record of the mock (the whole snapshot: large after a long test; prefer a query). The
   * in-process mock also has the property `api.state` (the same snapshot); a connection's `state()`
   * is this method.
   */
  readState(): MockControlAnswer<MockStateSnapshot, Remote>;
  /** One page of one list of the snapshot, oldest record first. */
  readState<C extends MockCollectionName>(
    query: MockStateQuery<C>,
  ): MockControlAnswer<MockStatePage<C>, Remote>;
  /** One page of each list named. */
  readState<C extends MockCollectionName>(
    query: MockStateCollectionsQuery<C>,
  ): MockControlAnswer<{ [K in C]: MockStatePage<K> }, Remote>;
}

/** The lists of the state snapshot, by name (`GET /__mock/state?collection=<name>`). */
export type MockCollectionName = keyof MockStateSnapshot;

const LISTS = 'skus orders restockingShipments restockingShipmentsV2 shipments returns warehouses requests';
/** The names {@link MockCollectionName} allows, in the snapshot's order (a test holds them to it). */
export const MOCK_COLLECTIONS = LISTS.split(' ') as readonly MockCollectionName[];

/** The default page size of the control reads. */
export const STATE_DEFAULT_LIMIT = 50;
/** The largest page size of the control reads. */
export const STATE_MAX_LIMIT = 1000;

/** The pagination block of a page of the state (the API's names). */
export interface MockStatePagination {
  /** The page answered (from 1). */
  current_page: number;
  /** Pages in the collection at this page size (0 when it is empty). */
  page_count: number;
  /** Records in the collection. */
  item_count: number;
  /** The page size. */
  items_per_page: number;
}

/** A page of one list of the state snapshot, oldest record first. */
export interface MockStatePage<C extends MockCollectionName> {
  /** The records of the page. */
  data: MockStateSnapshot[C];
  /** Where the page lies in the list. */
  pagination: MockStatePagination;
}

/**
 * A {@link Refuse} for the checks of one argument, which name the argument itself `''` and its
 * fields by their path in it (`eventId`, `items[0].quantity`): the argument is reported as `name`,
 * a field with `prefix` before it (`filter.` gives `filter.eventId`; `''` names a body's fields alone).
 */
export function refuseArgument(name: string, prefix: string, refuse: Refuse): Refuse {
  return (field, problem) => refuse(field === '' ? name : `${prefix}${field}`, problem);
}

/** No record has the id a control method was given (a route answers 404 with its message). */
export class NoRecord extends Error {}

/**
 * A refused argument of an in-process control method: a `TypeError` `<method>: <field>:
 * <problem>`; a route answers it 422, the field in the route's words.
 */
export class Refused extends TypeError {}

/** The {@link Refuse} of the in-process method `method` (a {@link Refused}). */
export function refuseIn(method: string): Refuse {
  return (field, problem) => {
    throw new Refused(`${method}: ${field}: ${problem}`);
  };
}

const Id = z.int().check(z.minimum(1));
const Count = z.int().check(z.minimum(0));
const Text = z.optional(z.string().check(z.minLength(1)));
const Page = {
  page: z._default(Id, 1),
  limit: z._default(z.int().check(z.minimum(1), z.maximum(STATE_MAX_LIMIT)), STATE_DEFAULT_LIMIT),
};
const Figure = z.optional(
  z.union([Count, z.record(z.string().check(z.refine(isIdText)), Count)], {
    error: 'must be an integer >= 0 or an object of such integers keyed by sku id',
  }),
);
const Quantities = z.strictObject({ arrived: Figure, damaged: Figure, missing: Figure });
const Status = z.enum(RESTOCKING_STATUS_NAMES);
const ReturnItem = z
  .strictObject({
    sku_id: z.optional(Id),
    merchant_sku_id: z.optional(z.string()),
    quantity: Id,
    reason: z.optional(z.nullable(z.string())),
    message: z.optional(z.nullable(z.string())),
  })
  .check(
    z.refine((item) => item.sku_id !== undefined || item.merchant_sku_id !== undefined, {
      error: 'is required (or merchant_sku_id)',
      path: ['sku_id'],
    }),
  );
const ReturnOptions = z.strictObject({
  items: z.optional(z.array(ReturnItem).check(z.minLength(1))),
  reason: z.optional(z.enum(RETURN_REASONS)),
  carrier: z.optional(z.string()),
});
const RedeliverFilter = z.strictObject({ eventId: Text, url: Text });
const DeliveriesQuery = z.extend(RedeliverFilter, {
  status: z.optional(z.enum(MOCK_DELIVERY_STATUSES)),
  ...Page,
});
const Collection = z.enum(MOCK_COLLECTIONS);
const StateQuery = z
  .strictObject({
    collection: z.optional(Collection),
    collections: z.optional(z.array(Collection).check(z.minLength(1))),
    ...Page,
  })
  .check(
    z.refine((q) => (q.collection === undefined) !== (q.collections === undefined), {
      error: 'give either collection or collections',
      path: ['collection'],
    }),
  );

/** A record id (an integer >= 1), else a refusal naming the argument `name`. */
export const checkRecordId = (value: unknown, name: string, refuse: Refuse): number =>
  checkInput(Id, value, refuse, name);

/** A status name of either version (`received` is version 2's `delivered`), else a refusal naming `name`. */
export const checkRestockingStatus = (value: unknown, name: string, refuse: Refuse) =>
  checkInput(Status, value, refuse, name);

/**
 * Restock quantities: only `arrived`, `damaged` and `missing`, each an integer >= 0 or an object of
 * such integers keyed by sku id, and only when `status` (checked first) is `restocked`. `refuse`
 * gets `''` for the quantities themselves. A copy, or `undefined` when no figure is given.
 */
export function checkRestockQuantities(
  quantities: unknown,
  status: unknown,
  refuse: Refuse,
): MockRestockQuantities | undefined {
  if (quantities === undefined) return undefined;
  const checked = checkInput(Quantities, quantities, refuse);
  const given = RESTOCK_FIGURES.find((name) => checked[name] !== undefined);
  if (given !== undefined && toV1Status(String(status)) !== 'restocked') {
    refuse(given, `must be left out: quantities apply only when moving to 'restocked', not '${status}'`);
  }
  return given === undefined ? undefined : (checked as MockRestockQuantities);
}

/** Return options (`refuse` gets `''` for the options themselves): a copy. */
export const checkReturnOptions = (options: unknown, refuse: Refuse) =>
  checkInput(ReturnOptions, options, refuse) as MockReturnOptions;

/** A redeliver filter: only `eventId` and `url`, each a non-empty string when given. */
export const checkRedeliverFilter = (filter: unknown, refuse: Refuse) =>
  checkInput(RedeliverFilter, filter, refuse) as MockRedeliverFilter;

/** A {@link MockDeliveriesQuery} checked, its page and limit filled in. */
export const checkDeliveriesQuery = (given: unknown, refuse: Refuse) =>
  checkInput(DeliveriesQuery, given, refuseArgument('query', '', refuse));

/** The page `page` (1-based) of `all`, in its order, with the pagination block. */
const listPage = <T>(all: readonly T[], page: number, limit: number) =>
  pageBody(pageOfList(all, page, limit), (item) => item);

/** One page of the deliveries matching `query` (checked), oldest first. */
export function deliveriesPage(
  all: readonly MockWebhookDelivery[],
  { eventId, url, status, page, limit }: z.output<typeof DeliveriesQuery>,
): MockDeliveriesPage {
  const chosen = all.filter(
    (d) =>
      (eventId ?? d.eventId) === d.eventId &&
      (url ?? d.url) === d.url &&
      (status ?? deliveryStatus(d)) === deliveryStatus(d),
  );
  return listPage(chosen, page, limit);
}

/** A {@link MockStateQuery} or {@link MockStateCollectionsQuery} checked, its page and limit filled in. */
export const checkStateQuery = (given: unknown, refuse: Refuse) =>
  checkInput(StateQuery, given, refuseArgument('query', '', refuse));

/** The answer to a checked state query: one page, or a page of each list. */
export function stateQueryAnswer(
  snapshot: MockStateSnapshot,
  { collection, collections, page, limit }: z.output<typeof StateQuery>,
) {
  const pageOf = (name: MockCollectionName) => listPage<unknown>(snapshot[name], page, limit);
  return collection ? pageOf(collection) : Object.fromEntries(collections!.map((n) => [n, pageOf(n)]));
}
