/**
 * Webhooks: `createWebhookHandler` — one object that receives the "Restocking shipment status
 * updated" calls: reads the raw body (bounded), verifies it, skips duplicates, routes the event to
 * the handler of its status and answers the provider. Faces: `fetch` (Fetch API) and `node`
 * (`node:http`, Express, Fastify; see `node.ts`).
 */

import { joinChunks } from '../core/body.js';
import { describe } from '../core/describe.js';
import type { RestockingShipmentV1Status } from '../schemas/restocking-shipment-records.js';
import { RESTOCKING_SHIPMENT_V1_STATUSES } from '../schemas/statuses.js';
import type { RestockingShipmentV1 } from '../schemas/types/restocking-shipments.js';
import { toBody, toSecrets } from './crypto.js';
import { InMemoryWebhookDeduplicator, type WebhookDeduplicator } from './dedupe.js';
import { WebhookVerificationError } from './errors.js';
import {
  type BodyOutcome,
  declaredLength,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  readNodeBody,
  tooLarge,
  type WebhookAnswer,
  writeNodeAnswer,
} from './node.js';
import {
  checkHeaders,
  checkOptions,
  distinctSignatureAndEventId,
  guarded,
  headerName,
  maxBodyBytes,
  readOptions,
  unreadable,
} from './options.js';
import {
  EVENT_ID_HEADER,
  type RestockingShipmentStatusUpdatedEvent,
  SIGNATURE_HEADER,
  type WebhookHeaders,
  type WebhookSecret,
} from './types.js';
import { verifyChecked } from './verify.js';

/** A version 1 restocking shipment whose `status` is `S`: what the handler of status `S` receives. */
export type WebhookShipment<S extends RestockingShipmentV1Status = RestockingShipmentV1Status> =
  RestockingShipmentV1 & { status: S };

/**
 * The verified event as a handler receives it: the event id (`id`, the same on every retry of the
 * call), the shipment's new `status` (`S` for the handler of status `S`), `type` and `data` (the
 * shipment, whose `status` is the same).
 */
export type WebhookStatusEvent<S extends RestockingShipmentV1Status = RestockingShipmentV1Status> =
  RestockingShipmentStatusUpdatedEvent & { status: S; data: WebhookShipment<S> };

/**
 * Handles the events of one status: receives the shipment (its `status` narrowed to that status)
 * and the verified event (`id`, `status`, `type`, `data`). May be async; when it throws or rejects, the call
 * is answered 500 so that the provider retries it, and its event id is forgotten by the
 * deduplicator (or its claim released) so that the retry is handled.
 */
export type WebhookStatusHandler<S extends RestockingShipmentV1Status> = (
  shipment: WebhookShipment<S>,
  event: WebhookStatusEvent<S>,
) => unknown;

/**
 * The handlers of {@link WebhookHandlerOptions.on}, keyed by **version 1** status: the webhook's
 * body is always the version 1 view of the shipment, whichever version created it. Two version 2
 * names differ: version 2's `received` arrives as `delivered`, and version 1's `on_hold` (which
 * version 2 shows as `processing`) arrives as `on_hold`.
 */
export interface WebhookStatusHandlers {
  /** `created`: announced, not yet shipped. Same name in version 2. */
  created?: WebhookStatusHandler<'created'> | undefined;
  /** `shipped`: on the way (shipments created through the API start here). Same name in version 2. */
  shipped?: WebhookStatusHandler<'shipped'> | undefined;
  /**
   * `delivered`: at the warehouse, content not yet verified. **Version 2 calls it `received`**: a
   * version 2 shipment moving to `received` arrives here, as `delivered`.
   */
  delivered?: WebhookStatusHandler<'delivered'> | undefined;
  /** `arrived`: arrival documentation complete, packing slip checked. Same name in version 2. */
  arrived?: WebhookStatusHandler<'arrived'> | undefined;
  /**
   * `processing`: being unpacked and put into storage. Version 2 also shows version 1's `on_hold`
   * as `processing`, but the webhook does not: an `on_hold` shipment arrives at `on_hold`.
   */
  processing?: WebhookStatusHandler<'processing'> | undefined;
  /** `restocked`: fully processed; what arrived is in stock. Same name in version 2. */
  restocked?: WebhookStatusHandler<'restocked'> | undefined;
  /**
   * `on_hold`: processing on hold. **Version 1 only**: version 2 shows such a shipment as
   * `processing`; the webhook (version 1 view) says `on_hold`.
   */
  on_hold?: WebhookStatusHandler<'on_hold'> | undefined;
  /** `cancelled`: cancelled by the merchant. Same name in version 2. */
  cancelled?: WebhookStatusHandler<'cancelled'> | undefined;
}

