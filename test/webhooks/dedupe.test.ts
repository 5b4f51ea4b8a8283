/**
 * InMemoryWebhookDeduplicator: new then seen, LRU bound, TTL on an injected clock, forget and clear.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryWebhookDeduplicator, type WebhookDeduplicator } from '../../src/webhooks/index.js';

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

describe('InMemoryWebhookDeduplicator', () => {
  it('reports an id as new once, then as seen', () => {
    const dedup = new InMemoryWebhookDeduplicator();
    expect(dedup.seen('a')).toBe(false);
    expect(dedup.seen('a')).toBe(true);
    expect(dedup.seen('a')).toBe(true);
    expect(dedup.seen('b')).toBe(false);
    expect(dedup.size).toBe(2);
  });

  it('implements WebhookDeduplicator', async () => {
    const dedup: WebhookDeduplicator = new InMemoryWebhookDeduplicator();
    expect(await dedup.seen?.('x')).toBe(false);
    expect(await dedup.seen?.('x')).toBe(true);
  });

  it('evicts the least recently seen id beyond maxEntries', () => {
    const dedup = new InMemoryWebhookDeduplicator({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c']) expect(dedup.seen(id)).toBe(false);
    expect(dedup.seen('a')).toBe(true); // a is now the most recently seen: b is the oldest
    expect(dedup.seen('d')).toBe(false); // evicts b
    expect(dedup.size).toBe(3);
    expect(dedup.seen('a')).toBe(true);
    expect(dedup.seen('c')).toBe(true);
    expect(dedup.seen('d')).toBe(true);
    expect(dedup.seen('b')).toBe(false); // forgotten; seeing it again evicts a (the oldest now)
    expect(dedup.seen('a')).toBe(false);
  });

  it('stays bounded under many ids', () => {
    const dedup = new InMemoryWebhookDeduplicator({ maxEntries: 100 });
    for (let i = 0; i < 10_000; i++) dedup.seen(`id-${i}`);
    expect(dedup.size).toBe(100);
    expect(dedup.seen('id-9999')).toBe(true);
    expect(dedup.seen('id-9899')).toBe(false);
  });

  it('defaults to 10 000 entries', () => {
    const dedup = new InMemoryWebhookDeduplicator();
    for (let i = 0; i < 10_001; i++) dedup.seen(`id-${i}`);
    expect(dedup.size).toBe(10_000);
    expect(dedup.seen('id-1')).toBe(true);
    expect(dedup.seen('id-0')).toBe(false);
  });

  it('forgets an id after ttlMs (injected clock)', () => {
    const clock = manualClock();
    const dedup = new InMemoryWebhookDeduplicator({ ttlMs: 1000, now: clock.now });
    expect(dedup.seen('a')).toBe(false);
    clock.advance(999);
    expect(dedup.seen('a')).toBe(true); // seen again: remembered for another ttlMs from now
    clock.advance(999);
    expect(dedup.seen('a')).toBe(true);
    clock.advance(1000);
    expect(dedup.seen('a')).toBe(false);
  });

  it('defaults to a 24-hour ttl', () => {
    const clock = manualClock();
    const dedup = new InMemoryWebhookDeduplicator({ now: clock.now });
    dedup.seen('a');
    clock.advance(24 * 60 * 60 * 1000 - 1);
    dedup.seen('b');
    expect(dedup.seen('a')).toBe(true);
    clock.advance(24 * 60 * 60 * 1000);
    expect(dedup.seen('a')).toBe(false);
  });

  it('drops expired ids lazily, without timers', () => {
    const clock = manualClock();
    const dedup = new InMemoryWebhookDeduplicator({ ttlMs: 100, now: clock.now });
    for (let i = 0; i < 50; i++) dedup.seen(`old-${i}`);
    clock.advance(60);
    for (let i = 0; i < 5; i++) dedup.seen(`young-${i}`);
    expect(dedup.size).toBe(55); // nothing expired yet
    clock.advance(50); // the old ones are 110 ms old, the young ones 50 ms
    expect(dedup.seen('new')).toBe(false);
    expect(dedup.size).toBe(6);
    expect(dedup.seen('young-0')).toBe(true);
    expect(dedup.seen('old-0')).toBe(false);
  });

  it('forget() lets a failed event be processed on retry; clear() forgets all', () => {
    const dedup = new InMemoryWebhookDeduplicator();
    dedup.seen('a');
    dedup.seen('b');
    expect(dedup.forget('a')).toBe(true);
    expect(dedup.forget('a')).toBe(false);
    expect(dedup.seen('a')).toBe(false);
    dedup.clear();
    expect(dedup.size).toBe(0);
    expect(dedup.seen('b')).toBe(false);
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
    expect(dedup.seen('b')).toBe(false);
    expect(dedup.release('b', 't4')).toBe(false);
    expect(dedup.seen('b')).toBe(true);
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

  it('seen and claim agree: a seen id is done, a claimed id is seen (and stays claimed)', async () => {
    const dedup = new InMemoryWebhookDeduplicator();
    expect(dedup.seen('a')).toBe(false);
    expect(await dedup.claim('a', 't1')).toBe('done');
    expect(await dedup.claim('b', 't2')).toBe('new');
    expect(dedup.seen('b')).toBe(true);
    expect(await dedup.claim('b', 't3')).toBe('in_progress');
    expect(dedup.forget('b')).toBe(true);
    expect(await dedup.claim('b', 't4')).toBe('new');
  });

  it('claims count toward maxEntries and are evicted oldest first, like seen ids', async () => {
    const dedup = new InMemoryWebhookDeduplicator({ maxEntries: 2 });
    expect(await dedup.claim('a', 't1')).toBe('new');
    expect(dedup.seen('b')).toBe(false);
    dedup.complete('a', 't1'); // a is now the most recently used: b is the oldest
    expect(await dedup.claim('c', 't2')).toBe('new'); // evicts b
    expect(dedup.size).toBe(2);
    expect(await dedup.claim('a', 't3')).toBe('done');
    expect(await dedup.claim('c', 't3')).toBe('in_progress');
    expect(dedup.seen('b')).toBe(false);
  });

  it('stays bounded and correct through 250 000 operations at the default size', async () => {
    const dedup = new InMemoryWebhookDeduplicator();
    for (let i = 0; i < 200_000; i++) dedup.seen(`id-${i}`);
    expect(dedup.size).toBe(10_000);
    expect(dedup.seen('id-189999')).toBe(false); // evicted
    expect(dedup.seen('id-199999')).toBe(true);
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

  it('undefined and null values of each option are the defaults; an explicit now is used', () => {
    let t = 1_000;
    const dedup = new InMemoryWebhookDeduplicator(
      any({ maxEntries: null, ttlMs: undefined, inProgressTtlMs: null, now: () => t }),
    );
    expect(dedup.seen('a')).toBe(false);
    t += 24 * 60 * 60 * 1000 - 1;
    expect(dedup.seen('a')).toBe(true);
    expect(new InMemoryWebhookDeduplicator(undefined).seen('a')).toBe(false);
  });
});
