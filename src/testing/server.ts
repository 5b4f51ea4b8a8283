/**
 * The HTTP server face: a `node:http` server that passes every request to the mock's core.
 * `close()` ends every connection (idle keep-alive ones included), so a process exits by itself.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { failure, type MockRequest, type MockResult, resultBody, resultHeaders } from './http.js';
import type { MockListenOptions, MockServer } from './types.js';

type Dispatch = (request: MockRequest) => Promise<MockResult>;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function serve(dispatch: Dispatch, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const request: MockRequest = {
    method: (req.method ?? 'GET').toUpperCase(),
    path: q < 0 ? target : target.slice(0, q),
    search: q < 0 ? '' : target.slice(q + 1),
    authorization: req.headers.authorization ?? null,
    body: await readBody(req),
  };
  let result: MockResult;
  try {
    result = await dispatch(request);
  } catch (error) {
    result = failure(500, `mock error: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (result.drop) {
    req.socket.destroy();
    return;
  }
  if (res.destroyed || req.socket.destroyed) return; // the client left, or the server closed meanwhile
  const body = resultBody(result);
  const headers = resultHeaders(result);
  headers['content-length'] = String(body === null ? 0 : Buffer.byteLength(body));
  res.writeHead(result.status, headers);
  res.end(body ?? undefined);
}

/**
 * Starts the server. `onClose` runs when `close()` is called (the mock cuts its pending response
 * delays short there).
 */
export async function startServer(
  dispatch: Dispatch,
  options: MockListenOptions,
  onClose: () => void,
): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new TypeError(`listen: port must be an integer from 0 to 65535, got ${String(port)}`);
  }
  const server = createServer((req, res) => {
    serve(dispatch, req, res).catch(() => req.socket.destroy());
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
