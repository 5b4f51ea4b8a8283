/**
 * The control routes: the mock's control methods over HTTP, under `/__mock/` (outside
 * `/merchant_api/`), so that a client in any language can drive the mock through either face
 * (`connectMock` is the typed client of these routes). They need a valid `Authorization: Bearer
 * <token>` like the API — all but the index `GET /__mock/` (and `GET /__mock`), which lists static
 * documentation only (no record, no token) so that the URL the command line prints opens in a
 * browser. They are not subject to faults, latency or the rate limit, nor recorded in the request
 * log. `GET /__mock/` lists them, from the table below (`ROUTES`), so the list cannot drift from
 * what is served.
 *
 * | route | body | answer |
 * |---|---|---|
 * | `GET /__mock/` (no token needed) | — | 200, `{ routes: [{ method, path, body, query, answers, description }…] }` |
 * | `POST /__mock/restocking_shipments/{id}/advance` | `{ status, arrived?, damaged?, missing? }` | 200, the v1 shipment |
 * | `POST /__mock/orders/{id}/fulfill` | — | 201, the shipment |
 * | `POST /__mock/orders/{id}/returns` | `{ items?, reason?, carrier? }` | 201, the return |
 * | `GET /__mock/faults` | — | 200, `{ data: [fault in force…] }` |
 * | `POST /__mock/faults` | a fault (`path` or `pathPattern`) | 201, `{ id }` |
 * | `DELETE /__mock/faults` | — | 200, `{ removed }` (every fault in force) |
 * | `DELETE /__mock/faults/{id}` | — | 200, `{ removed: 1 }` |
 * | `POST /__mock/reset` | — | 204 |
 * | `GET /__mock/deliveries` | — | 200, `{ data: [delivery…] }` (every one) |
 * | `GET /__mock/deliveries?status=failed&url=…&eventId=…&page=2&limit=50` | — | 200, `{ data, pagination }` |
 * | `POST /__mock/webhooks/flush` | — | 200, `{ data: [delivery…] }` once none is in flight |
 * | `POST /__mock/webhooks/flush?status=failed&page=1` | — | 200, `{ data, pagination }` once none is in flight |
 * | `POST /__mock/webhooks/redeliver` | `{ eventId?, url? }` | 200, `{ data: [delivery re-queued…] }` |
 * | `GET /__mock/state` | — | 200, the state snapshot |
 * | `GET /__mock/state?collection=orders&page=2&limit=50` | — | 200, `{ data, pagination }` |
 * | `GET /__mock/state?collections=orders,skus` | — | 200, `{ orders: { data, pagination }, … }` |
 *
 * Errors: `{ success: false, errors: [...] }` with 404 (unknown route or id), 405, 400 (body not
 * JSON, or nesting deeper than 32 levels), 413 (body over 10 MiB) or 422 (invalid body or query:
 * each message is `<field>: <what is wrong>`, e.g. `items[0].quantity: must be an integer >= 1`;
 * or a move the mock refuses). A string received is described only by its length (`got a string
 * of 14 characters`), and so is a key that should be an sku id but is not (`arrived[<a key of 9
 * characters>]`): it may be a secret sent by mistake. Terse answers (`not found`, `method not
 * allowed`, `bad request`) carry the precise reason in the mock-only `x-mock-hint` header (a path
 * segment that is not a route's nor an id shown by its length likewise).
 */

import { type MockReturnOptions, RETURN_REASONS } from '../domain/outbound.js';
import type { MockRestockingShipmentV1, MockReturn, MockShipment } from '../domain/resources.js';
import { type MockRestockQuantities, RESTOCK_FIGURES } from '../domain/restocking.js';
import {
  isRestockingStatusName,
  RESTOCKING_STATUS_NAMES,
  type RestockingStatusV1,
  type RestockingStatusV2,
  restockingStatus,
  toV1Status,
} from '../domain/restocking-status.js';
import type { MockStateSnapshot } from '../domain/snapshot.js';
import type { MockWebhookDelivery } from '../domain/webhook-event.js';
import { pageOf } from '../engine/collection.js';
import { type FaultSummary, InvalidFault, type MockFault, type MockFaultHandle } from '../engine/faults.js';
import type { JsonValue, ReadJson } from '../engine/json.js';
import { badBody, withHint } from '../engine/pipeline.js';
import { failure, json, type MockResult } from '../engine/result.js';
import { isIdText, matchPath, notFoundHint, type RouteOf } from '../engine/router.js';
import {
  describeKey,
  describeText,
  describeValue,
  isObject,
  isShortDigits,
  readFields,
  readList,
  readObject,
  shownKey,
} from '../engine/validation.js';
import {
  deliveryStatus,
  MOCK_DELIVERY_STATUSES,
  type MockDeliveryStatus,
  type MockRedeliverFilter,
} from '../engine/webhook-delivery.js';

/** The path prefix of the control routes. */
export const CONTROL_PREFIX = '/__mock/';

