/**
 * Webhooks: the Node face of the webhook handler — the raw body read from a `node:http` request (or
 * taken from what a body parser left in `req.body`), bounded by `maxBodyBytes`, and the answer
 * written to the response. Structural types only: no Node module is imported, so the code loads on
 * Bun, Deno and workers alike.
 */
import { joinChunks } from '../core/body.js';
import {
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  type WebhookHeaders,
  WebhookVerificationError,
} from './types.js';
import { readHeader } from './verify.js';

/** An answer of the handler: status, JSON body, extra headers. */
export interface WebhookAnswer {
  /** HTTP status code. */
  status: number;
  /** The JSON body. */
  body: Readonly<Record<string, unknown>>;
  /** Headers besides `content-type: application/json` (`allow` of a 405, `connection` of a 413). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * How reading a body ended: the raw bytes; a refusal to answer with (a body over the limit, or a
 * body a parser already consumed: the receiver's misconfiguration); or a request the client
 * abandoned, which has no one left to answer.
 */
export type BodyOutcome =
  | { readonly kind: 'body'; readonly body: Uint8Array | string }
  | { readonly kind: 'refused'; readonly error: WebhookVerificationError; readonly status: 413 | 500 }
  | { readonly kind: 'aborted' };

/** What to write in a message about a refused body: how to hand the raw body over. */
const NODE_RAW_BODY_HELP =
  'Give the webhook route the raw body: in Express mount express.raw({ type: ' +
  "'application/json' }) (or no body parser at all) on that route, not express.json(); in Fastify " +
  "add a content-type parser for 'application/json' with { parseAs: 'buffer' } and call " +
  'handler.node(request, reply.raw) after reply.hijack().';

/** The `body_too_large` refusal. */
export function tooLarge(size: number | undefined, limit: number): BodyOutcome {
  const what =
    size === undefined
      ? `is over the limit of ${limit} bytes`
      : `is ${size} bytes, over the limit of ${limit} bytes`;
  return {
    kind: 'refused',
    status: 413,
    error: new WebhookVerificationError(
      'body_too_large',
      `Webhook body ${what} (option 'maxBodyBytes'): refused before checking its signature.`,
    ),
  };
}

/** The declared `content-length`, when it is a plain decimal number. */
export function declaredLength(headers: WebhookHeaders): number | undefined {
  const value = readHeader(headers, 'content-length')?.trim();
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

function refusedBody(message: string): BodyOutcome {
  return {
    kind: 'refused',
    status: 500,
    error: new WebhookVerificationError('parsed_body', `${message} ${NODE_RAW_BODY_HELP}`),
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The raw body of a Node request: what a body parser left in `req.body` when it is bytes or a string,
 * otherwise read from the stream (`data` events), bounded by `limit`: past it, reading stops (the
 * stream is paused and its listeners removed) and the body is refused with `body_too_large`.
 */
export function readNodeBody(req: NodeWebhookRequest, limit: number): Promise<BodyOutcome> | BodyOutcome {
  const given = req.body;
  // A string's UTF-8 size is checked by the verification.
  if (typeof given === 'string') return { kind: 'body', body: given };
  if (given instanceof ArrayBuffer || ArrayBuffer.isView(given)) {
    if (given.byteLength > limit) return tooLarge(given.byteLength, limit);
    const body =
      given instanceof ArrayBuffer
        ? new Uint8Array(given)
        : new Uint8Array(given.buffer, given.byteOffset, given.byteLength);
    return { kind: 'body', body };
  }
  const declared = declaredLength(req.headers);
  if (declared !== undefined && declared > limit) return tooLarge(declared, limit);
  const streaming = typeof req.on === 'function' && typeof req.removeListener === 'function';
  // Express 4's body-parser leaves `{}` on a request it did not read (another content type).
  const untouched = isPlainObject(given) && Object.keys(given).length === 0 && req.readableEnded === false;
  if (given !== undefined && given !== null && !untouched) {
    return refusedBody(
      `The webhook request's body was already parsed (req.body is ${isPlainObject(given) ? 'a parsed object' : 'not raw bytes'}), ` +
        'but the signature covers the raw bytes, which parsing loses.',
    );
  }
  if (!streaming) {
    // Fastify's `request` without a body: nothing was sent.
    return { kind: 'body', body: '' };
  }
  if (req.readableEnded === true) {
    return refusedBody(
      'The webhook request stream was already read to its end (by a body parser?) and no raw body was ' +
        'left in req.body.',
    );
  }
  // The client went away before this call (its `close` already fired, say while an async
  // middleware ran): no event will ever come, so there is nothing to wait for.
  if (req.destroyed === true || req.readableAborted === true) return { kind: 'aborted' };
  // A stream-like without `readableEnded` cannot say whether it already ended: its silence is bounded.
  return readStream(req, limit, typeof req.readableEnded === 'boolean' ? undefined : STALL_MS);
}

/**
 * How long a stream-like request without `readableEnded` (not a `node:http` request) may stay silent
 * (no `data`, `end`, `error` or `close`) before its body is refused: it may have been read to its
 * end already, and would then never say so. A `node:http` request needs no such bound: the server's
 * own timeouts destroy it (and `close` fires).
 */
const STALL_MS = 30_000;

const ignore = (): void => {};

/** Encodes a chunk the stream gave as a string. */
const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Reads the stream's `data` events into one byte array, stopping past `limit`. With `stall`, a
 * stream silent for that many milliseconds is refused (see {@link STALL_MS}). Settles once, and
 * then no listener of its own is left on the stream.
 */
function readStream(req: NodeWebhookRequest, limit: number, stall?: number): Promise<BodyOutcome> {
  return new Promise<BodyOutcome>((resolve) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (outcome: BodyOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const [event, listener] of listeners) req.removeListener!(event, listener);
      resolve(outcome);
    };
    const watch = () => {
      if (stall === undefined) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        done(
          refusedBody(
            `The webhook request stream sent nothing for ${stall} ms: it was probably already read to its ` +
              'end (by a body parser?), and no raw body was left in req.body.',
          ),
        );
      }, stall);
      (timer as { unref?: () => unknown }).unref?.();
    };
    const onData = (chunk?: unknown) => {
      if (settled) return;
      watch();
      const bytes =
        typeof chunk === 'string'
          ? encoder.encode(chunk)
          : ArrayBuffer.isView(chunk)
            ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
            : new Uint8Array(0);
      size += bytes.byteLength;
      if (size > limit) {
        req.pause?.();
        done(tooLarge(undefined, limit));
        // Nothing reads the stream any more; a later error (the client going away) is not a crash.
        req.on!('error', ignore);
        return;
      }
      chunks.push(bytes);
    };
    const onAbort = () => done({ kind: 'aborted' });
    const listeners: [event: 'data' | 'end' | 'error' | 'close', listener: (chunk?: unknown) => void][] = [
      ['end', () => done({ kind: 'body', body: joinChunks(chunks, size) })],
      ['error', onAbort],
      ['close', onAbort],
      // Last: subscribing to `data` starts the flow.
      ['data', onData],
    ];
    for (const [event, listener] of listeners) req.on!(event, listener);
    watch();
  });
}

