/**
 * Bounded resources against real servers on 127.0.0.1: a body over `maxResponseBytes` (counted
 * on the decoded bytes) stops the read, releases the connection and is a `ResponseTooLargeError`,
 * never retried; a compressed body that inflates without end is cut off the same way.
 */
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { FulfillmentClient, ResponseTooLargeError } from '../../src/index.js';
import { startServer } from '../helpers/http-server.js';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

const MiB = 1024 * 1024;
const client = (baseUrl: string, maxResponseBytes: number) =>
  new FulfillmentClient({
    apiToken: 'tok_limits',
    baseUrl,
    logLevel: 'off',
    maxResponseBytes,
    retryDelay: { initialMs: 1, maxMs: 2 },
  });

async function serve(handler: (res: ServerResponse) => void) {
  const state = { requests: 0, closed: 0 };
  const srv = await startServer((_req, res) => {
    state.requests++;
    res.on('close', () => state.closed++);
    handler(res);
  });
  stops.push(srv.close);
  return { url: srv.url, state };
}

/** Writes `total` bytes of JSON-ish filler in 64 KiB chunks, honouring back-pressure, until closed. */
function stream(res: ServerResponse, total: number, headers: Record<string, string> = {}) {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

describe('maxResponseBytes', () => {
  it('stops reading a body over the limit, releases the connection, does not retry', async () => {
    const api = await serve((res) => stream(res, 50 * MiB));
    const error = await client(api.url, MiB)
      .warehouses.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    const tooLarge = error as ResponseTooLargeError;
    expect(tooLarge.limit).toBe(MiB);
    expect(tooLarge.size).toBeGreaterThan(MiB);
    expect(tooLarge.size).toBeLessThan(2 * MiB);
    expect(tooLarge.message).toContain('maxResponseBytes');
    expect(api.state.requests).toBe(1);
    for (let i = 0; i < 100 && api.state.closed < 1; i++) await new Promise((r) => setTimeout(r, 10));
    expect(api.state.closed).toBe(1);
  });

  it('refuses at once a body whose Content-Length is over the limit', async () => {
    const api = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(5 * MiB) });
      res.write('[');
    });
    const error = (await client(api.url, MiB)
      .warehouses.list()
      .catch((e: unknown) => e)) as ResponseTooLargeError;
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.size).toBe(5 * MiB);
  });

  it('counts decoded bytes: a gzip body that inflates far past the limit is cut off', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * MiB, 0x20), { level: 9 });
    expect(bomb.length).toBeLessThan(MiB); // small on the wire
    const api = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    const error = (await client(api.url, 2 * MiB)
      .warehouses.list()
      .catch((e: unknown) => e)) as ResponseTooLargeError;
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.size).toBeGreaterThan(2 * MiB);
    expect(error.size).toBeLessThan(4 * MiB);
  });

  it('reads a body at the limit', async () => {
    const body = JSON.stringify([{ id: 1, name: 'x'.repeat(1000) }]);
    const api = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const page = await client(api.url, Buffer.byteLength(body)).warehouses.list();
    expect(page.data[0]?.id).toBe(1);
  });

  it('is checked at construction', () => {
    expect(() => client('http://127.0.0.1:1', 0)).toThrow(/maxResponseBytes: expected a number from 1/);
  });
});
