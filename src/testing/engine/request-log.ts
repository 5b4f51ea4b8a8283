/**
 * The request log: the last 1000 API requests the mock answered, for assertions on what a client
 * sent (copies at each read).
 */
import type { JsonValue } from './json.js';

/** A request the mock answered (for assertions on what your code sent). */
export interface MockRequestLogEntry {
  /** Upper-case method. */
  method: string;
  /** Path without query, e.g. `/merchant_api/v1/orders`. */
  path: string;
  /** Query string without `?` (empty when none). */
  query: string;
  /** Parsed JSON body, or `undefined` (no body, or not JSON). */
  body: JsonValue | undefined;
  /** Status the mock answered with (0 for a dropped connection). */
  status: number;
  /** Time of the request (ISO 8601, from the mock's clock). */
  at: string;
}

/**
 * One answered request, as the `onRequest` option of `createMockApi` reports it (API and control
 * routes alike): what it was and how it ended, never a header value or the body.
 */
export interface MockRequestEvent extends Omit<MockRequestLogEntry, 'body' | 'at'> {
  /** Time from receiving the request to having its answer, in milliseconds (latency included). */
  durationMs: number;
  /** `true` for a control route under `/__mock/`. */
  control: boolean;
}

const LOG_SIZE = 1000;

/** The last 1000 answered requests. */
export class RequestLog {
  #log: MockRequestLogEntry[] = [];

  /** Records an answered request (the last 1000 are kept). */
  add(entry: MockRequestLogEntry): void {
    this.#log.push(entry);
    if (this.#log.length >= 2 * LOG_SIZE) this.#log = this.#log.slice(-LOG_SIZE);
  }

  /** The last 1000 requests, oldest first, as fresh copies. */
  entries(): MockRequestLogEntry[] {
    return structuredClone(this.#log.slice(-LOG_SIZE));
  }
}
