import type { IncomingMessage, ServerResponse } from 'node:http';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { detectLoggerStyle, LevelledLogger, type Logger, loggerLevel } from '../../src/core/log.js';
import { type ClientOptions, resolveClientOptions } from '../../src/core/options.js';
import { FulfillmentClient, FulfillmentError } from '../../src/index.js';
import { startServer } from '../helpers/http-server.js';
import { recordingLogger } from '../helpers/msw.js';

const TOKEN = 'tok_log_secret_2718';
const Body = z.object({ ok: z.boolean() });
const BASE = 'https://fulfillment.test';
const SKUS = `${BASE}/merchant_api/v1/skus`;

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

/** A real server on 127.0.0.1: a 503, then 200s with rate-limit figures. */
async function busyThenOk(): Promise<string> {
  let hits = 0;
  const srv = await startServer((_req: IncomingMessage, res: ServerResponse) => {
    hits++;
    res.writeHead(hits === 1 ? 503 : 200, {
      'content-type': 'application/json',
      'x-rate-limit-used': '3',
      'x-rate-limit-max': '100',
    });
    res.end(JSON.stringify(hits === 1 ? { errors: ['busy'] } : { ok: true }));
  });
  cleanup = srv.close;
  return srv.url;
}

/** A pino logger writing JSON lines into memory. */
function memoryPino(level: string) {
  const chunks: string[] = [];
  const logger = pino({ level }, { write: (chunk: string) => void chunks.push(chunk) });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines, raw: () => chunks.join('') };
}

describe('with pino', () => {
  it('details become fields of the JSON line, msg is the message, debug follows pino’s level, the token never appears', async () => {
    const url = await busyThenOk();
    const { logger, lines, raw } = memoryPino('debug');
    const client = new FulfillmentClient({
      apiToken: TOKEN,
      baseUrl: url,
      logger,
      retryDelay: { initialMs: 1 },
    });
    expect(client.toJSON()).toMatchObject({ logLevel: 'debug' });
    await client.get('/merchant_api/v1/skus', { response: Body });

    const out = lines();
    const sent = out.filter((l) => String(l.msg).startsWith('[merchant-fulfillment] → GET'));
    expect(sent.map((l) => l.level)).toEqual([20, 20]);
    // Object first: the details are fields of the JSON line.
    expect(sent[0]).toMatchObject({ method: 'GET', url: `${url}/merchant_api/v1/skus`, attempt: 1 });
    expect(sent[1]!.msg).toMatch(/skus \(attempt 2\)$/);
    const retry = out.find((l) => l.level === 30);
    expect(retry!.msg).toMatch(
      /^\[merchant-fulfillment\] Retrying GET .*skus in \d+ ms \(retry 1 of 2\): 503/,
    );
    const answered = out.filter((l) => String(l.msg).startsWith('[merchant-fulfillment] ← 200'));
    expect(answered).toHaveLength(1);
    expect(raw()).not.toContain(TOKEN);
  });

  it('follows the level pino filters at, unless logLevel or FULFILLMENT_LOG says otherwise', () => {
    const make = (level: string, extra: ClientOptions = {}) =>
      new FulfillmentClient({ apiToken: TOKEN, baseUrl: BASE, logger: memoryPino(level).logger, ...extra });
    expect(make('info').toJSON().logLevel).toBe('info');
    expect(make('warn').toJSON().logLevel).toBe('warn');
    expect(make('debug').toJSON().logLevel).toBe('debug');
    // A level the SDK does not name: its default.
    expect(make('trace').toJSON().logLevel).toBe('info');
    expect(make('debug', { logLevel: 'warn' }).toJSON().logLevel).toBe('warn');
    vi.stubEnv('FULFILLMENT_LOG', 'error');
    expect(make('debug').toJSON().logLevel).toBe('error');
  });
});

