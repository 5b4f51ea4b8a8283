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

/** Reads the whole body as UTF-8 text within `timeoutMs` and `limit` bytes. */
export async function readBody(response: Response, limit: number, timeoutMs: number): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await body.cancel().catch(() => {});
    throw new BodyTooLargeError(declared);
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyTimeoutError()), timeoutMs);
  });
  timedOut.catch(() => {});
  let size = 0;
  const parts: string[] = [];
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), timedOut]);
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw new BodyTooLargeError(size);
      parts.push(decoder.decode(value, { stream: true }));
    }
    parts.push(decoder.decode());
    return parts.join('');
  } catch (error) {
    // Stops the transfer and releases the connection.
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
