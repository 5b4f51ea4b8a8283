/**
 * Webhooks: the cryptography under signing and verification — the body and the secrets checked,
 * the hex HMAC-SHA256, and the constant-time signature check.
 *
 * No static Node import: where the runtime offers `node:crypto` through
 * `process.getBuiltinModule` (Node 22+, Bun, Deno), its synchronous HMAC is used — several times
 * faster than Web Crypto, which hands each operation to a thread pool; everywhere else
 * (`globalThis.crypto.subtle`), Web Crypto. Both paths run in the tests.
 */
import { builtinModule } from '../core/builtin.js';
import { describe, isObject } from '../core/describe.js';
import { FulfillmentError } from '../core/errors.js';
import { WebhookVerificationError } from './types.js';

/**
 * The refusal of a body a framework already parsed or read (`verifyWebhook` given an object, a
 * request body consumed before `handler.fetch` or `handler.node`), with how to get the raw body.
 */
export const parsedBody = (): WebhookVerificationError =>
  new WebhookVerificationError(
    'parsed_body',
    'Webhook body was already parsed or read (by a body parser, req.json() or c.req.json()), but the ' +
      'signature covers the exact bytes, which parsing loses (to sign, pass the exact string sent, e.g. ' +
      'JSON.stringify(payload)). Pass the raw request body: in Express mount ' +
      "express.raw({ type: 'application/json' }) on the webhook route, not express.json(); in Fastify add " +
      "a content-type parser for 'application/json' with { parseAs: 'buffer' } and call reply.hijack() " +
      'before handler.node(request, reply.raw); in Hono, Next.js and other Fetch frameworks pass the ' +
      'request untouched to handler.fetch (c.req.raw in Hono), or `new Uint8Array(await req.arrayBuffer())` ' +
      'to verifyWebhook.',
  );

const encoder = /* @__PURE__ */ new TextEncoder();

/** The UTF-8 length of a string, without encoding it (a lone surrogate becomes U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const c of text) bytes += c.length === 2 ? 4 : c < '\x80' ? 1 : c < '\u0800' ? 2 : 3;
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

/**
 * The body, checked: a string as it is where the runtime has `node:crypto` (its HMAC reads a
 * string as UTF-8), otherwise bytes (not copied unless shared). A body over `maxBytes` is refused
 * (`body_too_large`) before it is encoded; anything but a string or bytes is `parsed_body` (a
 * parsed object or array, with advice on how to get the raw body) or `invalid_body`.
 */
export function toBody(body: unknown, maxBytes: number): Uint8Array<ArrayBuffer> | string {
  const isString = typeof body === 'string';
  if (!isString && !(body instanceof ArrayBuffer || ArrayBuffer.isView(body))) {
    const proto = isObject(body) && Object.getPrototypeOf(body);
    if (Array.isArray(body) || proto === Object.prototype || proto === null) throw parsedBody();
    throw new WebhookVerificationError(
      'invalid_body',
      `Webhook body must be a string, Uint8Array, Buffer or ArrayBuffer (the raw request body), got ${describe(body)}.`,
    );
  }
  // A code unit is 1 to 3 bytes: a string is measured only when the limit can be reached.
  const size = !isString ? body.byteLength : body.length * 3 > maxBytes ? utf8Length(body) : 0;
  if (size > maxBytes) throw tooLarge(size, maxBytes);
  if (isString) return nodeCrypto() ? body : encoder.encode(body);
  const bytes = ArrayBuffer.isView(body)
    ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength)
    : new Uint8Array(body);
  // Bytes over a SharedArrayBuffer are copied (Web Crypto and TextDecoder refuse them).
  return (bytes.buffer instanceof ArrayBuffer ? bytes : bytes.slice()) as Uint8Array<ArrayBuffer>;
}

/**
 * The non-empty secrets, in the order given. Throws a {@link WebhookVerificationError}
 * (`missing_secret`) when one is not a string (`null` aside) or none is left.
 */
export function toSecrets(secret: unknown): string[] {
  const list: unknown[] = Array.isArray(secret) ? secret : [secret];
  const bad = list.find((s) => typeof s !== 'string' && s != null);
  const secrets = list.filter((s): s is string => s !== '' && typeof s === 'string');
  if (bad === undefined && secrets.length > 0) return secrets;
  throw new WebhookVerificationError(
    'missing_secret',
    "Webhook option 'secret' must be the API token (a non-empty string) of the sales channel that registered " +
      `the webhook, or an array of its tokens; got ${bad === undefined ? 'none' : describe(bad)}.`,
  );
}

/** The part of `node:crypto` used here. */
interface NodeCrypto {
  createHmac(
    algorithm: 'sha256',
    key: string,
  ): { update(data: Uint8Array | string): { digest(as: 'hex'): string } };
}

/** `node:crypto` when the runtime offers it without a static import; `false` when not (or not wanted). */
let native: NodeCrypto | false | undefined;
const nodeCrypto = () => (native ??= builtinModule<NodeCrypto>('node:crypto') ?? false);

/** Forces the Web Crypto path (`true`), or goes back to the runtime's choice (`false`). @internal */
export function preferWebCrypto(on: boolean): void {
  native = on ? false : undefined;
}

/**
 * The lower-case hex HMAC-SHA256 of `body` (a string counts as its UTF-8 bytes) keyed with
 * `secret`: at once with `node:crypto`, as a promise with Web Crypto.
 */
export function hmac(secret: string, body: Uint8Array<ArrayBuffer> | string): string | Promise<string> {
  const node = nodeCrypto();
  if (node) return node.createHmac('sha256', secret).update(body).digest('hex');
  const subtle = globalThis.crypto?.subtle;
  if (!subtle)
    throw new FulfillmentError('Web Crypto (globalThis.crypto.subtle) is not available in this runtime.');
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  return subtle
    .importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    .then((key) => subtle.sign('HMAC', key, bytes))
    .then((mac) => Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, '0')).join(''));
}

/** Whether two 64-character hex strings are equal, compared in constant time (every character). */
function equal(mac: string, signature: string): boolean {
  let diff = 0;
  for (let i = 0; i < 64; i++) diff |= mac.charCodeAt(i) ^ signature.charCodeAt(i);
  return diff === 0;
}

/**
 * `true` when the signature (64 lower-case hex characters) is the HMAC of the body under one of
 * the secrets: a boolean with `node:crypto`, a promise with Web Crypto.
 */
export function matchesAny(
  body: Uint8Array<ArrayBuffer> | string,
  signature: string,
  secrets: readonly string[],
): boolean | Promise<boolean> {
  if (nodeCrypto()) return secrets.some((secret) => equal(hmac(secret, body) as string, signature));
  return Promise.all(secrets.map((secret) => hmac(secret, body))).then((macs) =>
    macs.some((mac) => equal(mac, signature)),
  );
}
