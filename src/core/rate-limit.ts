/**
 * Client-side rate limiter: at most `requests` request starts in any window of `perMs`, shared by
 * every request of a client (pagination, bulk upserts, retries). A sliding log rather than a
 * refilling bucket, so it never sends more than the server allows whether the server counts in
 * fixed or sliding windows.
 */
import { APIUserAbortError } from './errors.js';
import { readRateLimit } from './headers.js';
import type { RateLimitOptions } from './options.js';
import { sleep } from './sleep.js';

/**
 * Why a request waits for the limiter: `'window'` (this client's own count of the last `perMs` is
 * full) or `'server'` (a response said the server's budget is spent, see {@link RateLimiter.exhausted}).
 */
export type RateLimitWaitCause = 'window' | 'server';

/** Told, before a request starts waiting for a slot, how long the wait looks (ms) and why. */
export type RateLimitWaitHandler = (delayMs: number, cause: RateLimitWaitCause) => void;

/** The limiter itself: one per client, shared by all its requests. @internal */
export class RateLimiter {
  /** Requests allowed per window. */
  readonly requests: number;
  /** The window, in milliseconds. */
  readonly perMs: number;
  /** Start times of the last `requests` requests (a ring; -Infinity = free slot). */
  readonly #starts: Float64Array;
  #next = 0;
  /** Until when (ms since the epoch) the server's spent budget holds every slot; 0 when it does not. */
  #serverPauseEnds = 0;
  /** Reservations are granted in order: each acquire waits for the previous one. */
  #queue: Promise<void> = Promise.resolve();

  constructor(options: RateLimitOptions) {
    this.requests = options.requests;
    this.perMs = options.perMs;
    this.#starts = new Float64Array(options.requests).fill(Number.NEGATIVE_INFINITY);
  }

  /** Milliseconds until a slot is free (0 when one is free now). */
  delay(now = Date.now()): number {
    return Math.max(0, this.#starts[this.#next]! + this.perMs - now);
  }

  /**
   * Waits for a slot and takes it. Rejects with `APIUserAbortError` if `signal` aborts first.
   * Resolves with `done`, to call when the request's answer (or failure) is in: the slot then
   * counts from that moment, the latest the server can have counted the request, so latency
   * jitter can never squeeze one request too many into the server's window. `onWait` is told,
   * once, when the request has to wait (how long it looks and why), before the wait starts.
   */
  acquire(signal?: AbortSignal, onWait?: RateLimitWaitHandler): Promise<() => void> {
    const turn = this.#queue.then(() => this.#take(signal, onWait));
    // The next caller waits for this one to be granted (or to give up), never for its request.
    this.#queue = turn.then(
      () => {},
      () => {},
    );
    return turn;
  }

  async #take(
    signal: AbortSignal | undefined,
    onWait: RateLimitWaitHandler | undefined,
  ): Promise<() => void> {
    for (let told = !onWait; ; ) {
      if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
      const now = Date.now();
      const wait = this.delay(now);
      if (wait === 0) break;
      if (!told) {
        told = true;
        onWait?.(wait, now < this.#serverPauseEnds ? 'server' : 'window');
      }
      await sleep(wait, signal);
    }
    const slot = this.#next;
    this.#starts[slot] = Date.now();
    this.#next = (slot + 1) % this.requests;
    // Only ever moves a slot later (if the slot was reused meanwhile, that is merely cautious).
    return () => {
      this.#starts[slot] = Math.max(this.#starts[slot]!, Date.now());
    };
  }

  /**
   * Takes the server's word (`X-Rate-Limit-Used` >= `X-Rate-Limit-Max`): the budget is spent, so
   * every slot counts as used now and the next request waits a full window.
   */
  exhausted(now = Date.now()): void {
    this.#starts.fill(now);
    this.#serverPauseEnds = now + this.perMs;
  }

  /** Why a request waits, for the log line: the reason in words and as a field value. */
  waitCause(cause: RateLimitWaitCause): { why: string; reason: 'server_rate_limit' | 'client_rate_limit' } {
    if (cause === 'server') {
      const why = 'the server reported its rate limit spent (X-Rate-Limit-Used reached X-Rate-Limit-Max)';
      return { why, reason: 'server_rate_limit' };
    }
    const limit = `${this.requests} request${this.requests === 1 ? '' : 's'} per ${this.perMs} ms`;
    return {
      why: `the client-side rate limit (rateLimit: ${limit}) is reached`,
      reason: 'client_rate_limit',
    };
  }

  /** Reads a response's rate-limit headers: a spent budget (`used >= max`) pauses for a window. */
  observe(headers: Headers): void {
    const { used, max } = readRateLimit(headers);
    if (used !== undefined && max !== undefined && used >= max) this.exhausted();
  }
}
