import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { ClientEmitter, type RequestErrorEvent, type RetryEvent } from '../../src/core/events.js';
import { publicUrl, Redactor } from '../../src/core/redact.js';
import {
  APIConnectionError,
  APITimeoutError,
  type ClientEventName,
  type ClientEvents,
  type ClientOptions,
  FulfillmentClient,
  FulfillmentError,
  InternalServerError,
  NotFoundError,
} from '../../src/index.js';
import { closedPort, startServer } from '../helpers/http-server.js';
import { recordingLogger } from '../helpers/msw.js';

const TOKEN = 'tok_events_secret_4711';
const DEFAULT_SECRET = 'default-header-secret-0815';
const Body = z.object({ ok: z.boolean() });

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A real server on 127.0.0.1 answering with `replies` in turn (the last one again when they run out). */
async function serve(replies: Reply[], seen: IncomingMessage[] = []) {
  let next = 0;
  const srv = await startServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(req);
    const reply = replies[Math.min(next++, replies.length - 1)]!;
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.body ?? {}));
  });
  cleanup = srv.close;
  return srv.url;
}

function client(baseUrl: string, extra: ClientOptions = {}) {
  return new FulfillmentClient({
    apiToken: TOKEN,
    baseUrl,
    logLevel: 'off',
    retryDelay: { initialMs: 1, maxMs: 2 },
    ...extra,
  });
}

/** Every event of `c`, in order, as `[name, payload]`. */
function record(c: FulfillmentClient) {
  const seen: { [E in ClientEventName]: [E, ClientEvents[E]] }[ClientEventName][] = [];
  c.on('request', (e) => void seen.push(['request', e]));
  c.on('response', (e) => void seen.push(['response', e]));
  c.on('retry', (e) => void seen.push(['retry', e]));
  c.on('error', (e) => void seen.push(['error', e]));
  return seen;
}

const RATE = { 'x-rate-limit-used': '7', 'x-rate-limit-max': '100' };

