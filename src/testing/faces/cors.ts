/**
 * CORS for the HTTP server face (`api.listen({ cors })`, `merchant-fulfillment-mock --cors`): which
 * origins may call the mock from a browser, the answer to a preflight `OPTIONS` request and the
 * headers added to every other answer. Off unless asked for. No Node built-ins: Fetch values only.
 */
import { HEADER_NAME } from '../engine/faults.js';
import type { MockRequestEvent } from '../engine/request-log.js';
import { failure } from '../engine/result.js';
import { describeValue } from '../engine/validation.js';
import { toResponse } from './fetch.js';

/** The request headers a preflight always allows (more when the browser asks for them). */
const HEADERS = ['authorization', 'content-type', 'idempotency-key'];

/** The `Access-Control-Allow-Origin` value for a request from `origin`, `undefined` when it is not allowed. */
export type CorsPolicy = (origin: string | null) => string | undefined;

/**
 * Checks the `cors` option of `listen`: `'*'`, an origin such as `http://localhost:5173`, or a list
 * of them. `undefined` (or an empty list) turns CORS off. Throws a `TypeError` naming the option,
 * the entry refused described by its kind or length, never shown (it may hold credentials).
 */
export function corsPolicy(option: string | readonly string[] | undefined): CorsPolicy | undefined {
  if (option === undefined) return undefined;
  const list = typeof option === 'string' ? [option] : option;
  if (!Array.isArray(list)) throw new TypeError('listen: cors must be a string or a list of strings');
  for (const entry of list) {
    const origin = typeof entry === 'string' && URL.canParse(entry) ? new URL(entry).origin : undefined;
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
export async function answerCors(
  policy: CorsPolicy,
  request: Request,
  next: (request: Request) => Promise<Response>,
  observe?: (event: MockRequestEvent) => void,
): Promise<Response> {
  const origin = request.headers.get('origin');
  const allowed = policy(origin);
  if (
    request.method === 'OPTIONS' &&
    origin !== null &&
    request.headers.has('access-control-request-method')
  ) {
    const { pathname: path, search } = new URL(request.url);
    const status = allowed === undefined ? 403 : 204;
    observe?.({ method: 'OPTIONS', path, query: search.slice(1), status, durationMs: 0, control: false });
    if (allowed === undefined) {
      return toResponse({ ...failure(403, 'origin not allowed (CORS)'), headers: { vary: 'Origin' } });
    }
    const asked = (request.headers.get('access-control-request-headers') ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => HEADER_NAME.test(h));
    const headers = {
      'access-control-allow-origin': allowed,
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
      'access-control-allow-headers': [...new Set([...HEADERS, ...asked])].join(', '),
      'access-control-max-age': '600', // seconds a browser may keep this answer
      vary: 'Origin',
    };
    return new Response(null, { status: 204, headers });
  }
  const response = await next(request);
  if (response.type === 'error') return response; // a dropped connection: no headers to add
  response.headers.set('vary', 'Origin');
  if (allowed !== undefined) {
    response.headers.set('access-control-allow-origin', allowed);
    const exposed = 'x-rate-limit-max, x-rate-limit-used, retry-after, allow, x-mock-hint';
    response.headers.set('access-control-expose-headers', exposed);
  }
  return response;
}
