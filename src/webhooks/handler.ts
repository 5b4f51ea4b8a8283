/**
 * Webhooks: `createWebhookHandler` — one object that receives the "Restocking shipment status
 * updated" calls: reads the raw body (bounded), verifies it, skips duplicates, routes the event to
 * the handler of its status and answers the provider. Faces: `fetch` (Fetch API) and `node`
 * (`node:http`, Express, Fastify; see `node.ts`).
 */
import type { RestockingShipmentV1Status } from '../schemas/restocking-shipment-records.js';
import { RESTOCKING_SHIPMENT_V1_STATUSES } from '../schemas/statuses.js';
import type { RestockingShipmentV1 } from '../schemas/types/restocking-shipments.js';
import { toSecrets } from './crypto.js';
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
import { checkOptions, describe, headerName, maxBodyBytes } from './options.js';
import {
  EVENT_ID_HEADER,
  type RestockingShipmentStatusUpdatedEvent,
  SIGNATURE_HEADER,
  type WebhookHeaders,
  type WebhookSecret,
} from './types.js';
import { verifyWebhook } from './verify.js';

/** A version 1 restocking shipment whose `status` is `S`: what the handler of status `S` receives. */
export type WebhookShipment<S extends RestockingShipmentV1Status = RestockingShipmentV1Status> =
  RestockingShipmentV1 & { status: S };

/** The verified event as the handler of status `S` receives it: `data.status` is `S`. */
export type WebhookStatusEvent<S extends RestockingShipmentV1Status = RestockingShipmentV1Status> =
  RestockingShipmentStatusUpdatedEvent & { data: WebhookShipment<S> };

/**
 * Handles the events of one status: receives the shipment (its `status` narrowed to that status)
 * and the verified event (`id`, `type`, `data`). May be async; when it throws or rejects, the call
 * is answered 500 so that the provider retries it, and its event id is forgotten by the
 * deduplicator so that the retry is handled.
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
export type WebhookEventHandler = (
  shipment: RestockingShipmentV1,
  event: RestockingShipmentStatusUpdatedEvent,
) => unknown;

/** Where a webhook call failed, as {@link WebhookHandlerOptions.onError} is told. */
export interface WebhookErrorContext {
  /**
   * What failed: `body` (too large, or the client went away while sending it), `configuration` (the
   * receiver handed over a parsed or consumed body: fix the route), `verification` (signature, event
   * id or payload), `deduplicator` (its `seen` or `forget` threw), `handler` (your handler threw).
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
  /** The handler of every event whose status has no handler in `on` (unknown statuses included). */
  onEvent?: WebhookEventHandler | undefined;
  /**
   * Told of every failed call (for logging): the error (a {@link WebhookVerificationError} for the
   * `body`, `configuration` and `verification` stages; what was thrown otherwise) and where it
   * happened. Its result is ignored and what it throws is swallowed. Default: `console.error` for
   * the receiver's failures (answered 5xx, or a response other code already sent), nothing for the
   * sender's (4xx, or a client that went away).
   */
  onError?: ((error: unknown, context: WebhookErrorContext) => unknown) | undefined;
  /**
   * Remembers handled event ids, so that retries and duplicates are acknowledged without being
   * handled again. Default: a new {@link InMemoryWebhookDeduplicator} (one process). Pass one over a
   * shared store (Redis, a table) when several processes receive webhooks, or `false` to handle
   * every delivery (your handlers are idempotent on their own).
   */
  deduplicator?: WebhookDeduplicator | false | undefined;
  /** The largest body accepted, in bytes: a larger one is answered 413 unread. Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /** Name of the signature header. Default {@link SIGNATURE_HEADER} (`x-service-signature`). */
  signatureHeader?: string | undefined;
  /** Name of the event-id header. Default {@link EVENT_ID_HEADER} (`x-service-event-id`). */
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
  'signatureHeader',
  'eventIdHeader',
] as const satisfies readonly (keyof WebhookHandlerOptions)[];

function invalid(option: string, message: string): WebhookVerificationError {
  return new WebhookVerificationError('invalid_options', `Webhook option '${option}' ${message}`);
}

/** A key as a message shows it: quoted, at most 64 characters. */
function shown(key: string): string {
  return JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
}

