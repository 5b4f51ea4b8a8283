/**
 * Webhooks: sign a body and build the headers of a delivery the way the provider does, to send test
 * webhook calls to your own endpoint.
 */
import { hmacHex, toBytes, toSecrets } from './crypto.js';
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
 */
export async function signWebhook(options: SignWebhookOptions): Promise<string> {
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
 */
export async function createWebhookHeaders(
  options: CreateWebhookHeadersOptions,
): Promise<Record<string, string>> {
  const signature = await signWebhook({ body: options.body, secret: options.secret });
  return {
    'content-type': 'application/json',
    [(options.signatureHeader ?? SIGNATURE_HEADER).toLowerCase()]: signature,
    [(options.eventIdHeader ?? EVENT_ID_HEADER).toLowerCase()]: options.eventId ?? crypto.randomUUID(),
  };
}
