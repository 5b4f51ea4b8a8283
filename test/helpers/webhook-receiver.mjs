// One webhook receiver replica (the cross-process tests and bench B10): `createWebhookHandler` with
// the Redis deduplicator, behind a node:http server on 127.0.0.1. Handling an event records it in
// Redis (`RPUSH <prefix>handled <id>`), so counts survive a replica killed mid-run. A share of first
// attempts throws (FAIL_RATE), each handler takes HANDLER_MS. Prints its URL as its first line.
// The package is the built one, or the sources when MF_SOURCES is set (run with `--import tsx`).
import { createServer } from 'node:http';
import { createClient } from 'redis';

const sources = process.env.MF_SOURCES;
const { createWebhookHandler } = await import(sources ? `${sources}/index.ts` : 'merchant-fulfillment');
const { createRedisDeduplicator } = await import(
  sources ? `${sources}/redis/index.ts` : 'merchant-fulfillment/redis'
);

const env = process.env;
const prefix = env.PREFIX ?? 'b10:';
const redisClient = createClient({ socket: { path: env.REDIS_SOCKET } });
redisClient.on('error', () => {});
await redisClient.connect();
const redis = { eval: (script, keys, args) => redisClient.eval(script, { keys, arguments: args }) };
const failRate = Number(env.FAIL_RATE ?? 0.1);
const handlerMs = Number(env.HANDLER_MS ?? 20);

const handler = createWebhookHandler({
  secret: env.SECRET,
  deduplicator: createRedisDeduplicator(redis, { prefix, claimTtlMs: Number(env.CLAIM_TTL_MS ?? 1000) }),
  onEvent: async (_shipment, event) => {
    // The first attempt of about one event in ten fails (decided once per event, across replicas).
    const attempt = await redisClient.incr(`${prefix}attempts:${event.id}`);
    await new Promise((resolve) => setTimeout(resolve, handlerMs));
    if (attempt === 1 && Number.parseInt(event.id.slice(-4), 16) / 0x10000 < failRate) {
      throw new Error('first attempt fails');
    }
    // The side effect, tagged with this process: a replica killed between it and `complete` is the
    // documented limit of "exactly once" (the retry handles the event again).
    await redisClient.rPush(`${prefix}handled`, `${event.id} ${process.pid}`);
  },
  onError: () => {},
});

const server = createServer((req, res) => handler.node(req, res));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  redisClient.destroy();
});
