/**
 * CORS for the HTTP server face (`api.listen({ cors })`, `merchant-fulfillment-mock --cors`): which
 * origins may call the mock from a browser, the answer to a preflight `OPTIONS` request and the
 * headers added to every other answer. Off unless asked for. No Node built-ins: plain values only.
 */
import { HEADER_NAME } from '../engine/faults.js';
import { describeValue } from '../engine/validation.js';

/** The methods a preflight allows. */
const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** The request headers a preflight always allows (more when the browser asks for them). */
const HEADERS = ['authorization', 'content-type', 'idempotency-key'];
/** The answer headers a page may read. */
const EXPOSED = 'x-rate-limit-max, x-rate-limit-used, retry-after, allow, x-mock-hint';
/** How long a browser may cache a preflight answer, in seconds. */
const MAX_AGE = '600';

/** The origins allowed: every one (`*`) or a set of exact origins. */
export interface CorsPolicy {
  readonly any: boolean;
  readonly origins: ReadonlySet<string>;
}

/**
 * Checks the `cors` option of `listen`: `'*'`, an origin such as `http://localhost:5173`, or a list
 * of them. `undefined` (or an empty list) turns CORS off. Throws a `TypeError` naming the option,
 * the entry refused described by its kind or length, never shown (it may hold credentials).
 */
export function corsPolicy(option: string | readonly string[] | undefined): CorsPolicy | undefined {
  if (option === undefined) return undefined;
  const list = typeof option === 'string' ? [option] : option;
  if (!Array.isArray(list)) throw new TypeError('listen: cors must be a string or a list of strings');
  if (list.length === 0) return undefined;
  const origins = new Set<string>();
  let any = false;
  for (const entry of list) {
    if (entry === '*') {
      any = true;
      continue;
    }
    const origin = typeof entry === 'string' && URL.canParse(entry) ? new URL(entry).origin : undefined;
    if (!origin || origin === 'null' || origin !== entry.replace(/\/$/, '')) {
      throw new TypeError(
        `listen: cors must be '*' or origins such as 'http://localhost:5173' (scheme, host and port only), got ${describeValue(entry)}`,
      );
    }
    origins.add(origin);
  }
  return { any, origins };
}

/** The `Access-Control-Allow-Origin` value for a request from `origin`, if it is allowed. */
function allowOrigin(policy: CorsPolicy, origin: string | undefined): string | undefined {
  if (policy.any) return '*';
  return origin !== undefined && policy.origins.has(origin) ? origin : undefined;
}

/**
 * The headers of the answer to a preflight (status 204), or `undefined` when the origin is not
 * allowed. `requestHeaders` is the `Access-Control-Request-Headers` sent: valid names are allowed.
 */
export function preflightHeaders(
  policy: CorsPolicy,
  origin: string | undefined,
  requestHeaders: string | undefined,
): Record<string, string> | undefined {
  const allowed = allowOrigin(policy, origin);
  if (allowed === undefined) return undefined;
  const asked = (requestHeaders ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => HEADER_NAME.test(h));
  return {
    'access-control-allow-origin': allowed,
    'access-control-allow-methods': METHODS,
    'access-control-allow-headers': [...new Set([...HEADERS, ...asked])].join(', '),
    'access-control-max-age': MAX_AGE,
    vary: 'Origin',
  };
}

/** The headers added to every other answer: `Vary: Origin`, and the allow headers for an allowed origin. */
export function corsHeaders(policy: CorsPolicy, origin: string | undefined): Record<string, string> {
  const allowed = allowOrigin(policy, origin);
  if (allowed === undefined) return { vary: 'Origin' };
  return {
    'access-control-allow-origin': allowed,
    'access-control-expose-headers': EXPOSED,
    vary: 'Origin',
  };
}
