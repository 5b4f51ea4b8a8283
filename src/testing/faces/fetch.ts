/**
 * The Fetch API face, the one request adapter of the kit: `api.handle(request)` and
 * `api.fetch(input, init)` pass Fetch `Request`s to the core and turn its results into `Response`s;
 * the msw face and the HTTP server face (`server.ts`) answer through `handle` too. A dropped
 * connection (fault `reset`) is `Response.error()` for `handle` and a rejected `TypeError` for
 * `fetch`, as a real `fetch` does.
 */
import { type Dispatch, type MockResult, resultBody, resultHeaders } from '../engine/result.js';

/** The `Response` of a result, with its `content-length`; `head`: the headers only (a `HEAD`). */
export function toResponse(result: MockResult, head = false): Response {
  const body = resultBody(result);
  const bytes = body === null ? null : new TextEncoder().encode(body);
  const headers = { ...resultHeaders(result), 'content-length': String(bytes?.length ?? 0) };
  return new Response(head ? null : bytes, { status: result.status, headers });
}

/**
 * `api.handle`: answers one Fetch `Request` with the core. `basePath` (the path of the mock's base
 * URL, e.g. `/api`) is removed from the front of the path when present. A dropped connection is
 * `Response.error()`; a `HEAD` gets the status and headers of the `GET` and no body. The HTTP
 * server passes `raw`, the method and request target as sent: a `TRACE` (which a `Request` cannot
 * carry) is answered, and a path with `..` is not resolved before routing.
 */
export function fetchHandler(
  dispatch: Dispatch,
  basePath: string,
): (request: Request, raw?: { method: string; target: string }) => Promise<Response> {
  return async (request, raw) => {
    const url = new URL(request.url);
    const target = raw?.target ?? url.pathname + url.search;
    const query = target.indexOf('?');
    let path = query < 0 ? target : target.slice(0, query);
    if (basePath && path.startsWith(`${basePath}/`)) path = path.slice(basePath.length);
    const method = (raw?.method ?? request.method).toUpperCase();
    const result = await dispatch({
      method,
      path,
      search: query < 0 ? '' : target.slice(query + 1),
      authorization: request.headers.get('authorization'),
      body: method === 'GET' || method === 'HEAD' ? '' : await request.text(),
    });
    return result.drop ? Response.error() : toResponse(result, method === 'HEAD');
  };
}

/** `api.fetch`: a `fetch` served by `handle` in-process; a dropped connection rejects with a `TypeError`. */
export function inProcessFetch(
  handle: (request: Request) => Promise<Response>,
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const response = await handle(new Request(input, init));
    if (response.type === 'error') {
      throw new TypeError('fetch failed', {
        cause: new Error('connection reset by the mock (injected fault)'),
      });
    }
    return response;
  };
}
