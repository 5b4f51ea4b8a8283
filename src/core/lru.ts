/**
 * A bounded map that forgets its least recently used entry first (an LRU cache), over a plain `Map`.
 */

/**
 * A map of at most `capacity` entries: setting a new key when it is full evicts the least recently
 * used entry. {@link LruMap.get | get} and {@link LruMap.set | set} make a key the most recently
 * used; {@link LruMap.peek | peek} reads without doing so. Iteration ({@link LruMap.keys | keys})
 * goes from the least to the most recently used.
 *
 * @example
 * ```ts
 * const cache = new LruMap<string, number>(2);
 * cache.set('a', 1).set('b', 2);
 * cache.get('a'); // 1: 'a' is now the most recently used
 * cache.set('c', 3); // evicts 'b'
 * ```
 */
export class LruMap<K, V> {
  /** The most entries the map holds. */
  readonly capacity: number;
  /** Map insertion order is the use order: least recently used first. */
  readonly #entries = new Map<K, V>();

  /** @throws {RangeError} when `capacity` is not an integer >= 1. */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity must be an integer >= 1, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /** How many entries the map holds. */
  get size(): number {
    return this.#entries.size;
  }

  /** The value of `key`, made the most recently used; `undefined` when absent. */
  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** The value of `key` without changing its recency; `undefined` when absent. */
  peek(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /**
   * Sets `key` to `value` and makes it the most recently used; when that takes the map beyond its
   * capacity, evicts the least recently used entry.
   */
  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    return this;
  }

  /** Removes `key`; returns whether it was present. */
  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  /** Removes every entry. */
  clear(): void {
    this.#entries.clear();
  }

  /**
   * Removes entries from the least recently used end while `predicate` holds, stopping at the first
   * entry for which it does not (e.g. to drop expired entries when values are times last used).
   * Returns how many were removed.
   */
  evictWhile(predicate: (value: V, key: K) => boolean): number {
    let removed = 0;
    for (const [key, value] of this.#entries) {
      if (!predicate(value, key)) break;
      this.#entries.delete(key);
      removed++;
    }
    return removed;
  }

  /** The keys, from the least to the most recently used. */
  keys(): IterableIterator<K> {
    return this.#entries.keys();
  }
}
