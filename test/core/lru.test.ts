/**
 * LruMap: capacity, eviction order, recency on get and set (not on peek), and evictWhile.
 */
import { describe, expect, it } from 'vitest';
import { LruMap } from '../../src/core/lru.js';

/** An LruMap filled with the given keys in order, each mapped to its index. */
function filled(capacity: number, keys: string[]): LruMap<string, number> {
  const lru = new LruMap<string, number>(capacity);
  for (const [i, key] of keys.entries()) lru.set(key, i);
  return lru;
}

describe('LruMap', () => {
  it('stores and reads values like a map', () => {
    const lru = new LruMap<string, number>(3);
    expect(lru.get('a')).toBeUndefined();
    expect(lru.set('a', 1)).toBe(lru);
    expect(lru.get('a')).toBe(1);
    expect(lru.peek('a')).toBe(1);
    expect(lru.size).toBe(1);
    expect(lru.capacity).toBe(3);
  });

  it('evicts the least recently set key beyond capacity, one at a time', () => {
    const lru = filled(3, ['a', 'b', 'c']);
    lru.set('d', 3);
    expect(lru.size).toBe(3);
    expect([...lru.keys()]).toEqual(['b', 'c', 'd']);
    expect(lru.peek('a')).toBeUndefined();
    lru.set('e', 4);
    expect([...lru.keys()]).toEqual(['c', 'd', 'e']);
  });

  it('get makes a key the most recently used, so another is evicted', () => {
    const lru = filled(3, ['a', 'b', 'c']);
    expect(lru.get('a')).toBe(0);
    expect([...lru.keys()]).toEqual(['b', 'c', 'a']);
    lru.set('d', 3);
    expect([...lru.keys()]).toEqual(['c', 'a', 'd']);
    expect(lru.peek('b')).toBeUndefined();
  });

  it('peek reads without changing the order', () => {
    const lru = filled(3, ['a', 'b', 'c']);
    expect(lru.peek('a')).toBe(0);
    lru.set('d', 3);
    expect(lru.peek('a')).toBeUndefined();
    expect([...lru.keys()]).toEqual(['b', 'c', 'd']);
  });

  it('get of a missing key changes nothing', () => {
    const lru = filled(2, ['a', 'b']);
    expect(lru.get('x')).toBeUndefined();
    expect([...lru.keys()]).toEqual(['a', 'b']);
  });

  it('setting an existing key replaces its value, moves it last, and evicts nothing', () => {
    const lru = filled(3, ['a', 'b', 'c']);
    lru.set('a', 10);
    expect(lru.size).toBe(3);
    expect([...lru.keys()]).toEqual(['b', 'c', 'a']);
    expect(lru.peek('a')).toBe(10);
  });

  it('keeps a stored undefined value and moves it on get', () => {
    const lru = new LruMap<string, number | undefined>(2);
    lru.set('a', undefined).set('b', 1);
    expect(lru.get('a')).toBeUndefined();
    expect([...lru.keys()]).toEqual(['b', 'a']);
  });

  it('capacity 1 holds only the last key set', () => {
    const lru = new LruMap<string, number>(1);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.size).toBe(1);
    expect(lru.peek('a')).toBeUndefined();
    expect(lru.get('b')).toBe(2);
    lru.set('b', 3);
    expect(lru.size).toBe(1);
    expect(lru.get('b')).toBe(3);
  });

  it('stays bounded under many keys, keeping the most recent', () => {
    const lru = new LruMap<number, number>(100);
    for (let i = 0; i < 10_000; i++) lru.set(i, i);
    expect(lru.size).toBe(100);
    expect([...lru.keys()]).toEqual(Array.from({ length: 100 }, (_, i) => 9_900 + i));
  });

  it('delete and clear remove entries and free room', () => {
    const lru = filled(2, ['a', 'b']);
    expect(lru.delete('a')).toBe(true);
    expect(lru.delete('a')).toBe(false);
    lru.set('c', 2);
    expect([...lru.keys()]).toEqual(['b', 'c']);
    lru.clear();
    expect(lru.size).toBe(0);
    expect(lru.get('b')).toBeUndefined();
  });

  it('evictWhile removes from the least recently used end and stops at the first kept entry', () => {
    const lru = filled(5, ['a', 'b', 'c', 'd', 'e']);
    lru.get('a'); // order: b c d e a
    const seen: string[] = [];
    const removed = lru.evictWhile((value, key) => {
      seen.push(key);
      return value !== 3; // stops at d, although a (0) would match
    });
    expect(removed).toBe(2);
    expect(seen).toEqual(['b', 'c', 'd']);
    expect([...lru.keys()]).toEqual(['d', 'e', 'a']);
  });

  it('evictWhile can empty the map, and removes nothing when the first entry is kept', () => {
    const lru = filled(3, ['a', 'b', 'c']);
    expect(lru.evictWhile(() => false)).toBe(0);
    expect(lru.size).toBe(3);
    expect(lru.evictWhile(() => true)).toBe(3);
    expect(lru.size).toBe(0);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects capacity %s', (capacity) => {
    expect(() => new LruMap(capacity)).toThrow(RangeError);
  });
});