/** What the control routes act on (the mock's control methods). */
export interface ControlTarget {
  /**
   * `undefined` when there is no such shipment. `status` and `quantities` come checked
   * ({@link checkRestockingStatus}, {@link checkRestockQuantities}).
   */
  advance(
    id: number,
    status: RestockingStatusV1 | RestockingStatusV2,
    quantities: MockRestockQuantities | undefined,
  ): MockRestockingShipmentV1 | undefined;
  /** `undefined` when there is no such order; throws when it cannot be fulfilled. */
  fulfill(id: number): MockShipment | undefined;
  /** `undefined` when there is no such order; throws when it cannot be returned. */
  createReturn(id: number, options: MockReturnOptions): MockReturn | undefined;
  addFault(fault: MockFault): number;
  listFaults(): FaultSummary[];
  removeFault(id: number): boolean;
  clearFaults(): number;
  reset(): void;
  deliveries(): MockWebhookDelivery[];
  /** Resolves once no webhook delivery is in flight. */
  flush(): Promise<void>;
  /** Re-queues the given-up deliveries matching `filter`; returns them. */
  redeliver(filter: MockRedeliverFilter): MockWebhookDelivery[];
  state(): MockStateSnapshot;
}

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
  /** The page, from 1. Default 1. */
  page?: number;
  /** Records per page, 1 to 1000. Default 50. */
  limit?: number;
}

/** The query of `readState` / `state` for several lists of the snapshot (each paginated). */
export interface MockStateCollectionsQuery<C extends MockCollectionName> {
  /** The lists to read. */
  collections: readonly C[];
  /** The page of each list, from 1. Default 1. */
  page?: number;
  /** Records per page, 1 to 1000. Default 50. */
  limit?: number;
}

/**
 * Which webhook deliveries to read, and which page of them (`GET /__mock/deliveries?…`,
 * `readDeliveries(query)`, `flushWebhooks(query)`). Every filter given must match.
 */
export interface MockDeliveriesQuery {
  /** Only the delivery of this event (`x-service-event-id`). */
  eventId?: string;
  /** Only the deliveries to this receiver URL. */
  url?: string;
  /** Only the deliveries in this state (see {@link MockDeliveryStatus}). */
  status?: MockDeliveryStatus;
  /** The page, from 1. Default 1. */
  page?: number;
  /** Deliveries per page, 1 to 1000. Default 50. */
  limit?: number;
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
 * wrapped in a promise. Two differences remain, as far as a remote allows: `injectFault` gives a
 * live handle in-process and a {@link MockRemoteFaultHandle} remotely; and the in-process
 * `api.state` / `api.deliveries` are properties while a connection's `state()` / `deliveries()` are
 * methods — `readState()` / `readDeliveries()` are the names both share. A connection's
 * `flushWebhooks` also takes a per-call `{ timeoutMs }`.
 */
export interface MockControlMethods<Remote extends boolean = false> {
  /** Moves a restocking shipment to `status` and returns its version 1 view. */
  advanceRestockingShipment(
    id: number,
    status: RestockingStatusV1 | RestockingStatusV2,
    quantities?: MockRestockQuantities,
  ): MockControlAnswer<MockRestockingShipmentV1, Remote>;
  /** Fulfils a fulfillable order and returns the shipment created. */
  fulfillOrder(id: number): MockControlAnswer<MockShipment, Remote>;
  /** Records a return of a fulfilled order and returns it. */
  createReturn(orderId: number, options?: MockReturnOptions): MockControlAnswer<MockReturn, Remote>;
  /** The faults in force, oldest first. */
  faults(): MockControlAnswer<FaultSummary[], Remote>;
  /** Removes every fault in force; returns how many there were. */
  clearFaults(): MockControlAnswer<number, Remote>;
  /**
   * Sends again the webhook deliveries that were given up (every one, or those to `filter.url`; with
   * `filter.eventId`, that delivery whatever its outcome): same record, event id and body, a fresh
   * budget of attempts. Returns the deliveries re-queued.
   */
  redeliverWebhooks(filter?: MockRedeliverFilter): MockControlAnswer<MockWebhookDelivery[], Remote>;
  /** Back to the initial state. */
  reset(): MockControlAnswer<void, Remote>;
  /**
   * Adds a fault (see {@link MockFault}). In-process: a {@link MockFaultHandle} (live counters,
   * `remove()` at once); through a connection: a {@link MockRemoteFaultHandle} (a RegExp `path` is
   * sent as its source, and one with flags is refused).
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

/** Every list of the snapshot (the compiler holds this to {@link MockCollectionName}). */
const COLLECTIONS = {
  skus: true,
  orders: true,
  restockingShipments: true,
  restockingShipmentsV2: true,
  shipments: true,
  returns: true,
  warehouses: true,
  requests: true,
} as const satisfies Record<MockCollectionName, true>;

/** The names {@link MockCollectionName} allows, in the snapshot's order. */
export const MOCK_COLLECTIONS: readonly MockCollectionName[] = Object.keys(
  COLLECTIONS,
) as MockCollectionName[];

/** The default page size of `GET /__mock/state?collection=…`. */
const STATE_DEFAULT_LIMIT = 50;
/** The largest page size of `GET /__mock/state?collection=…`. */
const STATE_MAX_LIMIT = 1000;

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

/** One control route as `GET /__mock/` lists it. */
export interface MockControlRouteInfo {
  /** The HTTP method. */
  method: string;
  /** The path, with `{id}` for a positive integer id. */
  path: string;
  /** The JSON body it reads, or `null` for none. */
  body: string | null;
  /** The query parameters it reads, or `null` for none. */
  query: string | null;
  /** What it answers. */
  answers: string;
  /** What it does. */
  description: string;
}

/** What a control handler gets. */
interface ControlContext {
  target: ControlTarget;
  body: JsonValue | undefined;
  query: URLSearchParams;
  id: number;
}

/** One method of a control route: its handler and what `GET /__mock/` says of it. */
interface ControlMethod {
  handle: (ctx: ControlContext) => MockResult | Promise<MockResult>;
  body: string | null;
  query?: string;
  answers: string;
  description: string;
}

/** A rejected control body or query: answered 422 with the message. */
class BadControl extends Error {}

/** Refuses the request: 422 `<field>: <problem>`. */
function bad(field: string, problem: string): never {
  throw new BadControl(`${field}: ${problem}`);
}

/** `got <description>` of a value (`missing` for none), for messages. */
function got(value: unknown): string {
  return value === undefined ? 'missing' : `got ${describeValue(value)}`;
}

/** A query parameter's text described for a message: digits as they are, other text by length only. */
function gotParam(raw: string): string {
  return `got ${describeText(raw)}`;
}

/**
 * Reports a problem of an argument or parameter (`field`) and throws. What a getter or Proxy trap of
 * the caller's value threw is never passed on: its message may hold a secret.
 */
export type Refuse = (field: string, problem: string) => never;

/**
 * A {@link Refuse} for the checks of one argument, which name the argument itself `''` and its
 * fields by their path in it (`eventId`, `items[0].quantity`): the argument is reported as `name`,
 * a field with `prefix` before it (`filter.` gives `filter.eventId`; `''` names a body's fields alone).
 */
export function refuseArgument(name: string, prefix: string, refuse: Refuse): Refuse {
  return (field, problem) => refuse(field === '' ? name : `${prefix}${field}`, problem);
}

/**
 * A record id given to a control method: an integer >= 1, or a refusal naming the argument `name`
 * (a string `'5'` is refused: it would otherwise read as "No order with id 5" while order 5 exists).
 */
export function checkRecordId(value: unknown, name: string, refuse: Refuse): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    refuse(name, `must be an integer >= 1, got ${describeValue(value)}`);
  }
  return value;
}

