/**
 * What several processes of one merchant share, over Redis: a webhook deduplicator (each event
 * handled once across every replica) and a rate-limit store (one request budget for every process
 * on one API token). Each operation is one `EVAL` of a Lua script, so it is atomic, and every time
 * comes from Redis's own clock, so processes whose clocks disagree still share one TTL and one
 * window. No Redis client is imported: pass any object with `eval(script, keys, args)`.
 *
 * Needs Redis 6.2 or later (or a service speaking its scripting, such as Upstash).
 *
 * @packageDocumentation
 * @module merchant-fulfillment/redis
 */

import type { RateLimitStore } from '../core/options.js';
import type { WebhookDeduplicator } from '../webhooks/types.js';

/**
 * The one method the stores call: run a Lua script with its keys and arguments, resolving with
 * what the script returns. `@upstash/redis` has it as it is; node-redis 4/5 and ioredis in one line:
 *
 * ```ts
 * const viaNodeRedis: RedisEval = { eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) };
 * const viaIoredis: RedisEval = { eval: (script, keys, args) => ioredis.eval(script, keys.length, ...keys, ...args) };
 * ```
 */
export interface RedisEval {
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}

/** Options of {@link createRedisDeduplicator}. */
export interface RedisDeduplicatorOptions {
  /** Prepended to every event id to make its key. Default `'merchant-fulfillment:'`. */
  prefix?: string;
  /**
   * How long a claim holds an event while its handler runs, in milliseconds (at least 1000). Longer
   * than your slowest handler, shorter than the provider's retry window: a process that crashes
   * mid-handler holds the event that long, and a retry that comes after it is handled. Default 60 s.
   */
  claimTtlMs?: number;
  /** How long a handled event is remembered, in milliseconds: as long as retries may come. Default 24 h. */
  doneTtlMs?: number;
}

/** Options of {@link createRedisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /**
   * The key every process sharing one budget uses (one per API token); a second key, this one with
   * `:pause` appended, holds the server's "budget spent". On Redis Cluster put a hash tag in it
   * (`'mf:rate:{shop-42}'`) so that both keys share a slot. Default `'merchant-fulfillment:rate'`.
   */
  key?: string;
}

/** The `WebhookDeduplicator` {@link createRedisDeduplicator} returns. */
export type RedisDeduplicator = WebhookDeduplicator;

/** The store of the client's `rateLimit.store` that {@link createRedisRateLimitStore} returns. */
export type RedisRateLimitStore = RateLimitStore;

const DAY_MS = 86_400_000;

// `claim`: a claim is `c:<token>`, so that only its own attempt can release it.
const CLAIM = `local v = redis.call('GET', KEYS[1])
if not v then redis.call('SET', KEYS[1], 'c:' .. ARGV[1], 'PX', ARGV[2]) return 'new' end
if v == 'done' then return 'done' end
return 'in_progress'`;
const COMPLETE = "redis.call('SET', KEYS[1], 'done', 'PX', ARGV[1]) return 0";
const RELEASE =
  "if redis.call('GET', KEYS[1]) == 'c:' .. ARGV[1] then redis.call('DEL', KEYS[1]) end return 0";

// The rate limit: a sorted set of slots scored by when each stops counting, on Redis's clock.
const NOW = "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000)";
const ACQUIRE = `${NOW}
local paused = redis.call('PTTL', KEYS[2])
if paused > 0 then return paused end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + ARGV[3], ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 0
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, first[2] - now)`;
// Moves the slot to `perMs` after now (never earlier; back in if it had expired in flight).
const RELEASE_SLOT = `${NOW}
redis.call('ZADD', KEYS[1], 'GT', now + ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0`;
const PAUSE = "redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) return 0";

/** The arguments every store takes: a client with `eval`, and options of `known` names only. */
function checkArguments(name: string, redis: RedisEval, options: object, known: readonly string[]): void {
  if (typeof (redis as Partial<RedisEval> | null)?.eval !== 'function') {
    throw new TypeError(
      `${name}: redis must be an object with eval(script, keys, args), got ${typeof redis}`,
    );
  }
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`${name}: options must be an object`);
  const unknown = Object.keys(options).find((key) => !known.includes(key));
  if (unknown !== undefined)
    throw new TypeError(`${name}: unknown option ${JSON.stringify(unknown)} (known: ${known.join(', ')})`);
}

