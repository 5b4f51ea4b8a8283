/**
 * Webhooks: the cryptography under signing and verification — the body and the secrets checked
 * and turned into what the HMAC takes, HMAC-SHA256 (keys imported once, kept in a small
 * cache), hex, and the constant-time signature check.
 *
 * No static Node import: where the runtime offers `node:crypto` through
 * `process.getBuiltinModule` (Node 22+, Bun, Deno), its synchronous HMAC is used — several times
 * faster than Web Crypto, which hands each operation to a thread pool; everywhere else
 * (`globalThis.crypto.subtle`), Web Crypto. Both paths run in the tests.
 */
import { builtinModule } from '../core/builtin.js';
import { describe } from '../core/describe.js';
import { FulfillmentError } from '../core/errors.js';
import { WebhookVerificationError } from './types.js';

const RAW_BODY_HELP =
  'Pass the raw request body exactly as received: in Express use ' +
  "express.raw({ type: 'application/json' }) on the webhook route (not express.json()); in Fastify add a " +
  "content-type parser for 'application/json' with { parseAs: 'buffer' }; in Hono, Next.js and other " +
  'Fetch-based frameworks use `new Uint8Array(await req.arrayBuffer())`.';

const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * The UTF-8 length of a string, without encoding it: 1 byte per code unit up to U+007F, 2 up to
 * U+07FF, 4 per surrogate pair, 3 otherwise (a lone surrogate becomes U+FFFD, 3 bytes).
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The `body_too_large` refusal of a body of `size` bytes (`undefined`: not known) over `limit`. */
export function tooLarge(size: number | undefined, limit: number): WebhookVerificationError {
  return new WebhookVerificationError(
    'body_too_large',
    `Webhook body ${size === undefined ? 'is over the limit' : `is ${size} bytes, over the limit`} of ${limit} ` +
      "bytes (option 'maxBodyBytes'): refused before checking its signature.",
  );
}

/** Refuses a body of `size` bytes over `maxBytes`. */
function checkSize(size: number, maxBytes: number): void {
  if (size > maxBytes) throw tooLarge(size, maxBytes);
}

/**
 * The body, checked: a string as it is where the runtime has `node:crypto` (whose HMAC reads a
 * string as UTF-8 without an encoded copy, and `JSON.parse` reads it directly), otherwise bytes (no
 * copy for bytes whose buffer is an `ArrayBuffer`). A body longer than `maxBytes` is refused
 * (`body_too_large`) before it is encoded; one that is neither a string nor bytes is `parsed_body`
 * or `invalid_body`, with advice on how to get the raw body (or, when `signing`, what to sign).
 */
export function toBody(body: unknown, maxBytes: number, signing = false): Uint8Array<ArrayBuffer> | string {
  if (typeof body === 'string') {
    // Every code unit is at least one byte and at most three: measured only when the limit can be reached.
    if (body.length * 3 > maxBytes) checkSize(utf8Length(body), maxBytes);
    return nodeCrypto() ? body : encoder.encode(body);
  }
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    checkSize(body.byteLength, maxBytes);
    const view = ArrayBuffer.isView(body)
      ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
      : body;
    // Bytes over a SharedArrayBuffer are copied (Web Crypto and TextDecoder refuse them).
    return view instanceof Uint8Array && view.buffer instanceof ArrayBuffer
      ? (view as Uint8Array<ArrayBuffer>)
      : new Uint8Array(view);
  }
  const proto = typeof body === 'object' && body !== null ? Object.getPrototypeOf(body) : undefined;
  const parsed = Array.isArray(body) || proto === Object.prototype || proto === null;
  const message = signing
    ? `A webhook body to sign must be the exact string or bytes that will be sent (e.g. JSON.stringify(payload)), got ${describe(body)}.`
    : parsed
      ? `Webhook body is an already parsed object, but the signature covers the raw bytes, which parsing loses. ${RAW_BODY_HELP}`
      : `Webhook body must be a string, Uint8Array, Buffer or ArrayBuffer, got ${describe(body)}. ${RAW_BODY_HELP}`;
  throw new WebhookVerificationError(parsed ? 'parsed_body' : 'invalid_body', message);
}

/**
 * The non-empty secrets, in the order given. Throws a {@link WebhookVerificationError}
 * (`missing_secret`) when one is not a string or none is left.
 */
