/**
 * createWebhookHandler's Node face (`handler.node`) on real `node:http` servers (127.0.0.1, port 0):
 * the raw body read from the stream, the body limit (413, and reading stops), a body a parser left
 * in `req.body` (raw bytes used; a parsed object or a consumed stream refused with the fix),
 * methods, duplicates, and a response already sent.
 */
import { EventEmitter } from 'node:events';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import express from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createWebhookHandler,
  createWebhookHeaders,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  type WebhookHandlerOptions,
} from '../../src/index.js';
import { startServer } from '../helpers/http-server.js';
import { ROTATED_TOKEN, SHIPMENT_BODY, shipment, TOKEN } from './fixtures.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  vi.restoreAllMocks();
});

/** A `node:http` server whose only route is the handler's Node face. */
async function serve(options: Partial<WebhookHandlerOptions> = {}) {
  const onEvent = vi.fn();
  const onError = vi.fn();
  const handler = createWebhookHandler({ secret: TOKEN, onEvent, onError, ...options });
  const server = await startServer(handler.node);
  closers.push(server.close);
  return { url: server.url, onEvent, onError };
}

/** Starts an Express app on 127.0.0.1:0. */
async function serveExpress(app: express.Express) {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as { port: number };
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${port}`;
}

async function post(url: string, body: string = SHIPMENT_BODY, eventId = 'evt-1', secret = TOKEN) {
  const headers = await createWebhookHeaders({ body, secret, eventId });
  const response = await fetch(`${url}/webhooks/fulfillment`, { method: 'POST', body, headers });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    json: (await response.json()) as Record<string, unknown>,
  };
}

describe('handler.node on node:http', () => {
  it('reads the raw body from the stream: 200, the handler gets the shipment, duplicates are acknowledged', async () => {
    const { url, onEvent } = await serve();
    expect(await post(url)).toEqual({ status: 200, type: 'application/json', json: { received: true } });
    expect(await post(url)).toMatchObject({ status: 200, json: { received: true, duplicate: true } });
    expect(onEvent).toHaveBeenCalledOnce();
    expect(onEvent.mock.calls[0]![0]).toMatchObject({ id: 42, status: 'arrived' });
  });

  it('verifies the exact bytes of a non-ASCII body sent in several chunks', async () => {
    const { url, onEvent } = await serve();
    const body = JSON.stringify(shipment({ id: 7, supplier_name: 'Ünïcødé ☕ 東京' }));
    const headers = await createWebhookHeaders({ body, secret: TOKEN });
    const bytes = Buffer.from(body);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${url}/hooks`, { method: 'POST', headers }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      // Split inside a multi-byte character.
      const cut = bytes.indexOf(0xe2) + 1;
      req.write(bytes.subarray(0, cut));
      setImmediate(() => req.end(bytes.subarray(cut)));
    });
    expect(status).toBe(200);
    expect(onEvent.mock.calls[0]![0].supplier_name).toBe('Ünïcødé ☕ 東京');
  });

  it('answers 400 with the reason for a bad signature, and 200 under a rotated token', async () => {
    const { url, onEvent } = await serve({ secret: [TOKEN, ROTATED_TOKEN] });
    expect(await post(url, SHIPMENT_BODY, 'a', 'wrong-token')).toMatchObject({
      status: 400,
      json: { error: 'signature_mismatch' },
    });
    expect((await post(url, SHIPMENT_BODY, 'b', ROTATED_TOKEN)).status).toBe(200);
    expect(onEvent).toHaveBeenCalledOnce();
  });

  it('answers 405 with Allow: POST to another method', async () => {
    const { url, onEvent } = await serve();
    const response = await fetch(`${url}/webhooks/fulfillment`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toMatchObject({ error: 'method_not_allowed' });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('answers 500 handler_failed when the handler rejects, then handles the retry', async () => {
    let fail = true;
    const onEvent = vi.fn(async () => {
      if (fail) throw new Error('internal detail');
    });
    const { url } = await serve({ onEvent });
    expect(await post(url)).toEqual({
      status: 500,
      type: 'application/json',
      json: { error: 'handler_failed' },
    });
    fail = false;
    expect(await post(url)).toMatchObject({ status: 200, json: { received: true } });
    expect(onEvent).toHaveBeenCalledTimes(2);
  });

  it('413 for a declared content-length over maxBodyBytes, answered without reading the body', async () => {
    const { url, onEvent, onError } = await serve({ maxBodyBytes: 1024 });
    const body = Buffer.alloc(64 * 1024, 0x20);
    const answer = await new Promise<{ status: number; json: unknown; connection: unknown }>((resolve) => {
      const req = httpRequest(
        `${url}/hooks`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              json: JSON.parse(Buffer.concat(chunks).toString()),
              connection: res.headers.connection,
            }),
          );
        },
      );
      req.on('error', () => {}); // the server may close while the rest is still being written
      req.flushHeaders();
      req.write(body.subarray(0, 16)); // the rest is never sent: the answer must not wait for it
    });
    expect(answer).toMatchObject({ status: 413, json: { error: 'body_too_large' }, connection: 'close' });
    expect(onEvent).not.toHaveBeenCalled();
    expect(onError.mock.calls[0]![1]).toEqual({ stage: 'body', responseStatus: 413 });
  });

  it('413 for a chunked body past maxBodyBytes, without waiting for its end', async () => {
    const { url, onEvent } = await serve({ maxBodyBytes: 4096 });
    let written = 0;
    const status = await new Promise<number>((resolve) => {
      const req = httpRequest(
        `${url}/hooks`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', () => {});
      // 8 kB sent, the body never ends: only a reader that stops at the limit can answer.
      for (; written < 8; written++) req.write(Buffer.alloc(1024, 0x20));
    });
    expect(status).toBe(413);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('a client that goes away mid-body is reported (no answer possible) and nothing is handled', async () => {
    let reported!: (context: unknown) => void;
    const context = new Promise((resolve) => {
      reported = resolve;
    });
    const { url, onEvent } = await serve({ onError: (_error, c) => reported(c) });
    const req = httpRequest(`${url}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': 1000 },
    });
    req.on('error', () => {});
    req.write('{"id":', () => setImmediate(() => req.destroy()));
    expect(await context).toEqual({ stage: 'body', responseStatus: null });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('a client that went away before handler.node was called: settles, reported as body, no listener left', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, onEvent: vi.fn(), onError });
    let settled!: (value: { result: unknown; listeners: number[] }) => void;
    const outcome = new Promise<{ result: unknown; listeners: number[] }>((resolve) => {
      settled = resolve;
    });
    const EVENTS = ['data', 'end', 'error', 'close'] as const;
    const server = await startServer((req, res) => {
      // As after an async middleware: the client left (and 'close' fired) before the handler runs.
      req.once('close', () => {
        setImmediate(async () => {
          const before = EVENTS.map((e) => req.listenerCount(e));
          const timeout = new Promise((resolve) => setTimeout(resolve, 2000, 'never settled'));
          const result = await Promise.race([handler.node(req, res), timeout]);
          const after = EVENTS.map((e) => req.listenerCount(e));
          settled({ result, listeners: after.map((n, i) => n - before[i]!) });
        });
      });
    });
    closers.push(server.close);
    const req = httpRequest(`${server.url}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': 1000 },
    });
    req.on('error', () => {});
    req.write('{"id":', () => setImmediate(() => req.destroy()));
    expect(await outcome).toEqual({ result: undefined, listeners: [0, 0, 0, 0] });
    expect(onError).toHaveBeenCalledOnce();
    expect(onError.mock.calls[0]![1]).toEqual({ stage: 'body', responseStatus: null });
    expect(onError.mock.calls[0]![0]).toMatchObject({ reason: 'invalid_body' });
  });

  it.each([
    ['destroyed', { destroyed: true, readableEnded: false }],
    ['readableAborted', { readableAborted: true, readableEnded: false }],
  ])(
    'a stream-like request already %s: settles at once, reported as body, nothing attached',
    async (_name, state) => {
      const onError = vi.fn();
      const handler = createWebhookHandler({ secret: TOKEN, onError });
      const req = Object.assign(new EventEmitter(), { method: 'POST', headers: {} }, state);
      const res = fakeResponse();
      await handler.node(req as unknown as NodeWebhookRequest, res);
      expect(res.body).toBeUndefined();
      expect(onError.mock.calls.map(([e, c]) => [e.reason, c])).toEqual([
        ['invalid_body', { stage: 'body', responseStatus: null }],
      ]);
      expect(req.eventNames()).toEqual([]);
    },
  );

  it('stops pulling the stream past maxBodyBytes', async () => {
    let pulled = 0;
    const stream = new Readable({
      highWaterMark: 1024,
      read() {
        pulled++;
        this.push(pulled > 10_000 ? null : Buffer.alloc(1024));
      },
    });
    const req = Object.assign(stream, {
      method: 'POST',
      headers: await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN }),
    });
    const res = fakeResponse();
    const handler = createWebhookHandler({ secret: TOKEN, maxBodyBytes: 8 * 1024, onError: () => {} });
    await handler.node(req, res);
    expect(res.statusCode).toBe(413);
    await new Promise((resolve) => setImmediate(resolve));
    expect(pulled).toBeLessThan(20);
    expect(stream.isPaused()).toBe(true);
  });
});