/** The body as an object (an empty body is `{}`). */
function jsonObject(body: JsonValue | undefined): Record<string, JsonValue> {
  if (body === undefined) return {};
  if (!isObject(body)) bad('body', `must be a JSON object, ${got(body)}`);
  return body;
}

/** The body as an object (an empty body is `{}`), with only the `allowed` fields. */
function objectBody(body: JsonValue | undefined, allowed: readonly string[]): Record<string, JsonValue> {
  const object = jsonObject(body);
  onlyFields(object, allowed, bad);
  return object;
}

/** `body` without its `null` fields: in the JSON of a control route, `null` is as if absent. */
function withoutNulls(body: Record<string, JsonValue>): Record<string, JsonValue> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
}

/** Refuses every key of `fields` not in `known` (`refuse` gets the key, a long one by its length). */
function onlyFields(
  fields: Record<string, unknown>,
  known: readonly string[],
  refuse: Refuse,
  prefix = '',
): void {
  for (const key of Object.keys(fields)) {
    if (!known.includes(key)) {
      refuse(`${prefix}${shownKey(key)}`, `unknown field (expected ${known.join(', ')})`);
    }
  }
}

/** Whether `value` is an integer >= `min`. */
function isInteger(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min;
}

/**
 * The status given to `advanceRestockingShipment`, checked — by the in-process method, by a
 * connection before it sends, by `POST /__mock/restocking_shipments/{id}/advance` (its body's
 * `status`) and by the command line's `advance`, before anything changes or is sent: a version 1 or
 * version 2 status name (`received` is version 2's `delivered`), else a refusal naming `name` that
 * lists the names and describes the value (a string by its length, never its text: it may be a
 * secret pasted by mistake). Returns the name as given.
 */
export function checkRestockingStatus(
  value: unknown,
  name: string,
  refuse: Refuse,
): RestockingStatusV1 | RestockingStatusV2 {
  if (isRestockingStatusName(value)) return value;
  const expected = `one of ${RESTOCKING_STATUS_NAMES.join(', ')} (a version 1 or version 2 status)`;
  return refuse(
    name,
    value === undefined ? `is required: ${expected}` : `must be ${expected}, got ${describeValue(value)}`,
  );
}

/**
 * Where a figure's key sits, as a refusal names it: `arrived.12` for a key that is an sku id (or a
 * short run of digits), else `arrived[<a key of 9 characters>]`, since any other key may be a
 * secret pasted by mistake.
 */
function figureKey(figure: string, key: string): string {
  return isIdText(key) || isShortDigits(key) ? `${figure}.${key}` : `${figure}[${describeKey(key)}]`;
}

/**
 * Restock quantities checked — by `api.advanceRestockingShipment`, by a connection before sending,
 * and by `POST /__mock/restocking_shipments/{id}/advance` (its body's `arrived`, `damaged` and
 * `missing`): an object whose only fields are `arrived`, `damaged` and `missing`, each, when given,
 * an integer >= 0 or an object of such integers keyed by sku id, and given only when `status` is
 * one that restocks (`restocked`; a status that is no status name is left to its own check). A key
 * that is not an sku id is refused, described by its length. Each field is read once (a getter or
 * Proxy trap that throws is refused naming it); `refuse` gets `''` for the quantities themselves
 * (see {@link refuseArgument}). Returns a fresh copy, or `undefined` when no figure is given.
 */