/** The status keys of {@link WebhookStatusHandlers}: the version 1 statuses, in the SDK's order. */
const STATUSES: readonly (keyof WebhookStatusHandlers)[] = RESTOCKING_SHIPMENT_V1_STATUSES;

/**
 * Handles an event whose status has no handler in {@link WebhookHandlerOptions.on}, including a
 * status this version of the SDK does not know yet (the status is an open enum: at run time it may
 * be any string).
 */
export type WebhookEventHandler = (shipment: RestockingShipmentV1, event: WebhookStatusEvent) => unknown;

/** Where a webhook call failed, as {@link WebhookHandlerOptions.onError} is told. */
export interface WebhookErrorContext {
  /**
   * What failed: `body` (too large, or the client went away while sending it), `configuration` (the
   * receiver handed over a parsed, consumed or locked body, other code already answered, or the
   * request or response objects misbehaved: fix the route; the message says how), `verification`
   * (signature, event id or payload), `deduplicator` (one of its methods threw, or `claim` returned
   * something else than `new`, `in_progress` or `done`; reported even when the answer is 200),
   * `handler` (your handler threw).
   */
  stage: 'body' | 'configuration' | 'verification' | 'deduplicator' | 'handler';
  /** The HTTP status answered (`null` when no answer could be sent). */
  responseStatus: number | null;
  /** The event id, once the call is verified. */
  eventId?: string | undefined;
  /** The shipment's status, once the call is verified. */
  shipmentStatus?: string | undefined;
}

/** Options of {@link createWebhookHandler}. */
export interface WebhookHandlerOptions {
  /** The sales channel's API token, or all of its tokens during a rotation (each is tried). */
  secret: WebhookSecret;
  /**
   * Your handlers, by **version 1** status (see {@link WebhookStatusHandlers}: version 2's
   * `received` is `delivered` here). An event whose status has none goes to `onEvent`, or is
   * acknowledged and ignored when there is no `onEvent`.
   */
  on?: WebhookStatusHandlers | undefined;
  /**
   * The handler of every event whose status has no handler in `on` (unknown statuses included).
   * Without it, an event of a status this version of the SDK does not know is acknowledged and
   * logged once per such status with `console.warn` (pass `onEvent` to handle or silence them).
   */
  onEvent?: WebhookEventHandler | undefined;
  /**
   * Told of every failed call (for logging): the error (a {@link WebhookVerificationError} for the
   * `body`, `configuration` and `verification` stages; what was thrown otherwise) and where it
   * happened. Its result is ignored and what it throws is swallowed. Default: `console.error` for
   * the receiver's failures (answered 5xx, a `configuration` or `deduplicator` stage), nothing for
   * the sender's (4xx, or a client that went away) nor for a `409 in_progress`, which is not a failure.
   */
  onError?: ((error: unknown, context: WebhookErrorContext) => unknown) | undefined;
  /**
   * Remembers handled event ids, so that retries and duplicates are acknowledged without being
   * handled again. Default: a new {@link InMemoryWebhookDeduplicator} (one process). Pass one over a
   * shared store (Redis, a table) when several processes receive webhooks, or `false` to handle
   * every delivery (your handlers are idempotent on their own).
   *
   * It must have `forget` (one phase: `seen`, then `forget` when handling fails) or all of `claim`,
   * `complete` and `release` (two phases, used when present: required for a store shared by several
   * processes, see {@link WebhookDeduplicator}); otherwise `createWebhookHandler` throws.
   */
  deduplicator?: WebhookDeduplicator | false | undefined;
  /**
   * How long a duplicate that arrives while the same event id is being handled in this process waits
   * for that handling to end, in milliseconds: it is then answered as the first was (200 duplicate
   * when it succeeded). Past this, it is answered `409 { "error": "in_progress" }` so that the
   * provider retries it later. An integer from 0 (answer 409 at once) to 2 147 483 647. Default 5000.
   */
  duplicateWaitMs?: number | undefined;
  /** The largest body accepted, in bytes: a larger one is answered 413 unread. Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /** Name of the signature header. Default {@link SIGNATURE_HEADER} (`x-service-signature`). */
  signatureHeader?: string | undefined;
  /**
   * Name of the event-id header. Default {@link EVENT_ID_HEADER} (`x-service-event-id`). Must name
   * another header than `signatureHeader` (compared case-insensitively).
   */
  eventIdHeader?: string | undefined;
}

