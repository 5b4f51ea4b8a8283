import { http } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type ClientOptions, FulfillmentClient } from '../../src/index.js';

/** Base URL used by msw-backed tests; msw answers in-process, nothing leaves the machine. */
export const BASE = 'https://fulfillment.test';
export const TOKEN = 'tok_test_secret_123';

/** An msw server for the current test file; any request without a handler fails the test. */
export function useMsw() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** A client pointed at the msw base URL with fast retries and no console output. */
export function testClient(options: ClientOptions = {}): FulfillmentClient {
  return new FulfillmentClient({
    apiToken: TOKEN,
    baseUrl: BASE,
    retryDelay: { initialMs: 1, maxMs: 4 },
    logLevel: 'off',
    ...options,
  });
}

/** A logger that records every line, for assertions. */
export function recordingLogger() {
  const lines: { level: string; message: string; details: unknown[] }[] = [];
  const at =
    (level: string) =>
    (message: string, ...details: unknown[]) =>
      lines.push({ level, message, details });
  return { lines, logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') } };
}

/** Answers METHOD path with `reply`, counting the calls (to prove that nothing was sent). */
export function countingEndpoint(
  server: SetupServer,
  method: 'get' | 'delete' | 'put',
  path: string,
  reply: () => Response,
) {
  const state = { calls: 0 };
  server.use(
    http[method](`${BASE}${path}`, () => {
      state.calls++;
      return reply();
    }),
  );
  return state;
}
