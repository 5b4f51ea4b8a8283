/**
 * JSON as the mock reads it from request bodies and writes it in responses: the value types, the
 * limits every request body is held to, and the one lenient reader (blank text is no value; text
 * that is not JSON, or nests too deeply, is reported, not thrown).
 *
 * Limits (one hostile request must not break the mock for everyone):
 * - {@link MAX_BODY_BYTES}: a larger body is answered `413` before anything else, by every face.
 * - {@link MAX_JSON_DEPTH}: a body nesting deeper is answered `400` like text that is not JSON,
 *   before anything is stored, so whatever is stored (e.g. `custom_metadata`) can always be cloned
 *   and serialized again (`api.state`, `GET /__mock/state`, `GET /orders`) without overflowing the
 *   stack. Both checks are iterative: they cannot overflow the stack themselves.
 */

/** A JSON value, as the mock reads it from request bodies and writes it in responses. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** The largest request body the mock reads (10 MiB, in UTF-8 bytes); a larger one is answered 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * The deepest nesting of arrays and objects accepted in a JSON request body (`{}` is 1 level,
 * `{"a":[{}]}` 3); a deeper body is answered 400.
 */
export const MAX_JSON_DEPTH = 32;

/** Text read as JSON: `value` is `undefined` when the text is blank or `bad` (not accepted). */
export interface ReadJson {
  value: JsonValue | undefined;
  bad: boolean;
  /** Why a `bad` body was refused, for the mock-only `x-mock-hint` response header. */
  hint?: string;
}

/** Whether `text` is longer than {@link MAX_BODY_BYTES} in UTF-8. */
export function bodyTooLarge(text: string): boolean {
  // A UTF-16 code unit is 1 to 3 UTF-8 bytes: only count when it could go either way.
  if (text.length > MAX_BODY_BYTES) return true;
  if (text.length * 3 <= MAX_BODY_BYTES) return false;
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    // A surrogate pair is 4 bytes: 2 for each half.
    bytes += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
  }
  return bytes > MAX_BODY_BYTES;
}

/**
 * Whether the arrays and objects of JSON `text` nest deeper than `max` (one pass, no recursion:
 * brackets inside strings do not count).
 */
export function textDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i += 1; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 93 || c === 125) depth -= 1;
  }
  return false;
}

/**
 * Whether the arrays and objects of `value` nest deeper than `max`, walked with an explicit stack
 * (no recursion, and a cycle ends as "too deep" instead of looping).
 */
export function jsonDepthExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Reads `text` as JSON: blank text is no value; text that is not JSON, or nests deeper than
 * {@link MAX_JSON_DEPTH}, is `bad` (with a `hint`). Size is checked by the caller
 * ({@link bodyTooLarge}).
 */
export function readJson(text: string): ReadJson {
  if (text.trim() === '') return { value: undefined, bad: false };
  if (textDepthExceeds(text, MAX_JSON_DEPTH)) {
    return {
      value: undefined,
      bad: true,
      hint: `request body nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects (the mock's limit)`,
    };
  }
  try {
    return { value: JSON.parse(text) as JsonValue, bad: false };
  } catch {
    return { value: undefined, bad: true, hint: 'request body is not JSON' };
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
