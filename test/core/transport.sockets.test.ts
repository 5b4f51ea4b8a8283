import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { APIConnectionError, APITimeoutError, FulfillmentClient } from '../../src/index.js';
import { closedPort, startServer } from '../helpers/http-server.js';

const Any = z.unknown();
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

function client(baseUrl: string, extra: Partial<ConstructorParameters<typeof FulfillmentClient>[0]> = {}) {
  return new FulfillmentClient({
    apiToken: 'secret-token',
    baseUrl,
    logLevel: 'off',
    retryDelay: { initialMs: 1, maxMs: 2 },
    ...extra,
  });
}

describe('timeouts (real server on 127.0.0.1)', () => {
  it('times out a GET per attempt and retries it', async () => {
    let hits = 0;
    const pending: ServerResponse[] = [];
    const srv = await startServer((_req, res) => {
      hits++;
      pending.push(res); // never answers
    });
    cleanup = srv.close;
    const error = await client(srv.url, { timeout: 100 })
      .get('/merchant_api/v1/skus', { response: Any })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(hits).toBe(3);
  });

  it('never repeats a POST /orders that timed out', async () => {
    let hits = 0;
    const srv = await startServer(() => {
      hits++;
    });
    cleanup = srv.close;
    const error = await client(srv.url, { timeout: 100 })
      .post('/merchant_api/v1/orders', { body: { merchant_order_id: 'A' }, response: Any })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    await new Promise((r) => setTimeout(r, 50));
    expect(hits).toBe(1);
  });

  it('a per-request timeout overrides the client one', async () => {
    const srv = await startServer((_req, res) => {
      setTimeout(() => res.end('{"ok":true}'), 150);
    });
    cleanup = srv.close;
    const c = client(srv.url, { timeout: 50, maxRetries: 0 });
    await expect(c.get('/x', { response: Any })).rejects.toBeInstanceOf(APITimeoutError);
    await expect(c.get('/x', { options: { timeout: 2000 }, response: Any })).resolves.toEqual({
      ok: true,
    });
  });

  it('times out a body that stalls after the headers', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    cleanup = srv.close;
    const error = await client(srv.url, { timeout: 150, maxRetries: 0 })
      .get('/x', { response: Any })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
  });
});

describe('requests never awaited', () => {
  it('a request never awaited still reads its body: a stalled body is cut off and its socket closed', async () => {
    // A real server (msw has no sockets): headers and half a body, then nothing.
    let socketClosed = false;
    const server = await startServer((req, res) => {
      req.socket.on('close', () => {
        socketClosed = true;
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
    });
    try {
      const client = new FulfillmentClient({
        apiToken: 'secret-token',
        baseUrl: server.url,
        logLevel: 'off',
        timeout: 100,
        maxRetries: 0,
      });
      void client.warehouses.list().catch(() => {}); // fire and forget
      for (let i = 0; i < 100 && !socketClosed; i++) await new Promise((r) => setTimeout(r, 20));
      expect(socketClosed).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('connection failures', () => {
  it('retries a GET whose connection is reset, then reports the reset', async () => {
    let hits = 0;
    const srv = await startServer((req) => {
      hits++;
      req.socket.destroy();
    });
    cleanup = srv.close;
    const error = await client(srv.url)
      .get('/merchant_api/v1/skus', { response: Any })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APITimeoutError);
    expect(hits).toBe(3);
  });

  it('never repeats a POST /orders whose connection was reset', async () => {
    let hits = 0;
    const srv = await startServer((req) => {
      hits++;
      req.socket.destroy();
    });
    cleanup = srv.close;
    await expect(
      client(srv.url).post('/merchant_api/v1/orders', { body: {}, response: Any }),
    ).rejects.toBeInstanceOf(APIConnectionError);
    expect(hits).toBe(1);
  });

  it('retries a POST whose connection was refused (it never reached the server)', async () => {
    const port = await closedPort();
    let calls = 0;
    const c = client(`http://127.0.0.1:${port}`, {
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    const error = await c
      .post('/merchant_api/v1/orders', { body: {}, response: Any })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect(calls).toBe(3);
  });
});

describe('secrets on real sockets', () => {
  const SECRET = 'tok_real_socket_secret';
  const KEY = 'gw_real_socket_key';
  const shown = (error: unknown) =>
    [
      String(error),
      (error as Error).stack,
      inspect(error, { showHidden: true, depth: Number.POSITIVE_INFINITY }),
    ].join('\n');

  it('a timeout and a reset carry no token or default header value, at any depth', async () => {
    const pending: ServerResponse[] = [];
    const srv = await startServer((req, res) => {
      if (req.url?.includes('reset')) req.socket.destroy();
      else pending.push(res); // never answers
    });
    cleanup = srv.close;
    const c = client(srv.url, {
      apiToken: SECRET,
      defaultHeaders: { 'x-gateway-key': KEY },
      timeout: 50,
      maxRetries: 0,
    });
    const timeout = await c.get('/merchant_api/v1/skus', { response: Any }).catch((e: unknown) => e);
    const reset = await c.get('/merchant_api/v1/reset', { response: Any }).catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(APITimeoutError);
    expect(reset).toBeInstanceOf(APIConnectionError);
    for (const error of [timeout, reset]) {
      expect(shown(error)).not.toContain(SECRET);
      expect(shown(error)).not.toContain(KEY);
    }
  });
});
