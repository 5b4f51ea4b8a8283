/**
 * Webhooks: verify the "Restocking shipment status updated" calls the provider sends, sign test
 * deliveries, and remember event ids to handle retries and duplicates idempotently.
 *
 * Web APIs only (`crypto.subtle`, `TextEncoder`, `Headers`): the same code runs on Node 22+, Bun,
 * Deno, Cloudflare Workers and Vercel Edge.
 */
import { FulfillmentError, ResponseValidationError } from '../core/errors.js';
import { parseResponse } from '../core/validation.js';
import { type RestockingShipmentV1, RestockingShipmentV1Schema } from '../schemas/restocking-shipments.js';
import { WebhookVerificationError } from './errors.js';

/** Default name of the header carrying the hex HMAC-SHA256 signature of the body. */
export const SIGNATURE_HEADER = 'x-service-signature';
/** Default name of the header identifying the webhook call (retries of one call carry the same value). */
export const EVENT_ID_HEADER = 'x-service-event-id';
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
}

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

// ---------------------------------------------------------------------------------------------
// Verification
// ---------------------------------------------------------------------------------------------

/**
 * Verifies a webhook call and returns its event. Checks, in order: the body is raw bytes, a secret
 * is given, the signature header is present and is 64 hex characters, the event-id header is
 * present, the signature is the HMAC-SHA256 of the body under one of the secrets (compared in
 * constant time by Web Crypto), and the body is a restocking shipment (parsed leniently).
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
  const bytes = toBytes(options.body);
  const secrets = toSecrets(options.secret);
  const signatureHeader = options.signatureHeader ?? SIGNATURE_HEADER;
  const eventIdHeader = options.eventIdHeader ?? EVENT_ID_HEADER;
  const received = readHeader(options.headers, signatureHeader);
  const signature = parseSignature(received, `header '${signatureHeader}'`);
  const id = readHeader(options.headers, eventIdHeader)?.trim();
  if (!id) {
    throw new WebhookVerificationError(
      'missing_event_id',
      `Webhook event id header '${eventIdHeader}' is missing or empty: every webhook call carries one.`,
    );
  }
  if (!(await matchesAny(bytes, signature, secrets))) throw mismatch(secrets.length);
  return {
    id,
    type: RESTOCKING_SHIPMENT_STATUS_UPDATED,
    data: parsePayload(bytes),
    receivedSignature: (received ?? '').trim(),
  };
}

/**
 * Checks only the signature of a webhook body: `true` when it is the HMAC-SHA256 of the body under
 * one of the secrets, `false` when it is not. The body is not parsed and no event id is required.
 *
 * Throws a {@link WebhookVerificationError} when the inputs cannot be checked: the body is not raw
 * bytes (`parsed_body`, `invalid_body`), no secret (`missing_secret`), or the signature is missing,
 * empty or not 64 hex characters (`missing_signature`, `empty_signature`, `malformed_signature`).
 */
export async function verifyWebhookSignature(options: VerifyWebhookSignatureOptions): Promise<boolean> {
  const bytes = toBytes(options.body);
  const secrets = toSecrets(options.secret);
  let received: string | undefined;
  let source: string;
  if (options.signature !== undefined) {
    received = options.signature;
    source = 'signature';
  } else {
    const name = options.signatureHeader ?? SIGNATURE_HEADER;
    received = options.headers === undefined ? undefined : readHeader(options.headers, name);
    source = `header '${name}'`;
  }
  return matchesAny(bytes, parseSignature(received, source), secrets);
}

/**
 * Signs a webhook body the way the provider does: the lower-case hex HMAC-SHA256 of the exact body
 * bytes, keyed with the API token. For tests that send webhook calls to your own endpoint.
 */
