/**
 * The HTTP server face: a `node:http` server whose requests become Fetch `Request`s, answered by
 * the Fetch face (`fetch.ts`, the one request adapter) under the CORS policy (`cors.ts`).
 * `close()` ends every connection (idle keep-alive ones included), so a process exits by itself.
 * Request bodies are capped (`MAX_BODY_BYTES`); `HEAD` answers as `GET` without the body.
 */
import type * as Http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtinModule } from '../../core/builtin.js';
import { MAX_BODY_BYTES } from '../engine/json.js';
import type { MockRequestEvent } from '../engine/request-log.js';
import { type Dispatch, failure } from '../engine/result.js';
import { answerCors, corsPolicy } from './cors.js';
import { fetchHandler, toResponse } from './fetch.js';
import type { MockListenOptions, MockServer } from './listen.js';

/**
 * The Node built-in `id`, looked up when it is needed rather than imported: no bundler then meets a
 * `node:*` import in the testing kit, so `createMockApi()` with `api.fetch` bundles for browsers,
 * workers and edge runtimes. Node 22.0–22.2 have no `process.getBuiltinModule`: imported there (the
 * specifier a value, so that no bundler follows it). Where there is none, the error starts with `user`.
 */
export async function nodeBuiltin<T>(id: string, user: string): Promise<T> {
  const found = builtinModule<T>(id) ?? (await import(/* @vite-ignore */ id).catch(() => undefined));
  if (!found) throw new Error(`${user} ${id} (Node.js 22+, Bun or Deno).`);
  return found as T;
}

/** The body, or `undefined` when it is larger than `MAX_BODY_BYTES` (reading stops there). */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  // Left early without destroying the request: the 413 still goes out on its connection.
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Starts the server. `onClose` runs when `close()` is called (the mock cuts its pending response
 * delays short and abandons its webhook deliveries there); `observe` is told of the CORS
 * preflights the server answers itself (the pipeline reports every other request).
 */
export async function startServer(
  dispatch: Dispatch,
  options: MockListenOptions,
  onClose: () => void,
  observe?: (event: MockRequestEvent) => void,
): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  const policy = corsPolicy(options.cors);
  const handle = fetchHandler(dispatch, '');
  const http = await nodeBuiltin<typeof Http>('node:http', 'api.listen() (api.fetch works anywhere) needs');
  const server = http.createServer(async (req, res) => {
    try {
      const method = req.method ?? 'GET';
      const body = await readBody(req);
      const withBody = body?.length && method !== 'GET' && method !== 'HEAD';
      const headers = req.headers as Record<string, string>;
      const request = new Request(`http://mock${req.url}`, { method, headers, ...(withBody && { body }) });
      // A body too large is answered and the connection closed: the rest of it is never read.
      const tooLarge = failure(413, `request body too large (over ${MAX_BODY_BYTES} bytes)`);
      const next =
        body === undefined
          ? async () => toResponse({ ...tooLarge, headers: { connection: 'close' } }, method === 'HEAD')
          : handle;
      const response = await (policy ? answerCors(policy, request, next, observe) : next(request));
      if (response.type === 'error') return void req.socket.destroy();
      if (res.destroyed || req.socket.destroyed) return; // the client left, or the server closed meanwhile
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch {
      req.socket.destroy();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject).listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        onClose();
      })),
  };
}
