/**
 * Client-side rate limiter: at most `requests` request starts in any window of `perMs`, shared by
 * every request of a client (pagination, bulk upserts, retries). A sliding log rather than a
 * refilling bucket, so it never sends more than the server allows whether the server counts in
 * fixed or sliding windows.
 */
import { aborted, RateLimitStoreError } from './errors.js';
import { MAX_TIMER_MS, readRateLimit } from './headers.js';
import type { RateLimitOptions, RateLimitStore } from './options.js';
import type { Redactor } from './redact.js';

/**
 * Told, before a request starts waiting for a slot, how long the wait looks (ms) and why:
 * `'client_rate_limit'` (this client's own count of the last `perMs` is full) or
 * `'server_rate_limit'` (a response said the server's budget is spent, see {@link RateLimiter.exhausted}).
 */
export type RateLimitWaitHandler = (
  delayMs: number,
  reason: 'server_rate_limit' | 'client_rate_limit',
) => void;

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
  #queue: Promise<unknown> = Promise.resolve();
  /** Where the slots live when several processes share them; else `#starts`. */
  readonly #store: RateLimitStore | undefined;

  constructor(options: RateLimitOptions) {
    this.requests = options.requests;
    this.perMs = options.perMs;
    this.#store = options.store;
    this.#starts = new Float64Array(this.#store ? 1 : options.requests).fill(Number.NEGATIVE_INFINITY);
  }

  /**
   * Waits for a slot and takes it. Rejects with `APIUserAbortError` if `signal` aborts first.
   * Resolves with `done`, to call when the request's answer (or failure) is in: the slot then
   * counts from that moment, the latest the server can have counted the request, so latency
   * jitter can never squeeze one request too many into the server's window. `onWait` is told,
   * once, when the request has to wait (how long it looks and why), before the wait starts.
   *
   * With a store, the store is asked for a slot until it grants one, sleeping as long as it says
   * in between (a full window is waited for, as in memory). A store that rejects, or does not
   * answer one call within `timeoutMs`, fails the request with `RateLimitStoreError` (nothing is
   * sent: never a request past the limit).
   */
  acquire(
    signal?: AbortSignal,
    onWait?: RateLimitWaitHandler,
    timeoutMs = MAX_TIMER_MS,
    redactor?: Redactor,
  ): Promise<() => void> {
    const store = this.#store;
    if (store) {
      // A store orders the requests of every process itself: no queue here, so that a store that
      // hangs holds each request for its own timeout only.
      const slot = crypto.randomUUID();
      const ask = () =>
        this.#ask(() => store.acquire(slot, this.requests, this.perMs), signal, timeoutMs, redactor);
      // The answer is in: the slot counts until `perMs` from now, in every process.
      const done = () => this.#background(() => store.release(slot, this.perMs));
      return this.#wait(signal, onWait, ask).then(() => done);
    }
    const turn = this.#queue.then(async () => {
      // Until the oldest of the last `requests` starts leaves the window.
      await this.#wait(signal, onWait, () => this.#starts[this.#next]! + this.perMs - Date.now());
      const slot = this.#next;
      this.#starts[slot] = Date.now();
      this.#next = (slot + 1) % this.requests;
      // Only ever moves a slot later (if the slot was reused meanwhile, that is merely cautious).
      return () => {
        this.#starts[slot] = Math.max(this.#starts[slot]!, Date.now());
      };
    });
    // The next caller waits for this one to be granted (or to give up), never for its request.
    this.#queue = turn.catch(() => {});
    return turn;
  }

  /** Waits until `next` says no wait is left (0), telling `onWait` of the first wait. */
  async #wait(
    signal: AbortSignal | undefined,
    onWait: RateLimitWaitHandler | undefined,
    next: () => number | Promise<number>,
  ): Promise<void> {
    for (let told = false; ; told = true) {
      if (signal?.aborted) throw aborted(signal);
      const wait = await next();
      if (!(wait > 0)) return;
      const server = Date.now() < this.#serverPauseEnds;
      if (!told) onWait?.(wait, server ? 'server_rate_limit' : 'client_rate_limit');
      await sleep(wait, signal);
    }
  }

  /**
   * One call to the store, bounded by `signal` and `ms`; its failure a `RateLimitStoreError` whose
   * cause is the store's error without the client's secrets. In the `background` (a release or a
   * pause nobody awaits), its timer never keeps the process alive.
   */
  #ask<T>(
    call: () => Promise<T>,
    signal: AbortSignal | undefined,
    ms: number,
    redactor?: Redactor,
    background = false,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const settle = (then: () => void) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        then();
      };
      const onAbort = () => settle(() => reject(aborted(signal)));
      const late = `The rate-limit store did not answer within ${Math.round(ms)} ms (the request's timeout).`;
      const timer = setTimeout(() => settle(() => reject(new RateLimitStoreError(late))), ms);
      if (background) (timer as { unref?: () => void }).unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
      Promise.resolve()
        .then(call)
        .then(
          (value) => settle(() => resolve(value)),
          (error: unknown) => {
            const message = 'The rate-limit store (rateLimit.store) failed; nothing was sent.';
            const cause = redactor ? redactor.cause(error) : error;
            settle(() => reject(new RateLimitStoreError(message, { cause })));
          },
        );
    });
  }

  /** A store call nobody awaits (a release, a pause): bounded by a window, its failure ignored. */
  #background(call: () => Promise<unknown>): void {
    this.#ask(call, undefined, this.perMs, undefined, true).catch(() => {});
  }

  /**
   * Takes the server's word (`X-Rate-Limit-Used` >= `X-Rate-Limit-Max`): the budget is spent, so
   * every slot counts as used now and the next request waits a full window — in every process that
   * shares the store.
   */
  exhausted(now = Date.now()): void {
    this.#starts.fill(now);
    this.#serverPauseEnds = now + this.perMs;
    const store = this.#store;
    if (store) this.#background(() => store.pause(this.perMs));
  }

  /** Reads a response's rate-limit headers: a spent budget (`used >= max`) pauses for a window. */
  observe(headers: Headers): void {
    const { used, max } = readRateLimit(headers);
    if (used !== undefined && max !== undefined && used >= max) this.exhausted();
  }
}

/** Resolves after `ms`, or rejects with `APIUserAbortError` as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(aborted(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
