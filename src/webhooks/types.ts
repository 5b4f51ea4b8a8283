/**
 * Webhooks: the header names, the public types the other webhook modules share, and the error of
 * webhook verification with its machine-readable reasons.
 */
import { FulfillmentError } from '../core/errors.js';
import type { RestockingShipmentV1 } from '../schemas/types/restocking-shipments.js';

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
 * an option has the wrong type or value, is not an option of the function, or two header-name
 * options name the same header; its message names the option. `body_too_large`: the raw body is
 * longer than `maxBodyBytes` (refused before any HMAC work). `response_already_sent`:
 * `handler.node` found the response already sent or ended by other code, so it could not answer
 * (reported to `onError`, never thrown).
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
  | 'invalid_payload'
  | 'response_already_sent';

/** A webhook delivery failed verification; `reason` says why in machine-readable form. */
export class WebhookVerificationError extends FulfillmentError {
  static override readonly brand: string = 'WebhookVerificationError';
  /** Machine-readable reason. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}
