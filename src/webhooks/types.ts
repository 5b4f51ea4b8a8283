/**
 * Webhooks: the header names, the public types of the webhook modules (the event, the deduplicator,
 * the handler's options and faces), and the error of webhook verification with its reasons.
 */
import { FulfillmentError } from '../core/errors.js';
import type {
  RestockingShipmentV1,
  RestockingShipmentV1Status,
} from '../schemas/restocking-shipment-records.js';

/** Default name of the header carrying the hex HMAC-SHA256 signature of the body. */
export const SIGNATURE_HEADER = 'x-service-signature';
/** Default name of the header identifying the webhook call (retries of one call carry the same value). */
export const EVENT_ID_HEADER = 'x-service-event-id';
/** Default `maxBodyBytes`: 1 MiB, five times a restocking shipment of 4 000 items (about 200 kB). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * A webhook body exactly as it arrived on the wire: a string, or bytes (`Uint8Array`, Node's
 * `Buffer`, `ArrayBuffer`). Never a parsed object: the signature covers the exact bytes, and
 * re-serializing parsed JSON does not reproduce them.
 */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/**
 * Request headers in any of the usual forms: a Fetch `Headers` object (Hono, Next.js, Workers,
 * Deno, Bun), Node's `IncomingHttpHeaders` (Express, Fastify, `node:http`; lower-case names,
 * array values whose first element is used), or a plain record whose names may be in any case.
 */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * The API token(s) of the sales channel that registered the webhook URL. The provider signs with
 * the oldest valid token of the sales channel: pass every token the channel holds (any order) and
 * each is tried, so a token can be rotated without rejecting deliveries.
 */
export type WebhookSecret = string | readonly string[];

/**
 * A verified "Restocking shipment status updated" webhook call. The API's only event: a restocking
 * shipment moved to another status; `data` is the shipment as `GET /merchant_api/v1/restocking_shipments/{id}`
 * returns it (unknown fields and status values are kept).
 */
export interface RestockingShipmentStatusUpdatedEvent {
  /**
   * The `x-service-event-id` header: identifies the webhook call; retries of the same call carry the
   * same value. Use it to process each call once (see {@link WebhookDeduplicator}).
   */
  id: string;
  /** Always `'restocking_shipment.status_updated'`. */
  type: 'restocking_shipment.status_updated';
  /** The restocking shipment, in its new status. */
  data: RestockingShipmentV1;
  /** The signature header as received (trimmed), already checked against the body. */
  receivedSignature: string;
}

/**
 * Why a webhook delivery was rejected, or why the inputs could not be checked. `invalid_options`:
 * an option has the wrong type or value, or is not an option of the function; its message names
 * the option. `body_too_large`: the raw body is longer than `maxBodyBytes` (refused before any
 * HMAC work).
 */
export type WebhookVerificationReason =
  | 'invalid_options'
  | 'body_too_large'
  | 'parsed_body'
  | 'invalid_body'
  | 'missing_secret'
  | 'missing_signature'
  | 'empty_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'missing_event_id'
  | 'invalid_payload';

