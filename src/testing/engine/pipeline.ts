/**
 * The request pipeline: turns one transport-neutral request into a result and logs it. Order of
 * checks for every API request: injected fault → response latency → authentication (401) → rate
 * limit (429) → route (404 / 405) → JSON body (400) → the route's handler (2xx / 404 / 422).
 * Requests on the side door (the control routes) go: authentication (401, except for the routes it
 * says are public) → their own answer, with no fault, latency, rate limit or log.
 *
 * `onChange` is told when a request may have changed the state: a route handler answered 2xx to a
 * method other than `GET` / `HEAD` / `OPTIONS` (also when an `after` fault then answers instead).
 * Refused requests (401, 404, 405, 400, 422, 429, a fault answering instead) do not tell it; the
 * side door tells of its own changes.
 *
 * Terse answers keep the provider's body and carry the precise reason in `x-mock-hint` (mock
 * only): 401 (no header, not `Bearer <token>`, or a token not accepted — never the token itself),
 * 404 (no route, the path as sent; no record with the path's id), 405 (the methods allowed) and
 * 400 (body not JSON).
 * The answers of injected faults are left exactly as the fault says.
 *
 * A request runs against the epoch it started in (the state, rate-limit windows, faults and log
 * that `reset()` replaces): when the mock is reset while the request waits (latency), it answers
 * 503 `mock was reset` and leaves the fresh epoch alone (nothing written, nothing logged).
 */
import type { Faults } from './faults.js';
import { type ReadJson, readJson } from './json.js';
import type { RateLimiter } from './rate-limit.js';
import type { MockRequestEvent, RequestLog } from './request-log.js';
import { type Dispatch, failure, type MockRequest, type MockResult, mockError } from './result.js';
import { type MatchOf, type NotFound, notFoundHint, type RouteHandler } from './router.js';
import type { Timers } from './timers.js';

/** What `reset()` replaces: a request runs against the epoch it started in. */
export interface Epoch<S> {
  readonly state: S;
  readonly limiter: RateLimiter;
  readonly faults: Faults;
  readonly log: RequestLog;
}

/** Requests answered before (and instead of) the API pipeline: the control routes. */
export interface SideDoor {
  /** Whether the side door answers this path. */
  owns(path: string): boolean;
  /** Whether this request may be answered without a valid token (documentation only). */
  isPublic(method: string, path: string): boolean;
  /**
   * Answers an authenticated request; `body.bad` says the body was not JSON, `search` is the query
   * string without `?`.
   */
  answer(method: string, path: string, body: ReadJson, search: string): Promise<MockResult>;
}

/** What the pipeline runs on. */
export interface PipelineSetup<S> {
  /** Accepted API tokens. */
  tokens: ReadonlySet<string>;
  /** Milliseconds added to every API response. */
  latency: number;
  /** The mock's clock. */
  now: () => Date;
  timers: Timers;
  /** The current epoch. */
  epoch: () => Epoch<S>;
  /** Finds the API handler of a method and path. */
  route: (method: string, path: string) => MatchOf<RouteHandler<S>>;
  sideDoor: SideDoor;
  /**
   * Told of every answered request (API and control routes), what it was, its status and
   * duration. It must not throw (the mock's own catches the listener's errors).
   */
  onRequest?: ((event: MockRequestEvent) => void) | undefined;
  /**
   * Told after an API route handler answered 2xx to a method other than `GET` / `HEAD` /
   * `OPTIONS`: the state may have changed. It must not throw, as `onRequest`.
   */
  onChange?: (() => void) | undefined;
}

/** Methods whose body is read (other methods' bodies are ignored). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The `400` of a body that is not JSON (the reason in `x-mock-hint`). */
export function badBody(headers: Record<string, string> = {}): MockResult {
  return withHint({ ...failure(400, 'bad request'), headers }, 'request body is not JSON');
}

/**
 * The answer to a request no route of a table takes (`what`: `API`, `control`): 404 with the
 * {@link notFoundHint} (`more` after it), or 405 with the methods allowed.
 */
export function unmatched(
  match: NotFound | { kind: 'wrong_method'; allow: string[] },
  what: string,
  { method, path }: { method: string; path: string },
  headers: Record<string, string> = {},
  more = '',
): MockResult {
  if (match.kind === 'not_found') {
    return withHint({ ...failure(404, 'not found'), headers }, `${notFoundHint(what, method, match)}${more}`);
  }
  const allow = match.allow.join(', ');
  return withHint(
    { ...failure(405, 'method not allowed'), headers: { ...headers, allow } },
    `${method} is not allowed on ${path} (allowed: ${allow})`,
  );
}

