/**
 * The control routes: the mock's control methods over HTTP, under `/__mock/` (outside
 * `/merchant_api/`), so that a client in any language can drive the mock through either face
 * (`connectMock` is the typed client of these routes). They need a valid `Authorization: Bearer
 * <token>` like the API — all but the index `GET /__mock/` (and `GET /__mock`), which lists static
 * documentation only (no record, no token) so that the URL the command line prints opens in a
 * browser. They are not subject to faults, latency or the rate limit, nor recorded in the request
 * log. `GET /__mock/` lists them, from the table below (`TABLE`), so the list cannot drift from
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
 * each message is `<field>: <what is wrong>` in zod's words, e.g. `items[0].quantity: Too small:
 * expected number to be >=1`; or a move the mock refuses). A `null` field of a body is as if
 * absent. Each route passes its body or query to the in-process method, which checks it (one zod
 * schema per operation through `checkInput`); its refusal is answered in the route's words. Terse
 * answers (`not found`, `method not allowed`, `bad request`) carry the precise reason in the mock-only `x-mock-hint` header.
 */

import * as z from 'zod/mini';
import type { MockWebhookDelivery } from '../domain/webhook-event.js';
import { checkInput } from '../engine/check.js';
import { InvalidFault, type MockFault } from '../engine/faults.js';
import type { JsonValue, ReadJson } from '../engine/json.js';
import { badBody, unmatched } from '../engine/pipeline.js';
import { failure, json, type MockResult } from '../engine/result.js';
import { matchPath, type RouteOf } from '../engine/router.js';
import { MOCK_DELIVERY_STATUSES } from '../engine/webhook-delivery.js';
import {
  MOCK_COLLECTIONS,
  type MockControlMethods,
  type MockDeliveriesPage,
  NoRecord,
  Refused,
  refuseArgument,
  refuseIn,
  STATE_DEFAULT_LIMIT,
  STATE_MAX_LIMIT,
} from './control-methods.js';

/** The path prefix of the control routes. */
export const CONTROL_PREFIX = '/__mock/';

/** What the control routes act on: the in-process control methods, and removing a fault by id. */
export interface ControlTarget extends MockControlMethods {
  /** Removes the fault `id`: `false` when none is in force. */
  removeFault(id: number): boolean;
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

/** One control route of the table: what `GET /__mock/` says of it, and its handler. */
interface ControlRoute extends Omit<MockControlRouteInfo, 'body' | 'query'> {
  body?: string;
  query?: string;
  handle: (ctx: {
    target: ControlTarget;
    body: JsonValue | undefined;
    query: URLSearchParams;
    id: number;
  }) => MockResult | Promise<MockResult>;
}

/** Refuses the request: 422 `<field>: <problem>`. */
const bad = refuseIn('');

/**
 * The refusal of an in-process method in the route's words, without the method: the argument a
 * body carries (`options`, `filter`, `quantities`) is the body, its fields are the body's.
 */
const routeWords = (message: string) =>
  message.replace(/^\w*: (?:(options|filter|quantities)(\.|(?=:)))?/, (_, name, dot) =>
    name && !dot ? 'body' : '',
  );

const AnyField = z.optional(z.unknown());
/** A fault in JSON: its fields are the fault machinery's to check, `path` or `pathPattern` ours. */
const FaultBody = z
  .strictObject({
    path: z.optional(z.string().check(z.startsWith('/'))),
    pathPattern: z.optional(z.string()),
    ...Object.fromEntries(
      ['method', 'status', 'times', 'retryAfter', 'latency', 'reset', 'body', 'headers', 'after'].map(
        (key) => [key, AnyField],
      ),
    ),
  })
  .check(
    z.refine((f) => (f.path === undefined) !== (f.pathPattern === undefined), {
      error: 'give either path (the exact path) or pathPattern (a RegExp source)',
      path: ['path'],
    }),
  );
const BodyObject = z.looseObject({});
const EmptyBody = z.strictObject({});

/**
 * A query string as the object the checkers read, or `undefined` without parameters: `page` and
 * `limit` as numbers, `collections` split at commas, a parameter given more than once as a list.
 */
function queryOf(query: URLSearchParams): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const read = (key: string, v: string) =>
    key === 'page' || key === 'limit'
      ? Number(v)
      : key === 'collections'
        ? v.split(',').map((c) => c.trim())
        : v;
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key).map((v) => read(key, v));
    out[key] = values.length > 1 ? values : values[0];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `{ data }` (every delivery) without a query, else the page it asks for. */
