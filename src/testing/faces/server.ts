/**
 * The HTTP server face: a `node:http` server whose requests become Fetch `Request`s, answered by
 * the Fetch face (`fetch.ts`, the one request adapter), with CORS when asked for (`listen({ cors })`,
 * `merchant-fulfillment-mock --cors`: which origins may call the mock from a browser, the answer to
 * a preflight `OPTIONS` request and the headers added to every other answer). `close()` ends every
 * connection (idle keep-alive ones included), so a process exits by itself. Request bodies are
 * capped (`MAX_BODY_BYTES`); `HEAD` answers as `GET` without the body.
 */
import type * as Http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HEADER_NAME } from '../engine/faults.js';
import { MAX_BODY_BYTES } from '../engine/json.js';
import type { MockRequestEvent } from '../engine/request-log.js';
import { type Dispatch, failure } from '../engine/result.js';
import { describeValue } from '../engine/validation.js';
import { nodeBuiltin } from './args.js';
import { fetchHandler, toResponse } from './fetch.js';
import type { MockListenOptions, MockServer } from './listen.js';

/** The `Access-Control-Allow-Origin` value for a request from `origin`, `undefined` when it is not allowed. */
type CorsPolicy = (origin: string | null) => string | undefined;

/**
 * Checks the `cors` option of `listen`: `'*'`, an origin such as `http://localhost:5173`, or a list
 * of them. `undefined` (or an empty list) turns CORS off. Throws a `TypeError` naming the option,
 * the entry refused described by its kind or length, never shown (it may hold credentials).
 */
function corsPolicy(option: string | readonly string[] | undefined): CorsPolicy | undefined {
  if (option === undefined) return undefined;
  const list = typeof option === 'string' ? [option] : option;
  if (!Array.isArray(list)) throw new TypeError('listen: cors must be a string or a list of strings');
  for (const entry of list) {
    const origin = URL.canParse(entry) ? new URL(entry).origin : undefined;
    if (entry !== '*' && (!origin || origin === 'null' || origin !== entry.replace(/\/$/, ''))) {
      throw new TypeError(
        `listen: cors must be '*' or origins such as 'http://localhost:5173' (scheme, host and port only), got ${describeValue(entry)}`,
      );
    }
  }
  const origins = new Set(list.map((entry) => entry.replace(/\/$/, '')));
  if (origins.size === 0) return undefined;
  return (origin) => (origins.has('*') ? '*' : origin !== null && origins.has(origin) ? origin : undefined);
}

/**
 * Answers `request` under `policy`: a preflight (`OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`) here, 204 with the allow headers (the headers the browser asks
 * for among them) or 403 for an origin not allowed, told to `observe` as the pipeline tells of the
 * others; any other request with `next`, its answer given `Vary: Origin` and, for an allowed
 * origin, `Access-Control-Allow-Origin` and the headers a page may read.
 */
async function answerCors(
  policy: CorsPolicy,
  request: Request,
  next: (request: Request) => Promise<Response>,
  target: string,
  observe?: (event: MockRequestEvent) => void,
): Promise<Response> {
  const origin = request.headers.get('origin');
  const allowed = policy(origin);
  if (request.method === 'OPTIONS' && origin && request.headers.has('access-control-request-method')) {
    const [path = '/', query = ''] = target.split(/\?(.*)/s); // the path as sent, as every request's
    const status = allowed === undefined ? 403 : 204;
    observe?.({ method: 'OPTIONS', path, query, status, durationMs: 0, control: false });
    if (allowed === undefined) {
      return toResponse({ ...failure(403, 'origin not allowed (CORS)'), headers: { vary: 'Origin' } });
    }
    // The headers the mock reads, and the valid names among those the browser asks for.
    const asked = `authorization,content-type,idempotency-key,${request.headers.get('access-control-request-headers') ?? ''}`;
    const names = new Set(asked.split(',').map((h) => h.trim().toLowerCase()));
    const headers = {
      'access-control-allow-origin': allowed,
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
      'access-control-allow-headers': [...names].filter((h) => HEADER_NAME.test(h)).join(', '),
      'access-control-max-age': '600', // seconds a browser may keep this answer
      vary: 'Origin',
    };
    return new Response(null, { status: 204, headers });
  }
  const response = await next(request);
  const exposed = 'x-rate-limit-max, x-rate-limit-used, retry-after, allow, x-mock-hint';
  const allow = allowed && {
    'access-control-allow-origin': allowed,
    'access-control-expose-headers': exposed,
  };
  // A dropped connection has no headers to set.
  if (response.type !== 'error') {
    for (const [name, value] of Object.entries({ vary: 'Origin', ...allow }))
      response.headers.set(name, value);
  }
  return response;
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
      // A `Request` cannot carry CONNECT, TRACE or TRACK: the method as sent goes to the core beside it.
      const carried = /^(CONNECT|TRACE|TRACK)$/i.test(method) ? 'GET' : method;
      const withBody = body?.length && carried !== 'GET' && carried !== 'HEAD';
      const headers = req.headers as Record<string, string>;
      const request = new Request(`http://mock${req.url}`, {
        method: carried,
        headers,
        ...(withBody && { body }),
      });
      // A body too large is answered and the connection closed: the rest of it is never read.
      const tooLarge = failure(413, `request body too large (over ${MAX_BODY_BYTES} bytes)`);
      const next =
        body === undefined
          ? async () => toResponse({ ...tooLarge, headers: { connection: 'close' } }, method === 'HEAD')
          : (request: Request) => handle(request, { method, target: req.url ?? '/' });
      const response = await (policy
        ? answerCors(policy, request, next, req.url ?? '/', observe)
        : next(request));
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
