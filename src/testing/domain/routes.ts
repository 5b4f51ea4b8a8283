/**
 * The route table of the Merchant API: which domain rule answers which method and path under
 * `/merchant_api/`, the list query (`page`, `limit`, `created_at[...]`; a malformed one is the
 * provider's terse `400 bad request`, with the parameter and the reason in the mock-only
 * `x-mock-hint` header, the value refused described as the kit describes text: a short run of
 * digits as it is, anything else by its length, since it may be a token pasted by mistake) and the
 * version 1 list envelope. Matching itself is the engine's
 * (`engine/router.ts`).
 */
import {
  type Collection,
  type CreatedRange,
  inRange,
  type PageOf,
  pageBody,
  pageOfList,
  type Timestamped,
} from '../engine/collection.js';
import { withHint } from '../engine/pipeline.js';
import { failure, json, type MockResult } from '../engine/result.js';
import {
  type MatchOf,
  matchPath,
  type RouteContext,
  type RouteHandler,
  type RouteOf,
} from '../engine/router.js';
import { describeText, Invalid } from '../engine/validation.js';
import { type BlockedCountries, cancelOrder, createOrder, updateOrder } from './orders.js';
import { createRestockingShipment, updateRestockingShipment } from './restocking.js';
import { bulkUpsertSkus, createSku, deleteSku, updateSku } from './skus.js';
import type { MockState, SkuRecord } from './state.js';
import { orderView, restockingV1View, restockingV2View, skuView } from './views.js';

/** The settings the API's handlers read (fixed for the mock's life). */
export interface ApiSettings {
  /** Default page size of collections (when no `limit` is sent). */
  readonly pageSize: number;
  /** The countries an order cannot be shipped to (upper-case codes). */
  readonly blockedCountries: BlockedCountries;
  /** `merchant_id` of restocking shipments. */
  readonly merchantId: number;
}

type Context = RouteContext<MockState>;
type Handler = RouteHandler<MockState>;
type Route = RouteOf<Handler>;

/** Finds the API's handler of a method and path. */
export type ApiRouter = (method: string, path: string) => MatchOf<Handler>;

const NOT_FOUND = (): MockResult => failure(404, 'not found');

/** A write's outcome: 422 with the messages, or the status and view given. */
function written<T>(outcome: T | Invalid, status: number, view: (value: T) => unknown): MockResult {
  return outcome instanceof Invalid ? failure(422, ...outcome.errors) : json(status, view(outcome));
}

/** The list query as read: page, page size and the `created_at` range. */
interface ListQuery {
  page: number;
  limit: number;
  range: CreatedRange;
}

/** Reads `page`, `limit` and `created_at[...]`, or says which one is malformed and why (a hint). */
function listQuery(query: URLSearchParams, pageSize: number): ListQuery | string {
  const range: CreatedRange = {};
  const figures = { page: 1, limit: pageSize };
  for (const name of ['page', 'limit'] as const) {
    const raw = query.get(name);
    if (raw === null || raw === '') continue;
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1)
      return `query parameter ${name} must be an integer from 1 to 999999999, got ${describeText(raw)}`;
    figures[name] = Number(raw);
  }
  for (const bound of ['gte', 'gt', 'lte', 'lt'] as const) {
    const name = `created_at[${bound}]`;
    const raw = query.get(name);
    if (raw === null) continue;
    const ms = Date.parse(raw);
    if (Number.isNaN(ms))
      return `query parameter ${name} must be a date-time such as 2025-01-01T00:00:00Z, got ${describeText(raw)}`;
    range[bound] = ms;
  }
  return { ...figures, range };
}

/**
 * A list route: its query read, then `list`. A malformed query is the provider's terse `400 bad
 * request`, with the mock-only `x-mock-hint` header naming the parameter and what is wrong with it
 * (the value refused never quoted but for a short run of digits).
 */
function listRoute(pageSize: number, list: (ctx: Context, q: ListQuery) => MockResult): Handler {
  return (ctx) => {
    const q = listQuery(ctx.query, pageSize);
    return typeof q === 'string' ? withHint(failure(400, 'bad request'), q) : list(ctx, q);
  };
}

/** The version 1 list envelope. */
function envelope<T>(page: PageOf<T>, view: (item: T) => unknown): MockResult {
  return json(200, pageBody(page, view));
}

/** Query values of `name` and `name[]`. */
function listParam(query: URLSearchParams, name: string): string[] {
  return [...query.getAll(`${name}[]`), ...query.getAll(name)];
}

function includesBatches(query: URLSearchParams): boolean {
  return listParam(query, 'include').some((v) => v.split(',').some((part) => part.trim() === 'batches'));
}

function listSkus(ctx: Context, q: ListQuery): MockResult {
  const codes = listParam(ctx.query, 'merchant_sku_ids');
  const view = (sku: Parameters<typeof skuView>[0]) => skuView(sku, ctx.state);
  if (codes.length === 0) return envelope(ctx.state.skus.page(q.range, q.page, q.limit), view);
  const found = ctx.state
    .skusByCodes(codes)
    .filter((s) => inRange(s.createdMs, q.range))
    .sort((a, b) => b.createdMs - a.createdMs || b.id - a.id);
  return envelope(pageOfList(found, q.page, q.limit), view);
}