const deliveries = (list: MockWebhookDelivery[] | MockDeliveriesPage) =>
  json(200, Array.isArray(list) ? { data: list } : list);

/** The refusal of a body's fields: `body` for the body itself, a field by its path. */
const refuseBody = refuseArgument('body', '', bad);

/** A body as an object (`{}` when empty), its `null` fields left out: in a control body, `null` is absent. */
function fieldsOf(body: JsonValue | undefined): Record<string, unknown> {
  const object = checkInput(BodyObject, body ?? {}, refuseBody);
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== null));
}

/** A fault from JSON: `path` (the exact path) or `pathPattern` (a RegExp source, compiled). */
function faultOf(body: JsonValue | undefined): MockFault {
  const { path, pathPattern, ...rest } = checkInput(FaultBody, fieldsOf(body), refuseBody);
  if (pathPattern === undefined) return { ...rest, path: path! };
  try {
    return { ...rest, path: new RegExp(pathPattern) };
  } catch (error) {
    return bad(
      'pathPattern',
      `Invalid fault: pathPattern is not a valid RegExp (${(error as Error).message})`,
    );
  }
}

/** Runs `action`, answering 404 for no record, 422 for another refusal (a move the mock refuses). */
function attempt(status: number, action: () => unknown): MockResult {
  try {
    return json(status, action());
  } catch (error) {
    if (error instanceof Refused || !(error instanceof Error)) throw error;
    return failure(error instanceof NoRecord ? 404 : 422, error.message);
  }
}

/** The query of the deliveries routes, as `GET /__mock/` lists it. */
const DELIVERIES_QUERY = `eventId?, url?, status? (${MOCK_DELIVERY_STATUSES.join(' | ')}), page? (default 1), limit? (default ${STATE_DEFAULT_LIMIT}, at most ${STATE_MAX_LIMIT})`;

