/**
 * The control routes: the mock's control methods over HTTP, under `/__mock/` (outside
 * `/merchant_api/`), so that a client in any language can drive the mock through either face.
 * They need a valid `Authorization: Bearer <token>` like the API — all but the index `GET /__mock/`
 * (and `GET /__mock`), which lists static documentation only (no record, no token) so that the URL
 * the command line prints opens in a browser. They are not subject to faults, latency or the rate
 * limit, nor recorded in the request log.
 *
 * One table ({@link CONTROL_OPERATIONS}) describes each operation: the control method it calls, its
 * HTTP method and path, where its argument travels (the JSON body or the query string), the key its
 * result is answered under, and what `GET /__mock/` says of it (the success status is the first
 * number of `answers`). The router, the index and `connectMock`'s methods all come from it.
 *
 * Errors: `{ success: false, errors: [...] }` with 404 (unknown route or id), 405, 400 (body not
 * JSON), 413 (body over 10 MiB, from the HTTP server) or 422 (invalid body or query:
 * each message is `<field>: <what is wrong>` in zod's words, e.g. `items[0].quantity: Too small:
 * expected number to be >=1`; or a move the mock refuses). A `null` field of a body is as if
 * absent. Each route passes its body or query to the in-process method, which checks it; its
 * refusal is answered in the route's words. Terse answers (`not found`, `method not allowed`, `bad
 * request`) carry the precise reason in the mock-only `x-mock-hint` header.
 */

import * as z from 'zod/mini';
import { checkInput } from '../engine/check.js';
import { InvalidFault, type MockFault } from '../engine/faults.js';
import type { JsonValue, ReadJson } from '../engine/json.js';
import { badBody, unmatched } from '../engine/pipeline.js';
import { failure, json, type MockResult } from '../engine/result.js';
import { matchPath } from '../engine/router.js';
import { MOCK_DELIVERY_STATUSES } from '../engine/webhook-delivery.js';
import {
  MOCK_COLLECTIONS,
  type MockControlMethods,
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

/**
 * One control operation of the table, keyed by its method's name. Its `answers` give the success
 * status first, then `{ <key>… }` when the result is answered under that key (a list as `data`) —
 * but a read with a query answers the page itself.
 */
export interface ControlOperation
  extends Pick<MockControlRouteInfo, 'answers' | 'description'>,
    Partial<Record<'body' | 'query', string>> {
  /** The HTTP method and path, with `{id}` for a positive integer id: `POST /__mock/reset`. */
  route: string;
  /**
   * The method's argument after the `{id}` of the path, if it takes one: `query` travels as the
   * query string, any other (`options`, `fault`, ...) as the JSON body.
   */
  input?: string;
  /** What the route does, when not the target's method called with the id and the argument. */
  run?: (target: ControlTarget, input: Record<string, unknown>, id: number) => unknown;
}

/** The key an operation's answer holds its result under (see {@link ControlOperation.answers}), if any. */
export const keyOf = (op: ControlOperation, input: unknown) =>
  op.input === 'query' && input !== undefined ? undefined : /^\d+, \{ (\w+)/.exec(op.answers)?.[1];

/** Refuses the request: 422 `<field>: <problem>`. */
const bad = refuseIn('');

/** The refusal of a body's fields: `body` for the body itself, a field by its path. */
const refuseBody = refuseArgument('body', '', bad);

/**
 * The refusal of an in-process method in the route's words, without the method: the argument a
 * body carries (`options`, `filter`, `quantities`) is the body, its fields are the body's.
 */
const routeWords = (message: string) =>
  message.replace(/^\w*: (?:(options|filter|quantities)(\.|(?=:)))?/, (_, name, dot) =>
    name && !dot ? 'body' : '',
  );

/**
 * A query string as the object the checkers read, or `undefined` without parameters: `page` and
 * `limit` as numbers, `collections` split at commas, a parameter given more than once as a list.
 */
function queryOf(query: URLSearchParams): Record<string, unknown> | undefined {
  const fields: Record<string, unknown> = {};
  for (const key of new Set(query.keys())) {
    const read = (v: string) =>
      key === 'page' || key === 'limit' ? Number(v) : key === 'collections' ? v.split(/\s*,\s*/) : v;
    const values = query.getAll(key).map(read);
    fields[key] = values.length > 1 ? values : values[0];
  }
  return query.size > 0 ? fields : undefined;
}

const ANY_OBJECT = /* @__PURE__ */ z.looseObject({});
const NO_FIELDS = /* @__PURE__ */ z.strictObject({});

/** A body as an object (`{}` when empty), its `null` fields left out: in a control body, `null` is absent. */
function fieldsOf(body: JsonValue | undefined): Record<string, unknown> {
  const object = checkInput(ANY_OBJECT, body ?? {}, refuseBody);
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== null));
}

