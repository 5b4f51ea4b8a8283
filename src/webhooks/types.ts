/**
 * Webhooks: the header names, the event type, and the public types the other webhook modules share.
 */
import type { RestockingShipmentV1 } from '../schemas/types/restocking-shipments.js';
import type { WebhookDeduplicator } from './dedupe.js';

/** Default name of the header carrying the hex HMAC-SHA256 signature of the body. */
export const SIGNATURE_HEADER = 'x-service-signature';
/** Default name of the header identifying the webhook call (retries of one call carry the same value). */
export const EVENT_ID_HEADER = 'x-service-event-id';
/**
 * Default of the `maxBodyBytes` option of `verifyWebhook` and `verifyWebhookSignature`: 1 MiB. A
 * restocking shipment with 4 000 items is about 200 kB, so this leaves five times that; a larger
 * body is refused (`body_too_large`) before any HMAC work.
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The `type` of the only event the API emits: a restocking shipment moved to another status. */
export const RESTOCKING_SHIPMENT_STATUS_UPDATED = 'restocking_shipment.status_updated';

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
  type: typeof RESTOCKING_SHIPMENT_STATUS_UPDATED;
  /** The restocking shipment, in its new status. */
  data: RestockingShipmentV1;
  /** The signature header as received (trimmed), already checked against the body. */
  receivedSignature: string;
}
