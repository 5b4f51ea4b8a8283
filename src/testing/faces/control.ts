/**
 * The control routes: the mock's control methods over HTTP, under `/__mock/` (outside
 * `/merchant_api/`), so that a client in any language can drive the mock through either face.
 * They need a valid `Authorization: Bearer <token>` like the API, and are not subject to faults,
 * latency or the rate limit, nor recorded in the request log.
 *
 * | route | body | answer |
 * |---|---|---|
 * | `POST /__mock/restocking_shipments/{id}/advance` | `{ status, arrived?, damaged?, missing? }` | 200, the v1 shipment |
 * | `POST /__mock/orders/{id}/fulfill` | — | 201, the shipment |
 * | `POST /__mock/orders/{id}/returns` | `{ items?, reason?, carrier? }` | 201, the return |
 * | `GET /__mock/faults` | — | 200, `{ data: [fault in force…] }` |
 * | `POST /__mock/faults` | a fault (`path` or `pathPattern`) | 201, `{ id }` |
 * | `DELETE /__mock/faults` | — | 200, `{ removed }` (every fault in force) |
 * | `DELETE /__mock/faults/{id}` | — | 200, `{ removed: 1 }` |
 * | `POST /__mock/reset` | — | 204 |
 * | `GET /__mock/deliveries` | — | 200, `{ data: [delivery…] }` |
 * | `POST /__mock/webhooks/flush` | — | 200, `{ data: [delivery…] }` once none is in flight |
 * | `GET /__mock/state` | — | 200, the state snapshot |
 *
 * Errors: `{ success: false, errors: [...] }` with 404 (unknown route or id), 405, 400 (body not
 * JSON, or nesting deeper than 32 levels: the reason in `x-mock-hint`), 413 (body over 10 MiB) or
 * 422 (invalid body, or a move the mock refuses).
 */

import { type MockReturnOptions, RETURN_REASONS } from '../domain/outbound.js';
import type { MockRestockingShipmentV1, MockReturn, MockShipment } from '../domain/resources.js';
import { type MockRestockQuantities, RESTOCK_FIGURES } from '../domain/restocking.js';
import type { MockStateSnapshot } from '../domain/snapshot.js';
import type { MockWebhookDelivery } from '../domain/webhook-event.js';
import type { FaultSummary, MockFault } from '../engine/faults.js';
import type { JsonValue, ReadJson } from '../engine/json.js';
import { badBody } from '../engine/pipeline.js';
import { failure, json, type MockResult } from '../engine/result.js';
import { matchPath, type RouteOf } from '../engine/router.js';
import { isObject } from '../engine/validation.js';

/** The path prefix of the control routes. */
export const CONTROL_PREFIX = '/__mock/';

/** What the control routes act on (the mock's control methods). */
export interface ControlTarget {
  /** `undefined` when there is no such shipment; throws for a bad status or quantities. */
  advance(
    id: number,
    status: string,
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
  flush(): Promise<void>;
  state(): MockStateSnapshot;
}

/** What a control handler gets. */
interface ControlContext {
  target: ControlTarget;
  body: JsonValue | undefined;
  id: number;
}

type ControlHandler = (ctx: ControlContext) => MockResult | Promise<MockResult>;

/** A rejected control body: answered 422 with the message. */
class BadControl extends Error {}

function bad(message: string): never {
  throw new BadControl(message);
}

const FAULT_FIELDS = new Set([
  'method',
  'path',
  'pathPattern',
  'status',
  'times',
  'retryAfter',
  'latency',
  'reset',
  'body',
  'headers',
  'after',
]);

/** The body as an object (an empty body is `{}`). */
function objectBody(body: JsonValue | undefined): Record<string, JsonValue> {
  if (body === undefined) return {};
  if (!isObject(body)) bad('body must be a JSON object');
  return body;
}

function quantities(body: Record<string, JsonValue>): MockRestockQuantities | undefined {
  const out: Record<string, unknown> = {};
  for (const name of RESTOCK_FIGURES) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' && !isObject(value)) {
      bad(`${name} must be a number or an object of numbers keyed by sku_id`);
    }
    out[name] = value;
  }
  return Object.keys(out).length > 0 ? (out as MockRestockQuantities) : undefined;
}