function listOrders(ctx: Context, q: ListQuery): MockResult {
  const batches = includesBatches(ctx.query);
  return envelope(ctx.state.orders.page(q.range, q.page, q.limit), (o) => orderView(o, batches));
}

/** A list of stored outbound records (shipments, returns), whose bodies are fixed. */
function listStored<T extends Timestamped & { view: unknown }>(pick: (state: MockState) => Collection<T>) {
  return (ctx: Context, q: ListQuery): MockResult =>
    envelope(pick(ctx.state).page(q.range, q.page, q.limit), (r) => r.view);
}

function listWarehouses(ctx: Context, q: ListQuery): MockResult {
  return envelope(pageOfList(ctx.state.warehouses, q.page, q.limit), (w) => w);
}

/** A handler of the record of `pick(state)` the path's id names: 404 when there is none. */
function onRecord<T>(
  pick: (state: MockState) => { get(id: number): T | undefined },
  handle: (ctx: Context, record: T) => MockResult,
): Handler {
  return (ctx) => {
    const record = pick(ctx.state).get(ctx.id);
    return record ? handle(ctx, record) : NOT_FOUND();
  };
}
const restockings = (state: MockState) => state.restockingShipments;
const orders = (state: MockState) => state.orders;
const returns = (state: MockState) => state.returns;
const skus = (state: MockState) => state.skus;
/** A SKU's 200 answer, or the 422 of a refusal. */
const skuAnswer = (ctx: Context, outcome: SkuRecord | Invalid) =>
  written(outcome, 200, (s) => skuView(s, ctx.state));
const updateSkuRoute = onRecord(skus, (ctx, sku) => skuAnswer(ctx, updateSku(ctx.state, sku, ctx.body)));
const deleteSkuRoute = onRecord(skus, (ctx, sku) => skuAnswer(ctx, deleteSku(sku)));
const listShipments = listStored((state) => state.shipments);
const listReturns = listStored(returns);

function restockingRoutes(version: 1 | 2, merchantId: number): Route[] {
  const view = version === 1 ? restockingV1View : restockingV2View;
  return [
    {
      segments: [`v${version}`, 'restocking_shipments'],
      methods: {
        POST: (ctx) =>
          written(createRestockingShipment(ctx.state, ctx.body, version, ctx.now, merchantId), 201, view),
      },
    },
    {
      segments: [`v${version}`, 'restocking_shipments', ':id'],
      methods: {
        GET: onRecord(restockings, (_, record) => json(200, view(record))),
        PUT: onRecord(restockings, (ctx, record) =>
          written(updateRestockingShipment(ctx.state, record, ctx.body, version, ctx.now), 200, view),
        ),
      },
    },
  ];
}

/** The API's routes, their handlers reading `settings`. */
function apiRoutes(settings: ApiSettings): Route[] {
  const { pageSize, blockedCountries, merchantId } = settings;
  return [
    {
      segments: ['v1', 'skus'],
      methods: {
        GET: listRoute(pageSize, listSkus),
        POST: (ctx) => written(createSku(ctx.state, ctx.body, ctx.now), 201, (s) => skuView(s, ctx.state)),
      },
    },
    {
      segments: ['v1', 'skus', 'bulk_upsert'],
      methods: {
        POST: (ctx) =>
          written(bulkUpsertSkus(ctx.state, ctx.body, ctx.now), 200, (skus) => ({
            data: skus.map((s) => skuView(s, ctx.state)),
          })),
      },
    },
    {
      segments: ['v1', 'skus', ':id'],
      methods: { PATCH: updateSkuRoute, PUT: updateSkuRoute, DELETE: deleteSkuRoute },
    },
    {
      segments: ['v1', 'orders'],
      methods: {
        GET: listRoute(pageSize, listOrders),
        POST: (ctx) =>
          written(createOrder(ctx.state, ctx.body, ctx.now, blockedCountries), 201, (o) =>
            orderView(o, false),
          ),
      },
    },
    {
      segments: ['v1', 'orders', ':id'],
      methods: {
        GET: onRecord(orders, (ctx, order) => json(200, orderView(order, includesBatches(ctx.query)))),
        PATCH: onRecord(orders, (ctx, order) =>
          written(updateOrder(ctx.state, order, ctx.body, blockedCountries), 200, (o) => orderView(o, false)),
        ),
      },
    },
    {
      segments: ['v1', 'orders', ':id', 'cancel'],
      methods: {
        PUT: onRecord(orders, (_, order) => written(cancelOrder(order), 200, (o) => orderView(o, false))),
      },
    },
    ...restockingRoutes(1, merchantId),
    ...restockingRoutes(2, merchantId),
    { segments: ['v1', 'shipments'], methods: { GET: listRoute(pageSize, listShipments) } },
    { segments: ['v1', 'returns'], methods: { GET: listRoute(pageSize, listReturns) } },
    { segments: ['v1', 'returns', ':id'], methods: { GET: onRecord(returns, (_, r) => json(200, r.view)) } },
    { segments: ['v1', 'warehouses'], methods: { GET: listRoute(pageSize, listWarehouses) } },
  ];
}

const PREFIX = '/merchant_api/';

/** The API's router for a mock with these settings (its table is built once, here). */
export function createApiRouter(settings: ApiSettings): ApiRouter {
  const routes = apiRoutes(settings);
  return (method, path) => matchPath(routes, PREFIX, method, path);
}
