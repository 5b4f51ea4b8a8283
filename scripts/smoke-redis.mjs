// The built `merchant-fulfillment/redis` entry, imported (ESM) and required (CommonJS): each store
// runs its scripts through the `eval` it is given, and the entry loads nothing else of the package.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createRedisDeduplicator, createRedisRateLimitStore } from 'merchant-fulfillment/redis';

const cjs = createRequire(import.meta.url)('merchant-fulfillment/redis');
for (const [build, entry] of [
  ['ESM', { createRedisDeduplicator, createRedisRateLimitStore }],
  ['CJS', cjs],
]) {
  const calls = [];
  const redis = {
    eval: async (script, keys) => {
      calls.push(keys);
      return script.includes("'new'") ? 'new' : 0;
    },
  };
  const dedupe = entry.createRedisDeduplicator(redis, { prefix: 'p:' });
  if ((await dedupe.claim('e', 't')) !== 'new') throw new Error(`${build}: claim`);
  const store = entry.createRedisRateLimitStore(redis, { key: 'k' });
  if ((await store.acquire('s', 1, 1000)) !== 0) throw new Error(`${build}: acquire`);
  if (JSON.stringify(calls) !== '[["p:e"],["k","k:pause"]]')
    throw new Error(`${build}: keys ${JSON.stringify(calls)}`);
}
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => /[\\/](ky|zod)[\\/]/.test(f));
if (loaded.length > 0) throw new Error(`the redis entry loaded ${loaded.join(', ')}`);
// The ESM build imports nothing at all (no chunk of the SDK, no package).
const esm = readFileSync(new URL('../dist/esm/redis.js', import.meta.url), 'utf8');
if (/^\s*import\b|\bimport\(/m.test(esm)) throw new Error('the ESM redis entry imports other modules');
console.log('redis entry ok (ESM and CJS)');