export function toSecrets(secret: unknown): string[] {
  const list: unknown[] = Array.isArray(secret) ? secret : [secret];
  const out: string[] = [];
  for (const s of list) {
    if (typeof s === 'string') {
      if (s !== '') out.push(s);
    } else if (s !== undefined && s !== null) {
      throw new WebhookVerificationError(
        'missing_secret',
        `Webhook option 'secret' must be a string or an array of strings (API tokens), got ${describe(s)}${list === secret ? ' in the array' : ''}.`,
      );
    }
  }
  if (out.length === 0) {
    throw new WebhookVerificationError(
      'missing_secret',
      "No webhook secret given (option 'secret'): pass the API token of the sales channel that registered " +
        'the webhook (or an array of its tokens).',
    );
  }
  return out;
}

/** The value of a hex digit's character code (already checked to be one). */
const nibble = (code: number): number => (code <= 0x39 ? code - 0x30 : (code | 0x20) - 0x57);

/** Decodes a string of hex digit pairs (already checked) into bytes. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  }
  return bytes;
}

/** The part of `node:crypto` used here. */
interface NodeCrypto {
  createHmac(
    algorithm: 'sha256',
    key: string,
  ): { update(data: Uint8Array | string): { digest(): Uint8Array } };
}

/** `node:crypto` when the runtime offers it without a static import; `null` when not (or not wanted). */
let native: NodeCrypto | null | undefined;

function nodeCrypto(): NodeCrypto | null {
  if (native === undefined) {
    const candidate = builtinModule<Partial<NodeCrypto>>('node:crypto');
    native = typeof candidate?.createHmac === 'function' ? (candidate as NodeCrypto) : null;
  }
  return native;
}

/** Forces the Web Crypto path (`true`), or goes back to the runtime's choice (`false`). @internal */
export function preferWebCrypto(on: boolean): void {
  native = on ? null : undefined;
}

type SubtleCryptoLike = typeof crypto.subtle;
type HmacKey = Awaited<ReturnType<SubtleCryptoLike['importKey']>>;

function subtle(): SubtleCryptoLike {
  const value = globalThis.crypto?.subtle;
  if (!value)
    throw new FulfillmentError('Web Crypto (globalThis.crypto.subtle) is not available in this runtime.');
  return value;
}

/** Imported HMAC keys by secret: the 16 most recently used, least recently used first. */
const keyCache = /* @__PURE__ */ new Map<string, Promise<HmacKey>>();

/** The HMAC-SHA256 key of a secret, imported once and cached (a failed import is not kept). */
function hmacKey(secret: string): Promise<HmacKey> {
  let key = keyCache.get(secret);
  if (key) keyCache.delete(secret);
  else {
    const algorithm = { name: 'HMAC', hash: 'SHA-256' };
    key = subtle().importKey('raw', encoder.encode(secret), algorithm, false, ['sign']);
    key.catch(() => keyCache.get(secret) === key && keyCache.delete(secret));
    if (keyCache.size >= 16) keyCache.delete(keyCache.keys().next().value!);
  }
  keyCache.set(secret, key);
  return key;
}

const asBytes = (body: Uint8Array<ArrayBuffer> | string): Uint8Array<ArrayBuffer> =>
  typeof body === 'string' ? encoder.encode(body) : body;

/**
 * The HMAC-SHA256 of `body` (a string counts as its UTF-8 bytes) keyed with `secret`: at once where
 * the runtime has `node:crypto` (its HMAC is synchronous), as a promise with Web Crypto, so that a
 * verification costs no promise it does not need.
 */
function hmac(secret: string, body: Uint8Array<ArrayBuffer> | string): Uint8Array | Promise<Uint8Array> {
  const node = nodeCrypto();
  if (node) return node.createHmac('sha256', secret).update(body).digest();
  return hmacKey(secret).then(async (key) => new Uint8Array(await subtle().sign('HMAC', key, asBytes(body))));
}

/** The lower-case hex HMAC-SHA256 of `body` (a string counts as its UTF-8 bytes) keyed with `secret`. */
export async function hmacHex(secret: string, body: Uint8Array<ArrayBuffer> | string): Promise<string> {
  let out = '';
  for (const byte of await hmac(secret, body)) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** Whether a MAC equals the 32-byte signature, compared in constant time (every byte, always). */
function equal(mac: Uint8Array, signature: Uint8Array): boolean {
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= mac[i]! ^ signature[i]!;
  return diff === 0;
}

/**
 * `true` when the 32-byte signature verifies under one of the secrets (compared in constant time):
 * a boolean with `node:crypto`, a promise with Web Crypto (see {@link hmac}).
 */
export function matchesAny(
  body: Uint8Array<ArrayBuffer> | string,
  signature: Uint8Array<ArrayBuffer>,
  secrets: readonly string[],
): boolean | Promise<boolean> {
  if (nodeCrypto()) return secrets.some((secret) => equal(hmac(secret, body) as Uint8Array, signature));
  return (async () => {
    for (const secret of secrets) if (equal(await hmac(secret, body), signature)) return true;
    return false;
  })();
}
