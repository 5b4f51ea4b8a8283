/**
 * The mock's timers, tracked so that none outlives `close()` or `reset()`: response delays (held
 * open while a request waits) and the webhook retry backoff, all ended at once by
 * {@link Timers.cancelAll}.
 *
 * Every timer is ref'd: a script that awaits `api.flushWebhooks()` at the top level must not see
 * its process exit before the retry fires. They are bounded (latency, and the retry policy's
 * backoff), and `reset()` / `close()` cancel them, so they never keep a process alive for long.
 */

import * as z from 'zod/mini';
import { MAX_TIMER_MS } from '../../core/headers.js';

/** The longest wait a timer can make (2^31 - 1 ms, about 24.8 days): Node turns a longer one into 1 ms. */
export const MAX_DELAY_MS = MAX_TIMER_MS;

/** A delay option: milliseconds from 0 to {@link MAX_DELAY_MS} (never turned into 1 ms). */
export const Delay = z
  .number()
  .check(z.minimum(0), z.maximum(MAX_DELAY_MS, `must be at most ${MAX_DELAY_MS} ms (2^31 - 1)`));

/** Tracks the timers of one mock. */
export class Timers {
  /** The `resolve` of each pending wait, by its timer. */
  readonly #pending = new Map<ReturnType<typeof setTimeout>, () => void>();

  /** Waits `ms`; resolves at once when `ms` is 0, and early on {@link cancelAll}. */
  wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      // Options are held to MAX_DELAY_MS; a computed wait (doubled backoff) is capped, never wrapped.
      const timer = setTimeout(() => this.#end(timer), Math.min(ms, MAX_DELAY_MS));
      this.#pending.set(timer, resolve);
    });
  }

  /** Ends every wait now. */
  cancelAll(): void {
    for (const timer of this.#pending.keys()) this.#end(timer);
  }

  #end(timer: ReturnType<typeof setTimeout>): void {
    clearTimeout(timer);
    this.#pending.get(timer)?.();
    this.#pending.delete(timer);
  }
}
