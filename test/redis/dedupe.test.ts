/** createRedisDeduplicator against a real redis-server, through node-redis v5 and ioredis. */
import { describe, expect, it } from 'vitest';
import { createRedisDeduplicator, type RedisDeduplicator, type RedisEval } from '../../src/redis/index.js';
import { CLIENTS, REDIS_SERVER } from '../helpers/redis-server.js';
import { sleep, useRedis } from '../helpers/redis-suite.js';

/**
 * The two-phase recipe the README used to give (`SET NX GET`, `SET XX`, `DEL`), kept to show that
 * each race below really happens without an ownership token.
 */
type TwoPhase = RedisDeduplicator;

function oldRecipe(redis: RedisEval, claimTtlMs: number): TwoPhase {
  const cmd = (script: string, key: string, args: string[] = []) => redis.eval(script, [key], args);
  return {
    claim: async (id: string, _token: string) => {
      const prev = await cmd(
        "return redis.call('SET', KEYS[1], 'in_progress', 'NX', 'GET', 'PX', ARGV[1])",
        id,
        [String(claimTtlMs)],
      );
      return prev === null ? 'new' : (prev as 'done' | 'in_progress');
    },
    complete: async (id: string, _token: string) =>
      void (await cmd("return redis.call('SET', KEYS[1], 'done', 'XX', 'PX', 86400000)", id)),
    release: async (id: string, _token: string) => void (await cmd("return redis.call('DEL', KEYS[1])", id)),
  };
}