describe('with console', () => {
  it('prints the message, then the details object', async () => {
    const url = await busyThenOk();
    const calls: { level: string; args: unknown[] }[] = [];
    const at =
      (level: string) =>
      (...args: unknown[]) =>
        void calls.push({ level, args });
    // Shaped like console: no level of its own, so the default level (info) applies.
    const fakeConsole = {
      error: at('error'),
      warn: at('warn'),
      info: at('info'),
      debug: at('debug'),
      log: at('log'),
    };
    const client = new FulfillmentClient({
      apiToken: TOKEN,
      baseUrl: url,
      logger: fakeConsole,
      retryDelay: { initialMs: 1 },
    });
    await client.get('/merchant_api/v1/skus', { response: Body });
    expect(calls).toHaveLength(1);
    const [message, details] = calls[0]!.args;
    expect(calls[0]!.level).toBe('info');
    expect(message).toMatch(/^\[merchant-fulfillment\] Retrying GET /);
    expect(details).toMatchObject({ method: 'GET', attempt: 1, status: 503, reason: 'status' });
  });
});

describe('loggerStyle', () => {
  it('guesses object-first for pino- and bunyan-shaped loggers, message-first otherwise', () => {
    const noop = () => {};
    const base = { error: noop, warn: noop, info: noop, debug: noop };
    expect(detectLoggerStyle(memoryPino('info').logger)).toBe('object-first');
    expect(detectLoggerStyle(console)).toBe('message-first');
    expect(detectLoggerStyle(base)).toBe('message-first');
    // bunyan: child, fields, streams.
    expect(detectLoggerStyle({ ...base, child: noop, fields: {}, streams: [] } as Logger)).toBe(
      'object-first',
    );
    // winston: child, levels and a level, but message first.
    const winston = { ...base, child: noop, levels: { info: 2 }, level: 'info' } as Logger;
    expect(detectLoggerStyle(winston)).toBe('message-first');
  });

  it('an explicit style wins over the guess', () => {
    const { lines, logger } = recordingLogger();
    const objectFirst = new LevelledLogger('info', logger, { style: 'object-first' });
    objectFirst.write('info', 'waiting', { delayMs: 1500 });
    objectFirst.write('info', 'no details');
    expect(lines.map((l) => [l.message, ...l.details])).toEqual([
      [{ delayMs: 1500 }, '[merchant-fulfillment] waiting'],
      ['[merchant-fulfillment] no details'],
    ]);
    const options = { apiToken: 't', baseUrl: BASE, logger: memoryPino('info').logger };
    expect(
      resolveClientOptions({ ...options, loggerStyle: 'message-first' }, () => undefined).loggerStyle,
    ).toBe('message-first');
    expect(resolveClientOptions(options, () => undefined).loggerStyle).toBe('object-first');
  });
});

describe('logger options', () => {
  it('refuses an unknown style or a logger without the four methods, naming the option', () => {
    const resolve = (options: ClientOptions) => () =>
      resolveClientOptions({ apiToken: 't', baseUrl: BASE, ...options }, () => undefined);
    expect(resolve({ loggerStyle: 'json' as never })).toThrow(FulfillmentError);
    expect(resolve({ loggerStyle: 'json' as never })).toThrow(
      `loggerStyle: expected one of 'auto', 'object-first', 'message-first', got string`,
    );
    expect(resolve({ logger: { info: () => {} } as never })).toThrow(
      'logger: expected an object with error, warn, info and debug methods',
    );
  });

  it('reads the level of pino and winston, nothing else', () => {
    const noop = () => {};
    const base = { error: noop, warn: noop, info: noop, debug: noop };
    expect(loggerLevel({ ...base, level: 'warn' } as Logger)).toBe('warn');
    expect(loggerLevel({ ...base, level: 'silly' } as Logger)).toBeUndefined();
    expect(loggerLevel({ ...base, level: 30 } as Logger)).toBeUndefined();
    expect(loggerLevel({ ...base, level: 'custom' } as Logger)).toBeUndefined();
    expect(loggerLevel(console)).toBeUndefined();
  });

  it('the default level is info, below an explicit option and FULFILLMENT_LOG', () => {
    const env = (vars: Record<string, string>) => (name: string) => vars[name];
    const options = { apiToken: 't', baseUrl: BASE };
    expect(resolveClientOptions(options, env({})).logLevel).toBe('info');
    expect(resolveClientOptions(options, env({ FULFILLMENT_LOG: 'warn' })).logLevel).toBe('warn');
    expect(
      resolveClientOptions({ ...options, logLevel: 'debug' }, env({ FULFILLMENT_LOG: 'warn' })).logLevel,
    ).toBe('debug');
  });
});