/**
 * A webhook receiver made by {@link createWebhookHandler}. Both faces are plain functions: pass them
 * around detached (`export const POST = handler.fetch`, `app.post(path, handler.node)`). Neither
 * rejects once given a request: every outcome is an answer (or, for a client that went away, none).
 */
export interface WebhookHandler {
  /**
   * Answers a Fetch API `Request` (Hono's `c.req.raw`, a Next.js route handler, Bun, Deno, workers).
   */
  readonly fetch: (request: Request) => Promise<Response>;
  /**
   * Answers a `node:http` request on its response: `node:http`, Express (`app.post(path,
   * handler.node)`), Fastify (`handler.node(request, reply.raw)` after `reply.hijack()`, with a
   * `parseAs: 'buffer'` content-type parser). Reads the raw body from the request stream, or takes
   * it from `req.body` when a body parser left raw bytes there.
   */
  readonly node: (req: NodeWebhookRequest, res: NodeWebhookResponse) => Promise<void>;
}

const KNOWN_OPTIONS = [
  'secret',
  'on',
  'onEvent',
  'onError',
  'deduplicator',
  'maxBodyBytes',
  'duplicateWaitMs',
  'signatureHeader',
  'eventIdHeader',
] as const satisfies readonly (keyof WebhookHandlerOptions)[];

function invalid(option: string, message: string): WebhookVerificationError {
  return new WebhookVerificationError('invalid_options', `Webhook option '${option}' ${message}`);
}

/** A key or status as a message shows it: at most 64 characters. */
function clipped(key: string): string {
  return key.length > 64 ? `${key.slice(0, 64)}…` : key;
}

/** A key as a message shows it: quoted, at most 64 characters. */
function shown(key: string): string {
  return JSON.stringify(clipped(key));
}

/** `on`: known version 1 statuses only, each a function (or `undefined`). */
function statusHandlers(value: unknown): Map<string, WebhookEventHandler> {
  const handlers = new Map<string, WebhookEventHandler>();
  if (value === undefined || value === null) return handlers;
  if (typeof value !== 'object' || guarded('on', () => Array.isArray(value))) {
    throw invalid(
      'on',
      `must be an object of handlers keyed by status ({ restocked, … }), got ${describe(value)}.`,
    );
  }
  for (const key of guarded('on', () => Object.keys(value))) {
    const handler = guarded(`on.${clipped(key)}`, () => (value as Record<string, unknown>)[key]);
    if (!(STATUSES as readonly string[]).includes(key)) {
      if (key === 'received') {
        throw invalid(
          'on.received',
          "is not a status of the webhook: its body is the version 1 view of the shipment, where version 2's " +
            "'received' is called 'delivered'. Use 'on.delivered'.",
        );
      }
      throw invalid(
        `on.${clipped(key)}`,
        `is not a version 1 restocking shipment status (got key ${shown(key)}): use one of ${STATUSES.join(', ')} ` +
          "(version 2's 'received' is 'delivered'), or 'onEvent' for any other status.",
      );
    }
    if (handler === undefined) continue;
    if (typeof handler !== 'function')
      throw invalid(`on.${key}`, `must be a function, got ${describe(handler)}.`);
    handlers.set(key, handler as WebhookEventHandler);
  }
  return handlers;
}