describe('client events (real server on 127.0.0.1)', () => {
  it('a 503 then a 200: request, retry, request, response', async () => {
    const url = await serve([
      { status: 503, body: { errors: ['busy'] } },
      { status: 200, body: { ok: true }, headers: RATE },
    ]);
    const c = client(url);
    const seen = record(c);
    await expect(c.get('/merchant_api/v1/skus', { response: Body })).resolves.toEqual({ ok: true });

    const target = `${url}/merchant_api/v1/skus`;
    expect(seen.map(([name]) => name)).toEqual(['request', 'retry', 'request', 'response']);
    expect(seen[0]![1]).toEqual({ method: 'GET', url: target, attempt: 1 });
    const retry = seen[1]![1] as RetryEvent;
    expect(retry).toMatchObject({
      method: 'GET',
      url: target,
      attempt: 1,
      reason: 'status',
      status: 503,
      fromRetryAfter: false,
    });
    expect(retry.delayMs).toBeGreaterThanOrEqual(0);
    expect(retry.delayMs).toBeLessThanOrEqual(2);
    expect(retry.error).toBeInstanceOf(InternalServerError);
    expect(seen[2]![1]).toEqual({ method: 'GET', url: target, attempt: 2 });
    const response = seen[3]![1] as ClientEvents['response'];
    expect(response).toEqual({ method: 'GET', url: target, attempt: 2, status: 200 });
  });

  it('a 429 with Retry-After then a 200: the retry says rate_limited and waits what the server asked', async () => {
    const url = await serve([
      {
        status: 429,
        body: { errors: ['slow down'] },
        headers: { 'retry-after': '0.02', 'x-rate-limit-used': '100', 'x-rate-limit-max': '100' },
      },
      { status: 200, body: { ok: true } },
    ]);
    const c = client(url);
    const seen = record(c);
    await c.get('/merchant_api/v1/skus', { response: Body });
    expect(seen.map(([name]) => name)).toEqual(['request', 'retry', 'request', 'response']);
    expect(seen[1]![1]).toMatchObject({
      reason: 'rate_limited',
      status: 429,
      delayMs: 20,
      fromRetryAfter: true,
    });
    expect(seen[3]![1]).toMatchObject({ status: 200, attempt: 2 });
  });

  it('a 404: request, then error with the class name, the error itself and the status', async () => {
    const url = await serve([{ status: 404, body: { errors: ['no such SKU'] } }]);
    const c = client(url);
    const seen = record(c);
    const thrown = await c.get('/merchant_api/v1/skus/9', { response: Body }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(NotFoundError);
    expect(seen.map(([name]) => name)).toEqual(['request', 'error']);
    const error = seen[1]![1] as RequestErrorEvent;
    expect(error).toMatchObject({
      method: 'GET',
      url: `${url}/merchant_api/v1/skus/9`,
      attempt: 1,
      errorName: 'NotFoundError',
      status: 404,
    });
    expect(error.error).toBe(thrown);
  });

  it('retries exhausted: one request per attempt, a retry between them, then error', async () => {
    const url = await serve([{ status: 503 }]);
    const c = client(url, { maxRetries: 2 });
    const seen = record(c);
    await expect(c.get('/merchant_api/v1/skus', { response: Body })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(seen.map(([name, e]) => `${name}:${e.attempt}`)).toEqual([
      'request:1',
      'retry:1',
      'request:2',
      'retry:2',
      'request:3',
      'error:3',
    ]);
    expect(seen[5]![1]).toMatchObject({ errorName: 'InternalServerError', status: 503 });
  });

  it('a refused connection retries with reason connection; a POST that got no answer is not retried', async () => {
    const port = await closedPort();
    const c = client(`http://127.0.0.1:${port}`, { maxRetries: 1 });
    const seen = record(c);
    await expect(c.get('/merchant_api/v1/skus', { response: Body })).rejects.toBeInstanceOf(
      APIConnectionError,
    );
    expect(seen.map(([name]) => name)).toEqual(['request', 'retry', 'request', 'error']);
    expect(seen[1]![1]).toMatchObject({ reason: 'connection', status: undefined, fromRetryAfter: false });
    expect(seen[3]![1]).toMatchObject({ errorName: 'APIConnectionError', status: undefined });
  });

  it('a timed-out attempt retries with reason timeout', async () => {
    const held: ServerResponse[] = [];
    const srv = await startServer((_req, res) => void held.push(res)); // never answers
    cleanup = srv.close;
    const c = client(srv.url, { timeout: 50, maxRetries: 1 });
    const seen = record(c);
    await expect(c.get('/merchant_api/v1/skus', { response: Body })).rejects.toBeInstanceOf(APITimeoutError);
    expect(seen.map(([name]) => name)).toEqual(['request', 'retry', 'request', 'error']);
    expect(seen[1]![1]).toMatchObject({ reason: 'timeout', status: undefined });
    expect(seen[3]![1]).toMatchObject({ errorName: 'APITimeoutError' });
  });
});

describe('listeners cannot break a request', () => {
  it('a throwing and a rejecting listener: the request resolves, each failure is one error line', async () => {
    const url = await serve([{ status: 503 }, { status: 200, body: { ok: true } }]);
    const { lines, logger } = recordingLogger();
    const c = client(url, { logLevel: 'error', logger });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const order: string[] = [];
      c.on('retry', () => {
        order.push('throws');
        throw new Error(`listener broke (${TOKEN})`);
      });
      c.on('retry', async () => {
        order.push('rejects');
        throw new TypeError('async listener broke');
      });
      c.on('retry', () => void order.push('third'));
      c.on('error', () => void order.push('error event'));

      await expect(c.get('/merchant_api/v1/skus', { response: Body })).resolves.toEqual({ ok: true });
      await new Promise((resolve) => setImmediate(resolve));
      // Called synchronously, in the order they were added; the failures stop nothing.
      expect(order).toEqual(['throws', 'rejects', 'third']);
      expect(lines.map((l) => l.level)).toEqual(['error', 'error']);
      expect(lines[0]!.message).toMatch(/listener of the 'retry' event failed.*Error: listener broke/);
      expect(lines[1]!.message).toMatch(
        /listener of the 'retry' event failed.*TypeError: async listener broke/,
      );
      expect(lines[0]!.details[0]).toMatchObject({ event: 'retry', error: { name: 'Error' } });
      // The token the listener put in its own message is masked.
      expect(JSON.stringify(lines)).not.toContain(TOKEN);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a failing listener of error does not change the error the request rejects with', async () => {
    const url = await serve([{ status: 404 }]);
    const { lines, logger } = recordingLogger();
    const c = client(url, { logLevel: 'error', logger });
    c.on('error', () => {
      throw new Error('boom');
    });
    await expect(c.get('/merchant_api/v1/skus', { response: Body })).rejects.toBeInstanceOf(NotFoundError);
    expect(lines).toHaveLength(1);
  });
});

describe('on / off', () => {
  it('off removes a listener, a listener is added at most once', async () => {
    const url = await serve([{ status: 200, body: { ok: true } }]);
    const c = client(url);
    const calls: string[] = [];
    const on = () => void calls.push('on');
    expect(c.on('response', on)).toBe(c);
    c.on('response', on);
    await c.get('/merchant_api/v1/skus', { response: Body });
    expect(calls).toEqual(['on']);
    expect(c.off('response', on)).toBe(c);
    c.off('response', on); // not there any more: nothing happens
    await c.get('/merchant_api/v1/skus', { response: Body });
    expect(calls).toEqual(['on']);
  });

  it('refuses an unknown event name or a listener that is not a function, naming the argument', () => {
    const c = client('http://127.0.0.1:1');
    const bad = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error;
      }
      throw new Error('expected a throw');
    };
    const unknown = bad(() =>
      // @ts-expect-error: not an event of the client
      c.on('finish', () => {}),
    );
    expect(unknown).toBeInstanceOf(FulfillmentError);
    expect((unknown as Error).message).toBe(
      `event must be one of 'request', 'response', 'retry', 'error'; got "finish"`,
    );
    // @ts-expect-error: not an event of the client
    expect(() => c.off('Request', () => {})).toThrow(/^event must be one of/);
    // @ts-expect-error: a listener is a function
    expect(() => c.on('retry', 'log')).toThrow(/^listener must be a function, got string/);
  });

  it('types each listener by its event', () => {
    const c = client('http://127.0.0.1:1');
    c.on('retry', (e) => {
      expectTypeOf(e).toEqualTypeOf<RetryEvent>();
      expectTypeOf(e.delayMs).toEqualTypeOf<number>();
      expectTypeOf(e.reason).toEqualTypeOf<'status' | 'rate_limited' | 'connection' | 'timeout'>();
      return e.delayMs;
    });
    c.on('error', async (e) => {
      expectTypeOf(e).toEqualTypeOf<RequestErrorEvent>();
      expectTypeOf(e.error).toEqualTypeOf<FulfillmentError>();
    });
    c.on('response', (e) => {
      expectTypeOf(e.status).toEqualTypeOf<number>();
      // @ts-expect-error: a response event has no delay
      void e.delayMs;
    });
  });
});