describe.skipIf(!REDIS_SERVER).concurrent.each(CLIENTS)(
  'createRedisDeduplicator over %s',
  (_name, connect) => {
    const redis = useRedis(connect);
    let n = 0;
    const id = () => `evt-${++n}`;

    it('claims once; a second claim is in progress; complete makes it done', async () => {
      const dedupe = createRedisDeduplicator(redis.a.redis, { prefix: 't1:' });
      const e = id();
      expect(await dedupe.claim(e, 'a')).toBe('new');
      expect(await dedupe.claim(e, 'b')).toBe('in_progress');
      await dedupe.complete(e, 'a');
      expect(await dedupe.claim(e, 'c')).toBe('done');
    });

    it('keys carry the prefix, claims expire after claimTtlMs and done after doneTtlMs, on the server', async () => {
      const dedupe = createRedisDeduplicator(redis.a.redis, {
        prefix: 'ttl:',
        claimTtlMs: 1000,
        doneTtlMs: 5000,
      });
      const e = id();
      await dedupe.claim(e, 'a');
      const claimTtl = Number(
        await redis.a.redis.eval("return redis.call('PTTL', KEYS[1])", [`ttl:${e}`], []),
      );
      expect(claimTtl).toBeGreaterThan(0);
      expect(claimTtl).toBeLessThanOrEqual(1000);
      await dedupe.complete(e, 'a');
      const doneTtl = Number(
        await redis.a.redis.eval("return redis.call('PTTL', KEYS[1])", [`ttl:${e}`], []),
      );
      expect(doneTtl).toBeGreaterThan(1000);
      expect(doneTtl).toBeLessThanOrEqual(5000);
    });

    it('after a crash (no complete, no release) the claim expires and the retry is new', async () => {
      const dedupe = createRedisDeduplicator(redis.a.redis, { prefix: 'crash:', claimTtlMs: 1000 });
      const e = id();
      expect(await dedupe.claim(e, 'crashed')).toBe('new');
      expect(await dedupe.claim(e, 'retry-1')).toBe('in_progress');
      await sleep(1100);
      expect(await dedupe.claim(e, 'retry-2')).toBe('new');
    });

    it("race 1: a late release never erases another attempt's done", async () => {
      // A's handler outlives its claim and fails; B claims, handles, completes; A releases.
      const run = async (dedupe: TwoPhase) => {
        const e = id();
        await dedupe.claim(e, 'A');
        await sleep(1100);
        expect(await dedupe.claim(e, 'B')).toBe('new');
        await dedupe.complete(e, 'B');
        await dedupe.release(e, 'A');
        return dedupe.claim(e, 'retry');
      };
      expect(await run(oldRecipe(redis.a.redis, 1000))).toBe('new'); // handled again: the race
      expect(await run(createRedisDeduplicator(redis.a.redis, { prefix: 'r1:', claimTtlMs: 1000 }))).toBe(
        'done',
      );
    });

    it('race 2: releasing after a claim whose reply was lost never erases done', async () => {
      // The claim reached Redis and found `done`; its reply was lost, so the handler releases.
      const run = async (dedupe: TwoPhase) => {
        const e = id();
        await dedupe.claim(e, 'A');
        await dedupe.complete(e, 'A');
        await dedupe.claim(e, 'B'); // answered `done`, but the caller never saw it
        await dedupe.release(e, 'B');
        return dedupe.claim(e, 'retry');
      };
      expect(await run(oldRecipe(redis.a.redis, 60_000))).toBe('new');
      expect(await run(createRedisDeduplicator(redis.a.redis, { prefix: 'r2:' }))).toBe('done');
    });

    it('race 3: complete after the claim expired still records done', async () => {
      const run = async (dedupe: TwoPhase) => {
        const e = id();
        await dedupe.claim(e, 'A');
        await sleep(1100); // a slow but successful handler
        await dedupe.complete(e, 'A');
        return dedupe.claim(e, 'retry');
      };
      expect(await run(oldRecipe(redis.a.redis, 1000))).toBe('new');
      expect(await run(createRedisDeduplicator(redis.a.redis, { prefix: 'r3:', claimTtlMs: 1000 }))).toBe(
        'done',
      );
    });

    it('complete over a live claim of another attempt wins (done is never lost)', async () => {
      const dedupe = createRedisDeduplicator(redis.a.redis, { prefix: 'over:', claimTtlMs: 1000 });
      const e = id();
      await dedupe.claim(e, 'A');
      await sleep(1100);
      await dedupe.claim(e, 'B');
      await dedupe.complete(e, 'A');
      await dedupe.release(e, 'B');
      expect(await dedupe.claim(e, 'C')).toBe('done');
    });

    it('concurrent claims of one id from two connections: exactly one is new', async () => {
      const two = [redis.a, redis.b].map((c) => createRedisDeduplicator(c.redis, { prefix: 'conc:' }));
      const e = id();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => two[i % 2]!.claim(e, `t${i}`)));
      expect(answers.filter((a) => a === 'new')).toHaveLength(1);
      expect(answers.filter((a) => a === 'in_progress')).toHaveLength(19);
    });
  },
);

describe('createRedisDeduplicator options', () => {
  const redis: RedisEval = { eval: async () => 0 };
  it('refuses a claim TTL under 1 s, unknown options and a client without eval', () => {
    expect(() => createRedisDeduplicator(redis, { claimTtlMs: 999 })).toThrow(
      /claimTtlMs must be an integer >= 1000/,
    );
    expect(() => createRedisDeduplicator(redis, { claimTTL: 5 } as never)).toThrow(
      /unknown option "claimTTL"/,
    );
    expect(() => createRedisDeduplicator({} as never)).toThrow(/eval\(script, keys, args\)/);
    expect(() => createRedisDeduplicator(redis, { prefix: 5 } as never)).toThrow(/prefix must be a string/);
  });

  it('uses the defaults: prefix merchant-fulfillment:, claim 60 s, done 24 h', async () => {
    const calls: [string[], string[]][] = [];
    const spy: RedisEval = {
      eval: async (_script, keys, args) => {
        calls.push([keys, args]);
        return 'new';
      },
    };
    const dedupe = createRedisDeduplicator(spy);
    await dedupe.claim('e1', 'tok');
    await dedupe.complete('e1', 'tok');
    expect(calls).toEqual([
      [['merchant-fulfillment:e1'], ['tok', '60000']],
      [['merchant-fulfillment:e1'], ['86400000']],
    ]);
  });
});
