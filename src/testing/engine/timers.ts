/**
 * The mock's timers, tracked so that none outlives `close()` or `reset()`: response delays (held
 * open while a request waits, cut short on cancel) and background waits (webhook retry backoff).
 *
 * Every timer is ref'd: a script that awaits `api.flushWebhooks()` at the top level must not see
 * its process exit before the retry fires. They are bounded (latency, and the retry policy's
 * backoff), and `reset()` / `close()` cancel them, so they never keep a process alive for long.
 */

import { MAX_TIMER_MS } from '../../core/headers.js';

/** The longest wait a timer can make (2^31 - 1 ms, about 24.8 days): Node turns a longer one into 1 ms. */
export const MAX_DELAY_MS = MAX_TIMER_MS;

interface Pending {
  timer: ReturnType<typeof setTimeout>;
  resolve: () => void;
}

/** Tracks the timers of one mock. */
export class Timers {
  readonly #delays = new Set<Pending>();
  readonly #background = new Set<Pending>();

  /** Waits `ms` before a response; resolves at once when `ms` is 0 or on {@link cancelDelays}. */
  delay(ms: number): Promise<void> {
    return ms > 0 ? this.#wait(ms, this.#delays) : Promise.resolve();
  }

  /** Waits `ms` in the background; resolves early on {@link cancelBackground} or {@link cancelAll}. */
  background(ms: number): Promise<void> {
    return this.#wait(ms, this.#background);
  }

  /** Ends every response delay now. */
  cancelDelays(): void {
    Timers.#cancel(this.#delays);
  }

  /** Ends every background wait now. */
  cancelBackground(): void {
    Timers.#cancel(this.#background);
  }

  /** Ends every delay and background wait now. */
  cancelAll(): void {
    this.cancelDelays();
    this.cancelBackground();
  }

  static #cancel(set: Set<Pending>): void {
    for (const pending of set) {
      clearTimeout(pending.timer);
      pending.resolve();
    }
    set.clear();
  }

  #wait(ms: number, set: Set<Pending>): Promise<void> {
    return new Promise<void>((resolve) => {
      const pending: Pending = {
        resolve,
        timer: setTimeout(
          () => {
            set.delete(pending);
            resolve();
          },
          // Options are held to MAX_DELAY_MS; a computed wait (doubled backoff) is capped, never wrapped.
          Math.min(ms, MAX_DELAY_MS),
        ),
      };
      set.add(pending);
    });
  }
}
