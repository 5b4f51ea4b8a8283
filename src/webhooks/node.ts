/**
 * Webhooks: the raw body of a webhook request, bounded by `maxBodyBytes` — read from a Fetch API
 * `Request`, or from a `node:http` request (or taken from what a body parser left in `req.body`).
 * Structural types only: no Node module is imported, so the code loads on Bun, Deno and workers
 * alike. A body that cannot be had is thrown as a
 * {@link WebhookVerificationError}: `body_too_large`, `parsed_body` (a parser consumed it: the
 * receiver's misconfiguration) or `invalid_body` (the client went away, or the stream failed).
 */
import { joinChunks } from '../core/body.js';
import { parsedBody, tooLarge } from './crypto.js';
import {
  type NodeWebhookRequest,
  type WebhookBody,
  type WebhookHeaders,
  WebhookVerificationError,
} from './types.js';
import { readHeader } from './verify.js';

const aborted = () =>
  new WebhookVerificationError('invalid_body', 'The webhook request body could not be read to its end.');

/** Refuses, unread, a body whose declared `content-length` (a plain decimal number) is over `limit`. */
function checkDeclared(headers: WebhookHeaders, limit: number): void {
  const value = readHeader(headers, 'content-length')?.trim();
  if (value && /^\d{1,15}$/.test(value) && Number(value) > limit) throw tooLarge(Number(value), limit);
}

/** Collects chunks into one byte array, refusing them past `limit`. */
function collector(limit: number) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    add(chunk: ArrayBufferView): void {
      chunks.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      size += chunk.byteLength;
      if (size > limit) throw tooLarge(undefined, limit);
    },
    bytes: () => joinChunks(chunks, size),
  };
}

/**
 * The raw body of a Node request: what a body parser left in `req.body` when it is bytes or a string
 * (its size is checked by the verification), otherwise read from the stream (`data` events),
 * bounded by `limit`: past it, reading stops (the stream is paused and its listeners removed). A
 * body a parser already parsed or read is `parsed_body`.
 */
export async function readNodeBody(req: NodeWebhookRequest, limit: number): Promise<WebhookBody> {
  const given = req.body;
  if (typeof given === 'string' || given instanceof ArrayBuffer || ArrayBuffer.isView(given)) {
    return given as WebhookBody;
  }
  checkDeclared(req.headers, limit);
  if (given != null || req.readableEnded === true) throw parsedBody();
  // Fastify's `request` without a body: nothing was sent.
  if (typeof req.on !== 'function' || typeof req.removeListener !== 'function') return '';
  // The client went away before this call (its `close` already fired): no event will ever come.
  if (req.destroyed === true || req.readableAborted === true) throw aborted();
  return readStream(req, limit);
}

const ignore = (): void => {};
const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Reads the stream's `data` events, stopping past `limit`. Settles once, and then no listener of its
 * own is left on the stream.
 */
function readStream(req: NodeWebhookRequest, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const body = collector(limit);
    const done = <T>(settle: (value: T) => void, value: T) => {
      for (const [event, listener] of Object.entries(listeners))
        req.removeListener!(event as 'data', listener);
      settle(value);
    };
    const listeners = {
      end: () => done(resolve, body.bytes()),
      error: () => done(reject, aborted()),
      close: () => done(reject, aborted()),
      // Last: subscribing to `data` starts the flow.
      data: (chunk?: unknown) => {
        try {
          body.add(typeof chunk === 'string' ? encoder.encode(chunk) : (chunk as ArrayBufferView));
        } catch (error) {
          req.pause?.();
          done(reject, error);
          // Nothing reads the stream any more; a later error (the client going away) is not a crash.
          req.on!('error', ignore);
        }
      },
    };
    for (const [event, listener] of Object.entries(listeners)) req.on!(event as 'data', listener);
  });
}

/** The raw body of a Fetch API request, read as it streams in, stopping past `limit`. */
export async function readRequestBody(request: Request, limit: number): Promise<Uint8Array> {
  if (request.bodyUsed || request.body?.locked === true) throw parsedBody();
  checkDeclared(request.headers, limit);
  if (!request.body) return new Uint8Array(0);
  const body = collector(limit);
  const reader = request.body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      // A stream of anything but bytes cannot be the signed body.
      if (!ArrayBuffer.isView(read.value)) throw aborted();
      body.add(read.value);
    }
  } catch (error) {
    reader.cancel().catch(ignore);
    throw error instanceof WebhookVerificationError ? error : aborted();
  }
  return body.bytes();
}