/** A response that records what is written. */
function fakeResponse(): NodeWebhookResponse & { headers: Record<string, string>; body: string | undefined } {
  return {
    statusCode: 200,
    headers: {},
    body: undefined,
    setHeader(name: string, value: string) {
      this.headers[name] = value;
    },
    end(body: string) {
      this.body = body;
    },
  };
}

describe('handler.node after a body parser', () => {
  it('uses the raw Buffer that express.raw() left in req.body', async () => {
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, onEvent });
    const app = express();
    app.post('/webhooks/fulfillment', express.raw({ type: 'application/json' }), handler.node);
    const url = await serveExpress(app);
    expect(await post(url)).toMatchObject({ status: 200, json: { received: true } });
    expect(onEvent).toHaveBeenCalledOnce();
  });

  it('refuses a body express.json() parsed: 500 parsed_body, the fix reported to onError as configuration', async () => {
    const onEvent = vi.fn();
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, onEvent, onError });
    const app = express();
    app.use(express.json());
    app.post('/webhooks/fulfillment', handler.node);
    const url = await serveExpress(app);
    const answer = await post(url);
    expect(answer).toMatchObject({ status: 500, json: { error: 'parsed_body' } });
    expect(answer.json).toEqual({ error: 'parsed_body' }); // no setup help for an unauthenticated caller
    expect(String(onError.mock.calls[0]![0].message)).toMatch(/already parsed.*express\.raw/);
    expect(onEvent).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledOnce();
    expect(onError.mock.calls[0]![1]).toEqual({ stage: 'configuration', responseStatus: 500 });
  });

  it('refuses a stream a middleware already read without leaving the raw body', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, onError });
    const { url } = await startServer(async (req: IncomingMessage, res: ServerResponse) => {
      for await (const _chunk of req) {
        // a middleware that reads the body and keeps nothing
      }
      await handler.node(req, res);
    }).then((s) => {
      closers.push(s.close);
      return s;
    });
    const answer = await post(url);
    expect(answer).toEqual({ status: 500, type: 'application/json', json: { error: 'parsed_body' } });
    expect(String(onError.mock.calls[0]![0].message)).toMatch(/already parsed or read/);
  });

  it('takes a string body and a request without a stream (Fastify-style request object)', async () => {
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, onEvent, onError: () => {} });
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: 's' });
    const res = fakeResponse();
    const req: NodeWebhookRequest = { method: 'POST', headers, body: SHIPMENT_BODY };
    await handler.node(req, res);
    expect([res.statusCode, res.headers['content-type'], res.body]).toEqual([
      200,
      'application/json',
      '{"received":true}',
    ]);
    const empty = fakeResponse();
    await handler.node({ method: 'POST', headers }, empty);
    expect(empty.statusCode).toBe(400);
    expect(JSON.parse(empty.body!)).toMatchObject({ error: 'signature_mismatch' });
  });

  it('reports a response some other code already sent (the error Node throws), and settles', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, onError });
    let settled: Promise<void> | undefined;
    const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(204).end(); // other code answered first (Fastify without reply.hijack())
      settled = handler.node(Object.assign(req, { body: Buffer.from(SHIPMENT_BODY) }), res);
    });
    closers.push(server.close);
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN });
    const response = await fetch(server.url, { method: 'POST', body: SHIPMENT_BODY, headers });
    expect(response.status).toBe(204);
    await settled;
    await new Promise((resolve) => setImmediate(resolve));
    expect(onError.mock.calls[0]![1]).toEqual({ stage: 'configuration', responseStatus: null });
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'ERR_HTTP_HEADERS_SENT' });
  });
});