/** A webhook delivery failed verification; `reason` says why in machine-readable form. */
export class WebhookVerificationError extends FulfillmentError {
  static override readonly name: string = 'WebhookVerificationError';
  /** Machine-readable reason. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** The `invalid_options` error of the webhook option `option`. @internal */
export const invalid = (option: string, message: string): WebhookVerificationError =>
  new WebhookVerificationError('invalid_options', `Webhook option '${option}' ${message}`);

/**
 * Remembers which webhook calls were already handled, by event id (`event.id`, the
 * `x-service-event-id` header; retries of one call carry the same id).
 *
 * Deliveries are neither ordered nor exactly-once, and the signature has no timestamp, so a
 * recorded call can also be replayed: process each id once, and also ignore payloads older than
 * what you already hold for the shipment (compare with the status you stored, or re-read the
 * shipment from the API).
 *
 * **Two phases** (`claim`, `complete`, `release`): an id is claimed before it is handled, then
 * completed or released, so that a retry reaching process B while process A is still handling the
 * event sees `in_progress` and is answered with a non-2xx status (the provider retries later): an
 * event is never acknowledged before it was handled. `createWebhookHandler` calls them with a fresh
 * token (`crypto.randomUUID()`) per delivery attempt: the attempt's `claim`, then its `complete` or
 * `release`, carry the same token (`release` also when `claim` threw, since the claim may have been
 * stored before its reply was lost). A claim is never renewed while its handler runs: it must
 * expire (a TTL longer than your slowest handler) so that a crashed process does not block an id
 * forever; `done` is kept as long as retries may come (e.g. 24 hours).
 *
 * Over a **SQL table** `webhook_events(id text primary key, state text, token text, expires_at timestamp)`:
 * - `claim(id, token)`: `DELETE … WHERE id = $1 AND expires_at < now()`, then
 *   `INSERT … VALUES ($1, 'in_progress', $2, now() + interval '5 minutes') ON CONFLICT (id) DO NOTHING`
 *   → `new` when a row was inserted, otherwise `SELECT state` → `done` or `in_progress`;
 * - `complete(id, token)`: `INSERT … VALUES ($1, 'done', NULL, now() + interval '1 day') ON CONFLICT (id)
 *   DO UPDATE SET state = 'done', token = NULL, expires_at = excluded.expires_at`;
 * - `release(id, token)`: `DELETE … WHERE id = $1 AND state = 'in_progress' AND token = $2`.
 */
export interface WebhookDeduplicator {
  /**
   * Step 1: atomically claims `id` for handling under `token` (the delivery attempt's).
   * Returns `new` when the id was neither done nor claimed (it is now claimed, in progress, until
   * `complete`, `release` or the claim's expiry), `in_progress` when another live claim holds it,
   * `done` when it was completed. Returns a promise (write it `async`), so that its string literals
   * keep their type.
   */
  claim(id: string, token: string): Promise<'new' | 'in_progress' | 'done'>;
  /**
   * Step 2 on success: records `id` as done (handled) for the done TTL from this moment,
   * whether or not the claim under `token` expired, over any live claim (another attempt's
   * included), so that later deliveries are duplicates. Its result is ignored (a promise is awaited).
   */
  complete(id: string, token: string): unknown;
  /**
   * Step 2 on failure: drops the claim of `id` only when it is held under `token`, so that
   * the provider's retry is handled; never a `done` id, never another attempt's claim. Its result is
   * ignored (a promise is awaited).
   */
  release(id: string, token: string): unknown;
}

/**
 * The request `handler.node` reads: a `node:http` `IncomingMessage` (Express's `req` included), or
 * any object with the request's `method` and `headers` and the raw body in `body` (Fastify's
 * `request` with a `parseAs: 'buffer'` content-type parser).
 */
export interface NodeWebhookRequest {
  /** The request method (`POST`). */
  readonly method?: string | undefined;
  /** The request headers (Node's `IncomingHttpHeaders`, or any {@link WebhookHeaders}). */
  readonly headers: WebhookHeaders;
  /**
   * The body a body parser already read, if any: raw bytes (`Buffer`, `Uint8Array`, `ArrayBuffer`)
   * or a string are used as the raw body; a parsed object is refused (the signature covers the raw
   * bytes). When absent, the body is read from the request stream.
   */
  readonly body?: unknown;
  /** `true` once the stream has been read to its end (by a body parser, for one). */
  readonly readableEnded?: boolean | undefined;
  /** `true` once the stream was destroyed (the client went away, its `close` already fired). */
  readonly destroyed?: boolean | undefined;
  /** `true` once the stream was destroyed before its end (the client went away mid-body). */
  readonly readableAborted?: boolean | undefined;
  /** Subscribes to the stream's events (`data`, `end`, `error`, `close`). */
  on?(event: 'data' | 'end' | 'error' | 'close', listener: (chunk?: unknown) => void): unknown;
  /** Unsubscribes from the stream's events. */
  removeListener?(event: 'data' | 'end' | 'error' | 'close', listener: (chunk?: unknown) => void): unknown;
  /** Stops the flow of `data` events. */
  pause?(): unknown;
}

/**
 * The response `handler.node` answers on: a `node:http` `ServerResponse` (Express's `res`, Fastify's
 * `reply.raw` after `reply.hijack()`).
 */
export interface NodeWebhookResponse {
  /** The status code to send. */
  statusCode: number;
  /** Sets a response header. */
  setHeader(name: string, value: string): unknown;
  /** Sends the body and ends the response. */
  end(body: string): unknown;
}

/**
 * The handlers of {@link WebhookHandlerOptions.on}, keyed by **version 1** status: the webhook's
 * body is always the version 1 view of the shipment, whichever version created it. `created`,
 * `shipped`, `arrived`, `processing`, `restocked` and `cancelled` have the same name in version 2;
 * **version 2's `received`** (at the warehouse, content not yet verified) **arrives as `delivered`**,
 * and `on_hold` (version 1 only, which version 2 shows as `processing`) arrives as `on_hold`.
 *
 * Each handler receives the shipment (its `status` narrowed to that status) and the verified event
 * (`id`, `status`, `type`, `data`). It may be async; when it throws or rejects, the call is answered
 * 500 so that the provider retries it, and its claim is released so that the retry is handled.
 */
export type WebhookStatusHandlers = {
  [S in RestockingShipmentV1Status]?:
    | ((
        shipment: RestockingShipmentV1 & { status: S },
        event: RestockingShipmentStatusUpdatedEvent & {
          status: S;
          data: RestockingShipmentV1 & { status: S };
        },
      ) => unknown)
    | undefined;
};

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
   * Without it, such events are acknowledged and ignored.
   */
  onEvent?:
    | ((
        shipment: RestockingShipmentV1,
        event: RestockingShipmentStatusUpdatedEvent & { status: RestockingShipmentV1['status'] },
      ) => unknown)
    | undefined;
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
   * every delivery (your handlers are idempotent on their own). It must have `claim`, `complete`
   * and `release` (see {@link WebhookDeduplicator}); otherwise `createWebhookHandler` throws.
   */
  deduplicator?: WebhookDeduplicator | false | undefined;
  /** The largest body accepted, in bytes: a larger one is answered 413 unread. Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /** Name of the signature header. Default `x-service-signature`. */
  signatureHeader?: string | undefined;
  /** Name of the event-id header. Default `x-service-event-id`. */
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
