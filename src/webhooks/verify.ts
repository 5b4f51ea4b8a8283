/**
 * Webhooks: verify the "Restocking shipment status updated" calls the provider sends — the signature
 * of the raw body, the event id, and the payload parsed as a restocking shipment —, sign a body and
 * build the headers of a delivery the way the provider does (to send test webhook calls to your own
 * endpoint), and the one check of the options every webhook function takes.
 */
import { closest, describe, isObject } from '../core/describe.js';
import { hmac, matchesAny, toBody, toSecrets } from './crypto.js';
import type { InMemoryWebhookDeduplicator } from './dedupe.js';
import { parsePayload } from './payload.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  EVENT_ID_HEADER,
  invalid,
  type RestockingShipmentStatusUpdatedEvent,
  SIGNATURE_HEADER,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookSecret,
  WebhookVerificationError,
} from './types.js';

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /**
   * The raw body exactly as received (string, `Uint8Array`/`Buffer` or `ArrayBuffer`). A parsed
   * object (what `express.json()` gives) is refused with reason `parsed_body`.
   */
  body: WebhookBody;
  /** The request headers (`Headers`, Node's `IncomingHttpHeaders`, or a plain record). */
  headers: WebhookHeaders;
  /** The sales channel's API token, or all of its tokens (each is tried). */
  secret: WebhookSecret;
  /** Name of the signature header. Default {@link SIGNATURE_HEADER} (`x-service-signature`). */
  signatureHeader?: string;
  /** Name of the event-id header. Default {@link EVENT_ID_HEADER} (`x-service-event-id`). */
  eventIdHeader?: string;
  /**
   * The largest body accepted, in bytes (a string counts its UTF-8 bytes); a larger one is refused
   * with reason `body_too_large` before any HMAC work. A positive integer; default 1 MiB.
   */
  maxBodyBytes?: number;
}

/** RFC 9110 `token`: the characters a header name may have. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_NAME = "a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~)";
const isName = (value: unknown) => typeof value === 'string' && TOKEN.test(value);
const optional = (type: string) => (value: unknown) => value === undefined || typeof value === type;
const isPositive = (value: unknown) => Number.isSafeInteger(value) && (value as number) > 0;

/**
 * The options every webhook function may take besides `body` and `secret` (see `toBody` and
 * `toSecrets`): the default (for `undefined` and `null`), the check, and what the value must be.
 */
const RULES: Record<string, [fallback: unknown, ok: (value: unknown) => boolean, rule: string]> = {
  maxBodyBytes: [DEFAULT_MAX_BODY_BYTES, isPositive, 'a positive integer'],
  signatureHeader: [SIGNATURE_HEADER, isName, HEADER_NAME],
  eventIdHeader: [EVENT_ID_HEADER, isName, HEADER_NAME],
  headers: [undefined, isObject, "the request headers (a Headers object, Node's req.headers or a record)"],
  eventId: [undefined, optional('string'), 'a string'],
  onEvent: [undefined, optional('function'), 'a function'],
  onError: [undefined, optional('function'), 'a function'],
};

/**
 * The one check of the options of the webhook function `fn`, whose option names are `known`: an object of known options only (the closest name suggested for another),
 * each checked by its rule in {@link RULES}, then the body (a string or bytes within `maxBodyBytes`;
 * a function without that option signs a body of any size) when it is an option, and the secret(s).
 * Every problem is a {@link WebhookVerificationError} whose message names the option, never a secret.
 */
export function checkOptions(options: unknown, fn: string, known: readonly string[]) {
  if (!isObject(options)) {
    const message = `${fn} takes one options object ({ ${known[0]}, ${known[1]}, ... }), got ${describe(options)}.`;
    throw new WebhookVerificationError('invalid_options', message);
  }
  for (const key in options) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    throw new WebhookVerificationError(
      'invalid_options',
      `Webhook option ${JSON.stringify(key)} is not an option of ${fn}${near ? ` (did you mean '${near}'?)` : ''}: ` +
        `the options are ${known.join(', ')}.`,
    );
  }
  const checked: Record<string, unknown> = {};
  for (const name in RULES) {
    const [fallback, ok, rule] = RULES[name]!;
    const value = options[name] ?? fallback;
    if (known.includes(name) && !ok(value)) {
      // A number is shown, any other value only by its type.
      throw invalid(name, `must be ${rule}, got ${typeof value === 'number' ? value : describe(value)}.`);
    }
    checked[name] = value;
  }
  const o = checked as { headers: WebhookHeaders; maxBodyBytes: number; eventId?: string } & HeaderNames;
  const limit = known.includes('maxBodyBytes') ? o.maxBodyBytes : Infinity;
  return {
    ...o,
    body: known.includes('body') ? toBody(options.body, limit) : '',
    secrets: toSecrets(options.secret),
  };
}

type HeaderNames = { signatureHeader: string; eventIdHeader: string };

