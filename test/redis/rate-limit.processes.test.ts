/**
 * `rateLimit.store` across real processes and a real redis-server: several client processes on one
 * token never get a 429 from a server with the same limit, whatever their clocks say; a store that
 * fails or hangs fails the request with `RateLimitStoreError`, nothing sent.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FulfillmentClient, RateLimitStoreError } from '../../src/index.js';
import { createRedisRateLimitStore } from '../../src/redis/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { nodeRedisClient, REDIS_SERVER, type RedisServer, startRedis } from '../helpers/redis-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'rate-processes';

/** Starts test/helpers/rate-client.mjs; resolves once it is ready, with a function that starts it and awaits its result. */
async function clientProcess(env: Record<string, string>) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', `${root}test/helpers/rate-client.mjs`],
    {
      cwd: root,
      env: { ...process.env, MF_SOURCES: `${root}src`, TOKEN, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines: string[] = [];
  let notify: (() => void) | undefined;
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    lines.push(...parts);
    notify?.();
  });
  const line = async (n: number) => {
    while (lines.length < n) {
      if (child.exitCode !== null) throw new Error(`client process exited with ${child.exitCode}`);
      await new Promise<void>((resolve) => {
        notify = resolve;
        setTimeout(resolve, 100);
      });
    }
    return lines[n - 1]!;
  };
  await line(1); // ready
  return {
    child,
    go: async () => {
      child.stdin!.write('go\n');
      return JSON.parse(await line(2)) as { requests: number; received429: number; ms: number };
    },
  };
}

describe.skipIf(!REDIS_SERVER)('rateLimit.store over Redis, across processes', () => {
  let server: RedisServer;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await server?.stop();
  });

  it('three processes whose clocks disagree by minutes share one window: 0 × 429', async () => {
    const limit = { requests: 20, perMs: 1000 };
    const api = createMockApi({ tokens: [TOKEN], rateLimit: limit });
    const mock = await api.listen({ port: 0 });
    try {
      const skews = ['0', String(5 * 60_000), String(-7 * 60_000)];
      const procs = await Promise.all(
        skews.map((skew, i) =>
          clientProcess({
            BASE_URL: mock.url,
            REQUESTS: '20',
            CHUNK: '1',
            LIMIT_REQUESTS: String(limit.requests),
            LIMIT_PER_MS: String(limit.perMs),
            PREFIX: `P${i}`,
            KEY: 'mf:rate:processes',
            REDIS_SOCKET: server.socket,
            SKEW_MS: skew,
          }),
        ),
      );
      children.push(...procs.map((p) => p.child));
      const results = await Promise.all(procs.map((p) => p.go()));
      expect(results.map((r) => r.received429)).toEqual([0, 0, 0]);
      expect(results.reduce((n, r) => n + r.requests, 0)).toBe(60);
      // 60 requests at 20 per second: at least two full windows after the first burst.
      expect(Math.max(...results.map((r) => r.ms))).toBeGreaterThanOrEqual(1900);
    } finally {
      await mock.close();
    }
  }, 60_000);

  it("one process seeing the server's spent budget pauses the others", async () => {
    // Two connections: two processes as Redis sees them, each with its own store on one key.
    const [mine, theirs] = [await nodeRedisClient(server.socket), await nodeRedisClient(server.socket)];
    const client = (redis: typeof mine, headers: Record<string, string>) =>
      new FulfillmentClient({
        apiToken: 't',
        baseUrl: 'http://127.0.0.1:9',
        logLevel: 'off',
        rateLimit: {
          requests: 100,
          perMs: 600,
          store: createRedisRateLimitStore(redis.redis, { key: 'mf:rate:pause' }),
        },
        fetch: async () => Response.json([], { headers }),
      });
    try {
      await client(mine, { 'x-rate-limit-used': '100', 'x-rate-limit-max': '100' }).warehouses.list();
      // The pause is recorded in the background: wait until Redis holds it.
      const pttl = () => theirs.redis.eval("return redis.call('PTTL', KEYS[1])", ['mf:rate:pause:pause'], []);
      for (let i = 0; i < 100 && Number(await pttl()) <= 0; i++) await new Promise((r) => setTimeout(r, 5));
      const t0 = performance.now();
      await client(theirs, {}).warehouses.list();
      expect(performance.now() - t0).toBeGreaterThanOrEqual(400);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('Redis down: the request fails with RateLimitStoreError naming the store, its cause kept, nothing sent', async () => {
    const down = await startRedis();
    const redis = await nodeRedisClient(down.socket);
    await down.stop();
    let sent = 0;
    const client = new FulfillmentClient({
      apiToken: 't',
      baseUrl: 'http://127.0.0.1:9',
      logLevel: 'off',
      rateLimit: { requests: 10, perMs: 1000, store: createRedisRateLimitStore(redis.redis) },
      fetch: async () => {
        sent++;
        return Response.json([]);
      },
    });
    const error = await client.warehouses.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitStoreError);
    expect((error as Error).message).toMatch(/rate-limit store/);
    expect((error as Error).cause).toBeDefined();
    expect(sent).toBe(0);
    await redis.close();
  });

  it("Redis hanging: the request's timeout bounds the wait, and its signal aborts it", async () => {
    const hung = await startRedis();
    const redis = await nodeRedisClient(hung.socket);
    hung.pause();
    try {
      let sent = 0;
      const client = new FulfillmentClient({
        apiToken: 't',
        baseUrl: 'http://127.0.0.1:9',
        logLevel: 'off',
        timeout: 300,
        rateLimit: { requests: 10, perMs: 1000, store: createRedisRateLimitStore(redis.redis) },
        fetch: async () => {
          sent++;
          return Response.json([]);
        },
      });
      const t0 = performance.now();
      const error = await client.warehouses.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitStoreError);
      expect((error as Error).message).toMatch(/did not answer within 300 ms/);
      expect(performance.now() - t0).toBeLessThan(2000);
      const aborted = await client.warehouses
        .list({}, { signal: AbortSignal.timeout(100), timeout: 10_000 })
        .catch((e: unknown) => e);
      expect((aborted as Error).name).toBe('APIUserAbortError');
      expect(sent).toBe(0);
    } finally {
      hung.resume();
      await redis.close();
      await hung.stop();
    }
  });
});
