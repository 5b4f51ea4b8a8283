/**
 * Webhooks: verify the "Restocking shipment status updated" calls the provider sends — the signature
 * of the raw body, the event id, and the payload parsed as a restocking shipment.
 */
import { ResponseValidationError } from '../core/errors.js';
import type { RestockingShipmentV1 } from '../schemas/types/restocking-shipments.js';
import { fromHex, matchesAny, toBody, toBytes, toSecrets } from './crypto.js';
import type { InMemoryWebhookDeduplicator } from './dedupe.js';
import { WebhookVerificationError } from './errors.js';
import {
  checkFailure,
  checkHeaders,
  checkOptions,
  distinctSignatureAndEventId,
  guarded,
  headerName,
  maxBodyBytes,
  readHeader,
  readOptions,
  unreadable,
} from './options.js';
import { parseShipmentPayload } from './payload.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  EVENT_ID_HEADER,
  RESTOCKING_SHIPMENT_STATUS_UPDATED,
  type RestockingShipmentStatusUpdatedEvent,
  SIGNATURE_HEADER,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookSecret,
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
   * with reason `body_too_large` before any HMAC work. A positive integer; default
   * {@link DEFAULT_MAX_BODY_BYTES} (1 MiB).
   */
  maxBodyBytes?: number;
}

/** Options of {@link verifyWebhookSignature}: the signature comes from `signature` or from `headers`. */
export interface VerifyWebhookSignatureOptions {
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
}

/** The options {@link verifyWebhook} reads (each once). */
const VERIFY_OPTIONS = [
  'body',
  'headers',
  'secret',
  'signatureHeader',
  'eventIdHeader',
  'maxBodyBytes',
] as const satisfies readonly (keyof VerifyWebhookOptions)[];

/** The options {@link verifyWebhookSignature} reads (each once). */
const VERIFY_SIGNATURE_OPTIONS = [
  'body',
  'secret',
  'signature',
  'headers',
  'signatureHeader',
  'maxBodyBytes',
] as const satisfies readonly (keyof VerifyWebhookSignatureOptions)[];

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
export function verifyWebhook(options: VerifyWebhookOptions): Promise<RestockingShipmentStatusUpdatedEvent> {
  // Not `async`: every failure is still a rejection (never a throw), without a promise per step.
  try {
    return checkAndVerify(options);
  } catch (error) {
    return Promise.reject(error);
  }
}

function checkAndVerify(options: VerifyWebhookOptions): Promise<RestockingShipmentStatusUpdatedEvent> {
  // Each option read once, by name (what a getter or a Proxy trap throws names the option): the
  // check every webhook pays, so written out rather than through `readOptions`.
  const object = checkOptions<VerifyWebhookOptions>(options, 'verifyWebhook');
  let reading: (typeof VERIFY_OPTIONS)[number] = 'body';
  let o: { [K in (typeof VERIFY_OPTIONS)[number]]: unknown };
  try {
    const body: unknown = object.body;
    reading = 'headers';
    const headers: unknown = object.headers;
    reading = 'secret';
    const secret: unknown = object.secret;
    reading = 'signatureHeader';
    const signatureHeader: unknown = object.signatureHeader;
    reading = 'eventIdHeader';
    const eventIdHeader: unknown = object.eventIdHeader;
    reading = 'maxBodyBytes';
    o = { body, headers, secret, signatureHeader, eventIdHeader, maxBodyBytes: object.maxBodyBytes };
  } catch (error) {
    throw unreadable(reading, error);
  }
  const limit = maxBodyBytes(o.maxBodyBytes);
  const signatureHeader = headerName(o.signatureHeader, 'signatureHeader', SIGNATURE_HEADER);
  const eventIdHeader = headerName(o.eventIdHeader, 'eventIdHeader', EVENT_ID_HEADER);
  distinctSignatureAndEventId(signatureHeader, eventIdHeader);
  const headers = checkHeaders(o.headers, true)!;
  let body: Uint8Array<ArrayBuffer> | string;
  try {
    body = toBody(o.body, limit);
  } catch (error) {
    throw checkFailure('body', error);
  }
  let secrets: string[];
  try {
    secrets = toSecrets(o.secret);
  } catch (error) {
    throw checkFailure('secret', error);
  }
  return verifyChecked(body, headers, secrets, signatureHeader, eventIdHeader);
}

/**
 * {@link verifyWebhook} once its options are checked: the body (see `toBody`), the headers, the
 * secrets and the header names. Lets `createWebhookHandler`, which checks its options once, skip
 * checking them again on every call.
 */
