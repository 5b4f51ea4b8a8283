/**
 * The Fetch API face: `api.handle(request)` and `api.fetch(input, init)` pass Fetch `Request`s to
 * the core and turn its results into `Response`s. A dropped connection (fault `reset`) is
 * `Response.error()` for `handle` (the msw face answers through it) and a rejected `TypeError` for
 * `fetch`, as a real `fetch` does.
 */
import type { Dispatch, MockRequest, MockResult } from '../engine/result.js';
import { resultBody, resultHeaders } from '../engine/result.js';

const BODYLESS = new Set(['GET', 'HEAD']);

/**
 * Converts a Fetch `Request`. `basePath` (the path of the mock's base URL, e.g. `/api`) is removed
 * from the front of the path when present.
 */
export async function fromFetchRequest(request: Request, basePath: string): Promise<MockRequest> {
  const url = new URL(request.url);
  let path = url.pathname;
  if (basePath && path.startsWith(`${basePath}/`)) path = path.slice(basePath.length);
  const method = request.method.toUpperCase();
  return {
    method,
    path,
    search: url.search.slice(1),
    authorization: request.headers.get('authorization'),
    body: BODYLESS.has(method) ? '' : await request.text(),
  };
}

/**
 * Converts a result to a Fetch `Response`; a dropped connection becomes `Response.error()`. The
 * answer to a `HEAD` request (`head`) has the status and headers of the `GET` and no body.
 */
export function toFetchResponse(result: MockResult, head = false): Response {
  if (result.drop) return Response.error();
  return new Response(head ? null : resultBody(result), {
    status: result.status,
    headers: resultHeaders(result),
  });
}

/** `api.handle`: answers one Fetch `Request` with the core (paths under `basePath`). */
export function fetchHandler(dispatch: Dispatch, basePath: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const converted = await fromFetchRequest(request, basePath);
    return toFetchResponse(await dispatch(converted), converted.method === 'HEAD');
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
