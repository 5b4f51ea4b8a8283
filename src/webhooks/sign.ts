/**
 * Webhooks: sign a body and build the headers of a delivery the way the provider does, to send test
 * webhook calls to your own endpoint.
 */
import { hmacHex, toBytes, toSecrets } from './crypto.js';
import type { WebhookVerificationError } from './errors.js';
import { checkOptions, eventIdValue, headerName } from './options.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, type WebhookBody } from './types.js';

/** Options of {@link signWebhook}. */
export interface SignWebhookOptions {
  /** The exact body that will be sent (a string such as `JSON.stringify(payload)`, or bytes). */
  body: WebhookBody;
  /** The API token to sign with. */
  secret: string;
}

/** Options of {@link createWebhookHeaders}. */
export interface CreateWebhookHeadersOptions extends SignWebhookOptions {
  /** The event id to send. Default: a random UUID (`crypto.randomUUID()`). */
  eventId?: string;
  /** Name of the signature header. Default {@link SIGNATURE_HEADER}. */
  signatureHeader?: string;
  /** Name of the event-id header. Default {@link EVENT_ID_HEADER}. */
  eventIdHeader?: string;
}

/**
 * Signs a webhook body the way the provider does: the lower-case hex HMAC-SHA256 of the exact body
 * bytes, keyed with the API token. For tests that send webhook calls to your own endpoint.
 *
 * Unusable inputs reject with a {@link WebhookVerificationError}: `invalid_options` (no options
 * object), `parsed_body` / `invalid_body` (not a string or bytes), `missing_secret` (no non-empty
 * string secret).
 */
export async function signWebhook(options: SignWebhookOptions): Promise<string> {
  checkOptions<SignWebhookOptions>(options, 'signWebhook');
  const bytes = toBytes(options.body, 'sign');
  const [secret] = toSecrets(options.secret);
  return hmacHex(secret!, bytes);
}

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
 * that is not an HTTP token or an `eventId` that is not a non-empty header value.
 */
export async function createWebhookHeaders(
  options: CreateWebhookHeadersOptions,
): Promise<Record<string, string>> {
  checkOptions<CreateWebhookHeadersOptions>(options, 'createWebhookHeaders');
  const signatureHeader = headerName(options.signatureHeader, 'signatureHeader', SIGNATURE_HEADER);
  const eventIdHeader = headerName(options.eventIdHeader, 'eventIdHeader', EVENT_ID_HEADER);
  const eventId = eventIdValue(options.eventId);
  const signature = await signWebhook({ body: options.body, secret: options.secret });
  return {
    'content-type': 'application/json',
    [signatureHeader.toLowerCase()]: signature,
    [eventIdHeader.toLowerCase()]: eventId ?? crypto.randomUUID(),
  };
}
