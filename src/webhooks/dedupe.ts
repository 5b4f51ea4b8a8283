/**
 * Webhooks: remember which calls were already handled, by event id, so that retries and duplicate
 * deliveries are processed once.
 */
import { LruMap } from '../core/lru.js';

/**
 * Remembers which webhook calls were already handled, by event id (`event.id`, the
 * `x-service-event-id` header; retries of one call carry the same id).
 *
 * Deliveries are neither ordered nor exactly-once, and the signature has no timestamp, so a
 * recorded call can also be replayed: process each id once, and also ignore payloads older than
 * what you already hold for the shipment (compare with the status you stored, or re-read the
 * shipment from the API).
 *
 * Implement it over a shared store when several processes receive webhooks (e.g. Redis
 * `SET id 1 NX EX 86400` → seen when the reply is not `OK`, or an insert into a table with a unique
 * key on the event id).
 */
export interface WebhookDeduplicator {
  /**
   * Returns `true` when `id` was already seen (a duplicate: skip it), `false` when it is new; in both
   * cases records it as seen.
   */
  seen(id: string): Promise<boolean> | boolean;
  /**
   * Optional: forgets `id`, so that the provider's retry of a call whose handling failed is processed
   * instead of being skipped as a duplicate. Its result is ignored (a promise is awaited).
   */
  forget?(id: string): unknown;
}

/** Options of {@link InMemoryWebhookDeduplicator}. */
export interface InMemoryWebhookDeduplicatorOptions {
  /** How many ids to remember; the least recently seen is forgotten first. Default 10 000. */
  maxEntries?: number;
  /** How long an id is remembered after it was last seen, in milliseconds. Default 24 hours. */
  ttlMs?: number;
  /** Clock in milliseconds (for tests). Default `Date.now`. */
  now?: () => number;
}

/**
 * A {@link WebhookDeduplicator} in process memory: a least-recently-used set of event ids, bounded
 * by `maxEntries`, each remembered for `ttlMs` after it was last seen. Expired ids are dropped
 * lazily on use (no timer keeps the process alive). Suits a single process; it forgets everything
 * on restart.
 *
 * If handling an event fails, call {@link InMemoryWebhookDeduplicator.forget | forget(id)} and
 * answer with a 5xx status, so that the provider's retry is processed.
 *
 * @example
 * ```ts
 * const dedup = new InMemoryWebhookDeduplicator();
 * const event = await verifyWebhook({ body, headers, secret });
 * if (await dedup.seen(event.id)) return new Response(null, { status: 200 }); // a retry: already done
 * try {
 *   await handle(event.data);
 * } catch (err) {
 *   dedup.forget(event.id);
 *   return new Response(null, { status: 500 });
 * }
 * return new Response(null, { status: 200 });
 * ```
 */
export class InMemoryWebhookDeduplicator implements WebhookDeduplicator {
  readonly #ttlMs: number;
  readonly #now: () => number;
  /** id → time last seen; least recently seen first. */
  readonly #entries: LruMap<string, number>;

  /** @throws {RangeError} when `maxEntries` is not an integer >= 1 or `ttlMs` is not > 0. */
  constructor(options: InMemoryWebhookDeduplicatorOptions = {}) {
    const maxEntries = options.maxEntries ?? 10_000;
    const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be an integer >= 1, got ${maxEntries}`);
    }
    if (!(ttlMs > 0)) throw new RangeError(`ttlMs must be > 0, got ${ttlMs}`);
    this.#entries = new LruMap(maxEntries);
    this.#ttlMs = ttlMs;
    this.#now = options.now ?? Date.now;
  }

  /** Returns `true` when `id` was seen within the last `ttlMs`; records it as seen now. */
  seen(id: string): boolean {
    const now = this.#now();
    // Drop expired ids from the least recently seen end; stop at the first live one.
    this.#entries.evictWhile((last) => !(now - last < this.#ttlMs));
    const last = this.#entries.peek(id);
    const duplicate = last !== undefined && now - last < this.#ttlMs;
    this.#entries.set(id, now);
    return duplicate;
  }

  /** Forgets `id` (e.g. after handling it failed, so that a retry is processed). Returns whether it was known. */
  forget(id: string): boolean {
    return this.#entries.delete(id);
  }

  /** Forgets every id. */
  clear(): void {
    this.#entries.clear();
  }

  /** How many ids are remembered (expired ones included until they are dropped). */
  get size(): number {
    return this.#entries.size;
  }
}
