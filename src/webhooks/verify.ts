/**
 * Webhooks: verify the "Restocking shipment status updated" calls the provider sends — the signature
 * of the raw body, the event id, and the payload parsed as a restocking shipment — and the one
 * check of the options every webhook function takes.
 */
import { closest, describe } from '../core/describe.js';
import type { RestockingShipmentV1 } from '../schemas/types/restocking-shipments.js';
import { fromHex, matchesAny, toBody, toSecrets } from './crypto.js';
import type { InMemoryWebhookDeduplicator } from './dedupe.js';
import { parseShipmentPayload } from './payload.js';
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

/**
 * The options of the webhook function `fn`, whose option names are `known`, checked once: an
 * object of known options only (the closest name suggested for another), then `maxBodyBytes`, the
 * header names (HTTP tokens naming distinct headers), `headers` (required by `verifyWebhook`),
 * `signature`, `eventId`, the body when `known` has it (a string or bytes, at most `maxBodyBytes`
 * unless signing) and the secret(s). Every problem is a {@link WebhookVerificationError} whose
 * message names the option, never a secret.
 */
export function checkOptions(options: unknown, fn: string, known: readonly string[]) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new WebhookVerificationError(
      'invalid_options',
      `${fn} takes one options object ({ ${known.slice(0, 2).join(', ')}, ... }), got ${describe(options)}.`,
    );
  }
  const o = options as Record<string, unknown>;
  for (const key in o) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    throw new WebhookVerificationError(
      'invalid_options',
      `Webhook option ${JSON.stringify(key)} is not an option of ${fn}${near ? ` (did you mean '${near}'?)` : ''}: ` +
        `the options are ${known.join(', ')}.`,
    );
  }
  const signing = !known.includes('maxBodyBytes');
  const limit = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit <= 0) {
    const got = typeof limit === 'number' ? limit : describe(limit);
    throw invalid('maxBodyBytes', `must be a positive integer (a number of bytes), got ${got}.`);
  }
  const signatureHeader = o.signatureHeader ?? SIGNATURE_HEADER;
  const eventIdHeader = o.eventIdHeader ?? EVENT_ID_HEADER;
  // Header names given (the defaults are valid and distinct): HTTP tokens naming distinct headers.
  if (signatureHeader !== SIGNATURE_HEADER || eventIdHeader !== EVENT_ID_HEADER) {
    const names: [option: string, name: unknown][] = [
      ['content-type', 'content-type'],
      ['signatureHeader', signatureHeader],
      ['eventIdHeader', eventIdHeader],
    ];
    for (let i = 1; i < names.length; i++) {
      const [option, name] = names[i]!;
      if (typeof name !== 'string' || !TOKEN.test(name)) {
        const got = typeof name === 'string' ? `a string of length ${name.length}` : describe(name);
        throw invalid(
          option,
          `must be a valid HTTP header name (letters, digits and !#$%&'*+-.^_\`|~), got ${got}.`,
        );
      }
      const same = names
        .slice(0, i)
        .find(([, other]) => (other as string).toLowerCase() === name.toLowerCase());
      if (same)
        throw invalid(option, `names the same header as '${same[0]}' (header names are case-insensitive).`);
    }
  }
  const headers = o.headers ?? undefined;
  if (
    (headers !== undefined || fn === 'verifyWebhook') &&
    (headers === null || typeof headers !== 'object' || Array.isArray(headers))
  ) {
    throw invalid(
      'headers',
      `must be the request headers: a Headers object, Node's req.headers or a record of names to values, got ${describe(headers)}.`,
    );
  }
  const signature = o.signature ?? undefined;
  if (signature !== undefined && typeof signature !== 'string') {
    throw invalid('signature', `must be the hex signature (a string), got ${describe(signature)}.`);
  }
  const eventId = o.eventId ?? undefined;
  if (eventId !== undefined && (typeof eventId !== 'string' || !HEADER_VALUE.test(eventId))) {
    const got = typeof eventId === 'string' ? `a string of length ${eventId.length}` : describe(eventId);
    throw invalid(
      'eventId',
      'must be a non-empty header value: visible characters (code points up to U+00FF), no line ' +
        `breaks or control characters, no surrounding whitespace; got ${got}.`,
    );
  }
  return {
    // Signing (`signWebhook`, `createWebhookHeaders`: no `maxBodyBytes`) takes a body of any size.
    body: known.includes('body') ? toBody(o.body, signing ? Number.POSITIVE_INFINITY : limit, signing) : '',
    secrets: toSecrets(o.secret),
    headers: headers as WebhookHeaders | undefined,
    signatureHeader: signatureHeader as string,
    eventIdHeader: eventIdHeader as string,
    maxBodyBytes: limit,
    signature,
    eventId,
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
export function verifyWebhook(options: VerifyWebhookOptions): Promise<RestockingShipmentStatusUpdatedEvent> {
  // Not `async`: every failure is still a rejection (never a throw), without a promise per step.
  try {
    const o = checkOptions(options, 'verifyWebhook', VERIFY_OPTIONS);
    return Promise.resolve(verifyChecked(o.body, o.headers!, o));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * {@link verifyWebhook} once its options are checked (see {@link checkOptions}): lets
 * `createWebhookHandler`, which checks its options once, skip checking them on every call. Throws
 * what {@link verifyWebhook} rejects with.
 */
export function verifyChecked(
  body: Uint8Array<ArrayBuffer> | string,
  headers: WebhookHeaders,
  { secrets, signatureHeader, eventIdHeader }: ReturnType<typeof checkOptions>,
): RestockingShipmentStatusUpdatedEvent | Promise<RestockingShipmentStatusUpdatedEvent> {
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
    if (!matched) {
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
  };
  // With `node:crypto` the signature is checked at once; with Web Crypto, when its promise settles.
  const matched = matchesAny(body, signature, secrets);
  return typeof matched === 'boolean' ? event(matched) : matched.then(event);
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
  const fromHeader = o.signature === undefined;
  const received = fromHeader ? o.headers && readHeader(o.headers, o.signatureHeader) : o.signature;
  const signature = parseSignature(received, fromHeader ? o.signatureHeader : 'signature', fromHeader);
  return matchesAny(o.body, signature, o.secrets);
}

/**
 * A header's value, looked up case-insensitively; the first value of an array; `undefined` when
 * absent or not a string.
 */
export function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  let value: unknown;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    value = (headers as Headers).get(name);
  } else {
    const record = headers as Readonly<Record<string, unknown>>;
    const lower = name.toLowerCase();
    value = Object.hasOwn(record, lower)
      ? record[lower]
      : Object.entries(record).find(([key]) => key.toLowerCase() === lower)?.[1];
  }
  if (Array.isArray(value)) value = value[0];
  return typeof value === 'string' ? value : undefined;
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
  if (!hex) {
    const [reason, what] =
      hex === undefined
        ? (['missing_signature', 'missing'] as const)
        : (['empty_signature', 'empty'] as const);
    throw new WebhookVerificationError(reason, `Webhook signature ${source} is ${what}.`);
  }
  const detail = /^[0-9a-f]*$/i.test(hex)
    ? `has ${hex.length} hex characters instead of 64`
    : 'contains characters other than hexadecimal digits';
  throw new WebhookVerificationError(
    'malformed_signature',
    `Webhook signature ${source} is malformed: it ${detail} (expected the hex HMAC-SHA256 of the body).`,
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
    // A ResponseValidationError whose message names the first issues and counts the others (see
    // `payload.ts`): bounded, since the handler echoes it in its 400 answer.
    throw new WebhookVerificationError('invalid_payload', (cause as Error).message, { cause });
  }
}