function optionalFunction<T>(value: unknown, option: string): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'function') throw invalid(option, `must be a function, got ${describe(value)}.`);
  return value as T;
}

/** How the handler records event ids: one phase (`seen`, `forget`) or two (`claim`, `complete`, `release`). */
type Dedupe =
  | { readonly kind: 'one_phase'; readonly store: OnePhaseStore }
  | { readonly kind: 'two_phases'; readonly store: Required<WebhookDeduplicator> };

/** A deduplicator with `forget`. */
type OnePhaseStore = WebhookDeduplicator & { forget(id: string): unknown };

const TWO_PHASE_METHODS = ['claim', 'complete', 'release'] as const;

function deduplicatorOption(value: unknown): Dedupe | undefined {
  const store = value === undefined || value === null ? new InMemoryWebhookDeduplicator() : value;
  if (store === false) return undefined;
  const candidate = store as Partial<Record<'seen' | 'forget' | (typeof TWO_PHASE_METHODS)[number], unknown>>;
  if (typeof store !== 'object' || typeof candidate.seen !== 'function') {
    throw invalid(
      'deduplicator',
      `must be a WebhookDeduplicator (an object with a seen(id) method) or false, got ${describe(store)}.`,
    );
  }
  for (const method of ['forget', ...TWO_PHASE_METHODS] as const) {
    if (candidate[method] !== undefined && typeof candidate[method] !== 'function') {
      throw invalid(
        'deduplicator',
        `has a ${method} property that is not a function (${describe(candidate[method])}).`,
      );
    }
  }
  const present = TWO_PHASE_METHODS.filter((method) => candidate[method] !== undefined);
  if (present.length === TWO_PHASE_METHODS.length) {
    return { kind: 'two_phases', store: store as Required<WebhookDeduplicator> };
  }
  if (present.length > 0) {
    throw invalid(
      'deduplicator',
      `has ${present.join(' and ')} but not ${TWO_PHASE_METHODS.filter((m) => !present.includes(m)).join(' and ')}: ` +
        'the two-phase protocol needs claim, complete and release together.',
    );
  }
  if (candidate.forget === undefined) {
    throw invalid(
      'deduplicator',
      'has no forget(id) method (nor claim, complete and release): without it, the retry of an event ' +
        'whose handling failed would be acknowledged as a duplicate and never handled. Add forget(id), ' +
        'or the two-phase methods for a store shared by several processes.',
    );
  }
  return { kind: 'one_phase', store: store as OnePhaseStore };
}

/** `duplicateWaitMs` (`undefined` or `null`: the default): an integer number of milliseconds a timer can wait. */
function duplicateWaitOption(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_DUPLICATE_WAIT_MS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_TIMER_MS) {
    const got = typeof value === 'number' ? String(value) : describe(value);
    throw invalid(
      'duplicateWaitMs',
      `must be an integer number of milliseconds from 0 to ${MAX_TIMER_MS}, got ${got}.`,
    );
  }
  return value;
}

const DEFAULT_DUPLICATE_WAIT_MS = 5000;
/** The longest delay `setTimeout` honours (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

const JSON_TYPE = 'application/json';

/** The answer to a request or response object that misbehaves (its getters or stream throw). */
const INTERNAL_ERROR: WebhookAnswer = { status: 500, body: { error: 'internal_error' } };

/** An answer as a Fetch API `Response` (JSON). */
function respond(answer: WebhookAnswer): Response {
  return new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { 'content-type': JSON_TYPE, ...answer.headers },
  });
}

const METHOD_NOT_ALLOWED: WebhookAnswer = {
  status: 405,
  body: { error: 'method_not_allowed', message: 'Webhook calls are POST requests.' },
  headers: { allow: 'POST' },
};

/** Calls `fn`, swallowing what it throws or rejects with. */
function safely(fn: () => unknown): void {
  try {
    const result = fn();
    if (
      result !== null &&
      typeof result === 'object' &&
      typeof (result as PromiseLike<unknown>).then === 'function'
    ) {
      (result as PromiseLike<unknown>).then(undefined, () => {});
    }
  } catch {
    // A failing error hook must not change the answer.
  }
}

