/**
 * InMemoryWebhookDeduplicator: new then done, claims and their tokens, LRU bound, TTL on an injected
 * clock, clear.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryWebhookDeduplicator } from '../../src/webhooks/index.js';

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** Handles `id` as createWebhookHandler does: claims it, and completes it when new. Returns the claim. */
async function handle(dedup: InMemoryWebhookDeduplicator, id: string) {
  const state = await dedup.claim(id, 't');
  if (state === 'new') dedup.complete(id, 't');
  return state;
}

describe('InMemoryWebhookDeduplicator', () => {
  it('claims an id as new once, then as done', async () => {
    const dedup = new InMemoryWebhookDeduplicator();
    expect(await handle(dedup, 'a')).toBe('new');
    expect(await handle(dedup, 'a')).toBe('done');
    expect(await handle(dedup, 'a')).toBe('done');
    expect(await handle(dedup, 'b')).toBe('new');
    expect(dedup.size).toBe(2);
  });

  it('evicts the least recently recorded id beyond maxEntries', async () => {
    const dedup = new InMemoryWebhookDeduplicator({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c']) expect(await handle(dedup, id)).toBe('new');
    dedup.complete('a', 't'); // a is now the most recently recorded: b is the oldest
    expect(await handle(dedup, 'd')).toBe('new'); // evicts b
    expect(dedup.size).toBe(3);
    expect(await handle(dedup, 'a')).toBe('done');
    expect(await handle(dedup, 'c')).toBe('done');
    expect(await handle(dedup, 'd')).toBe('done');
    expect(await handle(dedup, 'b')).toBe('new'); // forgotten; recording it again evicts c (the oldest now)
    expect(await handle(dedup, 'c')).toBe('new');
  });

  it('stays bounded under many ids', async () => {
    const dedup = new InMemoryWebhookDeduplicator({ maxEntries: 100 });
    for (let i = 0; i < 10_000; i++) await handle(dedup, `id-${i}`);
    expect(dedup.size).toBe(100);
    expect(await handle(dedup, 'id-9999')).toBe('done');
    expect(await handle(dedup, 'id-9899')).toBe('new');
  });

  it('defaults to 10 000 entries', async () => {
    const dedup = new InMemoryWebhookDeduplicator();
    for (let i = 0; i < 10_001; i++) await handle(dedup, `id-${i}`);
    expect(dedup.size).toBe(10_000);
    expect(await handle(dedup, 'id-1')).toBe('done');
    expect(await handle(dedup, 'id-0')).toBe('new');
  });

  it('forgets a done id ttlMs after it was completed (injected clock)', async () => {
    const clock = manualClock();
    const dedup = new InMemoryWebhookDeduplicator({ ttlMs: 1000, now: clock.now });
    expect(await handle(dedup, 'a')).toBe('new');
    clock.advance(999);
    expect(await handle(dedup, 'a')).toBe('done');
    dedup.complete('a', 't'); // completed again: remembered for another ttlMs from now
    clock.advance(999);
    expect(await handle(dedup, 'a')).toBe('done');
    clock.advance(1);
    expect(await handle(dedup, 'a')).toBe('new');
  });

  it('defaults to a 24-hour ttl', async () => {
    const clock = manualClock();
    const dedup = new InMemoryWebhookDeduplicator({ now: clock.now });
    await handle(dedup, 'a');
    clock.advance(24 * 60 * 60 * 1000 - 1);
    await handle(dedup, 'b');
    expect(await handle(dedup, 'a')).toBe('done');
    clock.advance(1);
    expect(await handle(dedup, 'a')).toBe('new');
  });

  it('drops expired ids lazily, without timers', async () => {
    const clock = manualClock();
    const dedup = new InMemoryWebhookDeduplicator({ ttlMs: 100, now: clock.now });
    for (let i = 0; i < 50; i++) await handle(dedup, `old-${i}`);
    clock.advance(60);
    for (let i = 0; i < 5; i++) await handle(dedup, `young-${i}`);
    expect(dedup.size).toBe(55); // nothing expired yet
    clock.advance(50); // the old ones are 110 ms old, the young ones 50 ms
    expect(await handle(dedup, 'new')).toBe('new');
    expect(dedup.size).toBe(6);
    expect(await handle(dedup, 'young-0')).toBe('done');
    expect(await handle(dedup, 'old-0')).toBe('new');
  });

  it('clear() forgets every id', async () => {
    const dedup = new InMemoryWebhookDeduplicator();
    await handle(dedup, 'a');
    await handle(dedup, 'b');
    dedup.clear();
    expect(dedup.size).toBe(0);
    expect(await handle(dedup, 'b')).toBe('new');
  });

  it.each([
    [{ maxEntries: 0 }],
    [{ maxEntries: 1.5 }],
    [{ maxEntries: Number.NaN }],
    [{ ttlMs: 0 }],
    [{ ttlMs: -1 }],
    [{ ttlMs: Number.NaN }],
    [{ inProgressTtlMs: 0 }],
    [{ inProgressTtlMs: Number.NaN }],
  ])('rejects invalid options %j', (options) => {
    expect(() => new InMemoryWebhookDeduplicator(options)).toThrow(RangeError);
  });
});

describe('InMemoryWebhookDeduplicator: two phases (claim, complete, release) with tokens', () => {
  it('claim is new once, in_progress while claimed, done once completed', async () => {
    const dedup = new InMemoryWebhookDeduplicator();
    expect(await dedup.claim('a', 't1')).toBe('new');
    expect(await dedup.claim('a', 't2')).toBe('in_progress');
    dedup.complete('a', 't1');
    expect(await dedup.claim('a', 't3')).toBe('done');
    expect(await dedup.claim('b', 't4')).toBe('new');
  });

  it("release under the claim's token drops it (the retry can claim it), never a done id", async () => {
    const dedup = new InMemoryWebhookDeduplicator();
    expect(await dedup.claim('a', 't1')).toBe('new');
    expect(dedup.release('a', 't1')).toBe(true);
    expect(await dedup.claim('a', 't2')).toBe('new');
    dedup.complete('a', 't2');
    expect(dedup.release('a', 't2')).toBe(false);
    expect(await dedup.claim('a', 't3')).toBe('done');
    expect(await handle(dedup, 'b')).toBe('new');
    expect(dedup.release('b', 't')).toBe(false);
    expect(await dedup.claim('b', 't4')).toBe('done');
  });

  it('release under another token leaves the claim as it is', async () => {
    const dedup = new InMemoryWebhookDeduplicator();
    expect(await dedup.claim('a', 'mine')).toBe('new');
    expect(dedup.release('a', 'theirs')).toBe(false);
    expect(await dedup.claim('a', 'theirs')).toBe('in_progress');
    expect(dedup.release('a', 'mine')).toBe(true);
    expect(await dedup.claim('a', 'next')).toBe('new');
  });

  it('an expired claim claimed again belongs to the new token: the old attempt cannot release it', async () => {
    const clock = manualClock();
    const dedup = new InMemoryWebhookDeduplicator({ inProgressTtlMs: 1000, now: clock.now });
    expect(await dedup.claim('a', 'slow')).toBe('new');
    clock.advance(1000);
    expect(await dedup.claim('a', 'retry')).toBe('new');
    expect(dedup.release('a', 'slow')).toBe(false);
    expect(await dedup.claim('a', 'other')).toBe('in_progress');
  });

  it('complete after the claim expired records done for ttlMs from then', async () => {
    const clock = manualClock();
    const dedup = new InMemoryWebhookDeduplicator({ inProgressTtlMs: 1000, ttlMs: 60_000, now: clock.now });
    expect(await dedup.claim('a', 't1')).toBe('new');
    clock.advance(5000);
    dedup.complete('a', 't1');
    clock.advance(59_999);
    expect(await dedup.claim('a', 't2')).toBe('done');
    clock.advance(1);
    expect(await dedup.claim('a', 't2')).toBe('new');
  });

  it("complete over another attempt's live claim records done", async () => {
    const clock = manualClock();
    const dedup = new InMemoryWebhookDeduplicator({ inProgressTtlMs: 1000, now: clock.now });
    expect(await dedup.claim('a', 'slow')).toBe('new');
    clock.advance(1000);
    expect(await dedup.claim('a', 'retry')).toBe('new');
    dedup.complete('a', 'slow');
    expect(dedup.release('a', 'retry')).toBe(false);
    expect(await dedup.claim('a', 'third')).toBe('done');
  });

  it('a claim that is neither completed nor released expires after inProgressTtlMs (a crashed process)', async () => {
    const clock = manualClock();
    const dedup = new InMemoryWebhookDeduplicator({ inProgressTtlMs: 1000, ttlMs: 60_000, now: clock.now });
    expect(await dedup.claim('a', 't1')).toBe('new');
    clock.advance(999);
    expect(await dedup.claim('a', 't2')).toBe('in_progress');
    clock.advance(1);
    expect(await dedup.claim('a', 't3')).toBe('new'); // claimed again, by whoever asks now
    dedup.complete('a', 't3');
    clock.advance(59_999);
    expect(await dedup.claim('a', 't4')).toBe('done'); // done lasts ttlMs, not inProgressTtlMs
    clock.advance(1);
    expect(await dedup.claim('a', 't5')).toBe('new');
  });

  it('defaults to a 5-minute in-progress ttl', async () => {
    const clock = manualClock();
    const dedup = new InMemoryWebhookDeduplicator({ now: clock.now });
    await dedup.claim('a', 't1');
    clock.advance(5 * 60 * 1000 - 1);
    expect(await dedup.claim('a', 't2')).toBe('in_progress');
    clock.advance(1);
    expect(await dedup.claim('a', 't3')).toBe('new');
  });

  it('claims count toward maxEntries and are evicted oldest first, like done ids', async () => {
    const dedup = new InMemoryWebhookDeduplicator({ maxEntries: 2 });
    expect(await dedup.claim('a', 't1')).toBe('new');
    expect(await handle(dedup, 'b')).toBe('new');
    dedup.complete('a', 't1'); // a is now the most recently used: b is the oldest
    expect(await dedup.claim('c', 't2')).toBe('new'); // evicts b
    expect(dedup.size).toBe(2);
    expect(await dedup.claim('a', 't3')).toBe('done');
    expect(await dedup.claim('c', 't3')).toBe('in_progress');
    expect(await handle(dedup, 'b')).toBe('new');
  });

  it('stays bounded and correct through 250 000 operations at the default size', async () => {
    const dedup = new InMemoryWebhookDeduplicator();
    for (let i = 0; i < 200_000; i++) await handle(dedup, `id-${i}`);
    expect(dedup.size).toBe(10_000);
    expect(await handle(dedup, 'id-189999')).toBe('new'); // evicted
    expect(await handle(dedup, 'id-199999')).toBe('done');
    for (let i = 0; i < 50_000; i++) {
      const id = `c-${i}`;
      await dedup.claim(id, 't');
      if (i % 2) dedup.complete(id, 't');
      else dedup.release(id, 't');
    }
    expect(dedup.size).toBe(10_000);
    expect(await dedup.claim('c-49999', 'u')).toBe('done');
    expect(await dedup.claim('c-49998', 'u')).toBe('new');
  });
});

describe('InMemoryWebhookDeduplicator: options of the wrong type', () => {
  // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong inputs
  const any = (value: unknown): any => value;

  it.each([
    ['ttlMs', '100'],
    ['ttlMs', true],
    ['ttlMs', [5]],
    ['ttlMs', Symbol('x')],
    ['ttlMs', {}],
    ['inProgressTtlMs', 5n],
    ['inProgressTtlMs', '5'],
    ['inProgressTtlMs', Symbol('x')],
    ['maxEntries', Symbol('x')],
    ['maxEntries', '10'],
    ['maxEntries', 10n],
    ['maxEntries', [10]],
  ])('%s: %s is a RangeError naming the option', (option, value) => {
    expect(() => new InMemoryWebhookDeduplicator(any({ [option]: value }))).toThrow(RangeError);
    expect(() => new InMemoryWebhookDeduplicator(any({ [option]: value }))).toThrow(
      new RegExp(`^${option} `),
    );
  });

  it.each([['x'], [5], [{}]])('now: %j is a TypeError naming the option', (now) => {
    expect(() => new InMemoryWebhookDeduplicator(any({ now }))).toThrow(TypeError);
    expect(() => new InMemoryWebhookDeduplicator(any({ now }))).toThrow(/^now must be a function/);
  });

  it.each([[null], [5], ['x'], [true]])('options %j: a TypeError, not a crash', (options) => {
    expect(() => new InMemoryWebhookDeduplicator(any(options))).toThrow(
      /^InMemoryWebhookDeduplicator options must be an object/,
    );
    expect(() => new InMemoryWebhookDeduplicator(any(options))).toThrow(TypeError);
  });

  it('undefined and null values of each option are the defaults; an explicit now is used', async () => {
    let t = 1_000;
    const dedup = new InMemoryWebhookDeduplicator(
      any({ maxEntries: null, ttlMs: undefined, inProgressTtlMs: null, now: () => t }),
    );
    expect(await handle(dedup, 'a')).toBe('new');
    t += 24 * 60 * 60 * 1000 - 1;
    expect(await handle(dedup, 'a')).toBe('done');
    expect(await handle(new InMemoryWebhookDeduplicator(undefined), 'a')).toBe('new');
  });
});
