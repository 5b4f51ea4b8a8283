/**
 * JSON as the mock reads it from request bodies and writes it in responses: the value types and
 * the one lenient reader (blank text is no value; text that is not JSON is reported, not thrown).
 */

/** A JSON value, as the mock reads it from request bodies and writes it in responses. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** Text read as JSON: `value` is `undefined` when the text is blank or `bad` (not JSON). */
export interface ReadJson {
  value: JsonValue | undefined;
  bad: boolean;
}

/** Reads `text` as JSON: blank text is no value, text that is not JSON is `bad`. */
export function readJson(text: string): ReadJson {
  if (text.trim() === '') return { value: undefined, bad: false };
  try {
    return { value: JSON.parse(text) as JsonValue, bad: false };
  } catch {
    return { value: undefined, bad: true };
  }
}