function returnOptions(body: Record<string, JsonValue>): MockReturnOptions {
  const options: { -readonly [K in keyof MockReturnOptions]: MockReturnOptions[K] } = {};
  if (body.reason !== undefined && body.reason !== null) {
    const reason = RETURN_REASONS.find((r) => r === body.reason);
    if (reason === undefined) bad(`reason must be one of ${RETURN_REASONS.join(', ')}`);
    options.reason = reason;
  }
  if (body.carrier !== undefined && body.carrier !== null) {
    if (typeof body.carrier !== 'string') bad('carrier must be a string');
    options.carrier = body.carrier;
  }
  if (body.items !== undefined && body.items !== null) {
    if (!Array.isArray(body.items) || body.items.length === 0) bad('items must be a non-empty array');
    options.items = body.items.map((item, i) => {
      if (!isObject(item)) bad(`items[${i}] must be an object`);
      const { sku_id, merchant_sku_id, quantity, reason, message } = item;
      if (typeof sku_id !== 'number' && typeof merchant_sku_id !== 'string') {
        bad(`items[${i}] needs sku_id (a number) or merchant_sku_id (a string)`);
      }
      if (typeof quantity !== 'number') bad(`items[${i}].quantity must be a number`);
      for (const [key, value] of [
        ['reason', reason],
        ['message', message],
      ] as const) {
        if (value !== undefined && value !== null && typeof value !== 'string') {
          bad(`items[${i}].${key} must be a string`);
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
  return options;
}

/**
 * A fault from JSON: `path` (the exact request path, e.g. `/merchant_api/v1/orders`) or
 * `pathPattern` (a RegExp source tested against the path, e.g. `^/merchant_api/v1/skus(/|$)`),
 * run by the mock's linear-time matcher (`engine/path-pattern.ts`: no backtracking, so no pattern
 * can block the event loop; backreferences and lookaround are refused with a 422).
 */
function faultOf(body: Record<string, JsonValue>): MockFault {
  for (const key of Object.keys(body))
    if (!FAULT_FIELDS.has(key)) bad(`Invalid fault: unknown field '${key}'`);
  const { path, pathPattern, ...rest } = body;
  if ((path === undefined) === (pathPattern === undefined)) {
    bad('Invalid fault: give either path (the exact path) or pathPattern (a RegExp source)');
  }
  let matcher: string | RegExp;
  if (pathPattern !== undefined) {
    if (typeof pathPattern !== 'string') bad('Invalid fault: pathPattern must be a string');
    try {
      matcher = new RegExp(pathPattern);
    } catch (error) {
      bad(`Invalid fault: pathPattern is not a valid RegExp (${(error as Error).message})`);
    }
  } else {
    if (typeof path !== 'string') bad('Invalid fault: path must be a string');
    matcher = path;
  }
  return { ...(rest as Omit<MockFault, 'path'>), path: matcher };
}

/** Runs `action`, answering 422 for what it throws. */
function attempt(action: () => MockResult): MockResult {
  try {
    return action();
  } catch (error) {
    if (error instanceof Error) return failure(422, error.message);
    throw error;
  }
}

const ROUTES: readonly RouteOf<ControlHandler>[] = [
  {
    segments: ['restocking_shipments', ':id', 'advance'],
    methods: {
      POST: ({ target, body, id }) =>
        attempt(() => {
          const fields = objectBody(body);
          if (typeof fields.status !== 'string') bad('status is required (a version 1 or version 2 status)');
          const shipment = target.advance(id, fields.status, quantities(fields));
          return shipment ? json(200, shipment) : failure(404, `No restocking shipment with id ${id}`);
        }),
    },
  },
  {
    segments: ['orders', ':id', 'fulfill'],
    methods: {
      POST: ({ target, id }) =>
        attempt(() => {
          const shipment = target.fulfill(id);
          return shipment ? json(201, shipment) : failure(404, `No order with id ${id}`);
        }),
    },
  },
  {
    segments: ['orders', ':id', 'returns'],
    methods: {
      POST: ({ target, body, id }) =>
        attempt(() => {
          const record = target.createReturn(id, returnOptions(objectBody(body)));
          return record ? json(201, record) : failure(404, `No order with id ${id}`);
        }),
    },
  },
  {
    segments: ['faults'],
    methods: {
      GET: ({ target }) => json(200, { data: target.listFaults() }),
      POST: ({ target, body }) =>
        attempt(() => {
          if (!isObject(body)) bad('Invalid fault: body must be a JSON object');
          return json(201, { id: target.addFault(faultOf(body)) });
        }),
      DELETE: ({ target }) => json(200, { removed: target.clearFaults() }),
    },
  },
  {
    segments: ['faults', ':id'],
    methods: {
      DELETE: ({ target, id }) =>
        target.removeFault(id) ? json(200, { removed: 1 }) : failure(404, `No fault with id ${id} in force`),
    },
  },
  {
    segments: ['reset'],
    methods: {
      POST: ({ target }) => {
        target.reset();
        return { status: 204 };
      },
    },
  },
  { segments: ['deliveries'], methods: { GET: ({ target }) => json(200, { data: target.deliveries() }) } },
  {
    segments: ['webhooks', 'flush'],
    methods: {
      POST: async ({ target }) => {
        await target.flush();
        return json(200, { data: target.deliveries() });
      },
    },
  },
  { segments: ['state'], methods: { GET: ({ target }) => json(200, target.state()) } },
];

/** Whether `path` is a control route's (under `/__mock/`). */
export function isControlPath(path: string): boolean {
  return path.startsWith(CONTROL_PREFIX) || path === '/__mock';
}

/**
 * Answers a control request (authentication already checked). `bad` says the body was not JSON.
 */
export async function answerControl(
  target: ControlTarget,
  method: string,
  path: string,
  body: ReadJson,
): Promise<MockResult> {
  const match = matchPath(ROUTES, CONTROL_PREFIX, method, path);
  if (match.kind === 'not_found') return failure(404, 'not found');
  if (match.kind === 'wrong_method') {
    return { ...failure(405, 'method not allowed'), headers: { allow: match.allow.join(', ') } };
  }
  if (body.bad) return badBody(body);
  try {
    return await match.handler({ target, body: body.value, id: match.id });
  } catch (error) {
    if (error instanceof BadControl) return failure(422, error.message);
    throw error;
  }
}
