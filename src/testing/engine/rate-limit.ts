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

/** The verdict on one request. */
export interface RateVerdict {
  /** Whether the request may go on. */
  allowed: boolean;
  /** Requests counted in the window (this one included when allowed). */
  used: number;
  /** When refused: milliseconds until a slot frees up. */
  retryAfterMs: number;
}

/** Times of the allowed requests of one token, oldest first, from `head` on. */
interface Window {
  times: number[];
  head: number;
}

/** A sliding-window limiter keyed by token. With `enforce: false` it only counts. */
export class RateLimiter {
  readonly max: number;
  readonly windowMs: number;
  readonly enforce: boolean;
  readonly #windows = new Map<string, Window>();

  constructor(max: number, windowMs: number, enforce: boolean) {
    this.max = max;
    this.windowMs = windowMs;
    this.enforce = enforce;
  }

  /** Counts a request of `key` at `nowMs` (unless refused). */
  hit(key: string, nowMs: number): RateVerdict {
    const window = this.#prune(key, nowMs);
    const used = window.times.length - window.head;
    if (this.enforce && used >= this.max) {
      const oldest = window.times[window.head]!;
      return { allowed: false, used, retryAfterMs: Math.max(1, oldest + this.windowMs - nowMs) };
    }
    window.times.push(nowMs);
    return { allowed: true, used: used + 1, retryAfterMs: 0 };
  }

  /** Requests of `key` counted in the window at `nowMs`, without counting one more. */
  used(key: string, nowMs: number): number {
    const window = this.#prune(key, nowMs);
    return window.times.length - window.head;
  }

  #prune(key: string, nowMs: number): Window {
    const window = this.#windows.get(key) ?? { times: [], head: 0 };
    this.#windows.set(key, window);
    const cutoff = nowMs - this.windowMs;
    while (window.head < window.times.length && window.times[window.head]! <= cutoff) window.head += 1;
    if (window.head > 1024 && window.head * 2 > window.times.length) {
      window.times = window.times.slice(window.head);
      window.head = 0;
    }
    return window;
  }
}

/** The `X-Rate-Limit-Used` / `X-Rate-Limit-Max` headers of an answer. */
export function rateLimitHeaders(limiter: RateLimiter, used: number): Record<string, string> {
  return { 'x-rate-limit-used': String(used), 'x-rate-limit-max': String(limiter.max) };
}

/** `Retry-After` in seconds with one decimal, rounded up (e.g. `3.2`), at least `0.1`. */
export function retryAfterSeconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 100)) / 10);
}
