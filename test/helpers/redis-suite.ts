/** A redis-server for one test suite and two connections to it (two processes, as Redis sees them). */
import { afterAll, beforeAll } from 'vitest';
import { type EvalClient, type RedisServer, startRedis } from './redis-server.js';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the server and opens `a` and `b` before the suite's tests; closes and stops them after. */
export function useRedis(connect: (socket: string) => Promise<EvalClient>) {
  const suite = {} as { server: RedisServer; a: EvalClient; b: EvalClient };
  beforeAll(async () => {
    suite.server = await startRedis();
    suite.a = await connect(suite.server.socket);
    suite.b = await connect(suite.server.socket);
  });
  afterAll(async () => {
    await suite.a?.close();
    await suite.b?.close();
    await suite.server?.stop();
  });
  return suite;
}
