/**
 * Webhooks: sign a body and build the headers of a delivery the way the provider does, to send test
 * webhook calls to your own endpoint.
 */
import { hmacHex, toBytes, toSecrets } from './crypto.js';
import type { WebhookVerificationError } from './errors.js';
import { distinctHeaderNames, eventIdValue, guarded, headerName, readOptions } from './options.js';
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
  /**
   * Name of the event-id header. Default {@link EVENT_ID_HEADER}. Must name another header than
   * `signatureHeader` and than `content-type` (compared case-insensitively).
   */
  eventIdHeader?: string;
}

/**
 * Signs a webhook body the way the provider does: the lower-case hex HMAC-SHA256 of the exact body
 * bytes, keyed with the API token. For tests that send webhook calls to your own endpoint.
 *
 * Unusable inputs reject with a {@link WebhookVerificationError}: `invalid_options` (no options
 * object, or an option that cannot be read: a throwing getter, a Proxy), `parsed_body` / `invalid_body` (not a string or bytes), `missing_secret` (no non-empty
 * string secret).
 */
export async function signWebhook(options: SignWebhookOptions): Promise<string> {
  const o = readOptions(options, 'signWebhook', ['body', 'secret'] as const);
  const bytes = guarded('body', () => toBytes(o.body, 'sign'));
  const [secret] = guarded('secret', () => toSecrets(o.secret));
  return hmacHex(secret!, bytes);
}

/** The options {@link createWebhookHeaders} reads (each once). */
const HEADERS_OPTIONS = [
  'body',
  'secret',
  'eventId',
  'signatureHeader',
  'eventIdHeader',
] as const satisfies readonly (keyof CreateWebhookHeadersOptions)[];

const CONTENT_TYPE = 'content-type';

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
 * that is not an HTTP token, two header names that name the same header (compared
 * case-insensitively; `content-type` included), or an `eventId` that is not a non-empty header value.
 */
export async function createWebhookHeaders(
  options: CreateWebhookHeadersOptions,
): Promise<Record<string, string>> {
  const o = readOptions(options, 'createWebhookHeaders', HEADERS_OPTIONS);
  const signatureHeader = headerName(o.signatureHeader, 'signatureHeader', SIGNATURE_HEADER);
  const eventIdHeader = headerName(o.eventIdHeader, 'eventIdHeader', EVENT_ID_HEADER);
  // Each header is set once: a name shared by two of them would lose one value.
  distinctHeaderNames({ signatureHeader, eventIdHeader }, CONTENT_TYPE);
  const eventId = eventIdValue(o.eventId);
  const signature = await signWebhook({ body: o.body as WebhookBody, secret: o.secret as string });
  return {
    [CONTENT_TYPE]: 'application/json',
    [signatureHeader.toLowerCase()]: signature,
    [eventIdHeader.toLowerCase()]: eventId ?? crypto.randomUUID(),
  };
}