/** Every control route, in the order `GET /__mock/` lists them. */
const TABLE: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: CONTROL_PREFIX,
    handle: () => json(200, { routes: routeIndex() }),
    answers: '200, { routes: [{ method, path, body, query, answers, description }] }',
    description: 'Lists every control route (this list). The one route that needs no token.',
  },
  {
    method: 'POST',
    path: '/__mock/restocking_shipments/{id}/advance',
    handle: ({ target, body, id }) => {
      const { status, ...quantities } = fieldsOf(body);
      return attempt(200, () => target.advanceRestockingShipment(id, status as never, quantities));
    },
    body: '{ status, arrived?, damaged?, missing? } (quantities: an integer, or an object keyed by sku_id; only for restocked)',
    answers: '200, the version 1 shipment',
    description: 'Moves a restocking shipment to a status (version 1 or 2 name) and sends the webhook.',
  },
  {
    method: 'POST',
    path: '/__mock/orders/{id}/fulfill',
    handle: ({ target, body, id }) => {
      checkInput(EmptyBody, fieldsOf(body), refuseBody);
      return attempt(201, () => target.fulfillOrder(id));
    },
    answers: '201, the shipment',
    description: 'Fulfils a fulfillable order.',
  },
  {
    method: 'POST',
    path: '/__mock/orders/{id}/returns',
    handle: ({ target, body, id }) => attempt(201, () => target.createReturn(id, fieldsOf(body))),
    body: '{ items?: [{ sku_id | merchant_sku_id, quantity, reason?, message? }], reason?, carrier? }',
    answers: '201, the return',
    description: 'Records a return of a fulfilled order (default: every item, in full).',
  },
  {
    method: 'GET',
    path: '/__mock/faults',
    handle: ({ target }) => json(200, { data: target.faults() }),
    answers: '200, { data: [{ id, method, path, pathPattern, hits, remaining }] }',
    description: 'Lists the faults in force, oldest first.',
  },
  {
    method: 'POST',
    path: '/__mock/faults',
    handle: ({ target, body }) => {
      const fault = faultOf(body);
      try {
        return json(201, { id: target.injectFault(fault).id });
      } catch (error) {
        // The fault machinery (the in-process method's checker) names the field it refuses.
        return bad(error instanceof InvalidFault ? error.field : 'path', (error as Error).message);
      }
    },
    body: '{ path | pathPattern, method?, status?, times?, retryAfter?, latency?, reset?, body?, headers?, after? }',
    answers: '201, { id }',
    description: 'Injects a fault (pathPattern is a RegExp source).',
  },
  {
    method: 'DELETE',
    path: '/__mock/faults',
    handle: ({ target }) => json(200, { removed: target.clearFaults() }),
    answers: '200, { removed }',
    description: 'Removes every fault in force.',
  },
  {
    method: 'DELETE',
    path: '/__mock/faults/{id}',
    handle: ({ target, id }) =>
      target.removeFault(id) ? json(200, { removed: 1 }) : failure(404, `No fault with id ${id} in force`),
    answers: '200, { removed: 1 }',
    description: 'Removes one fault.',
  },
  {
    method: 'POST',
    path: '/__mock/reset',
    handle: ({ target }) => {
      target.reset();
      return { status: 204 };
    },
    answers: '204',
    description: 'Back to the initial state (records, faults, deliveries, request log).',
  },
  {
    method: 'GET',
    path: '/__mock/deliveries',
    handle: ({ target, query }) => deliveries(target.readDeliveries(queryOf(query) as never)),
    query: DELIVERIES_QUERY,
    answers: '200, { data: [delivery] } (every one) without parameters; { data, pagination } with any',
    description: 'The webhook deliveries so far, oldest first.',
  },
  {
    method: 'POST',
    path: '/__mock/webhooks/flush',
    // The method checks the query first: a mistake is answered at once, not after the wait.
    handle: async ({ target, query }) => deliveries(await target.flushWebhooks(queryOf(query) as never)),
    query: DELIVERIES_QUERY,
    answers:
      'once none is in flight: 200, { data: [delivery] } (every one) without parameters; { data, pagination } with any',
    description: 'Waits until every webhook delivery has finished (delivered or given up).',
  },
  {
    method: 'POST',
    path: '/__mock/webhooks/redeliver',
    handle: ({ target, body }) => json(200, { data: target.redeliverWebhooks(fieldsOf(body)) }),
    body: '{ eventId?, url? }',
    answers: '200, { data: [delivery re-queued] }',
    description:
      'Sends again the deliveries that were given up (all, or those to url); with eventId, that delivery whatever its outcome (to test dedupe): same record, event id and body, fresh attempts.',
  },
  {
    method: 'GET',
    path: '/__mock/state',
    handle: ({ target, query }) => json(200, target.readState(queryOf(query) as never)),
    query: `collection=<name> | collections=<name,name>, page? (default 1), limit? (default ${STATE_DEFAULT_LIMIT}, at most ${STATE_MAX_LIMIT}); names: ${MOCK_COLLECTIONS.join(', ')}`,
    answers:
      '200, the full snapshot without parameters; { data, pagination } for collection; { <name>: { data, pagination } } for collections',
    description: 'The records of the mock, oldest first.',
  },
];

/** The table as the router reads it: the methods of each path together, `{id}` as `:id`. */
const byPath = new Map<string, Record<string, ControlRoute>>();
for (const route of TABLE) byPath.set(route.path, { ...byPath.get(route.path), [route.method]: route });
const ROUTES: RouteOf<ControlRoute>[] = [...byPath].map(([path, methods]) => ({
  segments: path.replace('{id}', ':id').split('/').slice(2).filter(Boolean),
  methods,
}));

/** Every control route, as `GET /__mock/` lists it (derived from the table). */
function routeIndex(): MockControlRouteInfo[] {
  return TABLE.map(({ method, path, body, query, answers, description }) => ({
    method,
    path,
    body: body ?? null,
    query: query ?? null,
    answers,
    description,
  }));
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
  if (match.kind !== 'found')
    return unmatched(match, 'control', { method, path }, {}, ' (GET /__mock/ lists them)');
  if (body.bad) return badBody(body);
  try {
    return await match.handler.handle({
      target,
      body: body.value,
      query: new URLSearchParams(search),
      id: match.id,
    });
  } catch (error) {
    if (error instanceof Refused) return failure(422, routeWords(error.message));
    throw error;
  }
}
