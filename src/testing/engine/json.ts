/**
 * JSON as the mock reads it from request bodies and writes it in responses: the value types, the
 * size limit of the HTTP server's request bodies ({@link MAX_BODY_BYTES}), and the one lenient
 * reader (blank text is no value; text that is not JSON is reported, not thrown).
 */

/** A JSON value, as the mock reads it from request bodies and writes it in responses. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** The largest request body the HTTP server reads (10 MiB); a larger one is answered 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Text read as JSON: `value` is `undefined` when the text is blank or `bad` (not JSON). */
export interface ReadJson {
  value: JsonValue | undefined;
  bad: boolean;
}

/** Reads `text` as JSON: blank text is no value; text that is not JSON is `bad`. */
export function readJson(text: string): ReadJson {
  if (text.trim() === '') return { value: undefined, bad: false };
  try {
    return { value: JSON.parse(text) as JsonValue, bad: false };
  } catch {
    return { value: undefined, bad: true };
  }
}

/**
 * A copy of `value` as JSON writes and reads it back (the kit's own inputs: warehouses, a saved
 * state): what JSON leaves out is left out (an `undefined` field, a function), what it cannot
 * write at all (a BigInt, a cycle) is refused through `refuse` at `path` with JSON's own reason.
 */
export function jsonCopy(
  value: unknown,
  refuse: (path: string, problem: string) => never,
  path: string,
): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch (error) {
    return refuse(path, `cannot be written as JSON (${(error as Error).message})`);
  }
}
