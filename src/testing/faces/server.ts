/**
 * The HTTP server face: a `node:http` server that passes every request to the mock's core.
 * `close()` ends every connection (idle keep-alive ones included), so a process exits by itself.
 * Request bodies are capped ({@link MAX_BODY_BYTES}); `HEAD` answers as `GET` without the body.
 */
import type * as Http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtinModule } from '../../core/builtin.js';
import { MAX_BODY_BYTES as MAX_JSON_BODY_BYTES } from '../engine/json.js';
import type { MockRequestEvent } from '../engine/request-log.js';
import {
  type Dispatch,
  failure,
  type MockResult,
  mockError,
  resultBody,
  resultHeaders,
} from '../engine/result.js';
import { type CorsPolicy, corsHeaders, corsPolicy, preflightHeaders } from './cors.js';
import type { MockListenOptions, MockServer } from './listen.js';

/** Told of the requests the server answers itself (CORS preflights), as the pipeline tells of the others; must not throw. */
type Observer = ((event: MockRequestEvent) => void) | undefined;

/**
 * `node:http`, looked up when a server starts rather than imported: no bundler then meets an
 * `http` import in the testing kit, so `createMockApi()` with `api.fetch` bundles for browsers,
 * workers and edge runtimes; only `listen()` needs Node (or a runtime that offers `node:http`).
 */
async function nodeHttp(): Promise<typeof Http> {
  let http = builtinModule<typeof Http>(NODE_HTTP);
  // Node 22.0–22.2 have no `process.getBuiltinModule`: import it there. The specifier is a value,
  // not a literal, so that no bundler follows it into a browser or worker bundle.
  if (!http && (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node) {
    http = await import(/* @vite-ignore */ NODE_HTTP).catch(() => undefined);
  }
  if (!http)
    throw new Error('api.listen() needs node:http (Node.js 22+, Bun or Deno); use api.fetch elsewhere.');
  return http;
}

const NODE_HTTP: string = 'node:http';

/** The largest request body the server reads (10 MiB); a larger one is answered 413. */
export const MAX_BODY_BYTES = MAX_JSON_BODY_BYTES;

/** Reads the body, or `undefined` when it is larger than `limit` (reading stops there). */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.off('end', onEnd);
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString('utf8'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}

/** Writes a result; `HEAD` gets the headers of the `GET` (`content-length` included) and no body. */
function send(
  res: ServerResponse,
  result: MockResult,
  head: boolean,
  close = false,
  extra: Record<string, string> = {},
): void {
  const body = resultBody(result);
  const headers = Object.assign(resultHeaders(result), extra);
  headers['content-length'] = String(body === null ? 0 : Buffer.byteLength(body));
  if (close) headers.connection = 'close';
  res.writeHead(result.status, headers);
  res.end(head || body === null ? undefined : body);
}

async function serve(
  dispatch: Dispatch,
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  cors: CorsPolicy | undefined,
  observe: Observer,
): Promise<void> {
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const search = q < 0 ? '' : target.slice(q + 1);
  const method = (req.method ?? 'GET').toUpperCase();
  const origin = req.headers.origin;
  // A CORS preflight: `OPTIONS` with `Origin` and `Access-Control-Request-Method`.
  if (
    cors &&
    method === 'OPTIONS' &&
    origin !== undefined &&
    req.headers['access-control-request-method'] !== undefined
  ) {
    req.resume();
    const headers = preflightHeaders(cors, origin, req.headers['access-control-request-headers']);
    if (headers) {
      res.writeHead(204, { ...headers, 'content-length': '0' });
      res.end();
    } else send(res, failure(403, 'origin not allowed (CORS)'), false, false, { vary: 'Origin' });
    observe?.({ method, path, query: search, status: headers ? 204 : 403, durationMs: 0, control: false });
    return;
  }
  const extra = cors ? corsHeaders(cors, origin) : {};
  const body = await readBody(req, limit);
  if (body === undefined) {
    // Answer and close the connection: the rest of the body is never read.
    send(res, failure(413, `request body too large (over ${limit} bytes)`), method === 'HEAD', true, extra);
    return;
  }
  const authorization = req.headers.authorization ?? null;
  let result: MockResult;
  try {
    result = await dispatch({ method, path, search, authorization, body });
  } catch (error) {
    result = mockError(error);
  }
  if (result.drop) {
    req.socket.destroy();
    return;
  }
  if (res.destroyed || req.socket.destroyed) return; // the client left, or the server closed meanwhile
  send(res, result, method === 'HEAD', false, extra);
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
  const port = options.port ?? 0;
  const cors = corsPolicy(options.cors);
  const server = (await nodeHttp()).createServer((req, res) => {
    serve(dispatch, req, res, MAX_BODY_BYTES, cors, observe).catch(() => req.socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        onClose();
      });
      return closing;
    },
  };
}
