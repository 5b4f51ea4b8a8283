/**
 * Per-token rate limiting with a sliding window: a request is allowed when fewer than `max`
 * requests of the same token were allowed within the last `windowMs`. The figures feed the
 * `X-Rate-Limit-Used` / `X-Rate-Limit-Max` headers and the `Retry-After` of a 429.
 */

/** The per-token rate limit of the mock (a sliding window). */
export interface MockRateLimit {
  /** Requests allowed per token within `perMs`. */
  requests: number;
  /** Window length in milliseconds (e.g. `60_000`). */
  perMs: number;
}

/**
 * A sliding-window limiter keyed by token. Without a `limit` it only counts, reporting requests
 * of the last 60 s against a maximum of 100.
 */
export class RateLimiter {
  readonly #max: number;
  readonly #windowMs: number;
  readonly #enforce: boolean;
  /** The times of each token's allowed requests in the window, oldest first. */
  readonly #windows = new Map<string, number[]>();

  constructor(limit: MockRateLimit | undefined) {
    this.#max = limit?.requests ?? 100;
    this.#windowMs = limit?.perMs ?? 60_000;
    this.#enforce = limit !== undefined;
  }

  /**
   * Counts a request of `key` at `nowMs` (unless refused, or `count` is `false`) and answers the
   * requests counted in the window; when refused, `retryAfter` is the `Retry-After` value, in
   * seconds with one decimal, rounded up (e.g. `3.2`), at least `0.1`.
   */
  hit(key: string, nowMs: number, count = true): { used: number; retryAfter?: string } {
    const times = this.#windows.get(key) ?? [];
    this.#windows.set(key, times);
    while (times.length > 0 && times[0]! <= nowMs - this.#windowMs) times.shift();
    if (this.#enforce && count && times.length >= this.#max) {
      const ms = times[0]! + this.#windowMs - nowMs;
      return { used: times.length, retryAfter: String(Math.max(1, Math.ceil(ms / 100)) / 10) };
    }
    if (count) times.push(nowMs);
    return { used: times.length };
  }

  /** The `X-Rate-Limit-Used` / `X-Rate-Limit-Max` headers of an answer, and its `Retry-After` when given. */
  headers(used: number, retryAfter?: string): Record<string, string> {
    const figures = { 'x-rate-limit-used': String(used), 'x-rate-limit-max': String(this.#max) };
    return retryAfter ? { ...figures, 'retry-after': retryAfter } : figures;
  }
}
