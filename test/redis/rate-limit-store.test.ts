/** createRedisRateLimitStore against a real redis-server, through node-redis v5 and ioredis. */
import { describe, expect, it } from 'vitest';
import { createRedisRateLimitStore, type RedisEval } from '../../src/redis/index.js';
import { CLIENTS, REDIS_SERVER } from '../helpers/redis-server.js';
import { sleep, useRedis } from '../helpers/redis-suite.js';

describe.skipIf(!REDIS_SERVER).each(CLIENTS)('createRedisRateLimitStore over %s', (_name, connect) => {
  const redis = useRedis(connect);
  let n = 0;
  const key = () => `rate:${++n}`;

  it('grants `requests` slots in a window, then tells how long until the oldest frees', async () => {
    const store = createRedisRateLimitStore(redis.a.redis, { key: key() });
    for (let i = 0; i < 3; i++) expect(await store.acquire(`s${i}`, 3, 1000)).toBe(0);
    const wait = await store.acquire('s3', 3, 1000);
    expect(wait).toBeGreaterThan(900);
    expect(wait).toBeLessThanOrEqual(1000);
  });

  it('two connections (two processes) share one window: exactly `requests` of many concurrent acquires', async () => {
    const k = key();
    const stores = [
      createRedisRateLimitStore(redis.a.redis, { key: k }),
      createRedisRateLimitStore(redis.b.redis, { key: k }),
    ];
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => stores[i % 2]!.acquire(`slot-${i}`, 25, 5000)),
    );
    expect(answers.filter((w) => w === 0)).toHaveLength(25);
    expect(answers.filter((w) => w > 0)).toHaveLength(35);
  });

  it('a slot counts until perMs after its answer (release), not from its start', async () => {
    const store = createRedisRateLimitStore(redis.a.redis, { key: key() });
    expect(await store.acquire('long', 1, 1000)).toBe(0);
    await sleep(500); // the request is still in flight
    await store.release('long', 1000); // answered now: counts until 1000 ms from now
    await sleep(700); // 1200 ms after its start, 700 ms after its answer
    expect(await store.acquire('next', 1, 1000)).toBeGreaterThan(0);
    await sleep(450);
    expect(await store.acquire('next', 1, 1000)).toBe(0);
  });

  it('a slot whose process died frees itself perMs after its start', async () => {
    const store = createRedisRateLimitStore(redis.a.redis, { key: key() });
    expect(await store.acquire('crashed', 1, 200)).toBe(0);
    expect(await store.acquire('other', 1, 200)).toBeGreaterThan(0);
    await sleep(250);
    expect(await store.acquire('other', 1, 200)).toBe(0);
  });

  it("the server's spent budget pauses every process for perMs", async () => {
    const k = key();
    const mine = createRedisRateLimitStore(redis.a.redis, { key: k });
    const theirs = createRedisRateLimitStore(redis.b.redis, { key: k });
    await mine.pause(400);
    const wait = await theirs.acquire('x', 100, 400);
    expect(wait).toBeGreaterThan(300);
    expect(wait).toBeLessThanOrEqual(400);
  });

  it('keys expire once every slot has (nothing left behind)', async () => {
    const k = key();
    const store = createRedisRateLimitStore(redis.a.redis, { key: k });
    await store.acquire('s', 5, 200);
    await store.release('s', 200);
    await sleep(250);
    expect(await redis.a.redis.eval("return redis.call('EXISTS', KEYS[1])", [k], [])).toBe(0);
  });
});

describe('createRedisRateLimitStore options', () => {
  const redis: RedisEval = { eval: async () => 0 };
  it('refuses unknown options, a non-string key and a client without eval', () => {
    expect(() => createRedisRateLimitStore(redis, { kye: 'x' } as never)).toThrow(/unknown option "kye"/);
    expect(() => createRedisRateLimitStore(redis, { key: 1 } as never)).toThrow(/key must be a string/);
    expect(() => createRedisRateLimitStore(null as never)).toThrow(/eval\(script, keys, args\)/);
  });
});