/** `on`: known version 1 statuses only, each a function (or `undefined`). */
function statusHandlers(value: unknown): Map<string, WebhookEventHandler> {
  const handlers = new Map<string, WebhookEventHandler>();
  if (value === undefined || value === null) return handlers;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(
      'on',
      `must be an object of handlers keyed by status ({ restocked, … }), got ${describe(value)}.`,
    );
  }
  for (const key of Object.keys(value)) {
    const handler = (value as Record<string, unknown>)[key];
    if (!(STATUSES as readonly string[]).includes(key)) {
      if (key === 'received') {
        throw invalid(
          'on.received',
          "is not a status of the webhook: its body is the version 1 view of the shipment, where version 2's " +
            "'received' is called 'delivered'. Use 'on.delivered'.",
        );
      }
      throw invalid(
        `on.${key.length > 64 ? `${key.slice(0, 64)}…` : key}`,
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

function deduplicatorOption(value: unknown): WebhookDeduplicator | undefined {
  if (value === undefined || value === null) return new InMemoryWebhookDeduplicator();
  if (value === false) return undefined;
  const candidate = value as { seen?: unknown; forget?: unknown };
  if (typeof value !== 'object' || typeof candidate.seen !== 'function') {
    throw invalid(
      'deduplicator',
      `must be a WebhookDeduplicator (an object with a seen(id) method) or false, got ${describe(value)}.`,
    );
  }
  if (candidate.forget !== undefined && typeof candidate.forget !== 'function') {
    throw invalid(
      'deduplicator',
      `has a forget property that is not a function (${describe(candidate.forget)}).`,
    );
  }
  return value as WebhookDeduplicator;
}

const JSON_TYPE = 'application/json';

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
  const receivers = context.stage === 'configuration' || (context.responseStatus ?? 0) >= 500;
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
 *   the handler again. A duplicate that arrives while the first delivery is still being handled (in
 *   this process) waits for it: 200 if it succeeds, 500 if it fails;
 * - `400 { "error": reason, "message" }` when verification fails (the
 *   {@link WebhookVerificationError} `reason`), `413` for a body over `maxBodyBytes`, `405` (with
 *   `Allow: POST`) for another method;
 * - `500 { "error": "handler_failed" }` when the handler throws (never its message): the event id is
 *   forgotten, so that the provider's retry is handled; `500 { "error": "deduplicator_failed" }`
 *   when the deduplicator throws; `500` with the reason and a message when the route handed over a
 *   parsed or consumed body (a misconfigured receiver).
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
  checkOptions<WebhookHandlerOptions>(options, 'createWebhookHandler');
  for (const key of Object.keys(options)) {
    if (!(KNOWN_OPTIONS as readonly string[]).includes(key)) {
      throw new WebhookVerificationError(
        'invalid_options',
        `Webhook option ${shown(key)} is not an option of createWebhookHandler: the options are ${KNOWN_OPTIONS.join(', ')}.`,
      );
    }
  }
  const secrets = Object.freeze(toSecrets(options.secret));
  const limit = maxBodyBytes(options.maxBodyBytes);
  const signatureHeader = headerName(options.signatureHeader, 'signatureHeader', SIGNATURE_HEADER);
  const eventIdHeader = headerName(options.eventIdHeader, 'eventIdHeader', EVENT_ID_HEADER);
  const handlers = statusHandlers(options.on);
  const onEvent = optionalFunction<WebhookEventHandler>(options.onEvent, 'onEvent');
  const onError =
    optionalFunction<NonNullable<WebhookHandlerOptions['onError']>>(options.onError, 'onError') ??
    defaultOnError;
  const deduplicator = deduplicatorOption(options.deduplicator);
  /** Event ids being handled in this process → whether handling succeeded. */
  const inFlight = new Map<string, Promise<boolean>>();

  const report = (error: unknown, context: WebhookErrorContext): void =>
    safely(() => onError(error, context));

  const refusal = (outcome: Extract<BodyOutcome, { kind: 'refused' }>): WebhookAnswer => {
    const { error, status } = outcome;
    report(error, { stage: status === 413 ? 'body' : 'configuration', responseStatus: status });
    return {
      status,
      body: { error: error.reason, message: error.message },
      ...(status === 413 ? { headers: { connection: 'close' } } : {}),
    };
  };

  /** Verifies, deduplicates and routes one call whose raw body was read. */
  const answer = async (headers: WebhookHeaders, body: Uint8Array | string): Promise<WebhookAnswer> => {
    let event: RestockingShipmentStatusUpdatedEvent;
    try {
      event = await verifyWebhook({
        body,
        headers,
        secret: secrets,
        signatureHeader,
        eventIdHeader,
        maxBodyBytes: limit,
      });
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
    if (!deduplicator) {
      return (await run(event, context)) ? ok() : failed();
    }
    const pending = inFlight.get(event.id);
    if (pending) return (await pending) ? ok(true) : failed();
    let settle!: (succeeded: boolean) => void;
    inFlight.set(
      event.id,
      new Promise<boolean>((resolve) => {
        settle = resolve;
      }),
    );
    let succeeded = false;
    try {
      let duplicate: boolean;
      try {
        duplicate = (await deduplicator.seen(event.id)) === true;
      } catch (error) {
        report(error, { stage: 'deduplicator', responseStatus: 500, ...context });
        return { status: 500, body: { error: 'deduplicator_failed' } };
      }
      if (duplicate) {
        succeeded = true;
        return ok(true);
      }
      succeeded = await run(event, context);
      if (succeeded) return ok();
      try {
        await deduplicator.forget?.(event.id);
      } catch (error) {
        report(error, { stage: 'deduplicator', responseStatus: 500, ...context });
      }
      return failed();
    } finally {
      inFlight.delete(event.id);
      settle(succeeded);
    }
  };

  /** Calls the event's handler; `false` (reported) when it throws or rejects. */
  const run = async (
    event: RestockingShipmentStatusUpdatedEvent,
    context: { eventId: string; shipmentStatus: string },
  ): Promise<boolean> => {
    const handler = handlers.get(context.shipmentStatus) ?? onEvent;
    try {
      await handler?.(event.data, event);
      return true;
    } catch (error) {
      report(error, { stage: 'handler', responseStatus: 500, ...context });
      return false;
    }
  };

  const fetchFace = async (request: Request): Promise<Response> => {
    if (request === null || typeof request !== 'object' || typeof request.method !== 'string') {
      throw invalid('request', `of handler.fetch must be a Fetch API Request, got ${describe(request)}.`);
    }
    let result: WebhookAnswer;
    if (request.method !== 'POST') result = METHOD_NOT_ALLOWED;
    else {
      const outcome = await readRequestBody(request, limit);
      if (outcome.kind === 'refused') result = refusal(outcome);
      else if (outcome.kind === 'aborted') {
        const error = new WebhookVerificationError(
          'invalid_body',
          'The webhook request body could not be read to its end.',
        );
        report(error, { stage: 'body', responseStatus: 400 });
        result = { status: 400, body: { error: error.reason, message: error.message } };
      } else result = await answer(request.headers, outcome.body);
    }
    return new Response(JSON.stringify(result.body), {
      status: result.status,
      headers: { 'content-type': JSON_TYPE, ...result.headers },
    });
  };

  const nodeFace = async (req: NodeWebhookRequest, res: NodeWebhookResponse): Promise<void> => {
    let result: WebhookAnswer | undefined;
    if (req.method !== 'POST') result = METHOD_NOT_ALLOWED;
    else {
      const outcome = await readNodeBody(req, limit);
      if (outcome.kind === 'refused') result = refusal(outcome);
      else if (outcome.kind === 'body') result = await answer(req.headers, outcome.body);
      else
        report(
          new WebhookVerificationError(
            'invalid_body',
            'The client closed the connection before sending the whole webhook body.',
          ),
          { stage: 'body', responseStatus: null },
        );
    }
    if (result && !writeNodeAnswer(res, result)) {
      report(
        new WebhookVerificationError(
          'invalid_options',
          'The webhook response was already sent by other code: handler.node must be the only one to answer the request (in Fastify, call reply.hijack() first).',
        ),
        { stage: 'configuration', responseStatus: null },
      );
    }
  };

  return Object.freeze({ fetch: fetchFace, node: nodeFace });
}

function ok(duplicate = false): WebhookAnswer {
  return { status: 200, body: duplicate ? { received: true, duplicate: true } : { received: true } };
}

function failed(): WebhookAnswer {
  return { status: 500, body: { error: 'handler_failed' } };
}

/** The raw body of a Fetch API request, read as it streams in, stopping past `limit`. */
async function readRequestBody(request: Request, limit: number): Promise<BodyOutcome> {
  if (request.bodyUsed) {
    return {
      kind: 'refused',
      status: 500,
      error: new WebhookVerificationError(
        'parsed_body',
        'The webhook request body was already read (by c.req.json(), req.json() or a middleware) before ' +
          'handler.fetch: pass the request untouched (in Hono, handler.fetch(c.req.raw) before any body ' +
          'is read), since the signature covers its raw bytes.',
      ),
    };
  }
  const declared = declaredLength(request.headers);
  if (declared !== undefined && declared > limit) return tooLarge(declared, limit);
  if (!request.body) return { kind: 'body', body: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        reader.cancel().catch(() => {});
        return tooLarge(undefined, limit);
      }
      chunks.push(value);
    }
  } catch {
    return { kind: 'aborted' };
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: 'body', body };
}
