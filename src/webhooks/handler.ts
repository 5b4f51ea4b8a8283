/**
 * Webhooks: `createWebhookHandler` — one object that receives the "Restocking shipment status
 * updated" calls: reads the raw body (bounded), verifies it, skips duplicates, routes the event to
 * the handler of its status and answers the provider. Faces: `fetch` (Fetch API) and `node`
 * (`node:http`, Express, Fastify; see `node.ts`).
 */
import { closest, describe, isObject } from '../core/describe.js';
import { RESTOCKING_SHIPMENT_V1_STATUSES } from '../schemas/statuses.js';
import { toBody } from './crypto.js';
import { InMemoryWebhookDeduplicator } from './dedupe.js';
import { readNodeBody, readRequestBody } from './node.js';
import {
  invalid,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  type RestockingShipmentStatusUpdatedEvent,
  type WebhookBody,
  type WebhookDeduplicator,
  type WebhookErrorContext,
  type WebhookHandler,
  type WebhookHandlerOptions,
  type WebhookHeaders,
  WebhookVerificationError,
} from './types.js';
import { checkOptions, verifyChecked } from './verify.js';

/** An answer: status, JSON body, headers besides `content-type: application/json`. */
type WebhookAnswer = { status: number; body: object; headers?: Record<string, string> };

/** A handler of `on` or `onEvent`, as the handler calls it. */
type EventHandler = NonNullable<WebhookHandlerOptions['onEvent']>;

/** The status keys of `on`: the version 1 statuses, in the SDK's order. */
const STATUSES: readonly string[] = RESTOCKING_SHIPMENT_V1_STATUSES;

/** The option names of {@link createWebhookHandler}. */
const OPTIONS = 'secret on onEvent onError deduplicator maxBodyBytes signatureHeader eventIdHeader';

/** `on`: known version 1 statuses only, each a function (or `undefined`). */
function statusHandlers(value: unknown): Map<string, EventHandler> {
  if (value != null && !isObject(value)) {
    throw invalid(
      'on',
      `must be an object of handlers keyed by status ({ restocked, … }), got ${describe(value)}.`,
    );
  }
  const handlers = new Map<string, EventHandler>();
  for (const [key, handler] of Object.entries(value ?? {})) {
    if (!STATUSES.includes(key)) {
      // The body is the version 1 view of the shipment, where version 2's `received` is `delivered`.
      const near = key === 'received' ? 'delivered' : closest(key, STATUSES);
      throw invalid(
        `on.${key}`,
        `is not a version 1 restocking shipment status${near ? ` (did you mean '${near}'?)` : ''}: the webhook ` +
          `carries the version 1 view of the shipment; use one of ${STATUSES.join(', ')} (version 2's ` +
          "'received' is 'delivered'), or 'onEvent' for any other status.",
      );
    }
    if (handler != null && typeof handler !== 'function')
      throw invalid(`on.${key}`, `must be a function, got ${describe(handler)}.`);
    if (handler) handlers.set(key, handler as EventHandler);
  }
  return handlers;
}

/** The deduplicator of `deduplicator: false`: every delivery is new. */
const NONE: WebhookDeduplicator = { claim: async () => 'new', complete: () => {}, release: () => {} };
const METHODS = ['claim', 'complete', 'release'] as const;

/** The `deduplicator` option, checked: a new {@link InMemoryWebhookDeduplicator} when absent. */
function deduplicatorOf(value: unknown): WebhookDeduplicator {
  const store = value === false ? NONE : (value ?? new InMemoryWebhookDeduplicator());
  const missing = METHODS.filter((m) => typeof (store as Partial<WebhookDeduplicator>)?.[m] !== 'function');
  if (missing.length === 0) return store as WebhookDeduplicator;
  throw invalid(
    'deduplicator',
    'must be a WebhookDeduplicator (an object with claim, complete and release) or false, got ' +
      (isObject(store) ? `one without ${missing.join(', ')} as functions.` : `${describe(store)}.`),
  );
}

const OK: WebhookAnswer = { status: 200, body: { received: true } };
const DUPLICATE: WebhookAnswer = { status: 200, body: { received: true, duplicate: true } };
const FAILED: WebhookAnswer = { status: 500, body: { error: 'handler_failed' } };
/**
 * The answer to a delivery whose event id is being handled (claimed by this or another process):
 * not an acknowledgement (the provider acknowledges only a 2xx and retries the others), so that the
 * provider retries later and the event is never acknowledged unhandled. 409 rather than 5xx:
 * nothing failed, and monitoring of 5xx answers stays quiet.
 */
const IN_PROGRESS: WebhookAnswer = { status: 409, body: { error: 'in_progress' } };
const METHOD_NOT_ALLOWED: WebhookAnswer = {
  status: 405,
  body: { error: 'method_not_allowed', message: 'Webhook calls are POST requests.' },
  headers: { allow: 'POST' },
};

/** Calls `fn` later, swallowing what it throws or rejects with. */
const safely = (fn: () => unknown): void =>
  void Promise.resolve()
    .then(fn)
    .catch(() => {});

/**
 * The default `onError`: the receiver's failures (answered 5xx, or a response already sent) on
 * `console.error`; not the sender's (4xx, or a client that went away).
 */
function defaultOnError(
  error: unknown,
  { stage, responseStatus, eventId, shipmentStatus }: WebhookErrorContext,
) {
  if (stage !== 'configuration' && stage !== 'deduplicator' && (responseStatus ?? 0) < 500) return;
  const about = eventId === undefined ? '' : ` (event ${eventId}, status ${shipmentStatus})`;
  console.error(`[merchant-fulfillment] webhook call failed at ${stage}${about}:`, error);
}