describe('no credential in any event or log line', () => {
  it('token, default-header secrets and echoed credentials never appear', async () => {
    // The server echoes every credential it got, in its body and in a header.
    let hit = 0;
    const srv = await startServer((req, res) => {
      hit++;
      const echo = `${req.headers.authorization} ${req.headers['x-api-key']}`;
      const status = hit === 1 ? 503 : hit === 2 ? 200 : 404;
      res.writeHead(status, { 'content-type': 'application/json', 'x-echo': echo, ...RATE });
      res.end(JSON.stringify(status === 200 ? { ok: true } : { errors: [echo] }));
    });
    cleanup = srv.close;

    const { lines, logger } = recordingLogger();
    const c = client(srv.url, {
      logLevel: 'debug',
      logger,
      defaultHeaders: { 'x-api-key': DEFAULT_SECRET },
    });
    const events: unknown[] = [];
    for (const name of ['request', 'response', 'retry', 'error'] as const)
      c.on(name, (e) => void events.push(e));
    await c.get('/merchant_api/v1/skus', { response: Body });
    await c.get('/merchant_api/v1/skus/1', { response: Body }).catch(() => {});

    expect(events.length).toBeGreaterThanOrEqual(5);
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const captured of [...events, ...lines]) {
      for (const text of [
        JSON.stringify(captured),
        inspect(captured, { depth: Infinity, showHidden: true }),
      ]) {
        expect(text).not.toContain(TOKEN);
        expect(text).not.toContain(DEFAULT_SECRET);
      }
    }
  });

  it('publicUrl drops userinfo and masks secrets', () => {
    const redactor = new Redactor([TOKEN]);
    expect(publicUrl(`https://user:pw@api.test/v1/skus?t=${TOKEN}`, redactor)).toBe(
      'https://api.test/v1/skus?t=***',
    );
    expect(publicUrl('https://api.test/v1/skus?email=a@b.test', redactor)).toBe(
      'https://api.test/v1/skus?email=a@b.test',
    );
  });
});

describe('ClientEmitter', () => {
  it('is inactive without listeners and reports a failing listener once, without throwing', () => {
    const failures: [string, unknown][] = [];
    const emitter = new ClientEmitter((event, error) => void failures.push([event, error]));
    expect(emitter.count).toBe(0);
    const listener = () => {
      throw new Error('x');
    };
    emitter.add('request', listener);
    emitter.add('request', listener); // at most once per event
    expect(emitter.count).toBe(1);
    expect(() => emitter.emit('request', { method: 'GET', url: 'u', attempt: 1 })).not.toThrow();
    expect(failures).toHaveLength(1);
    emitter.remove('request', listener);
    expect(emitter.count).toBe(0);
  });
});
