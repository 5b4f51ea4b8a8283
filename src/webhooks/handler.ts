/**
 * Webhooks: `createWebhookHandler` — one object that receives the "Restocking shipment status
 * updated" calls: reads the raw body (bounded), verifies it, skips duplicates, routes the event to
 * the handler of its status and answers the provider. Faces: `fetch` (Fetch API) and `node`
 * (`node:http`, Express, Fastify).
 *
 * The raw body, bounded by `maxBodyBytes`, is read from a Fetch API `Request`, or from a
 * `node:http` request (or taken from what a body parser left in `req.body`). Structural types only:
 * no Node module is imported, so the code loads on Bun, Deno and workers alike. A body that cannot
 * be had is thrown as a {@link WebhookVerificationError}: `body_too_large`, `parsed_body` (a parser
 * consumed it: the receiver's misconfiguration) or `invalid_body` (the client went away, or the
 * stream failed).
 */
import { closest, describe, isObject } from '../core/describe.js';
import { RESTOCKING_SHIPMENT_V1_STATUSES } from '../schemas/statuses.js';
import { parsedBody, toBody, tooLarge } from './crypto.js';
import { InMemoryWebhookDeduplicator } from './dedupe.js';
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
import { checkOptions, readHeader, verifyChecked } from './verify.js';

/** An answer: status, JSON body, headers besides `content-type: application/json`. */
type WebhookAnswer = { status: number; body: object; headers?: Record<string, string> };

/** A handler of `on` or `onEvent`, as the handler calls it. */
type EventHandler = NonNullable<WebhookHandlerOptions['onEvent']>;

/** The status keys of `on`: the version 1 statuses, in the SDK's order. */
const STATUSES: readonly string[] = RESTOCKING_SHIPMENT_V1_STATUSES;

/** The option names of {@link createWebhookHandler}. */
const OPTIONS =
  /* @__PURE__ */ 'secret on onEvent onError deduplicator maxBodyBytes signatureHeader eventIdHeader'.split(
    ' ',
  );

/** `on`: known version 1 statuses only, each a function (or `undefined`). */
function statusHandlers(value: unknown): Map<string, EventHandler> {
  if (value != null && !isObject(value))
    throw invalid('on', `must be an object of handlers by status, got ${describe(value)}.`);
  const handlers = new Map<string, EventHandler>();
  for (const [key, handler] of Object.entries(value ?? {})) {
    if (!STATUSES.includes(key)) {
      // The body is the version 1 view of the shipment, where version 2's `received` is `delivered`.
      const near = key === 'received' ? 'delivered' : closest(key, STATUSES);
      const hint = near ? ` (did you mean '${near}'?)` : '';
      const rule = `the webhook carries the version 1 view; use one of ${STATUSES.join(', ')}, or 'onEvent'`;
      throw invalid(`on.${key}`, `is not a version 1 restocking shipment status${hint}: ${rule}.`);
    }
    if (handler != null && typeof handler !== 'function')
      throw invalid(`on.${key}`, `must be a function, got ${describe(handler)}.`);
    if (handler) handlers.set(key, handler as EventHandler);
  }
  return handlers;
}

/** The deduplicator of `deduplicator: false`: every delivery is new. */
const NONE: WebhookDeduplicator = { claim: async () => 'new', complete: () => {}, release: () => {} };

/** The `deduplicator` option, checked: a new {@link InMemoryWebhookDeduplicator} when absent. */
function deduplicatorOf(value: unknown): WebhookDeduplicator {
  const store = value === false ? NONE : (value ?? new InMemoryWebhookDeduplicator());
  const missing = ['claim', 'complete', 'release'].filter((m) => typeof (store as never)?.[m] !== 'function');
  if (missing.length === 0) return store as WebhookDeduplicator;
  const got = isObject(store) ? `one without ${missing.join(', ')} as functions` : describe(store);
  throw invalid('deduplicator', `must be a WebhookDeduplicator or false, got ${got}.`);
}