/** The option names of {@link verifyWebhook}. */
const VERIFY_OPTIONS = /* @__PURE__ */ 'body headers secret signatureHeader eventIdHeader maxBodyBytes'.split(
  ' ',
);

/**
 * Verifies a webhook call and returns its event. Checks, in order: the options are usable
 * (`invalid_options`), the body is raw bytes, the body is at most `maxBodyBytes` long (default 1 MiB,
 * `body_too_large`), a secret is given, the signature header is present and is 64 hex characters, the event-id header is
 * present, the signature is the HMAC-SHA256 of the body under one of the secrets (compared in
 * constant time), and the body is a restocking shipment (parsed leniently).
 *
 * Every failure is a {@link WebhookVerificationError} whose `reason` says why: answer such calls
 * with a 4xx status and do not process them.
 *
 * The signature covers no timestamp, so a valid call can be replayed, and the provider may deliver
 * a call more than once and in any order. Handle events idempotently: skip an event id you already
 * processed (a unique key in your database, or {@link InMemoryWebhookDeduplicator} through
 * `createWebhookHandler`), and ignore a payload older than the state you already hold for that
 * shipment (or fetch the current shipment with `client.restockingShipments.v1.retrieve(event.data.id)`
 * and act on that).
 *
 * @example
 * ```ts
 * app.post('/webhooks/fulfillment', express.raw({ type: 'application/json', limit: '5mb' }), async (req, res) => {
 *   const event = await verifyWebhook({ body: req.body, headers: req.headers, secret: process.env.FULFILLMENT_API_TOKEN! });
 *   await handleOnce(event.id, event.data); // e.g. an insert keyed by event.id
 *   res.sendStatus(200);
 * });
 * ```
 */
export async function verifyWebhook(
  options: VerifyWebhookOptions,
): Promise<RestockingShipmentStatusUpdatedEvent> {
  const o = checkOptions(options, 'verifyWebhook', VERIFY_OPTIONS);
  return verifyChecked(o.body, o.headers, o);
}

/**
 * {@link verifyWebhook} once its options are checked (see {@link checkOptions}): lets
 * `createWebhookHandler`, which checks its options once, skip checking them on every call.
 */
export async function verifyChecked(
  body: Uint8Array<ArrayBuffer> | string,
  headers: WebhookHeaders,
  { secrets, signatureHeader, eventIdHeader }: ReturnType<typeof checkOptions>,
): Promise<RestockingShipmentStatusUpdatedEvent> {
  const signature = readHeader(headers, signatureHeader)?.trim();
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) throw signatureError(signature, signatureHeader);
  const id = readHeader(headers, eventIdHeader)?.trim();
  if (!id) {
    throw new WebhookVerificationError(
      'missing_event_id',
      `Webhook event id header '${eventIdHeader}' is missing or empty: every webhook call carries one.`,
    );
  }
  if (!(await matchesAny(body, signature.toLowerCase(), secrets))) {
    const which = secrets.length === 1 ? 'the given secret' : `any of the ${secrets.length} given secrets`;
    throw new WebhookVerificationError(
      'signature_mismatch',
      `Webhook signature does not match the body under ${which}. Check that the body is the raw request ` +
        'body (not re-serialized JSON) and that the secret is the API token of the sales channel that ' +
        'registered the webhook.',
    );
  }
  const data = parsePayload(body);
  return { id, type: 'restocking_shipment.status_updated', data, receivedSignature: signature };
}

/**
 * A header's value, looked up case-insensitively; the first value of an array; `undefined` when
 * absent or not a string.
 */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  const record = headers as Readonly<Record<string, unknown>>;
  const lower = name.toLowerCase();
  let value = typeof record.get === 'function' ? (headers as Headers).get(name) : record[lower];
  if (value === undefined && !Object.hasOwn(record, lower))
    value = Object.entries(record).find(([key]) => key.toLowerCase() === lower)?.[1];
  if (Array.isArray(value)) value = value[0];
  return typeof value === 'string' ? value : undefined;
}

/** Why the (trimmed) value of the signature header `header` is refused: absent, empty or malformed. */
function signatureError(hex: string | undefined, header: string): WebhookVerificationError {
  if (!hex) {
    const missing = hex === undefined;
    const message = `Webhook signature header '${header}' is ${missing ? 'missing' : 'empty'}.`;
    return new WebhookVerificationError(missing ? 'missing_signature' : 'empty_signature', message);
  }
  const detail = /^[0-9a-f]*$/i.test(hex)
    ? `has ${hex.length} hex characters instead of 64`
    : 'contains characters other than hexadecimal digits';
  return new WebhookVerificationError(
    'malformed_signature',
    `Webhook signature header '${header}' is malformed: it ${detail} (expected the hex HMAC-SHA256 of the body).`,
  );
}

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
  const o = checkOptions(options, 'signWebhook', ['body', 'secret']);
  return hmac(o.secrets[0]!, o.body);
}

const HEADERS_OPTIONS = /* @__PURE__ */ 'body secret eventId signatureHeader eventIdHeader'.split(' ');

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
