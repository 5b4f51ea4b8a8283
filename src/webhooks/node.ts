/**
 * Webhooks: the raw body of a webhook request, bounded by `maxBodyBytes` — read from a Fetch API
 * `Request`, or from a `node:http` request (or taken from what a body parser left in `req.body`) —
 * and the answer written to a Node response. Structural types only: no Node module is imported, so
 * the code loads on Bun, Deno and workers alike.
 */
import { joinChunks } from '../core/body.js';
import { tooLarge } from './crypto.js';
import {
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  type WebhookHeaders,
  WebhookVerificationError,
} from './types.js';
import { readHeader } from './verify.js';

/** An answer of the handler: status, JSON body, headers besides `content-type: application/json`. */
export type WebhookAnswer = {
  status: number;
  body: Readonly<Record<string, unknown>>;
  headers?: Readonly<Record<string, string>>;
};

/**
 * How reading a body ended: the raw body, or why there is none: `body_too_large`, `parsed_body` (a
 * parser already consumed it: the receiver's misconfiguration) or `invalid_body` (the client went
 * away, or the stream failed).
 */
export type BodyOutcome = Uint8Array | string | WebhookVerificationError;

/** A body a parser already consumed. */
const consumed = (message: string) =>
  new WebhookVerificationError(
    'parsed_body',
    `${message} Give the webhook route the raw body: in Express mount express.raw({ type: ` +
      "'application/json' }) (or no body parser at all) on that route, not express.json(); in Fastify " +
      "add a content-type parser for 'application/json' with { parseAs: 'buffer' } and call " +
      'handler.node(request, reply.raw) after reply.hijack().',
  );

const aborted = () =>
  new WebhookVerificationError('invalid_body', 'The webhook request body could not be read to its end.');

/** A declared `content-length` (a plain decimal number) over `limit`, refused unread. */
function declaredTooLarge(headers: WebhookHeaders, limit: number): WebhookVerificationError | undefined {
  const value = readHeader(headers, 'content-length')?.trim();
  if (value && /^\d{1,15}$/.test(value) && Number(value) > limit) return tooLarge(Number(value), limit);
}

/**
 * The raw body of a Node request: what a body parser left in `req.body` when it is bytes or a string
 * (its size is checked by the verification), otherwise read from the stream (`data` events),
 * bounded by `limit`: past it, reading stops (the stream is paused and its listeners removed) and
 * the body is refused with `body_too_large`.
 */
export function readNodeBody(req: NodeWebhookRequest, limit: number): Promise<BodyOutcome> | BodyOutcome {
  const given = req.body;
  if (typeof given === 'string' || given instanceof ArrayBuffer || ArrayBuffer.isView(given)) {
    return ArrayBuffer.isView(given)
      ? new Uint8Array(given.buffer, given.byteOffset, given.byteLength)
      : (given as string | Uint8Array);
  }
  const declared = declaredTooLarge(req.headers, limit);
  if (declared) return declared;
  // Express 4's body-parser leaves `{}` on a request it did not read (another content type).
  const proto = typeof given === 'object' && given !== null ? Object.getPrototypeOf(given) : undefined;
  const parsed = proto === Object.prototype || proto === null;
  if (
    given !== undefined &&
    given !== null &&
    !(parsed && Object.keys(given).length === 0 && req.readableEnded === false)
  ) {
    return consumed(
      `The webhook request's body was already parsed (req.body is ${parsed ? 'a parsed object' : 'not raw bytes'}), ` +
        'but the signature covers the raw bytes, which parsing loses.',
    );
  }
  // Fastify's `request` without a body: nothing was sent.
  if (typeof req.on !== 'function' || typeof req.removeListener !== 'function') return '';
  if (req.readableEnded === true) {
    return consumed(
      'The webhook request stream was already read to its end (by a body parser?) and no raw body was ' +
        'left in req.body.',
    );
  }
  // The client went away before this call (its `close` already fired, say while an async
  // middleware ran): no event will ever come, so there is nothing to wait for.
  if (req.destroyed === true || req.readableAborted === true) return aborted();
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
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (outcome: BodyOutcome) => {
      clearTimeout(timer);
      for (const [event, listener] of listeners) req.removeListener!(event, listener);
      resolve(outcome);
    };
    const watch = () => {
      if (stall === undefined) return;
      clearTimeout(timer);
      const message = `The webhook request stream sent nothing for ${stall} ms: it was probably already read to its end (by a body parser?), and no raw body was left in req.body.`;
      timer = setTimeout(() => done(consumed(message)), stall);
      (timer as { unref?: () => unknown }).unref?.();
    };
    const onData = (chunk?: unknown) => {
      watch();
      const bytes =
        typeof chunk === 'string'
          ? encoder.encode(chunk)
          : ArrayBuffer.isView(chunk)
            ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
            : new Uint8Array(0);
      size += bytes.byteLength;
      chunks.push(bytes);
      if (size <= limit) return;
      req.pause?.();
      done(tooLarge(undefined, limit));
      // Nothing reads the stream any more; a later error (the client going away) is not a crash.
      req.on!('error', ignore);
    };
    const onAbort = () => done(aborted());
    const listeners: [event: 'data' | 'end' | 'error' | 'close', listener: (chunk?: unknown) => void][] = [
      ['end', () => done(joinChunks(chunks, size))],
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
    return new WebhookVerificationError(
      'parsed_body',
      'The webhook request body was already read or locked (by c.req.json(), req.json() or a middleware) before ' +
        'handler.fetch: pass the request untouched (in Hono, handler.fetch(c.req.raw) before any body ' +
        'is read), since the signature covers its raw bytes.',
    );
  }
  const declared = declaredTooLarge(request.headers, limit);
  if (declared || !request.body) return declared ?? new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      // A stream of anything but bytes cannot be the signed body.
      const chunk: unknown = read.value;
      if (!ArrayBuffer.isView(chunk)) throw aborted();
      chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      size += chunk.byteLength;
      if (size > limit) throw tooLarge(undefined, limit);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    return error instanceof WebhookVerificationError ? error : aborted();
  }
  return joinChunks(chunks, size);
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