describe('rate-limit waits longer than a second are info lines by default', () => {
  /** A `fetch` answering with `replies` in turn (the last one again), counting the calls. */
  function scripted(replies: { status: number; headers?: Record<string, string> }[]) {
    let calls = 0;
    const fetch = async () => {
      const reply = replies[Math.min(calls++, replies.length - 1)]!;
      const body = reply.status === 200 ? { ok: true } : { errors: ['slow down'] };
      return new Response(JSON.stringify(body), {
        status: reply.status,
        headers: { 'content-type': 'application/json', ...reply.headers },
      });
    };
    return { fetch: fetch as unknown as typeof globalThis.fetch, calls: () => calls };
  }

  function client(fetch: typeof globalThis.fetch, extra: ClientOptions = {}) {
    const { lines, logger } = recordingLogger();
    // No logLevel: the default applies.
    const c = new FulfillmentClient({ apiToken: TOKEN, baseUrl: BASE, fetch, logger, ...extra });
    return { c, lines };
  }

  it('a 429 asking for 1.5 s: one info line saying how long', async () => {
    vi.useFakeTimers();
    const { fetch, calls } = scripted([{ status: 429, headers: { 'retry-after': '1.5' } }, { status: 200 }]);
    const { c, lines } = client(fetch);
    const result = c.get('/merchant_api/v1/skus', { response: Body });
    await vi.advanceTimersByTimeAsync(1499);
    expect(calls()).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.level).toBe('info');
    expect(lines[0]!.message).toMatch(/Retrying GET .*skus in 1500 ms \(retry 1 of 2\): 429 /);
    expect(lines[0]!.details[0]).toMatchObject({
      url: SKUS,
      delayMs: 1500,
      reason: 'rate_limited',
      status: 429,
      fromRetryAfter: true,
    });
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ ok: true });
    expect(calls()).toBe(2);
    expect(lines).toHaveLength(1);
  });

  it('a wait for the client-side rate limit: a line over a second, none for a short wait', async () => {
    vi.useFakeTimers();
    const { fetch } = scripted([{ status: 200 }]);
    const long = client(fetch, { rateLimit: { requests: 1, perMs: 1500 } });
    await long.c.get('/merchant_api/v1/skus', { response: Body });
    expect(long.lines).toEqual([]); // the happy path logs nothing at the default level
    const second = long.c.get('/merchant_api/v1/skus', { response: Body });
    await vi.advanceTimersByTimeAsync(1500);
    await expect(second).resolves.toEqual({ ok: true });
    expect(long.lines).toHaveLength(1);
    expect(long.lines[0]).toMatchObject({ level: 'info' });
    expect(long.lines[0]!.message).toBe(`[merchant-fulfillment] Waiting 1500 ms before GET ${SKUS}`);
    expect(long.lines[0]!.details[0]).toEqual({
      method: 'GET',
      url: SKUS,
      attempt: 1,
      delayMs: 1500,
      reason: 'client_rate_limit',
    });

    const short = client(fetch, { rateLimit: { requests: 1, perMs: 200 } });
    await short.c.get('/merchant_api/v1/skus', { response: Body });
    const next = short.c.get('/merchant_api/v1/skus', { response: Body });
    await vi.advanceTimersByTimeAsync(200);
    await expect(next).resolves.toEqual({ ok: true });
    expect(short.lines).toEqual([]);
  });

  it('a wait because the server reported its budget spent says so in its reason', async () => {
    vi.useFakeTimers();
    const { fetch } = scripted([
      { status: 200, headers: { 'x-rate-limit-used': '100', 'x-rate-limit-max': '100' } },
    ]);
    const { c, lines } = client(fetch, { rateLimit: { requests: 50, perMs: 2000 } });
    await c.get('/merchant_api/v1/skus', { response: Body });
    const second = c.get('/merchant_api/v1/skus', { response: Body });
    await vi.advanceTimersByTimeAsync(2000);
    await second;
    expect(lines).toHaveLength(1);
    expect(lines[0]!.message).toMatch(/Waiting 2000 ms before GET /);
    expect(lines[0]!.details[0]).toMatchObject({ reason: 'server_rate_limit', delayMs: 2000 });
  });
});