const aborted = () =>
  new WebhookVerificationError('invalid_body', 'The webhook request body could not be read to its end.');

/** Refuses, unread, a body whose declared `content-length` (a plain decimal number) is over `limit`. */
function checkDeclared(headers: WebhookHeaders, limit: number): void {
  const value = readHeader(headers, 'content-length')?.trim();
  if (value && /^\d{1,15}$/.test(value) && Number(value) > limit) throw tooLarge(Number(value), limit);
}

/** Collects chunks into one byte array, refusing them past `limit`. */
function collector(limit: number) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    add(chunk: ArrayBufferView): void {
      chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      size += chunk.byteLength;
      if (size > limit) throw tooLarge(undefined, limit);
    },
    bytes(): Uint8Array {
      const out = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        out.set(chunk, offset);
        offset += chunk.byteLength;
      }
      return out;
    },
  };
}

/**
 * The raw body of a Node request: what a body parser left in `req.body` when it is bytes or a string
 * (its size is checked by the verification), otherwise read from the stream (`data` events),
 * bounded by `limit`: past it, reading stops (the stream is paused and its listeners removed). A
 * body a parser already parsed or read is `parsed_body`.
 */
async function readNodeBody(req: NodeWebhookRequest, limit: number): Promise<WebhookBody> {
  const given = req.body;
  if (typeof given === 'string' || given instanceof ArrayBuffer || ArrayBuffer.isView(given)) {
    return given as WebhookBody;
  }
  checkDeclared(req.headers, limit);
  if (given != null || req.readableEnded === true) throw parsedBody();
  // Fastify's `request` without a body: nothing was sent.
  if (typeof req.on !== 'function' || typeof req.removeListener !== 'function') return '';
  // The client went away before this call (its `close` already fired): no event will ever come.
  if (req.destroyed === true || req.readableAborted === true) throw aborted();
  return readStream(req, limit);
}

const ignore = (): void => {};
const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Reads the stream's `data` events, stopping past `limit`. Settles once, and then no listener of its
 * own is left on the stream.
 */
function readStream(req: NodeWebhookRequest, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const body = collector(limit);
    const done = <T>(settle: (value: T) => void, value: T) => {
      for (const [event, listener] of Object.entries(listeners))
        req.removeListener!(event as 'data', listener);
      settle(value);
    };
    const listeners = {
      end: () => done(resolve, body.bytes()),
      error: () => done(reject, aborted()),
      close: () => done(reject, aborted()),
      // Last: subscribing to `data` starts the flow.
      data: (chunk?: unknown) => {
        try {
          body.add(typeof chunk === 'string' ? encoder.encode(chunk) : (chunk as ArrayBufferView));
        } catch (error) {
          req.pause?.();
          done(reject, error);
          // Nothing reads the stream any more; a later error (the client going away) is not a crash.
          req.on!('error', ignore);
        }
      },
    };
    for (const [event, listener] of Object.entries(listeners)) req.on!(event as 'data', listener);
  });
}

/** The raw body of a Fetch API request, read as it streams in, stopping past `limit`. */
async function readRequestBody(request: Request, limit: number): Promise<Uint8Array> {
  if (request.bodyUsed || request.body?.locked === true) throw parsedBody();
  checkDeclared(request.headers, limit);
  if (!request.body) return new Uint8Array(0);
  const body = collector(limit);
  const reader = request.body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      // A stream of anything but bytes cannot be the signed body.
      if (!ArrayBuffer.isView(read.value)) throw aborted();
      body.add(read.value);
    }
  } catch (error) {
    reader.cancel().catch(ignore);
    throw error instanceof WebhookVerificationError ? error : aborted();
  }
  return body.bytes();
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
  const { onEvent, onError = defaultOnError } = checked as Pick<WebhookHandlerOptions, 'onEvent' | 'onError'>;
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
      await (handlers.get(status) ?? onEvent)?.(event.data, { ...event, status });
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
