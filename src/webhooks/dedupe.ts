/**
 * Webhooks: remember which calls were already handled, by event id, so that retries and duplicate
 * deliveries are processed once.
 */
import { describe, isObject } from '../core/describe.js';
import type { WebhookDeduplicator } from './types.js';

/** One remembered id: its state, when it entered it, the claim's token, its neighbours by recency. */
interface Entry {
  readonly id: string;
  readonly state: 'done' | 'in_progress';
  readonly at: number;
  readonly token: string | undefined;
  older: Entry;
  newer: Entry;
}

/**
 * A {@link WebhookDeduplicator} in process memory: a set of event ids, the least recently recorded dropped first, bounded
 * by `maxEntries`, each remembered for `ttlMs` after it was completed (a claim in progress for
 * `inProgressTtlMs`). Expired ids are dropped lazily on use (no timer keeps the process alive).
 * Suits a single process; it forgets everything on restart. The default deduplicator of
 * `createWebhookHandler`.
 *
 * @example
 * ```ts
 * const deduplicator = new InMemoryWebhookDeduplicator({ maxEntries: 50_000 });
 * const handler = createWebhookHandler({ secret, deduplicator, on: { restocked } });
 * ```
 */
export class InMemoryWebhookDeduplicator implements WebhookDeduplicator {
  readonly #ttlMs: number;
  readonly #inProgressTtlMs: number;
  readonly #now: () => number;
  readonly #maxEntries: number;
  /** id → entry; the entries are also linked in a ring by recency, through {@link #ring}. */
  readonly #entries = new Map<string, Entry>();
  /** The ring's anchor, which never expires: `newer` is the oldest entry, `older` the newest. */
  readonly #ring = { at: Number.POSITIVE_INFINITY } as Entry;

  /**
   * @throws {RangeError} when `maxEntries` is not an integer >= 1, or `ttlMs` or `inProgressTtlMs`
   * is not a number > 0 (a value of another type included; `undefined` and `null` give the default).
   * @throws {TypeError} when the options are not an object (or `undefined`), or `now` is not a function.
   */
  constructor(
    options: {
      /** How many ids to remember; the least recently recorded is forgotten first. Default 10 000. */
      maxEntries?: number;
      /** How long an id is remembered after it was completed, in milliseconds. Default 24 hours. */
      ttlMs?: number;
      /**
       * How long a {@link InMemoryWebhookDeduplicator.claim | claim} stays in progress without being
       * completed or released, in milliseconds; after that the id can be claimed again. Default 5 minutes.
       */
      inProgressTtlMs?: number;
      /** Clock in milliseconds (for tests). Default `Date.now`. */
      now?: () => number;
    } = {},
  ) {
    if (!isObject(options)) {
      throw new TypeError(`InMemoryWebhookDeduplicator options must be an object, got ${describe(options)}`);
    }
    const positive = (name: keyof typeof options, fallback: number, integer = false): number => {
      const value = options[name] ?? fallback;
      if (typeof value === 'number' && value > 0 && (!integer || Number.isInteger(value))) return value;
      const got = typeof value === 'number' ? value : describe(value);
      throw new RangeError(`${name} must be ${integer ? 'an integer >= 1' : 'a number > 0'}, got ${got}`);
    };
    this.#maxEntries = positive('maxEntries', 10_000, true);
    this.#ttlMs = positive('ttlMs', 24 * 60 * 60 * 1000);
    this.#inProgressTtlMs = positive('inProgressTtlMs', 5 * 60 * 1000);
    this.#now = options.now ?? Date.now;
    if (typeof this.#now !== 'function') {
      throw new TypeError(`now must be a function returning milliseconds, got ${describe(this.#now)}`);
    }
    this.clear();
  }

  #expired(entry: Entry, now: number): boolean {
    return now - entry.at >= (entry.state === 'done' ? this.#ttlMs : this.#inProgressTtlMs);
  }

  #drop(entry: Entry): void {
    entry.older.newer = entry.newer;
    entry.newer.older = entry.older;
    this.#entries.delete(entry.id);
  }

  /** The live entry of `id`, after dropping the expired entries at the oldest end and its own. */
  #lookup(id: string, now: number): Entry | undefined {
    while (this.#expired(this.#ring.newer, now)) this.#drop(this.#ring.newer);
    const entry = this.#entries.get(id);
    if (entry && this.#expired(entry, now)) this.#drop(entry);
    else return entry;
  }

  /** Records `id` in `state` from `now` (with the claim's `token`), as the most recently used. */
  #record(id: string, state: Entry['state'], now: number, token?: string): void {
    const old = this.#entries.get(id);
    if (old) this.#drop(old);
    else if (this.#entries.size >= this.#maxEntries) this.#drop(this.#ring.newer);
    const ring = this.#ring;
    const entry: Entry = { id, state, at: now, token, older: ring.older, newer: ring };
    ring.older = ring.older.newer = entry;
    this.#entries.set(id, entry);
  }

  /**
   * Claims `id` under `token`: `done` when it was completed within `ttlMs`, `in_progress`
   * when it was claimed within `inProgressTtlMs` and neither completed nor released, otherwise `new`
   * (and it is now claimed under `token`, at once: the promise only carries the answer).
   */
  async claim(id: string, token: string): Promise<'new' | 'in_progress' | 'done'> {
    const now = this.#now();
    const entry = this.#lookup(id, now);
    if (entry) return entry.state;
    this.#record(id, 'in_progress', now, token);
    return 'new';
  }

  /**
   * Records `id` as done (handled) now, whatever holds it (an expired claim, another live claim):
   * later claims of it are `done` for `ttlMs`.
   */
  complete(id: string, _token: string): void {
    this.#record(id, 'done', this.#now());
  }

  /**
   * Drops the claim of `id` held under `token` (a done id, or another claim, stays). Returns whether
   * it dropped one.
   */
  release(id: string, token: string): boolean {
    const entry = this.#entries.get(id);
    if (entry?.state !== 'in_progress' || entry.token !== token) return false;
    this.#drop(entry);
    return true;
  }

  /** Forgets every id. */
  clear(): void {
    this.#entries.clear();
    this.#ring.older = this.#ring.newer = this.#ring;
  }

  /** How many ids are remembered (expired ones included until they are dropped). */
  get size(): number {
    return this.#entries.size;
  }
}