function ms(value: unknown, fallback: number, name: string, min: number): string {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    throw new RangeError(`${name} must be an integer >= ${min} (milliseconds), got ${String(v)}`);
  }
  return String(v);
}

function text(value: unknown, fallback: string, name: string): string {
  const v = value ?? fallback;
  if (typeof v !== 'string') throw new TypeError(`${name} must be a string, got ${typeof v}`);
  return v;
}

/**
 * A webhook deduplicator over Redis, for `createWebhookHandler({ deduplicator })` when several
 * processes receive the provider's calls: a retry or duplicate that reaches another replica while
 * the first still handles the event is answered non-2xx (the provider retries later), one that
 * comes after the event was handled is acknowledged. A handler that throws releases its claim
 * (only its own), so the retry is handled; a process that crashes holds the event for `claimTtlMs`.
 *
 * ```ts
 * const deduplicator = createRedisDeduplicator(redis, { prefix: 'mf:webhook:', claimTtlMs: 60_000 });
 * const handler = createWebhookHandler({ secret, deduplicator, on: { restocked: … } });
 * ```
 *
 * @throws {TypeError} when `redis` has no `eval` or an option is unknown or of the wrong type.
 * @throws {RangeError} when `claimTtlMs` is under 1000 or a TTL is not a whole number of milliseconds.
 */
export function createRedisDeduplicator(
  redis: RedisEval,
  options: RedisDeduplicatorOptions = {},
): RedisDeduplicator {
  const name = 'createRedisDeduplicator';
  checkArguments(name, redis, options, ['prefix', 'claimTtlMs', 'doneTtlMs']);
  const prefix = text(options.prefix, 'merchant-fulfillment:', 'prefix');
  const claimTtl = ms(options.claimTtlMs, 60_000, 'claimTtlMs', 1000);
  const doneTtl = ms(options.doneTtlMs, DAY_MS, 'doneTtlMs', 1);
  const run = (script: string, id: string, args: string[]) => redis.eval(script, [prefix + id], args);
  return {
    // The handler checks what a claim answers, whatever the deduplicator.
    claim: (id, token) => run(CLAIM, id, [token, claimTtl]) as Promise<'new' | 'in_progress' | 'done'>,
    complete: async (id) => void (await run(COMPLETE, id, [doneTtl])),
    release: async (id, token) => void (await run(RELEASE, id, [token])),
  };
}

/**
 * A rate-limit store over Redis, for `new FulfillmentClient({ rateLimit: { requests, perMs, store } })`
 * in every process that shares one API token: at most `requests` requests in flight or started
 * within any `perMs`, counted across all of them, and the server's "budget spent" pauses them all.
 *
 * ```ts
 * const store = createRedisRateLimitStore(redis, { key: 'mf:rate:shop-42' });
 * const client = new FulfillmentClient({ rateLimit: { requests: 100, perMs: 60_000, store } });
 * ```
 *
 * @throws {TypeError} when `redis` has no `eval` or an option is unknown or of the wrong type.
 */
export function createRedisRateLimitStore(
  redis: RedisEval,
  options: RedisRateLimitStoreOptions = {},
): RedisRateLimitStore {
  const name = 'createRedisRateLimitStore';
  checkArguments(name, redis, options, ['key']);
  const key = text(options.key, 'merchant-fulfillment:rate', 'key');
  const keys = [key, `${key}:pause`];
  return {
    acquire: async (slot, requests, perMs) =>
      Number(await redis.eval(ACQUIRE, keys, [slot, String(requests), String(perMs)])),
    release: async (slot, perMs) => void (await redis.eval(RELEASE_SLOT, [key], [slot, String(perMs)])),
    pause: async (perMs) => void (await redis.eval(PAUSE, [keys[1]!], [String(perMs)])),
  };
}