/**
 * The default `onError`: the receiver's failures (answered 5xx, or a response already sent) on
 * `console.error`; not the sender's (4xx, or a client that went away).
 */
function defaultOnError(error: unknown, context: WebhookErrorContext): void {
  const receivers =
    context.stage === 'configuration' ||
    context.stage === 'deduplicator' ||
    (context.responseStatus ?? 0) >= 500;
  if (!receivers) return;
  const about =
    context.eventId === undefined ? '' : ` (event ${context.eventId}, status ${context.shipmentStatus})`;
  console.error(`[merchant-fulfillment] webhook call failed at ${context.stage}${about}:`, error);
}

/**
 * Creates a webhook receiver: one object that reads the raw body (at most `maxBodyBytes`), verifies
 * the signature under `secret`, skips event ids already handled (`deduplicator`), calls the handler
 * of the shipment's status (`on`, else `onEvent`) and answers:
 *
 * - `200 { "received": true }` once the handler succeeded (or when no handler wants the status);
 * - `200 { "received": true, "duplicate": true }` for an event id already handled, without calling
 *   the handler again. A duplicate that arrives while the first delivery is still being handled in
 *   this process waits for it (at most `duplicateWaitMs`): 200 if it succeeds, 500 if it fails;
 * - `409 { "error": "in_progress" }` when the event id is being handled elsewhere: claimed by another
 *   process (a two-phase `deduplicator`), or still being handled here after `duplicateWaitMs`. Not
 *   an acknowledgement: the provider retries later, and the event is never acknowledged unhandled;
 * - `400 { "error": reason, "message" }` when verification fails (the
 *   {@link WebhookVerificationError} `reason`), `413` for a body over `maxBodyBytes`, `405` (with
 *   `Allow: POST`) for another method;
 * - `500 { "error": "handler_failed" }` when the handler throws (never its message): the event id is
 *   forgotten (or its claim released), so that the provider's retry is handled;
 *   `500 { "error": "deduplicator_failed" }` when the deduplicator throws;
 *   `500 { "error": "parsed_body" }` when the route handed over a parsed, consumed or locked body (a
 *   misconfigured receiver: the message naming the fix goes to `onError`, not into the answer).
 *
 * Every option is checked here: a wrong one throws a {@link WebhookVerificationError} with reason
 * `invalid_options` (or `missing_secret`) whose message names it. No answer and no error quotes a
 * secret.
 *
 * @example
 * ```ts
 * const handler = createWebhookHandler({
 *   secret: process.env.FULFILLMENT_API_TOKEN!,
 *   on: {
 *     delivered: (shipment) => markAtWarehouse(shipment.id), // version 2 calls it `received`
 *     restocked: (shipment) => syncStock(shipment.restocking_shipment_items),
 *   },
 * });
 * export const POST = handler.fetch; // Next.js, Hono (`c.req.raw`), Bun, Deno, workers
 * app.post('/webhooks/fulfillment', handler.node); // node:http, Express
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const given = checkOptions<WebhookHandlerOptions>(options, 'createWebhookHandler');
  for (const key of guarded('options', () => Object.keys(given))) {
    if (!(KNOWN_OPTIONS as readonly string[]).includes(key)) {
      throw new WebhookVerificationError(
        'invalid_options',
        `Webhook option ${shown(key)} is not an option of createWebhookHandler: the options are ${KNOWN_OPTIONS.join(', ')}.`,
      );
    }
  }
  // Each option is read once: a getter or a Proxy that throws is an `invalid_options` error naming it.
  const o = readOptions(given, 'createWebhookHandler', KNOWN_OPTIONS);
  const secrets = Object.freeze(guarded('secret', () => toSecrets(o.secret)));
  const limit = maxBodyBytes(o.maxBodyBytes);
  const signatureHeader = headerName(o.signatureHeader, 'signatureHeader', SIGNATURE_HEADER);
  const eventIdHeader = headerName(o.eventIdHeader, 'eventIdHeader', EVENT_ID_HEADER);
  distinctSignatureAndEventId(signatureHeader, eventIdHeader);
  const handlers = statusHandlers(o.on);
  const onEvent = optionalFunction<WebhookEventHandler>(o.onEvent, 'onEvent');
  const onError =
    optionalFunction<NonNullable<WebhookHandlerOptions['onError']>>(o.onError, 'onError') ?? defaultOnError;
  const dedupe = guarded('deduplicator', () => deduplicatorOption(o.deduplicator));
  const duplicateWaitMs = duplicateWaitOption(o.duplicateWaitMs);
  /** Event ids being handled in this process → the answer of that handling, once it ends. */
  const inFlight = new Map<string, Promise<WebhookAnswer>>();
  /** Unknown statuses already logged (when there is no `onEvent`), bounded. */
  const warned = new Set<string>();

  const report = (error: unknown, context: WebhookErrorContext): void =>
    safely(() => onError(error, context));

  const refusal = (outcome: Extract<BodyOutcome, { kind: 'refused' }>): WebhookAnswer => {
    const { error, status } = outcome;
    report(error, { stage: status === 413 ? 'body' : 'configuration', responseStatus: status });
    // A 5xx is the receiver's misconfiguration: the fix goes to onError, not to whoever called.
    if (status >= 500) return { status, body: { error: error.reason } };
    return {
      status,
      body: { error: error.reason, message: error.message },
      headers: { connection: 'close' },
    };
  };

  /** Verifies, deduplicates and routes one call whose raw body was read. */
  const answer = async (headers: WebhookHeaders, body: Uint8Array | string): Promise<WebhookAnswer> => {
    let event: RestockingShipmentStatusUpdatedEvent;
    try {
      event = await verifyChecked(
        toBody(body, limit),
        checkHeaders(headers, true)!,
        secrets,
        signatureHeader,
        eventIdHeader,
      );
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) {
        report(error, { stage: 'verification', responseStatus: 500 });
        return { status: 500, body: { error: 'verification_failed' } };
      }
      const status = error.reason === 'body_too_large' ? 413 : 400;
      report(error, { stage: 'verification', responseStatus: status });
      return { status, body: { error: error.reason, message: error.message } };
    }
    const context = { eventId: event.id, shipmentStatus: String(event.data.status) };
    if (!dedupe) return (await run(event, context)) ? ok() : failed();
    const pending = inFlight.get(event.id);
    if (pending) {
      const first = await within(pending, duplicateWaitMs);
      return first === undefined ? IN_PROGRESS : first.status === 200 ? ok(true) : first;
    }
    let settle!: (answer: WebhookAnswer) => void;
    const mine = new Promise<WebhookAnswer>((resolve) => {
      settle = resolve;
    });
    inFlight.set(event.id, mine);
    let result: WebhookAnswer = failed();
    try {
      result = await (dedupe.kind === 'two_phases'
        ? twoPhases(dedupe.store, event, context)
        : onePhase(dedupe.store, event, context));
      return result;
    } finally {
      if (inFlight.get(event.id) === mine) inFlight.delete(event.id);
      settle(result);
    }
  };

  /** A deduplicator method that threw: reported, and the id dropped best-effort (the store may have recorded it). */
  const storeFailed = (
    error: unknown,
    context: { eventId: string; shipmentStatus: string },
    drop: () => unknown,
  ): WebhookAnswer => {
    report(error, { stage: 'deduplicator', responseStatus: 500, ...context });
    safely(drop);
    return { status: 500, body: { error: 'deduplicator_failed' } };
  };

  /** Calls `step` of the store; what it throws is reported (at the given answer status) and swallowed. */
  const quietly = async (
    step: () => unknown,
    context: { eventId: string; shipmentStatus: string },
    responseStatus: number,
  ): Promise<void> => {
    try {
      await step();
    } catch (error) {
      report(error, { stage: 'deduplicator', responseStatus, ...context });
    }
  };

  /** One phase: `seen` records the id; `forget` drops it when handling fails. */
  const onePhase = async (
    store: OnePhaseStore,
    event: RestockingShipmentStatusUpdatedEvent,
    context: { eventId: string; shipmentStatus: string },
  ): Promise<WebhookAnswer> => {
    let duplicate: boolean;
    try {
      duplicate = (await store.seen(event.id)) === true;
    } catch (error) {
      return storeFailed(error, context, () => store.forget(event.id));
    }
    if (duplicate) return ok(true);
    if (await run(event, context)) return ok();
    await quietly(() => store.forget(event.id), context, 500);
    return failed();
  };

  /** Two phases: `claim`, then `complete` once handled or `release` when handling fails. */
  const twoPhases = async (
    store: Required<WebhookDeduplicator>,
    event: RestockingShipmentStatusUpdatedEvent,
    context: { eventId: string; shipmentStatus: string },
  ): Promise<WebhookAnswer> => {
    let claim: unknown;
    try {
      claim = await store.claim(event.id);
      if (claim !== 'new' && claim !== 'in_progress' && claim !== 'done') {
        throw new TypeError(
          `The deduplicator's claim(id) returned ${describe(claim)}, not 'new', 'in_progress' or 'done'.`,
        );
      }
    } catch (error) {
      return storeFailed(error, context, () => store.release(event.id));
    }
    if (claim === 'done') return ok(true);
    if (claim === 'in_progress') return IN_PROGRESS;
    if (await run(event, context)) {
      // Handled: answer 200 even if recording it fails (a retry may then be handled again).
      await quietly(() => store.complete(event.id), context, 200);
      return ok();
    }
    await quietly(() => store.release(event.id), context, 500);
    return failed();
  };

  /**
   * Without `onEvent`, an event of a status this version does not know is acknowledged: say so once
   * per status (at most `MAX_WARNED_STATUSES` of them), since no handler will ever see it.
   */
  const warnUnknown = (status: string): void => {
    if ((STATUSES as readonly string[]).includes(status) || warned.has(status)) return;
    if (warned.size >= MAX_WARNED_STATUSES) return;
    warned.add(status);
    // The status comes from a verified body (the provider's own value), never from the caller.
    safely(() =>
      console.warn(
        `[merchant-fulfillment] webhook events with status ${shown(status)}, unknown to this version ` +
          'of the SDK, are acknowledged without being handled: pass onEvent to handle them (or to ' +
          'silence this notice).',
      ),
    );
  };

  /** Calls the event's handler; `false` (reported) when it throws or rejects. */
  const run = async (
    event: RestockingShipmentStatusUpdatedEvent,
    context: { eventId: string; shipmentStatus: string },
  ): Promise<boolean> => {
    const handler = handlers.get(context.shipmentStatus) ?? onEvent;
    if (!handler) warnUnknown(context.shipmentStatus);
    try {
      await handler?.(event.data, { ...event, status: event.data.status });
      return true;
    } catch (error) {
      report(error, { stage: 'handler', responseStatus: 500, ...context });
      return false;
    }
  };

  const fetchFace = async (request: Request): Promise<Response> => {
    if (request === null || typeof request !== 'object') {
      throw invalid('request', `of handler.fetch must be a Fetch API Request, got ${describe(request)}.`);
    }
    let method: unknown;
    try {
      method = request.method;
    } catch (error) {
      // A request whose `method` getter (or Proxy trap) throws: a request all the same, answered.
      report(unreadable('request.method', error), { stage: 'configuration', responseStatus: 500 });
      return respond(INTERNAL_ERROR);
    }
    if (typeof method !== 'string') {
      throw invalid('request', `of handler.fetch must be a Fetch API Request, got ${describe(request)}.`);
    }
    let result: WebhookAnswer;
    try {
      result = await answerRequest(request, method);
    } catch (error) {
      // A request whose getters or stream misbehave in an unforeseen way: still an answer.
      report(error, { stage: 'configuration', responseStatus: 500 });
      result = INTERNAL_ERROR;
    }
    return respond(result);
  };

  const answerRequest = async (request: Request, method: string): Promise<WebhookAnswer> => {
    if (method !== 'POST') return METHOD_NOT_ALLOWED;
    const outcome = await readRequestBody(request, limit);
    if (outcome.kind === 'refused') return refusal(outcome);
    if (outcome.kind === 'aborted') {
      const error = new WebhookVerificationError(
        'invalid_body',
        'The webhook request body could not be read to its end.',
      );
      report(error, { stage: 'body', responseStatus: 400 });
      return { status: 400, body: { error: error.reason, message: error.message } };
    }
    return answer(request.headers, outcome.body);
  };

  const nodeFace = async (req: NodeWebhookRequest, res: NodeWebhookResponse): Promise<void> => {
    let result: WebhookAnswer | undefined;
    try {
      result = await answerNode(req);
    } catch (error) {
      // A request whose getters or stream misbehave in an unforeseen way: still an answer.
      report(error, { stage: 'configuration', responseStatus: 500 });
      result = INTERNAL_ERROR;
    }
    let written: boolean;
    try {
      written = result === undefined || writeNodeAnswer(res, result);
    } catch (error) {
      report(error, { stage: 'configuration', responseStatus: null });
      return;
    }
    if (!written) {
      report(
        new WebhookVerificationError(
          'response_already_sent',
          'The webhook response was already sent by other code: handler.node must be the only one to answer the request (in Fastify, call reply.hijack() first).',
        ),
        { stage: 'configuration', responseStatus: null },
      );
    }
  };

  /** The answer to a Node request; `undefined` when the client went away (no one to answer). */
  const answerNode = async (req: NodeWebhookRequest): Promise<WebhookAnswer | undefined> => {
    if (req.method !== 'POST') return METHOD_NOT_ALLOWED;
    const outcome = await readNodeBody(req, limit);
    if (outcome.kind === 'refused') return refusal(outcome);
    if (outcome.kind === 'body') return answer(req.headers, outcome.body);
    report(
      new WebhookVerificationError(
        'invalid_body',
        'The client closed the connection before sending the whole webhook body.',
      ),
      { stage: 'body', responseStatus: null },
    );
    return undefined;
  };

  return Object.freeze({ fetch: fetchFace, node: nodeFace });
}