export async function signWebhook(options: SignWebhookOptions): Promise<string> {
  const bytes = toBytes(options.body, 'sign');
  const [secret] = toSecrets(options.secret);
  const mac = await subtle().sign('HMAC', await hmacKey(secret!), bytes);
  return toHex(new Uint8Array(mac));
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

// ---------------------------------------------------------------------------------------------
// Deduplication
// ---------------------------------------------------------------------------------------------

/**
 * Remembers which webhook calls were already handled, by event id (`event.id`, the
 * `x-service-event-id` header; retries of one call carry the same id).
 *
 * Deliveries are neither ordered nor exactly-once, and the signature has no timestamp, so a
 * recorded call can also be replayed: process each id once, and also ignore payloads older than
 * what you already hold for the shipment (compare with the status you stored, or re-read the
 * shipment from the API).
 *
 * Implement it over a shared store when several processes receive webhooks (e.g. Redis
 * `SET id 1 NX EX 86400` → seen when the reply is not `OK`, or an insert into a table with a unique
 * key on the event id).
 */
export interface WebhookDeduplicator {
  /**
   * Returns `true` when `id` was already seen (a duplicate: skip it), `false` when it is new; in both
   * cases records it as seen.
   */
  seen(id: string): Promise<boolean> | boolean;
  /**
   * Optional: forgets `id`, so that the provider's retry of a call whose handling failed is processed
   * instead of being skipped as a duplicate. Its result is ignored (a promise is awaited).
   */
  forget?(id: string): unknown;
}

/** Options of {@link InMemoryWebhookDeduplicator}. */
export interface InMemoryWebhookDeduplicatorOptions {
  /** How many ids to remember; the least recently seen is forgotten first. Default 10 000. */
  maxEntries?: number;
  /** How long an id is remembered after it was last seen, in milliseconds. Default 24 hours. */
  ttlMs?: number;
  /** Clock in milliseconds (for tests). Default `Date.now`. */
  now?: () => number;
}

/**
 * A {@link WebhookDeduplicator} in process memory: a least-recently-used set of event ids, bounded
 * by `maxEntries`, each remembered for `ttlMs` after it was last seen. Expired ids are dropped
 * lazily on use (no timer keeps the process alive). Suits a single process; it forgets everything
 * on restart.
 *
 * If handling an event fails, call {@link InMemoryWebhookDeduplicator.forget | forget(id)} and
 * answer with a 5xx status, so that the provider's retry is processed.
 *
 * @example
 * ```ts
 * const dedup = new InMemoryWebhookDeduplicator();
 * const event = await verifyWebhook({ body, headers, secret });
 * if (await dedup.seen(event.id)) return new Response(null, { status: 200 }); // a retry: already done
 * try {
 *   await handle(event.data);
 * } catch (err) {
 *   dedup.forget(event.id);
 *   return new Response(null, { status: 500 });
 * }
 * return new Response(null, { status: 200 });
 * ```
 */
export class InMemoryWebhookDeduplicator implements WebhookDeduplicator {
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  /** id → time last seen; Map order is least recently seen first. */
  readonly #entries = new Map<string, number>();

  constructor(options: InMemoryWebhookDeduplicatorOptions = {}) {
    const maxEntries = options.maxEntries ?? 10_000;
    const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be an integer >= 1, got ${maxEntries}`);
    }
    if (!(ttlMs > 0)) throw new RangeError(`ttlMs must be > 0, got ${ttlMs}`);
    this.#maxEntries = maxEntries;
    this.#ttlMs = ttlMs;
    this.#now = options.now ?? Date.now;
  }

  /** Returns `true` when `id` was seen within the last `ttlMs`; records it as seen now. */
  seen(id: string): boolean {
    const now = this.#now();
    this.#expire(now);
    const last = this.#entries.get(id);
    const duplicate = last !== undefined && now - last < this.#ttlMs;
    this.#entries.delete(id);
    this.#entries.set(id, now);
    if (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    return duplicate;
  }

  /** Forgets `id` (e.g. after handling it failed, so that a retry is processed). Returns whether it was known. */
  forget(id: string): boolean {
    return this.#entries.delete(id);
  }

  /** Forgets every id. */
  clear(): void {
    this.#entries.clear();
  }

  /** How many ids are remembered (expired ones included until they are dropped). */
  get size(): number {
    return this.#entries.size;
  }

  /** Drops expired ids from the least recently seen end; stops at the first live one. */
  #expire(now: number): void {
    for (const [id, last] of this.#entries) {
      if (now - last < this.#ttlMs) return;
      this.#entries.delete(id);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Internals
// ---------------------------------------------------------------------------------------------

const RAW_BODY_HELP =
  'Pass the raw request body exactly as received: in Express use ' +
  "express.raw({ type: 'application/json' }) on the webhook route (not express.json()); in Fastify add a " +
  "content-type parser for 'application/json' with { parseAs: 'buffer' }; in Hono, Next.js and other " +
  'Fetch-based frameworks use `new Uint8Array(await req.arrayBuffer())`.';

function isPlainObjectOrArray(value: unknown): boolean {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name ? `a ${name}` : 'an object';
}

const encoder = new TextEncoder();

/** The body as bytes (no copy for bytes whose buffer is an `ArrayBuffer`). */
function toBytes(body: unknown, use: 'verify' | 'sign' = 'verify'): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) {
    const view = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    return view.buffer instanceof ArrayBuffer ? (view as Uint8Array<ArrayBuffer>) : new Uint8Array(view);
  }
  if (use === 'sign') {
    throw new WebhookVerificationError(
      isPlainObjectOrArray(body) ? 'parsed_body' : 'invalid_body',
      `A webhook body to sign must be the exact string or bytes that will be sent (e.g. JSON.stringify(payload)), got ${describe(body)}.`,
    );
  }
  if (isPlainObjectOrArray(body)) {
    throw new WebhookVerificationError(
      'parsed_body',
      'Webhook body is an already parsed object, but the signature covers the raw bytes, which parsing ' +
        `loses. ${RAW_BODY_HELP}`,
    );
  }
  throw new WebhookVerificationError(
    'invalid_body',
    `Webhook body must be a string, Uint8Array, Buffer or ArrayBuffer, got ${describe(body)}. ${RAW_BODY_HELP}`,
  );
}

/** The non-empty secrets, in the order given. */
function toSecrets(secret: unknown): string[] {
  const list: unknown[] = Array.isArray(secret) ? secret : [secret];
  const out: string[] = [];
  for (const s of list) {
    if (typeof s === 'string') {
      if (s !== '') out.push(s);
    } else if (s !== undefined && s !== null) {
      throw new WebhookVerificationError(
        'missing_secret',
        `Webhook secret must be a string, got ${describe(s)}.`,
      );
    }
  }
  if (out.length === 0) {
    throw new WebhookVerificationError(
      'missing_secret',
      'No webhook secret given: pass the API token of the sales channel that registered the webhook ' +
        '(or an array of its tokens).',
    );
  }
  return out;
}

/** A header's value, looked up case-insensitively; the first value of an array. */
function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  if (typeof (headers as Headers).get === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, unknown>>;
  const lower = name.toLowerCase();
  let value = Object.hasOwn(record, lower) ? record[lower] : undefined;
  if (value === undefined) {
    for (const key of Object.keys(record)) {
      if (key.toLowerCase() === lower) {
        value = record[key];
        break;
      }
    }
  }
  if (Array.isArray(value)) value = value[0];
  return typeof value === 'string' ? value : undefined;
}

const HEX_SIGNATURE = /^[0-9a-f]{64}$/i;

/** Decodes a hex signature into its 32 bytes, or throws the matching reason. */
function parseSignature(value: string | undefined, source: string): Uint8Array<ArrayBuffer> {
  if (value === undefined) {
    throw new WebhookVerificationError('missing_signature', `Webhook signature ${source} is missing.`);
  }
  const hex = value.trim();
  if (hex === '')
    throw new WebhookVerificationError('empty_signature', `Webhook signature ${source} is empty.`);
  if (!HEX_SIGNATURE.test(hex)) {
    const detail = /^[0-9a-f]*$/i.test(hex)
      ? `has ${hex.length} hex characters instead of 64`
      : 'contains characters other than hexadecimal digits';
    throw new WebhookVerificationError(
      'malformed_signature',
      `Webhook signature ${source} is malformed: it ${detail} (expected the hex HMAC-SHA256 of the body).`,
    );
  }
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
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

/** `true` when the signature verifies under one of the secrets (Web Crypto compares in constant time). */
async function matchesAny(
  body: Uint8Array<ArrayBuffer>,
  signature: Uint8Array<ArrayBuffer>,
  secrets: readonly string[],
): Promise<boolean> {
  const webCrypto = subtle();
  for (const secret of secrets) {
    if (await webCrypto.verify('HMAC', await hmacKey(secret), signature, body)) return true;
  }
  return false;
}

const textDecoder = new TextDecoder('utf-8', { fatal: true });

/** Parses a verified body as JSON and as a version 1 restocking shipment. */
function parsePayload(body: Uint8Array<ArrayBuffer>): RestockingShipmentV1 {
  let json: unknown;
  try {
    json = JSON.parse(textDecoder.decode(body));
  } catch (cause) {
    throw new WebhookVerificationError('invalid_payload', 'Webhook body is not valid UTF-8 JSON.', { cause });
  }
  try {
    return parseResponse(RestockingShipmentV1Schema, json, 'lenient');
  } catch (cause) {
    const detail =
      cause instanceof ResponseValidationError
        ? cause.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')
        : String(cause);
    throw new WebhookVerificationError(
      'invalid_payload',
      `Webhook body is not a restocking shipment: ${detail}`,
      {
        cause,
      },
    );
  }
}

type SubtleCryptoLike = typeof crypto.subtle;
type HmacKey = Awaited<ReturnType<SubtleCryptoLike['importKey']>>;

function subtle(): SubtleCryptoLike {
  const value = globalThis.crypto?.subtle;
  if (!value)
    throw new FulfillmentError('Web Crypto (globalThis.crypto.subtle) is not available in this runtime.');
  return value;
}

const KEY_CACHE_MAX = 16;
/** Imported HMAC keys by secret, least recently used first. */
const keyCache = new Map<string, Promise<HmacKey>>();

/** The HMAC-SHA256 key of a secret, imported once and kept in a small LRU cache. */
function hmacKey(secret: string): Promise<HmacKey> {
  const cached = keyCache.get(secret);
  if (cached) {
    keyCache.delete(secret);
    keyCache.set(secret, cached);
    return cached;
  }
  const key = subtle().importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  keyCache.set(secret, key);
  key.catch(() => {
    if (keyCache.get(secret) === key) keyCache.delete(secret);
  });
  if (keyCache.size > KEY_CACHE_MAX) {
    const oldest = keyCache.keys().next();
    if (!oldest.done) keyCache.delete(oldest.value);
  }
  return key;
}

function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