export function verifyChecked(
  body: Uint8Array<ArrayBuffer> | string,
  headers: WebhookHeaders,
  secrets: readonly string[],
  signatureHeader: string,
  eventIdHeader: string,
): Promise<RestockingShipmentStatusUpdatedEvent> {
  try {
    const received = readHeader(headers, signatureHeader);
    const signature = parseSignature(received, signatureHeader, true);
    const id = readHeader(headers, eventIdHeader)?.trim();
    if (!id) {
      throw new WebhookVerificationError(
        'missing_event_id',
        `Webhook event id header '${eventIdHeader}' is missing or empty: every webhook call carries one.`,
      );
    }
    const event = (matched: boolean): RestockingShipmentStatusUpdatedEvent => {
      if (!matched) throw mismatch(secrets.length);
      return {
        id,
        type: RESTOCKING_SHIPMENT_STATUS_UPDATED,
        data: parsePayload(body),
        receivedSignature: (received ?? '').trim(),
      };
    };
    // With `node:crypto` the signature is checked at once; with Web Crypto, when its promise settles.
    const matched = matchesAny(body, signature, secrets);
    return typeof matched === 'boolean' ? Promise.resolve(event(matched)) : matched.then(event);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Checks only the signature of a webhook body: `true` when it is the HMAC-SHA256 of the body under
 * one of the secrets, `false` when it is not. The body is not parsed and no event id is required.
 *
 * Throws a {@link WebhookVerificationError} when the inputs cannot be checked: an option has the
 * wrong type (`invalid_options`), the body is not raw bytes (`parsed_body`, `invalid_body`) or is
 * longer than `maxBodyBytes` (`body_too_large`, default 1 MiB, before any HMAC work), no secret (`missing_secret`), or the signature is missing,
 * empty or not 64 hex characters (`missing_signature`, `empty_signature`, `malformed_signature`).
 */
export async function verifyWebhookSignature(options: VerifyWebhookSignatureOptions): Promise<boolean> {
  const o = readOptions(options, 'verifyWebhookSignature', VERIFY_SIGNATURE_OPTIONS);
  const limit = maxBodyBytes(o.maxBodyBytes);
  const name = headerName(o.signatureHeader, 'signatureHeader', SIGNATURE_HEADER);
  const given: unknown = o.signature;
  if (given !== undefined && given !== null && typeof given !== 'string') {
    throw new WebhookVerificationError(
      'invalid_options',
      "Webhook option 'signature' must be the hex signature (a string), got " +
        `${given === null || typeof given !== 'object' ? typeof given : 'an object'}.`,
    );
  }
  const headers = checkHeaders(o.headers, false);
  const bytes = guarded('body', () => toBytes(o.body, 'verify', limit));
  const secrets = guarded('secret', () => toSecrets(o.secret));
  let received: string | undefined;
  let source: string;
  if (typeof given === 'string') {
    received = given;
    source = 'signature';
  } else {
    received = headers === undefined ? undefined : readHeader(headers, name);
    source = `header '${name}'`;
  }
  return matchesAny(bytes, parseSignature(received, source, false), secrets);
}

const HEX_SIGNATURE = /^[0-9a-f]{64}$/i;

/**
 * Decodes a hex signature into its 32 bytes, or throws the matching reason. `name` is where it came
 * from: a header name (`isHeader`), or the source as messages say it.
 */
function parseSignature(value: string | undefined, name: string, isHeader: boolean): Uint8Array<ArrayBuffer> {
  const hex = value?.trim();
  if (hex !== undefined && HEX_SIGNATURE.test(hex)) return fromHex(hex);
  const source = isHeader ? `header '${name}'` : name;
  if (hex === undefined) {
    throw new WebhookVerificationError('missing_signature', `Webhook signature ${source} is missing.`);
  }
  if (hex === '')
    throw new WebhookVerificationError('empty_signature', `Webhook signature ${source} is empty.`);
  const detail = /^[0-9a-f]*$/i.test(hex)
    ? `has ${hex.length} hex characters instead of 64`
    : 'contains characters other than hexadecimal digits';
  throw new WebhookVerificationError(
    'malformed_signature',
    `Webhook signature ${source} is malformed: it ${detail} (expected the hex HMAC-SHA256 of the body).`,
  );
}

function mismatch(count: number): WebhookVerificationError {
  const which = count === 1 ? 'the given secret' : `any of the ${count} given secrets`;
  return new WebhookVerificationError(
    'signature_mismatch',
    `Webhook signature does not match the body under ${which}. Check that the body is the raw request ` +
      'body (not re-serialized JSON) and that the secret is the API token of the sales channel that ' +
      'registered the webhook.',
  );
}

const textDecoder = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });

/** Parses a verified body as JSON and as a version 1 restocking shipment (see `payload.ts`). */
function parsePayload(body: Uint8Array<ArrayBuffer> | string): RestockingShipmentV1 {
  let text: string;
  let json: unknown;
  try {
    text = typeof body === 'string' ? body : textDecoder.decode(body);
    json = JSON.parse(text);
  } catch (cause) {
    throw new WebhookVerificationError('invalid_payload', 'Webhook body is not valid UTF-8 JSON.', { cause });
  }
  try {
    return parseShipmentPayload(json, () => JSON.parse(text));
  } catch (cause) {
    // The message names the first issues and counts the others (see `payload.ts`): bounded, since
    // the handler echoes it in its 400 answer.
    const message =
      cause instanceof ResponseValidationError ? cause.message : 'Webhook body is not a restocking shipment.';
    throw new WebhookVerificationError('invalid_payload', message, { cause });
  }
}
