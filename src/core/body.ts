/**
 * Reading a response body as it streams in: bounded in time (the attempt's `timeout`, as for the
 * headers) and in size (`maxResponseBytes`, counted on the decoded bytes, so a small compressed body
 * that inflates without end is cut off too). Over either bound the read stops and the connection
 * is released.
 */

/** The body did not arrive within the attempt's timeout (mapped to `APITimeoutError`). @internal */
export class BodyTimeoutError extends Error {
  constructor() {
    super('The response body did not arrive in time.');
    this.name = 'TimeoutError';
  }
}

/** The body is larger than the limit: `size` bytes received or announced so far. @internal */
export class BodyTooLargeError extends Error {
  readonly size: number;

  constructor(size: number) {
    super(`The response body is larger than allowed (${size} bytes so far).`);
    this.name = 'BodyTooLargeError';
    this.size = size;
  }
}

/**
 * Reads the whole body as UTF-8 text within `timeoutMs` and `limit` bytes. The bytes are gathered
 * and decoded once, into one flat string (what `JSON.parse` reads fastest); past the time limit the
 * stream is cancelled, which ends the pending read, so no promise is raced per chunk.
 */
export async function readBody(response: Response, limit: number, timeoutMs: number): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await body.cancel().catch(() => {});
    throw new BodyTooLargeError(declared);
  }
  const reader = body.getReader();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    reader.cancel().catch(() => {});
  }, timeoutMs);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) throw new BodyTimeoutError();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw new BodyTooLargeError(size);
      chunks.push(value);
    }
  } catch (error) {
    // Stops the transfer and releases the connection.
    reader.cancel().catch(() => {});
    throw timedOut ? new BodyTimeoutError() : error;
  } finally {
    clearTimeout(timer);
  }
  return decoder.decode(chunks.length === 1 ? chunks[0] : joinChunks(chunks, size));
}

/** Decodes UTF-8 as `Response.text()` does: a leading BOM dropped, a bad sequence as U+FFFD. */
const decoder = /* @__PURE__ */ new TextDecoder();

/** The chunks of a body read piecewise, joined into one byte array of `size` bytes. */
export function joinChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