/**
 * `result` with the mock-only `x-mock-hint` header saying precisely why it was refused (its body,
 * the provider's terse answer, unchanged). A hint already set is kept.
 */
export function withHint(result: MockResult, hint: string): MockResult {
  return { ...result, headers: { 'x-mock-hint': hint, ...result.headers } };
}

/** The 401 of a request without a valid token, saying why (never the token itself). */
function unauthorized({ authorization }: MockRequest, headers?: Record<string, string>) {
  const hint = !authorization
    ? 'no Authorization header: send Authorization: Bearer <token>'
    : !BEARER.test(authorization)
      ? 'the Authorization header is not of the form Bearer <token>'
      : "the bearer token is not one of the mock's tokens";
  const result = failure(401, 'authentication required');
  return withHint({ ...result, headers: { ...headers, 'www-authenticate': 'Bearer' } }, hint);
}

/** What the request log and `onRequest` tell of an answered request. */
const seen = ({ method, path, search }: MockRequest, result: MockResult) => ({
  method,
  path,
  query: search,
  status: result.drop ? 0 : result.status,
});

/** The core every face calls: answers a request (see the module comment) and logs it. */
export function createPipeline<S>(setup: PipelineSetup<S>): Dispatch {
  const { tokens, timers, now } = setup;

  /** An API request against `at`, the epoch it started in (see the module comment for the order). */
  async function answer(at: Epoch<S>, request: MockRequest, token: string | undefined, body: ReadJson) {
    // A wait the mock's reset cut short ends the request (answered 503 by `dispatch`).
    const wait = async (ms: number) => {
      await timers.wait(ms);
      if (setup.epoch() !== at) throw new Error('mock was reset');
    };
    const fault = at.faults.take(request.method, request.path);
    if (fault && !fault.after) {
      await wait(fault.latency);
      if (fault.result) {
        const used = token === undefined ? 0 : at.limiter.hit(token, now().getTime(), false).used;
        return { ...fault.result, headers: { ...at.limiter.headers(used), ...fault.result.headers } };
      }
    }
    await wait(setup.latency);
    if (token === undefined) return unauthorized(request, at.limiter.headers(0));
    const time = now();
    const verdict = at.limiter.hit(token, time.getTime());
    const headers = at.limiter.headers(verdict.used, verdict.retryAfter);
    if (verdict.retryAfter) return { ...failure(429, 'rate limit exceeded'), headers };
    const match = setup.route(request.method, request.path);
    if (match.kind !== 'found') return unmatched(match, 'API', request, headers);
    if (body.bad) return badBody(headers);
    const result = match.handler({
      state: at.state,
      now: time,
      query: new URLSearchParams(request.search),
      body: body.value,
      id: match.id,
    });
    if (result.status >= 200 && result.status < 300 && !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
      setup.onChange?.();
    }
    let answered: MockResult = { ...result, headers: { ...headers, ...result.headers } };
    if (answered.status === 404 && match.id > 0) {
      answered = withHint(answered, `no record with id ${match.id} (${request.method} ${request.path})`);
    }
    if (!fault?.after) return answered;
    // The request was handled (its change made): now the fault's latency and answer.
    await wait(fault.latency);
    return fault.result
      ? { ...fault.result, headers: { ...answered.headers, ...fault.result.headers } }
      : answered;
  }

  async function dispatch(request: MockRequest): Promise<MockResult> {
    const at = setup.epoch();
    const started = now().toISOString();
    const body = BODY_METHODS.has(request.method) ? readJson(request.body) : { value: undefined, bad: false };
    const sent = BEARER.exec(request.authorization ?? '')?.[1];
    /** The request's token when it is one of the mock's. */
    const token = sent !== undefined && tokens.has(sent) ? sent : undefined;
    if (setup.sideDoor.owns(request.path)) {
      if (!token && !setup.sideDoor.isPublic(request.method, request.path)) return unauthorized(request);
      return setup.sideDoor.answer(request.method, request.path, body, request.search).catch(mockError);
    }
    const result = await answer(at, request, token, body).catch(mockError);
    if (setup.epoch() !== at) return failure(503, 'mock was reset');
    at.log.add({ ...seen(request, result), body: body.value, at: started });
    return result;
  }

  return async (request) => {
    const started = performance.now();
    const result = await dispatch(request);
    const control = setup.sideDoor.owns(request.path);
    setup.onRequest?.({ ...seen(request, result), durationMs: performance.now() - started, control });
    return result;
  };
}