/** The raw body of a Fetch API request, read as it streams in, stopping past `limit`. */
export async function readRequestBody(request: Request, limit: number): Promise<BodyOutcome> {
  if (request.bodyUsed || request.body?.locked === true) {
    return {
      kind: 'refused',
      status: 500,
      error: new WebhookVerificationError(
        'parsed_body',
        'The webhook request body was already read or locked (by c.req.json(), req.json() or a middleware) before ' +
          'handler.fetch: pass the request untouched (in Hono, handler.fetch(c.req.raw) before any body ' +
          'is read), since the signature covers its raw bytes.',
      ),
    };
  }
  const declared = declaredLength(request.headers);
  if (declared !== undefined && declared > limit) return tooLarge(declared, limit);
  if (!request.body) return { kind: 'body', body: new Uint8Array(0) };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // A stream of anything but bytes cannot be the signed body.
      const chunk: unknown = value;
      size += ArrayBuffer.isView(chunk) ? chunk.byteLength : Number.NaN;
      if (!(size <= limit)) {
        reader.cancel().catch(() => {});
        return Number.isNaN(size) ? { kind: 'aborted' } : tooLarge(undefined, limit);
      }
      const view = chunk as ArrayBufferView;
      chunks.push(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
    }
  } catch {
    return { kind: 'aborted' };
  }
  return { kind: 'body', body: joinChunks(chunks, size) };
}

/**
 * Writes an answer as JSON. Returns `false` when the response was already sent or ended (by other
 * code): nothing is written then.
 */
export function writeNodeAnswer(res: NodeWebhookResponse, answer: WebhookAnswer): boolean {
  if (res.headersSent === true || res.writableEnded === true) return false;
  res.statusCode = answer.status;
  res.setHeader('content-type', 'application/json');
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  res.end(JSON.stringify(answer.body));
  return true;
}
