// One client process (the cross-process rate-limit test and bench B9): a FulfillmentClient whose rate limit is shared through Redis (or its own
// when REDIS_SOCKET is unset) sends REQUESTS bulk upserts of 100 SKUs to the mock, then prints one
// JSON line: { requests, received429, ms }. Waits for "go" on stdin so that every process starts together.
// The package is the built one, or the sources when MF_SOURCES is set (run with `--import tsx`);
// SKEW_MS moves this process's clock (Date.now) by that much.
import { createClient } from 'redis';

const env = process.env;
if (env.SKEW_MS) {
  const now = Date.now;
  Date.now = () => now() + Number(env.SKEW_MS);
}
const { FulfillmentClient } = await import(
  env.MF_SOURCES ? `${env.MF_SOURCES}/index.ts` : 'merchant-fulfillment'
);
const { createRedisRateLimitStore } = await import(
  env.MF_SOURCES ? `${env.MF_SOURCES}/redis/index.ts` : 'merchant-fulfillment/redis'
);
const requests = Number(env.REQUESTS);
const limit = { requests: Number(env.LIMIT_REQUESTS), perMs: Number(env.LIMIT_PER_MS) };
let redisClient;
if (env.REDIS_SOCKET) {
  redisClient = createClient({ socket: { path: env.REDIS_SOCKET } });
  redisClient.on('error', () => {});
  await redisClient.connect();
  const redis = { eval: (script, keys, args) => redisClient.eval(script, { keys, arguments: args }) };
  limit.store = createRedisRateLimitStore(redis, { key: env.KEY });
}
let sent = 0;
let received429 = 0;
const client = new FulfillmentClient({
  apiToken: env.TOKEN,
  baseUrl: env.BASE_URL,
  logLevel: 'off',
  maxRetries: 5,
  rateLimit: limit,
  fetch: async (input, init) => {
    sent++;
    const res = await fetch(input, init);
    if (res.status === 429) received429++;
    return res;
  },
});
const size = Number(env.CHUNK ?? 100);
const catalogue = Array.from({ length: requests * size }, (_, i) => ({
  name: `Product ${i}`,
  merchant_sku_id: `${env.PREFIX}-${i}`,
}));
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const t0 = performance.now();
await client.skus.bulkUpsert(catalogue, { concurrency: 4, chunkSize: size });
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ requests: sent, received429, ms })}\n`);
await redisClient?.quit();
process.stdin.destroy();
