/**
 * Webhooks: verify the "Restocking shipment status updated" calls the provider sends — the signature
 * of the raw body, the event id, and the payload parsed as a restocking shipment — and the one
 * check of the options every webhook function takes.
 */
import { closest, describe, isObject } from '../core/describe.js';
import { matchesAny, toBody, toSecrets } from './crypto.js';
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
  /**
   * Name of the event-id header. Default {@link EVENT_ID_HEADER} (`x-service-event-id`). Must name
   * another header than `signatureHeader` (compared case-insensitively).
   */
  eventIdHeader?: string;
  /**
   * The largest body accepted, in bytes (a string counts its UTF-8 bytes); a larger one is refused
   * with reason `body_too_large` before any HMAC work. A positive integer; default 1 MiB.
   */
  maxBodyBytes?: number;
}

/** RFC 9110 `token`: the characters a header name may have. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII (or obs-text) with inner spaces/tabs: a header value `fetch` accepts and that survives trimming. */
const HEADER_VALUE = /^[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?$/;

const lengthOr = (value: unknown) =>
  typeof value === 'string' ? `a string of length ${value.length}` : describe(value);

/**
 * The one check of the options of the webhook function `fn`, whose option names are `known`: an
 * object of known options only (the closest name suggested for another), `maxBodyBytes` (a
 * function without that option signs a body of any size), the header names (HTTP tokens naming
 * distinct headers), `headers` (an object; required when `needsHeaders`), `signature`, `eventId`,
 * the body (a string or bytes within the limit) when `known` has it, and the secret(s). Every
 * problem is a {@link WebhookVerificationError} whose message names the option, never a secret.
 */
export function checkOptions(options: unknown, fn: string, known: readonly string[], needsHeaders = false) {
  if (!isObject(options)) {
    const example = known.slice(0, 2).join(', ');
    throw new WebhookVerificationError(
      'invalid_options',
      `${fn} takes one options object ({ ${example}, ... }), got ${describe(options)}.`,
    );
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
  const { maxBodyBytes, headers, signature, eventId } = options;
  const limit = maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!(Number.isSafeInteger(limit) && (limit as number) > 0)) {
    const got = typeof limit === 'number' ? limit : describe(limit);
    throw invalid('maxBodyBytes', `must be a positive integer (a number of bytes), got ${got}.`);
  }
  const signatureHeader = options.signatureHeader ?? SIGNATURE_HEADER;
  const eventIdHeader = options.eventIdHeader ?? EVENT_ID_HEADER;
  // Names given (the defaults are valid and distinct): HTTP tokens naming distinct headers.
  if (signatureHeader !== SIGNATURE_HEADER || eventIdHeader !== EVENT_ID_HEADER) {
    const taken = new Map([['content-type', 'content-type']]);
    for (const [option, name] of [
      ['signatureHeader', signatureHeader],
      ['eventIdHeader', eventIdHeader],
    ] as const) {
      if (typeof name !== 'string' || !TOKEN.test(name)) {
        const rule = "must be a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~)";
        throw invalid(option, `${rule}, got ${lengthOr(name)}.`);
      }
      const other = taken.get(name.toLowerCase());
      if (other)
        throw invalid(option, `names the same header as '${other}' (header names are case-insensitive).`);
      taken.set(name.toLowerCase(), option);
    }
  }
  if ((headers != null || needsHeaders) && !isObject(headers)) {
    throw invalid(
      'headers',
      `must be the request headers: a Headers object, Node's req.headers or a record of names to values, got ${describe(headers)}.`,
    );
  }
  if (signature != null && typeof signature !== 'string') {
    throw invalid('signature', `must be the hex signature (a string), got ${describe(signature)}.`);
  }
  if (eventId != null && (typeof eventId !== 'string' || !HEADER_VALUE.test(eventId))) {
    throw invalid(
      'eventId',
      'must be a non-empty header value: visible characters (code points up to U+00FF), no line ' +
        `breaks or control characters, no surrounding whitespace; got ${lengthOr(eventId)}.`,
    );
  }
  return {
    body: known.includes('body')
      ? toBody(options.body, known.includes('maxBodyBytes') ? (limit as number) : Infinity)
      : '',
    secrets: toSecrets(options.secret),
    headers: (headers ?? undefined) as WebhookHeaders | undefined,
    signatureHeader: signatureHeader as string,
    eventIdHeader: eventIdHeader as string,
    maxBodyBytes: limit as number,
    signature: (signature ?? undefined) as string | undefined,
    eventId: (eventId ?? undefined) as string | undefined,
  };
}

/** The option names of {@link verifyWebhook}. */
const VERIFY_OPTIONS = ['body', 'headers', 'secret', 'signatureHeader', 'eventIdHeader', 'maxBodyBytes'];

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
 * processed ({@link InMemoryWebhookDeduplicator}, or a unique key in your database), and ignore a
 * payload older than the state you already hold for that shipment (or fetch the current shipment
 * with `client.restockingShipments.v1.retrieve(event.data.id)` and act on that).
 *
 * @example
 * ```ts
 * app.post('/webhooks/fulfillment', express.raw({ type: 'application/json', limit: '5mb' }), async (req, res) => {
 *   const event = await verifyWebhook({ body: req.body, headers: req.headers, secret: process.env.FULFILLMENT_API_TOKEN! });
 *   if (!(await dedup.seen(event.id))) await handle(event.data);
 *   res.sendStatus(200);
 * });
 * ```
 */
export async function verifyWebhook(
  options: VerifyWebhookOptions,
): Promise<RestockingShipmentStatusUpdatedEvent> {
  const o = checkOptions(options, 'verifyWebhook', VERIFY_OPTIONS, true);
  return verifyChecked(o.body, o.headers!, o);
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
  const received = readHeader(headers, signatureHeader);
  const signature = parseSignature(received, `header '${signatureHeader}'`);
  const id = readHeader(headers, eventIdHeader)?.trim();
  if (!id) {
    throw new WebhookVerificationError(
      'missing_event_id',
      `Webhook event id header '${eventIdHeader}' is missing or empty: every webhook call carries one.`,
    );
  }
  if (!(await matchesAny(body, signature, secrets))) {
    const which = secrets.length === 1 ? 'the given secret' : `any of the ${secrets.length} given secrets`;
    throw new WebhookVerificationError(
      'signature_mismatch',
      `Webhook signature does not match the body under ${which}. Check that the body is the raw request ` +
        'body (not re-serialized JSON) and that the secret is the API token of the sales channel that ' +
        'registered the webhook.',
    );
  }
  const data = parsePayload(body);
  return { id, type: 'restocking_shipment.status_updated', data, receivedSignature: received!.trim() };
}

/** The option names of {@link verifyWebhookSignature}. */
const SIGNATURE_OPTIONS = ['body', 'secret', 'signature', 'headers', 'signatureHeader', 'maxBodyBytes'];

/**
 * Checks only the signature of a webhook body: `true` when it is the HMAC-SHA256 of the body under
 * one of the secrets, `false` when it is not. The body is not parsed and no event id is required.
 *
 * Throws a {@link WebhookVerificationError} when the inputs cannot be checked: an option has the
 * wrong type (`invalid_options`), the body is not raw bytes (`parsed_body`, `invalid_body`) or is
 * longer than `maxBodyBytes` (`body_too_large`, default 1 MiB, before any HMAC work), no secret (`missing_secret`), or the signature is missing,
 * empty or not 64 hex characters (`missing_signature`, `empty_signature`, `malformed_signature`).
 */
export async function verifyWebhookSignature(options: {
  /** The raw body exactly as received. */
  body: WebhookBody;
  /** The sales channel's API token, or all of its tokens (each is tried). */
  secret: WebhookSecret;
  /** The hex signature itself (upper- or lower-case). Takes precedence over `headers`. */
  signature?: string;
  /** The request headers, read when `signature` is not given. */
  headers?: WebhookHeaders;
  /** Name of the signature header in `headers`. Default {@link SIGNATURE_HEADER}. */
  signatureHeader?: string;
  /** The largest body accepted, in bytes (see {@link VerifyWebhookOptions.maxBodyBytes}). Default 1 MiB. */
  maxBodyBytes?: number;
}): Promise<boolean> {
  const o = checkOptions(options, 'verifyWebhookSignature', SIGNATURE_OPTIONS);
  const received = o.signature ?? (o.headers && readHeader(o.headers, o.signatureHeader));
  const source = o.signature === undefined ? `header '${o.signatureHeader}'` : 'signature';
  return matchesAny(o.body, parseSignature(received, source), o.secrets);
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

const HEX_SIGNATURE = /^[0-9a-f]{64}$/i;

/** A hex signature (`source` says where it came from, for messages), in lower case, or the reason it is refused. */
function parseSignature(value: string | undefined, source: string): string {
  const hex = value?.trim();
  if (hex && HEX_SIGNATURE.test(hex)) return hex.toLowerCase();
  if (!hex) {
    const missing = hex === undefined;
    const message = `Webhook signature ${source} is ${missing ? 'missing' : 'empty'}.`;
    throw new WebhookVerificationError(missing ? 'missing_signature' : 'empty_signature', message);
  }
  const detail = /^[0-9a-f]*$/i.test(hex)
    ? `has ${hex.length} hex characters instead of 64`
    : 'contains characters other than hexadecimal digits';
  throw new WebhookVerificationError(
    'malformed_signature',
    `Webhook signature ${source} is malformed: it ${detail} (expected the hex HMAC-SHA256 of the body).`,
  );
}
