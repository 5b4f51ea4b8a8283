/** Joining the chunks of a body read piecewise (the webhook handler reads a request body so). */

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