function ok(duplicate = false): WebhookAnswer {
  return { status: 200, body: duplicate ? { received: true, duplicate: true } : { received: true } };
}

/**
 * The answer to a delivery whose event id is being handled elsewhere (another process holds the
 * claim, or this process took longer than `duplicateWaitMs`): not an acknowledgement, so that the
 * provider retries later. 409 rather than 5xx: nothing failed, and the default `onError` stays quiet.
 */
const IN_PROGRESS: WebhookAnswer = { status: 409, body: { error: 'in_progress' } };

/** At most this many unknown statuses are logged (each once). */
const MAX_WARNED_STATUSES = 32;

/**
 * `promise`'s value, or `undefined` once `ms` milliseconds passed first. The timer does not keep
 * the process alive (`unref` where available) and is cleared as soon as either happens.
 */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  if (ms <= 0) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
    (timer as { unref?: () => unknown }).unref?.();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function failed(): WebhookAnswer {
  return { status: 500, body: { error: 'handler_failed' } };
}

/** The raw body of a Fetch API request, read as it streams in, stopping past `limit`. */
async function readRequestBody(request: Request, limit: number): Promise<BodyOutcome> {
  if (request.bodyUsed || request.body?.locked === true) {
    return {
      kind: 'refused',
      status: 500,
      error: new WebhookVerificationError(
        'parsed_body',
        'The webhook request body was already read or locked (by c.req.json(), req.json() or a middleware) before ' +
          'handler.fetch: pass the request untouched (in Hono, handler.fetch(c.req.raw) before any body ' +
          'is read), since the signature covers its raw bytes.',
      ),
    };
  }
  const declared = declaredLength(request.headers);
  if (declared !== undefined && declared > limit) return tooLarge(declared, limit);
  if (!request.body) return { kind: 'body', body: new Uint8Array(0) };
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // A stream of anything but bytes (a misbehaving body) cannot be the signed body.
      const chunk: unknown = value;
      if (!ArrayBuffer.isView(chunk)) {
        reader.cancel().catch(() => {});
        return { kind: 'aborted' };
      }
      size += chunk.byteLength;
      if (size > limit) {
        reader.cancel().catch(() => {});
        return tooLarge(undefined, limit);
      }
      chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    }
  } catch {
    return { kind: 'aborted' };
  }
  return { kind: 'body', body: joinChunks(chunks, size) };
}
