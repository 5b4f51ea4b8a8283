/**
 * Several receiver processes, one Redis: every event handled exactly once although deliveries come
 * 1–3 times (duplicates at once, on different replicas), first attempts fail now and then, and a
 * replica is killed mid-run (SIGKILL) and started again. Real processes, a real redis-server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHeaders } from '../../src/index.js';
import { nodeRedisClient, REDIS_SERVER, type RedisServer, startRedis } from '../helpers/redis-server.js';
import { deliver } from '../helpers/webhook-provider.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'receivers-secret';

interface Replica {
  url: string;
  child: ChildProcess;
}

async function startReplica(
  socket: string,
  prefix: string,
  extra: Record<string, string> = {},
): Promise<Replica> {
  const child = spawn(process.execPath, ['--import', 'tsx', `${root}test/helpers/webhook-receiver.mjs`], {
    cwd: root,
    env: {
      ...process.env,
      MF_SOURCES: `${root}src`,
      REDIS_SOCKET: socket,
      SECRET,
      PREFIX: prefix,
      CLAIM_TTL_MS: '1000',
      HANDLER_MS: '150',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
  });
  return { url, child };
}

function stop(replica: Replica | undefined): Promise<void> {
  if (!replica || replica.child.exitCode !== null || replica.child.signalCode !== null)
    return Promise.resolve();
  return new Promise((resolve) => {
    replica.child.once('exit', () => resolve());
    replica.child.kill('SIGKILL');
  });
}

describe.skipIf(!REDIS_SERVER)('three receiver processes sharing createRedisDeduplicator', () => {
  let server: RedisServer;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(replicas.map(stop));
    await server?.stop();
  });

  it('handles each of 120 events exactly once, with a replica killed mid-run and restarted', async () => {
    const prefix = 'rx1:';
    for (let i = 0; i < 3; i++) replicas.push(await startReplica(server.socket, prefix));
    const urls = () => replicas.map((r) => r.url);
    const run = deliver({
      events: 120,
      replicas: urls,
      secret: SECRET,
      createWebhookHeaders,
      concurrency: 12,
    });
    // Mid-run: once a third of the events are handled, kill a replica while it handles others.
    const watcher = await nodeRedisClient(server.socket);
    for (let i = 0; i < 400; i++) {
      const done = Number(
        await watcher.redis.eval("return redis.call('LLEN', KEYS[1])", [`${prefix}handled`], []),
      );
      if (done >= 40) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await watcher.close();
    const killed = String(replicas[1]!.child.pid);
    await stop(replicas[1]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    replicas[1] = await startReplica(server.socket, prefix);
    const { ids, gaveUp, unanswered } = await run;

    const redis = await nodeRedisClient(server.socket);
    try {
      const handled = (await redis.redis.eval(
        "return redis.call('LRANGE', KEYS[1], 0, -1)",
        [`${prefix}handled`],
        [],
      )) as string[];
      const by = new Map<string, string[]>(); // event id → the processes that handled it
      for (const entry of handled) {
        const [id, pid] = entry.split(' ') as [string, string];
        by.set(id, [...(by.get(id) ?? []), pid]);
      }
      expect(unanswered).toBeGreaterThan(0); // the kill cut deliveries off
      expect(gaveUp).toBe(0);
      expect(ids.filter((id) => !by.has(id))).toEqual([]); // none lost
      // None twice, but for the documented limit: the killed replica did the side effect and died
      // before completing the claim (a window of a Redis round trip), so the retry handled it again.
      expect([...by].filter(([, pids]) => pids.length > 1 && !pids.includes(killed))).toEqual([]);
      expect(by.size).toBe(120);
    } finally {
      await redis.close();
    }
  }, 60_000);
});