/**
 * A fault from JSON: `path` (the exact path) or `pathPattern` (a RegExp source, compiled); the
 * rest is for the in-process method to check.
 */
function faultOf({ pathPattern, ...fault }: Record<string, unknown>): MockFault {
  if (pathPattern === undefined && fault.path === undefined)
    return bad('path', 'give either path (the exact path) or pathPattern (a RegExp source)');
  if (pathPattern === undefined) return fault as unknown as MockFault;
  let problem = 'must be a RegExp source (a string), in place of path';
  try {
    if (typeof pathPattern === 'string' && fault.path === undefined) {
      return { ...fault, path: new RegExp(pathPattern) };
    }
  } catch (error) {
    problem = `is not a valid RegExp (${(error as Error).message})`;
  }
  return bad('pathPattern', problem);
}

/** The query of the deliveries routes, as `GET /__mock/` lists it. */
const DELIVERIES_QUERY = `eventId?, url?, status? (${MOCK_DELIVERY_STATUSES.join(' | ')}), page? (default 1), limit? (default ${STATE_DEFAULT_LIMIT}, at most ${STATE_MAX_LIMIT})`;
const PAGE_OR_ALL = '{ data: [delivery] } (every one) without parameters; { data, pagination } with any';

/** Every control operation by the name of its method, in the order `GET /__mock/` lists them. */
export const CONTROL_OPERATIONS: Readonly<Record<string, ControlOperation>> = {
  routes: {
    route: 'GET /__mock/',
    run: () => routeIndex(),
    answers: '200, { routes: [{ method, path, body, query, answers, description }] }',
    description: 'Lists every control route (this list). The one route that needs no token.',
  },
  advanceRestockingShipment: {
    route: 'POST /__mock/restocking_shipments/{id}/advance',
    input: 'quantities',
    run: (target, { status, ...quantities }, id) =>
      target.advanceRestockingShipment(id, status as never, quantities),
    body: '{ status, arrived?, damaged?, missing? } (quantities: an integer, or an object keyed by sku_id; only for restocked)',
    answers: '200, the version 1 shipment',
    description: 'Moves a restocking shipment to a status (version 1 or 2 name) and sends the webhook.',
  },
  fulfillOrder: {
    route: 'POST /__mock/orders/{id}/fulfill',
    answers: '201, the shipment',
    description: 'Fulfils a fulfillable order.',
  },
  createReturn: {
    route: 'POST /__mock/orders/{id}/returns',
    input: 'options',
    body: '{ items?: [{ sku_id | merchant_sku_id, quantity, reason?, message? }], reason?, carrier? }',
    answers: '201, the return',
    description: 'Records a return of a fulfilled order (default: every item, in full).',
  },
  faults: {
    route: 'GET /__mock/faults',
    answers: '200, { data: [{ id, method, path, pathPattern, hits, remaining }] }',
    description: 'Lists the faults in force, oldest first.',
  },
  injectFault: {
    route: 'POST /__mock/faults',
    input: 'fault',
    run: (target, fault) => target.injectFault(faultOf(fault)).id,
    body: '{ path | pathPattern, method?, status?, times?, retryAfter?, latency?, reset?, body?, headers?, after? }',
    answers: '201, { id }',
    description: 'Injects a fault (pathPattern is a RegExp source).',
  },
  clearFaults: {
    route: 'DELETE /__mock/faults',
    answers: '200, { removed }',
    description: 'Removes every fault in force.',
  },
  removeFault: {
    route: 'DELETE /__mock/faults/{id}',
    run: (target, _, id) => (target.removeFault(id) ? 1 : noRecord(`No fault with id ${id} in force`)),
    answers: '200, { removed: 1 }',
    description: 'Removes one fault.',
  },
  reset: {
    route: 'POST /__mock/reset',
    answers: '204',
    description: 'Back to the initial state (records, faults, deliveries, request log).',
  },
  readDeliveries: {
    route: 'GET /__mock/deliveries',
    input: 'query',
    query: DELIVERIES_QUERY,
    answers: `200, ${PAGE_OR_ALL}`,
    description: 'The webhook deliveries so far, oldest first.',
  },
  flushWebhooks: {
    route: 'POST /__mock/webhooks/flush',
    input: 'query',
    query: DELIVERIES_QUERY,
    answers: `200, ${PAGE_OR_ALL}, once none is in flight`,
    description: 'Waits until every webhook delivery has finished (delivered or given up).',
  },
  redeliverWebhooks: {
    route: 'POST /__mock/webhooks/redeliver',
    input: 'filter',
    body: '{ eventId?, url? }',
    answers: '200, { data: [delivery re-queued] }',
    description:
      'Sends again the deliveries that were given up (all, or those to url); with eventId, that delivery whatever its outcome (to test dedupe): same record, event id and body, fresh attempts.',
  },
  readState: {
    route: 'GET /__mock/state',
    input: 'query',
    query: `collection=<name> | collections=<name,name>, page? (default 1), limit? (default ${STATE_DEFAULT_LIMIT}, at most ${STATE_MAX_LIMIT}); names: ${MOCK_COLLECTIONS.join(', ')}`,
    answers:
      '200, the full snapshot without parameters; { data, pagination } for collection; { <name>: { data, pagination } } for collections',
    description: 'The records of the mock, oldest first.',
  },
};

