/**
 * Webhooks: sign a body and build the headers of a delivery the way the provider does, to send test
 * webhook calls to your own endpoint.
 */
import { hmac } from './crypto.js';
import type { WebhookBody, WebhookVerificationError } from './types.js';
import { checkOptions } from './verify.js';

/**
 * Signs a webhook body the way the provider does: the lower-case hex HMAC-SHA256 of the exact body
 * bytes, keyed with the API token. For tests that send webhook calls to your own endpoint.
 *
 * Unusable inputs reject with a {@link WebhookVerificationError}: `invalid_options` (no options
 * object, an unknown option), `parsed_body` / `invalid_body` (not a string or bytes),
 * `missing_secret` (no non-empty string secret).
 */
export async function signWebhook(options: {
  /** The exact body that will be sent (a string such as `JSON.stringify(payload)`, or bytes). */
  body: WebhookBody;
  /** The API token to sign with. */
  secret: string;
}): Promise<string> {
  const o = checkOptions(options, 'signWebhook', 'body secret');
  return hmac(o.secrets[0]!, o.body);
}

const HEADERS_OPTIONS = 'body secret eventId signatureHeader eventIdHeader';

/**
 * The headers of a webhook call as the provider sends it: `content-type: application/json`, the
 * signature, and the event id (a random UUID unless `eventId` is given). For tests:
 *
 * @example
 * ```ts
 * const body = JSON.stringify(shipment);
 * await fetch(url, { method: 'POST', body, headers: await createWebhookHeaders({ body, secret }) });
 * ```
 *
 * Unusable inputs reject like {@link signWebhook}'s, and with `invalid_options` for a header name
 * that is not an HTTP token or an `eventId` that is not a string.
 */
export async function createWebhookHeaders(options: {
  /** The exact body that will be sent (a string such as `JSON.stringify(payload)`, or bytes). */
  body: WebhookBody;
  /** The API token to sign with. */
  secret: string;
  /** The event id to send. Default: a random UUID (`crypto.randomUUID()`). */
  eventId?: string;
  /** Name of the signature header. Default `x-service-signature`. */
  signatureHeader?: string;
  /** Name of the event-id header. Default `x-service-event-id`. */
  eventIdHeader?: string;
}): Promise<Record<string, string>> {
  const o = checkOptions(options, 'createWebhookHeaders', HEADERS_OPTIONS);
  return {
    'content-type': 'application/json',
    [o.signatureHeader.toLowerCase()]: await hmac(o.secrets[0]!, o.body),
    [o.eventIdHeader.toLowerCase()]: o.eventId ?? crypto.randomUUID(),
  };
}