/**
 * Creates a webhook receiver: one object that reads the raw body (at most `maxBodyBytes`), verifies
 * the signature under `secret`, skips event ids already handled (`deduplicator`), calls the handler
 * of the shipment's status (`on`, else `onEvent`) and answers:
 *
 * - `200 { "received": true }` once the handler succeeded (or when no handler wants the status);
 * - `200 { "received": true, "duplicate": true }` for an event id already handled, without calling
 *   the handler again;
 * - `409 { "error": "in_progress" }` at once when the event id is still being handled, in this
 *   process or another (a shared `deduplicator`). Not an acknowledgement: the provider retries
 *   later, and the event is never acknowledged unhandled;
 * - `400 { "error": reason, "message" }` when verification fails (the
 *   {@link WebhookVerificationError} `reason`), `413` for a body over `maxBodyBytes`, `405` (with
 *   `Allow: POST`) for another method;
 * - `500 { "error": "handler_failed" }` when the handler throws (never its message): the event's
 *   claim is released, so that the provider's retry is handled;
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
  const checked = checkOptions(options, 'createWebhookHandler', OPTIONS);
  const limit = checked.maxBodyBytes;
  const handlers = statusHandlers(options.on);
  const onError = options.onError ?? defaultOnError;
  const store = deduplicatorOf(options.deduplicator);

  const report = (error: unknown, context: WebhookErrorContext): void =>
    safely(() => onError(error, context));

  /**
   * Claims the event under a fresh token (this attempt's), calls its handler, then completes the
   * claim once handled or releases it when handling fails (see {@link WebhookDeduplicator}).
   */
  const handle = async (event: RestockingShipmentStatusUpdatedEvent): Promise<WebhookAnswer> => {
    const status = event.data.status;
    const context = { eventId: event.id, shipmentStatus: status };
    const token = crypto.randomUUID();
    let claim: unknown;
    try {
      claim = await store.claim(event.id, token);
      if (!['new', 'in_progress', 'done'].includes(claim as string)) {
        throw new TypeError(
          `The deduplicator's claim(id, token) returned ${describe(claim)}, not 'new', 'in_progress' or 'done'.`,
        );
      }
    } catch (error) {
      report(error, { stage: 'deduplicator', responseStatus: 500, ...context });
      safely(() => store.release(event.id, token)); // the store may have recorded the claim
      return { status: 500, body: { error: 'deduplicator_failed' } };
    }
    if (claim !== 'new') return claim === 'done' ? DUPLICATE : IN_PROGRESS;
    let handled = true;
    try {
      await (handlers.get(status) ?? options.onEvent)?.(event.data, { ...event, status });
    } catch (error) {
      handled = false;
      report(error, { stage: 'handler', responseStatus: 500, ...context });
    }
    try {
      await (handled ? store.complete(event.id, token) : store.release(event.id, token));
    } catch (error) {
      // Handled: still answered 200 (a retry may then be handled again).
      report(error, { stage: 'deduplicator', responseStatus: handled ? 200 : 500, ...context });
    }
    return handled ? OK : FAILED;
  };

  /**
   * The answer to a request (`POST` only) whose raw body `read` gives: verified, deduplicated and
   * routed, or the refusal of the body (stage `body`; `configuration` for a 5xx) or of the
   * verification; `undefined` when a Node client went away (no one to answer).
   */
  const answer = async (
    request: { readonly method?: string | undefined; readonly headers: WebhookHeaders },
    read: () => Promise<WebhookBody>,
    node: boolean,
  ): Promise<WebhookAnswer | undefined> => {
    if (request.method !== 'POST') return METHOD_NOT_ALLOWED;
    let event: RestockingShipmentStatusUpdatedEvent;
    let wasRead = false;
    try {
      const body = await read();
      wasRead = true;
      event = await verifyChecked(toBody(body, limit), request.headers, checked);
    } catch (error) {
      const reason = error instanceof WebhookVerificationError ? error.reason : 'verification_failed';
      const status =
        reason === 'body_too_large' ? 413 : /parsed_body|verification_failed/.test(reason) ? 500 : 400;
      const gone = node && !wasRead && reason === 'invalid_body';
      const stage = wasRead ? 'verification' : status === 500 ? 'configuration' : 'body';
      report(error, { stage, responseStatus: gone ? null : status });
      if (gone) return undefined;
      // A 5xx is the receiver's misconfiguration: the fix goes to onError, not to whoever called.
      if (status === 500) return { status, body: { error: reason } };
      const close = !wasRead && status === 413 && { headers: { connection: 'close' } };
      return { status, body: { error: reason, message: (error as Error).message }, ...close };
    }
    return handle(event);
  };

  const fetchFace = async (request: Request): Promise<Response> => {
    const result = (await answer(request, () => readRequestBody(request, limit), false))!;
    const headers = { 'content-type': 'application/json', ...result.headers };
    return new Response(JSON.stringify(result.body), { status: result.status, headers });
  };

  const nodeFace = async (req: NodeWebhookRequest, res: NodeWebhookResponse): Promise<void> => {
    const result = await answer(req, () => readNodeBody(req, limit), true);
    if (result === undefined) return; // the client went away
    try {
      res.statusCode = result.status;
      res.setHeader('content-type', 'application/json');
      for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
      res.end(JSON.stringify(result.body));
    } catch (error) {
      // Other code already answered (in Fastify, call reply.hijack() first): Node refuses a second answer.
      report(error, { stage: 'configuration', responseStatus: null });
    }
  };

  return Object.freeze({ fetch: fetchFace, node: nodeFace });
}
