/**
 * A real `redis-server` (Debian package `redis-server`) for the tests of what several processes
 * share: each started on a unix socket in a temp folder (no port to clash), without persistence,
 * and stopped by its pid. Without the binary the tests are skipped with one line naming the
 * package, except under `CI=true`, where its absence fails.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import type { RedisEval } from '../../src/redis/index.js';

function findRedisServer(): string | undefined {
  for (const candidate of ['/usr/bin/redis-server', '/usr/local/bin/redis-server']) {
    if (existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The binary, or undefined (and one line said) when the machine has none; under CI it must exist. */
export const REDIS_SERVER = findRedisServer();
if (!REDIS_SERVER) {
  if (process.env.CI === 'true') {
    throw new Error('redis-server is required under CI=true: install the Debian package redis-server');
  }
  console.warn('Skipping the Redis tests: no redis-server (install the Debian package redis-server).');
}

export interface RedisServer {
  readonly socket: string;
  readonly pid: number;
  stop(): Promise<void>;
  /** Sends SIGSTOP: the server hangs (connections stay open, nothing answers) until `resume`. */
  pause(): void;
  resume(): void;
}

/** Starts a redis-server on a unix socket in a fresh temp folder; resolves once it accepts connections. */
export async function startRedis(): Promise<RedisServer> {
  if (!REDIS_SERVER) throw new Error('no redis-server');
  const dir = mkdtempSync(join(tmpdir(), 'mf-redis-'));
  const socket = join(dir, 'redis.sock');
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    [
      '--port',
      '0',
      '--unixsocket',
      socket,
      '--unixsocketperm',
      '700',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { stdio: 'ignore' },
  );
  const pid = child.pid!;
  // A test process that dies early still stops its server.
  const orphan = () => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  };
  process.once('exit', orphan);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 25));
  if (!existsSync(socket)) {
    process.kill(pid, 'SIGKILL');
    throw new Error('redis-server did not open its socket within 5 s');
  }
  return {
    socket,
    pid,
    pause: () => process.kill(pid, 'SIGSTOP'),
    resume: () => process.kill(pid, 'SIGCONT'),
    async stop() {
      process.off('exit', orphan);
      try {
        process.kill(pid, 'SIGCONT');
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A connected client of each kind, as the `RedisEval` README shows, with its own close. */
export interface EvalClient {
  readonly name: string;
  readonly redis: RedisEval;
  close(): Promise<void>;
}

export async function nodeRedisClient(socket: string): Promise<EvalClient> {
  const client = createClient({ socket: { path: socket, reconnectStrategy: false } });
  client.on('error', () => {});
  await client.connect();
  return {
    name: 'node-redis',
    redis: { eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) },
    close: async () => {
      if (client.isOpen) client.destroy();
    },
  };
}

export async function ioredisClient(socket: string): Promise<EvalClient> {
  const client = new Redis({
    path: socket,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
  });
  client.on('error', () => {});
  await client.connect();
  return {
    name: 'ioredis',
    redis: { eval: (script, keys, args) => client.eval(script, keys.length, ...keys, ...args) },
    close: async () => {
      client.disconnect();
    },
  };
}

export const CLIENTS = [
  ['node-redis', nodeRedisClient],
  ['ioredis', ioredisClient],
] as const;
