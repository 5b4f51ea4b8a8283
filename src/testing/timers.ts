/**
 * The mock's timers, tracked so that none outlives `close()` or `reset()`: response delays (held
 * open while a request waits, cut short on cancel) and background waits (webhook retries; unref'd,
 * so they never keep a process alive).
 */

interface Pending {
  timer: ReturnType<typeof setTimeout>;
  resolve: () => void;
}

function unref(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}

/** Tracks the timers of one mock. */
export class Timers {
  readonly #delays = new Set<Pending>();
  readonly #background = new Set<Pending>();

  /** Waits `ms` before a response; resolves at once when `ms` is 0 or on {@link cancelDelays}. */
  delay(ms: number): Promise<void> {
    return ms > 0 ? this.#wait(ms, this.#delays, false) : Promise.resolve();
  }

  /** Waits `ms` in the background (unref'd); resolves early on {@link cancelAll}. */
  background(ms: number): Promise<void> {
    return this.#wait(ms, this.#background, true);
  }

  /** Ends every response delay now. */
  cancelDelays(): void {
    for (const pending of this.#delays) {
      clearTimeout(pending.timer);
      pending.resolve();
    }
    this.#delays.clear();
  }

  /** Ends every delay and background wait now. */
  cancelAll(): void {
    this.cancelDelays();
    for (const pending of this.#background) {
      clearTimeout(pending.timer);
      pending.resolve();
    }
    this.#background.clear();
  }

  #wait(ms: number, set: Set<Pending>, background: boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      const pending: Pending = {
        resolve,
        timer: setTimeout(() => {
          set.delete(pending);
          resolve();
        }, ms),
      };
      if (background) unref(pending.timer);
      set.add(pending);
    });
  }
}