function noRecord(message: string): never {
  throw new NoRecord(message);
}

/** Each operation with its name, its method and its path. */
const OPERATIONS = Object.entries(CONTROL_OPERATIONS).map(([name, op]) => {
  const [method, path] = op.route.split(' ') as [string, string];
  return { ...op, name, method, path };
});

/** The table as the router reads it: the methods of each path together, `{id}` as `:id`. */
const byPath = new Map<string, Record<string, (typeof OPERATIONS)[number]>>();
for (const op of OPERATIONS) byPath.set(op.path, { ...byPath.get(op.path), [op.method]: op });
const ROUTES = [...byPath].map(([path, methods]) => ({
  segments: path.replace('{id}', ':id').split('/').slice(2).filter(Boolean),
  methods,
}));

/** Every control route, as `GET /__mock/` lists it (derived from the table). */
const routeIndex = (): MockControlRouteInfo[] =>
  OPERATIONS.map(({ method, path, body = null, query = null, answers, description }) => ({
    method,
    path,
    body,
    query,
    answers,
    description,
  }));

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
  if (body.bad) return badBody();
  const { handler: op, id } = match;
  try {
    const fields = fieldsOf(body.value);
    // A route without a body refuses one that has fields.
    if (op.input === undefined || op.input === 'query') checkInput(NO_FIELDS, fields, refuseBody);
    const input = op.input === 'query' ? queryOf(new URLSearchParams(search)) : fields;
    const args = [...(op.path.includes('{id}') ? [id] : []), ...(op.input ? [input] : [])];
    const method = target[op.name as keyof ControlTarget] as (...args: unknown[]) => unknown;
    const result = await (op.run ? op.run(target, fields, id) : method.apply(target, args));
    if (result === undefined) return { status: 204 };
    const key = keyOf(op, input);
    return json(Number.parseInt(op.answers, 10), key ? { [key]: result } : result);
  } catch (error) {
    if (error instanceof NoRecord) return failure(404, error.message);
    if (error instanceof InvalidFault)
      return failure(422, error.field === 'fault' ? `body: ${error.detail}` : error.detail);
    if (error instanceof Refused) return failure(422, routeWords(error.message));
    if (error instanceof TypeError || !(error instanceof Error)) throw error;
    return failure(422, error.message);
  }
}