export function checkRestockQuantities(
  quantities: unknown,
  status: unknown,
  refuse: Refuse,
): MockRestockQuantities | undefined {
  if (quantities === undefined) return undefined;
  const fields = readObject(quantities, '', refuse, '');
  onlyFields(fields, RESTOCK_FIGURES, refuse);
  const restocks = isRestockingStatusName(status) ? restockingStatus(toV1Status(status)).restocks : undefined;
  const out: { -readonly [K in keyof MockRestockQuantities]: MockRestockQuantities[K] } = {};
  for (const name of RESTOCK_FIGURES) {
    const value = fields[name];
    if (value === undefined) continue;
    const perSku = readFields(value, name, refuse, (key) => figureKey(name, key));
    if (perSku !== undefined) {
      const figures: Record<number, number> = {};
      for (const [skuId, figure] of Object.entries(perSku)) {
        if (!isIdText(skuId)) refuse(figureKey(name, skuId), 'keys must be sku ids (positive integers)');
        if (!isInteger(figure, 0)) refuse(figureKey(name, skuId), `must be an integer >= 0, ${got(figure)}`);
        figures[Number(skuId)] = figure;
      }
      out[name] = figures;
    } else if (isInteger(value, 0)) {
      out[name] = value;
    } else {
      refuse(name, `must be an integer >= 0 or an object of such integers keyed by sku_id, ${got(value)}`);
    }
    if (restocks === false) {
      refuse(
        name,
        `must be left out: quantities apply only when moving to 'restocked', not '${status as string}'`,
      );
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The fields of return options, and of each of their items. */
const RETURN_FIELDS = ['items', 'reason', 'carrier'];
const RETURN_ITEM_FIELDS = ['sku_id', 'merchant_sku_id', 'quantity', 'reason', 'message'];

/**
 * Return options checked field by field — by `api.createReturn`, by a connection's `createReturn`
 * before it sends, and by `POST /__mock/orders/{id}/returns`: an object with only
 * `items` (a non-empty array of `{ sku_id | merchant_sku_id, quantity, reason?, message? }`, an
 * item's `reason` and `message` strings or `null`), `reason` (a return reason) and `carrier` (a
 * string). Each field is read once (a getter or Proxy trap that throws is refused naming it);
 * `refuse` gets `''` for the options themselves (see {@link refuseArgument}). Returns a fresh copy.
 */
export function checkReturnOptions(options: unknown, refuse: Refuse): MockReturnOptions {
  const fields = readFields(options, '', refuse, '');
  if (fields === undefined) refuse('', `must be an object, ${got(options)}`);
  onlyFields(fields, RETURN_FIELDS, refuse);
  const { items, carrier } = fields;
  const checked: { -readonly [K in keyof MockReturnOptions]: MockReturnOptions[K] } = {};
  if (fields.reason !== undefined) {
    const known = RETURN_REASONS.find((r) => r === fields.reason);
    if (known === undefined) {
      refuse('reason', `must be one of ${RETURN_REASONS.join(', ')}, ${got(fields.reason)}`);
    }
    checked.reason = known;
  }
  if (carrier !== undefined) {
    if (typeof carrier !== 'string') refuse('carrier', `must be a string, ${got(carrier)}`);
    checked.carrier = carrier;
  }
  if (items !== undefined) {
    const list = readList(items, 'items', refuse);
    if (list === undefined || list.length === 0) refuse('items', `must be a non-empty array, ${got(items)}`);
    checked.items = list.map((value, i) => {
      const at = `items[${i}]`;
      const item = readFields(value, at, refuse);
      if (item === undefined) refuse(at, `must be an object, ${got(value)}`);
      onlyFields(item, RETURN_ITEM_FIELDS, refuse, `${at}.`);
      const { sku_id, merchant_sku_id, quantity, reason, message } = item;
      if (sku_id !== undefined && !isInteger(sku_id, 1)) {
        refuse(`${at}.sku_id`, `must be an integer >= 1, ${got(sku_id)}`);
      }
      if (merchant_sku_id !== undefined && typeof merchant_sku_id !== 'string') {
        refuse(`${at}.merchant_sku_id`, `must be a string, ${got(merchant_sku_id)}`);
      }
      if (sku_id === undefined && merchant_sku_id === undefined) {
        refuse(`${at}.sku_id`, 'is required (or merchant_sku_id)');
      }
      if (!isInteger(quantity, 1)) refuse(`${at}.quantity`, `must be an integer >= 1, ${got(quantity)}`);
      for (const [key, text] of [
        ['reason', reason],
        ['message', message],
      ] as const) {
        if (text !== undefined && text !== null && typeof text !== 'string') {
          refuse(`${at}.${key}`, `must be a string, ${got(text)}`);
        }
      }
      return {
        ...(typeof sku_id === 'number' ? { sku_id } : { merchant_sku_id: merchant_sku_id as string }),
        quantity,
        ...(typeof reason === 'string' ? { reason } : {}),
        ...(typeof message === 'string' ? { message } : {}),
      };
    });
  }
  return checked;
}

/** The fields of a fault in JSON, with what each must be. */
const FAULT_FIELDS: Readonly<Record<string, (value: JsonValue) => string | undefined>> = {
  method: (v) => (typeof v === 'string' && /^[A-Za-z]+$/.test(v) ? undefined : 'must be an HTTP method name'),
  path: (v) =>
    typeof v === 'string' && v.startsWith('/') ? undefined : "must be a string starting with '/'",
  pathPattern: (v) => (typeof v === 'string' ? undefined : 'must be a string (a RegExp source)'),
  status: (v) => (isInteger(v, 200) && v <= 599 ? undefined : 'must be an integer from 200 to 599'),
  times: (v) => (isInteger(v, 1) ? undefined : 'must be an integer >= 1'),
  retryAfter: (v) => (typeof v === 'number' && v >= 0 ? undefined : 'must be a number >= 0 (seconds)'),
  latency: (v) => (typeof v === 'number' && v >= 0 ? undefined : 'must be a number >= 0 (milliseconds)'),
  reset: (v) => (typeof v === 'boolean' ? undefined : 'must be a boolean'),
  body: () => undefined,
  headers: (v) =>
    isObject(v) && Object.values(v).every((h) => typeof h === 'string')
      ? undefined
      : 'must be an object of strings',
  after: (v) => (typeof v === 'boolean' ? undefined : 'must be a boolean'),
};

/**
 * A fault from JSON: `path` (the exact request path, e.g. `/merchant_api/v1/orders`) or
 * `pathPattern` (a RegExp source tested against the path, e.g. `^/merchant_api/v1/skus(/|$)`),
 * compiled by `new RegExp` (one that is not a valid RegExp is refused with a 422).
 */
function faultOf(body: JsonValue | undefined): MockFault {
  // Each message: `<field>: Invalid fault: <field> <problem>` (the fault machinery's own wording).
  if (!isObject(body)) bad('body', `Invalid fault: body must be a JSON object, ${got(body)}`);
  const names = Object.keys(FAULT_FIELDS);
  for (const [key, value] of Object.entries(body)) {
    const check = Object.hasOwn(FAULT_FIELDS, key) ? FAULT_FIELDS[key] : undefined;
    if (!check) {
      // Shown as every refusal shows a key: a long one by its length only (a token pasted?).
      const shown = shownKey(key);
      bad(
        shown,
        `Invalid fault: unknown field ${shown === key ? `'${key}'` : shown} (expected ${names.join(', ')})`,
      );
    }
    const problem = check(value);
    if (problem) bad(key, `Invalid fault: ${key} ${problem}, ${got(value)}`);
  }
  const { path, pathPattern, ...rest } = body;
  if ((path === undefined) === (pathPattern === undefined)) {
    bad(
      'path',
      'Invalid fault: give either path (the exact path) or pathPattern (a RegExp source), not both or neither',
    );
  }
  let matcher: string | RegExp;
  if (typeof pathPattern === 'string') {
    try {
      matcher = new RegExp(pathPattern);
    } catch (error) {
      bad('pathPattern', `Invalid fault: pathPattern is not a valid RegExp (${(error as Error).message})`);
    }
  } else {
    matcher = path as string;
  }
  return { ...(rest as Omit<MockFault, 'path'>), path: matcher };
}

/** The fields of a redeliver filter. */
const FILTER_FIELDS = ['eventId', 'url'];

/**
 * A redeliver filter checked — by `api.redeliverWebhooks` and by `POST /__mock/webhooks/redeliver`
 * (which a connection calls): an object whose only fields are `eventId` and `url`, each,
 * when given, a non-empty string. Each field is read once (a getter or Proxy trap that throws is
 * refused naming it); `refuse` gets `''` for the filter itself (see {@link refuseArgument}).
 * Returns a fresh copy.
 */
export function checkRedeliverFilter(filter: unknown, refuse: Refuse): MockRedeliverFilter {
  const fields = readObject(filter, '', refuse, '');
  onlyFields(fields, FILTER_FIELDS, refuse);
  return checkEventFilter(fields, refuse);
}

/**
 * The `eventId` and `url` of a redeliver filter or deliveries query (their fields already read),
 * checked: each, when given, a non-empty string.
 */
function checkEventFilter(source: Record<string, unknown>, refuse: Refuse): MockRedeliverFilter {
  const out: MockRedeliverFilter = {};
  for (const key of ['eventId', 'url'] as const) {
    const value = source[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '') {
      refuse(key, `must be a non-empty string, got ${describeValue(value)}`);
    }
    out[key] = value;
  }
  return out;
}

/** An integer query parameter from 1 to `max`. */
function queryInteger(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    bad(name, `must be an integer from 1 to ${max}, ${gotParam(raw)}`);
  }
  return Number(raw);
}

const STATE_PARAMS = ['collection', 'collections', 'page', 'limit'];

/** A collection name of the query. */
function collectionName(raw: string, param: string): MockCollectionName {
  const name = MOCK_COLLECTIONS.find((c) => c === raw.trim());
  if (name === undefined)
    bad(param, `unknown collection, ${gotParam(raw)} (expected ${MOCK_COLLECTIONS.join(', ')})`);
  return name;
}

/** The page `page` (1-based) of `all`, in its order, with the pagination block. */
function listPage<T>(
  all: readonly T[],
  page: number,
  limit: number,
): { data: T[]; pagination: MockStatePagination } {
  const p = pageOf(all.length, (i) => all[i]!, page, limit);
  return {
    data: p.items,
    pagination: {
      current_page: p.page,
      page_count: p.pageCount,
      item_count: p.itemCount,
      items_per_page: p.limit,
    },
  };
}

/** One page of a list of the snapshot, oldest first. */
function statePage(
  snapshot: MockStateSnapshot,
  name: MockCollectionName,
  page: number,
  limit: number,
): MockStatePage<MockCollectionName> {
  const all: unknown[] = snapshot[name];
  return listPage(all, page, limit) as MockStatePage<MockCollectionName>;
}

/** The parameters of a deliveries query. */
const DELIVERIES_PARAMS = ['eventId', 'url', 'status', 'page', 'limit'];

/** An integer from 1 to `max`, or `undefined`; `refuse` names `field` otherwise. */
function pageParam(value: unknown, field: string, max: number, refuse: Refuse): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    refuse(field, `must be an integer from 1 to ${max}, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * A {@link MockDeliveriesQuery} checked field by field (from JS, or parsed from a query string):
 * `refuse` is called with the field and what is wrong with it.
 */
export function checkDeliveriesQuery(given: unknown, refuse: Refuse): MockDeliveriesQuery {
  // Each field read once (a getter or Proxy trap that throws is refused naming it).
  const query = readObject(given, 'query', refuse, '');
  for (const key of Object.keys(query)) {
    if (!DELIVERIES_PARAMS.includes(key)) {
      refuse(shownKey(key), `unknown parameter (expected ${DELIVERIES_PARAMS.join(', ')})`);
    }
  }
  const out: MockDeliveriesQuery = checkEventFilter(query, refuse);
  const { status } = query;
  if (status !== undefined) {
    const known = MOCK_DELIVERY_STATUSES.find((s) => s === status);
    if (known === undefined) {
      refuse('status', `must be one of ${MOCK_DELIVERY_STATUSES.join(', ')}, got ${describeValue(status)}`);
    }
    out.status = known;
  }
  const page = pageParam(query.page, 'page', 1_000_000_000, refuse);
  const limit = pageParam(query.limit, 'limit', STATE_MAX_LIMIT, refuse);
  if (page !== undefined) out.page = page;
  if (limit !== undefined) out.limit = limit;
  return out;
}

/** One page of the deliveries matching `query` (already checked), oldest first. */
export function deliveriesPage(
  all: readonly MockWebhookDelivery[],
  query: MockDeliveriesQuery,
): MockDeliveriesPage {
  const { eventId, url, status, page = 1, limit = STATE_DEFAULT_LIMIT } = query;
  const chosen = all.filter(
    (d) =>
      (eventId === undefined || d.eventId === eventId) &&
      (url === undefined || d.url === url) &&
      (status === undefined || deliveryStatus(d) === status),
  );
  return listPage(chosen, page, limit);
}

/**
 * The deliveries query of a query string, or `undefined` when it has no parameter (then the
 * answer is every delivery, unpaginated: `{ data }`).
 */
function deliveriesQueryOf(query: URLSearchParams): MockDeliveriesQuery | undefined {
  const raw: Record<string, unknown> = {};
  for (const key of new Set(query.keys())) {
    if (!DELIVERIES_PARAMS.includes(key)) {
      bad(key, `unknown parameter (expected ${DELIVERIES_PARAMS.join(', ')})`);
    }
    if (query.getAll(key).length > 1) bad(key, 'given more than once');
    const value = query.get(key)!;
    raw[key] =
      key === 'page' || key === 'limit'
        ? queryInteger(query, key, 1, key === 'page' ? 1_000_000_000 : STATE_MAX_LIMIT)
        : value;
  }
  if (Object.keys(raw).length === 0) return undefined;
  return checkDeliveriesQuery(raw, bad);
}

/** `{ data }` (every delivery) without a query (`undefined`), else `{ data, pagination }`. */
function answerDeliveries(target: ControlTarget, checked: MockDeliveriesQuery | undefined): MockResult {
  const all = target.deliveries();
  return json(200, checked === undefined ? { data: all } : deliveriesPage(all, checked));
}

/** A state query checked: the lists to read, whether one was named alone, and the page. */
export interface CheckedStateQuery {
  /** The lists, in the order asked. */
  names: MockCollectionName[];
  /** `collection` (one page) rather than `collections` (a page of each). */
  one: boolean;
  /** The page, from 1. */
  page: number;
  /** The page size. */
  limit: number;
}

/** A {@link MockStateQuery} or {@link MockStateCollectionsQuery} checked field by field. */
export function checkStateQuery(given: unknown, refuse: Refuse): CheckedStateQuery {
  // Each field read once (a getter or Proxy trap that throws is refused naming it).
  const query = readObject(given, 'query', refuse, '');
  const name = (value: unknown, field: string): MockCollectionName => {
    const found = MOCK_COLLECTIONS.find((c) => c === value);
    if (found === undefined) {
      refuse(field, `must be one of ${MOCK_COLLECTIONS.join(', ')}, got ${describeValue(value)}`);
    }
    return found;
  };
  let names: MockCollectionName[];
  const one = !('collections' in query);
  if (!one) {
    if ('collection' in query) refuse('collections', 'give either collection or collections, not both');
    const given = query.collections;
    const list = readList(given, 'collections', refuse);
    if (list === undefined || list.length === 0) {
      refuse('collections', `must be a non-empty array, got ${describeValue(given)}`);
    }
    names = list.map((c, i) => name(c, `collections[${i}]`));
  } else {
    names = [name(query.collection, 'collection')];
  }
  return {
    names,
    one,
    page: pageParam(query.page, 'page', 1_000_000_000, refuse) ?? 1,
    limit: pageParam(query.limit, 'limit', STATE_MAX_LIMIT, refuse) ?? STATE_DEFAULT_LIMIT,
  };
}

/** The answer to a checked state query: one page, or a page of each list. */
export function stateQueryAnswer(
  snapshot: MockStateSnapshot,
  query: CheckedStateQuery,
):
  | MockStatePage<MockCollectionName>
  | Partial<Record<MockCollectionName, MockStatePage<MockCollectionName>>> {
  const { names, one, page, limit } = query;
  if (one) return statePage(snapshot, names[0]!, page, limit);
  return Object.fromEntries(names.map((n) => [n, statePage(snapshot, n, page, limit)]));
}

/** `GET /__mock/state`: the full snapshot without parameters, else pages of the lists named. */
function answerState(target: ControlTarget, query: URLSearchParams): MockResult {
  for (const key of new Set(query.keys())) {
    if (!STATE_PARAMS.includes(key)) bad(key, `unknown parameter (expected ${STATE_PARAMS.join(', ')})`);
    if (query.getAll(key).length > 1) bad(key, 'given more than once');
  }
  const one = query.get('collection');
  const many = query.get('collections');
  if (one === null && many === null) {
    for (const key of ['page', 'limit']) {
      if (query.has(key)) bad(key, 'needs collection or collections');
    }
    return json(200, target.state());
  }
  if (one !== null && many !== null) bad('collections', 'give either collection or collections, not both');
  const page = queryInteger(query, 'page', 1, 1_000_000_000);
  const limit = queryInteger(query, 'limit', STATE_DEFAULT_LIMIT, STATE_MAX_LIMIT);
  const names =
    one !== null
      ? [collectionName(one, 'collection')]
      : many!.split(',').map((raw) => collectionName(raw, 'collections'));
  return json(200, stateQueryAnswer(target.state(), { names, one: one !== null, page, limit }));
}

/** Runs `action`, answering 422 for what it throws (a move the mock refuses). */
function attempt(action: () => MockResult): MockResult {
  try {
    return action();
  } catch (error) {
    if (error instanceof BadControl) throw error;
    if (error instanceof Error) return failure(422, error.message);
    throw error;
  }
}

/** The query of the deliveries routes, as `GET /__mock/` lists it. */
const DELIVERIES_QUERY = `eventId?, url?, status? (${MOCK_DELIVERY_STATUSES.join(' | ')}), page? (default 1), limit? (default ${STATE_DEFAULT_LIMIT}, at most ${STATE_MAX_LIMIT})`;

const ROUTES: readonly RouteOf<ControlMethod>[] = [
  {
    segments: [],
    methods: {
      GET: {
        handle: () => json(200, { routes: routeIndex() }),
        body: null,
        answers: '200, { routes: [{ method, path, body, query, answers, description }] }',
        description: 'Lists every control route (this list). The one route that needs no token.',
      },
    },
  },
  {
    segments: ['restocking_shipments', ':id', 'advance'],
    methods: {
      POST: {
        handle: ({ target, body, id }) => {
          const { status: given, ...figures } = jsonObject(body);
          // The checkers of the in-process method and of a connection (the status's also of the
          // command line), in their order: the status first, then the other fields (an unknown
          // one listed with the body's fields); null, as everywhere here, is absent.
          const status = checkRestockingStatus(given === null ? undefined : given, 'status', bad);
          onlyFields(figures, ['status', ...RESTOCK_FIGURES], bad);
          const quantities = checkRestockQuantities(
            withoutNulls(figures),
            status,
            refuseArgument('body', '', bad),
          );
          return attempt(() => {
            const shipment = target.advance(id, status, quantities);
            return shipment ? json(200, shipment) : failure(404, `No restocking shipment with id ${id}`);
          });
        },
        body: '{ status, arrived?, damaged?, missing? } (quantities: an integer, or an object keyed by sku_id; only for restocked)',
        answers: '200, the version 1 shipment',
        description: 'Moves a restocking shipment to a status (version 1 or 2 name) and sends the webhook.',
      },
    },
  },
  {
    segments: ['orders', ':id', 'fulfill'],
    methods: {
      POST: {
        handle: ({ target, body, id }) => {
          objectBody(body, []);
          return attempt(() => {
            const shipment = target.fulfill(id);
            return shipment ? json(201, shipment) : failure(404, `No order with id ${id}`);
          });
        },
        body: null,
        answers: '201, the shipment',
        description: 'Fulfils a fulfillable order.',
      },
    },
  },
  {
    segments: ['orders', ':id', 'returns'],
    methods: {
      POST: {
        handle: ({ target, body, id }) => {
          const options = checkReturnOptions(withoutNulls(jsonObject(body)), refuseArgument('body', '', bad));
          return attempt(() => {
            const record = target.createReturn(id, options);
            return record ? json(201, record) : failure(404, `No order with id ${id}`);
          });
        },
        body: '{ items?: [{ sku_id | merchant_sku_id, quantity, reason?, message? }], reason?, carrier? }',
        answers: '201, the return',
        description: 'Records a return of a fulfilled order (default: every item, in full).',
      },
    },
  },
  {
    segments: ['faults'],
    methods: {
      GET: {
        handle: ({ target }) => json(200, { data: target.listFaults() }),
        body: null,
        answers: '200, { data: [{ id, method, path, pathPattern, hits, remaining }] }',
        description: 'Lists the faults in force, oldest first.',
      },
      POST: {
        handle: ({ target, body }) => {
          const fault = faultOf(body);
          try {
            return json(201, { id: target.addFault(fault) });
          } catch (error) {
            // The fault machinery names the field it refuses (a body or header it cannot answer
            // with, a latency too long).
            const { message } = error as Error;
            bad(error instanceof InvalidFault ? error.field : 'path', message);
          }
        },
        body: '{ path | pathPattern, method?, status?, times?, retryAfter?, latency?, reset?, body?, headers?, after? }',
        answers: '201, { id }',
        description: 'Injects a fault (pathPattern is a RegExp source).',
      },
      DELETE: {
        handle: ({ target }) => json(200, { removed: target.clearFaults() }),
        body: null,
        answers: '200, { removed }',
        description: 'Removes every fault in force.',
      },
    },
  },
  {
    segments: ['faults', ':id'],
    methods: {
      DELETE: {
        handle: ({ target, id }) =>
          target.removeFault(id)
            ? json(200, { removed: 1 })
            : failure(404, `No fault with id ${id} in force`),
        body: null,
        answers: '200, { removed: 1 }',
        description: 'Removes one fault.',
      },
    },
  },
  {
    segments: ['reset'],
    methods: {
      POST: {
        handle: ({ target }) => {
          target.reset();
          return { status: 204 };
        },
        body: null,
        answers: '204',
        description: 'Back to the initial state (records, faults, deliveries, request log).',
      },
    },
  },
  {
    segments: ['deliveries'],
    methods: {
      GET: {
        handle: ({ target, query }) => answerDeliveries(target, deliveriesQueryOf(query)),
        body: null,
        query: DELIVERIES_QUERY,
        answers: '200, { data: [delivery] } (every one) without parameters; { data, pagination } with any',
        description: 'The webhook deliveries so far, oldest first.',
      },
    },
  },
  {
    segments: ['webhooks', 'flush'],
    methods: {
      POST: {
        handle: async ({ target, query }) => {
          // The query is checked first: a mistake is answered at once, not after the wait.
          const checked = deliveriesQueryOf(query);
          await target.flush();
          return answerDeliveries(target, checked);
        },
        body: null,
        query: DELIVERIES_QUERY,
        answers:
          'once none is in flight: 200, { data: [delivery] } (every one) without parameters; { data, pagination } with any',
        description: 'Waits until every webhook delivery has finished (delivered or given up).',
      },
    },
  },
  {
    segments: ['webhooks', 'redeliver'],
    methods: {
      POST: {
        handle: ({ target, body }) => {
          const filter = checkRedeliverFilter(
            withoutNulls(jsonObject(body)),
            refuseArgument('body', '', bad),
          );
          return json(200, { data: target.redeliver(filter) });
        },
        body: '{ eventId?, url? }',
        answers: '200, { data: [delivery re-queued] }',
        description:
          'Sends again the deliveries that were given up (all, or those to url); with eventId, that delivery whatever its outcome (to test dedupe): same record, event id and body, fresh attempts.',
      },
    },
  },
  {
    segments: ['state'],
    methods: {
      GET: {
        handle: ({ target, query }) => answerState(target, query),
        body: null,
        query: `collection=<name> | collections=<name,name>, page? (default 1), limit? (default ${STATE_DEFAULT_LIMIT}, at most ${STATE_MAX_LIMIT}); names: ${MOCK_COLLECTIONS.join(', ')}`,
        answers:
          '200, the full snapshot without parameters; { data, pagination } for collection; { <name>: { data, pagination } } for collections',
        description: 'The records of the mock, oldest first.',
      },
    },
  },
];

/** Every control route, as `GET /__mock/` lists it (derived from the table). */
function routeIndex(): MockControlRouteInfo[] {
  return ROUTES.flatMap((route) =>
    Object.entries(route.methods).map(([method, m]) => ({
      method,
      path: `${CONTROL_PREFIX}${route.segments.map((s) => (s === ':id' ? '{id}' : s)).join('/')}`,
      body: m.body,
      query: m.query ?? null,
      answers: m.answers,
      description: m.description,
    })),
  );
}

/**
 * Whether a control request may be answered without a token: `GET` (or `HEAD`) `/__mock/` or
 * `/__mock`, the index: static documentation only, no record.
 */
export function isPublicControlRoute(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && (path === CONTROL_PREFIX || path === '/__mock');
}

/** Whether `path` is a control route's (under `/__mock/`). */
export function isControlPath(path: string): boolean {
  return path.startsWith(CONTROL_PREFIX) || path === '/__mock';
}

/**
 * Answers a control request (authentication already checked). `body.bad` says the body was not
 * JSON; `search` is the query string without `?`.
 */
export async function answerControl(
  target: ControlTarget,
  method: string,
  path: string,
  body: ReadJson,
  search = '',
): Promise<MockResult> {
  // `/__mock` without its slash is the index, like `/__mock/`.
  const match = matchPath(ROUTES, CONTROL_PREFIX, method, path === '/__mock' ? CONTROL_PREFIX : path);
  if (match.kind === 'not_found') {
    return withHint(
      failure(404, 'not found'),
      `${notFoundHint('control', method, match)} (GET /__mock/ lists them)`,
    );
  }
  if (match.kind === 'wrong_method') {
    const allow = match.allow.join(', ');
    return withHint(
      { ...failure(405, 'method not allowed'), headers: { allow } },
      `${method} is not allowed on ${path} (allowed: ${allow})`,
    );
  }
  if (body.bad) return badBody(body);
  try {
    return await match.handler.handle({
      target,
      body: body.value,
      query: new URLSearchParams(search),
      id: match.id,
    });
  } catch (error) {
    if (error instanceof BadControl) return failure(422, error.message);
    throw error;
  }
}
