/**
 * Injected faults: failures (a status, or a dropped connection) and delays for chosen routes, each
 * for a number of requests, so merchants can test their retry handling.
 */
import * as z from 'zod/mini';
import { checkInput } from './check.js';
import type { JsonValue } from './json.js';
import { failure, type MockResult } from './result.js';
import { Delay } from './timers.js';

/**
 * A failure injected for matching requests, to test retry handling. A fault with only `latency`
 * slows the request down and then lets it through; any other fault answers instead of the API
 * (`status` 503 unless given) or, with `reset: true`, drops the connection.
 */
export interface MockFault {
  /** HTTP method to match (any case); every method when omitted. */
  method?: string;
  /**
   * Path to match: a string is compared with the request path (query excluded), e.g.
   * `'/merchant_api/v1/orders'`, where `*` stands for any run of characters
   * (`'/merchant_api/v1/skus/*'`); a RegExp is tested against it, e.g. `/^\/merchant_api\/v1\/skus(\/|$)/`.
   *
   * The RegExp is yours and run as it is (from the start of the path at each test, whatever its
   * `lastIndex`): a pattern that backtracks catastrophically blocks your test's event loop.
   */
  path: string | RegExp;
  /** Status to answer with. Default 503 (unless the fault only has `latency`). */
  status?: number;
  /** How many matching requests the fault applies to; unlimited when omitted. */
  times?: number;
  /** `Retry-After` header value in seconds (may be fractional, e.g. `0.05`). */
  retryAfter?: number;
  /**
   * Milliseconds to wait before answering (or before letting the request through), from 0 to
   * 2147483647 (2^31 - 1, what a timer can wait).
   */
  latency?: number;
  /**
   * Drop the connection instead of answering: the HTTP server destroys the socket, the msw
   * handler answers with a network error, `api.fetch` rejects with a `TypeError`.
   */
  reset?: boolean;
  /**
   * JSON body to answer with. Default `{ success: false, errors: ['<status text>'] }`. It must
   * serialize (no BigInt): the mock keeps its JSON copy, taken at once.
   */
  body?: JsonValue;
  /**
   * Extra response headers: valid header names (HTTP tokens) and values (no line break, nothing
   * over U+00FF). Copied at once.
   */
  headers?: Record<string, string>;
  /**
   * Apply the fault AFTER the request has been handled: the change is made (an order is stored,
   * a SKU updated), then the answer is replaced by the fault's (`status`, a dropped connection
   * with `reset`) or held back by its `latency` (past the client's timeout, say). The ambiguous
   * failures a client cannot tell from "nothing happened": store-then-5xx, store-then-reset,
   * store-then-timeout. Default `false`: the fault answers instead of the API.
   */
  after?: boolean;
}

/** An injected fault, as returned by `api.injectFault`. */
export interface MockFaultHandle {
  /** The fault's id (as `GET /__mock/faults` lists it and `DELETE /__mock/faults/{id}` removes it). */
  readonly id: number;
  /** Matching requests the fault has answered (or delayed) so far. */
  readonly hits: number;
  /** Matching requests it will still apply to (`Infinity` when unlimited, 0 once used up or removed). */
  readonly remaining: number;
  /** Removes the fault. */
  remove(): void;
}

/** A fault in force, with its counters: also its handle. */
interface ActiveFault extends MockFaultHandle {
  readonly spec: MockFault;
  /** What it does to a matching request, worked out once. */
  readonly effect: ReturnType<typeof effectOf>;
  /** What the path is tested with: a copy of a RegExp, or the RegExp a string path stands for. */
  readonly pattern: RegExp;
  hits: number;
  remaining: number;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'bad request',
  401: 'authentication required',
  403: 'forbidden',
  404: 'not found',
  408: 'request timeout',
  409: 'conflict',
  405: 'method not allowed',
  413: 'request body too large',
  422: 'unprocessable entity',
  429: 'rate limit exceeded',
  500: 'internal server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

/**
 * A fault refused by {@link Faults.add}: a `TypeError` (`Invalid fault: <field>: …`) that names the
 * field, so the control route can answer 422 for that field.
 */
export class InvalidFault extends TypeError {
  /** The field refused (`path`, `latency`, `body`, `headers`, …), or `fault` for the whole. */
  readonly field: string;
  /** The message without its `Invalid fault: ` lead: `<field>: <problem>`, or the problem of the whole. */
  readonly detail: string;
  constructor(field: string, detail: string) {
    super(`Invalid fault: ${detail}`);
    this.field = field;
    this.detail = detail;
  }
}

/** An HTTP header name (an RFC 9110 token). */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A header value Node's server and `fetch` both accept: no control character but tab, nothing over 0xFF. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * What a fault may hold, read into the copy the mock keeps (so that changing the given object later
 * changes nothing): the `body` as JSON writes it (taken once), the method upper-cased.
 */
export const FaultSchema = z.strictObject({
  path: z.union([z.string(), z.instanceof(RegExp)], { error: 'must be a string or a RegExp' }),
  method: z.optional(z.string().check(z.toUpperCase())),
  status: z.optional(z.int().check(z.minimum(200), z.maximum(599))),
  times: z.optional(z.int().check(z.minimum(1))),
  retryAfter: z.optional(z.number().check(z.minimum(0))),
  latency: z.optional(Delay),
  reset: z.optional(z.boolean()),
  after: z.optional(z.boolean()),
  body: z.optional(
    z.pipe(
      z.unknown(),
      z.transform((body, ctx) => {
        try {
          const text = JSON.stringify(body);
          if (text !== undefined) return JSON.parse(text) as JsonValue;
        } catch {}
        ctx.issues.push({
          code: 'custom',
          input: body,
          message: 'must be a JSON value that can be serialized',
        });
        return z.NEVER;
      }),
    ),
  ),
  headers: z.optional(
    z.pipe(
      // The names first, as a whole: a bad name (a token pasted by mistake?) is never repeated.
      z
        .record(z.string(), z.unknown())
        .check(
          z.refine(
            (h) => Object.keys(h).every((name) => HEADER_NAME.test(name)),
            'names must be HTTP tokens',
          ),
        ),
      z.record(
        z.string(),
        z
          .string()
          .check(z.regex(HEADER_VALUE, 'must be a valid header value (no line break, nothing over U+00FF)')),
      ),
    ),
  ),
});

/**
 * Checks a fault and returns the copy the mock keeps. Throws an {@link InvalidFault} naming the
 * field (its top-level name is what the control route reports).
 */
function prepare(given: MockFault): MockFault {
  return checkInput(FaultSchema, given, (field, problem) => {
    throw new InvalidFault(field.split(/[.[]/)[0] || 'fault', field ? `${field}: ${problem}` : problem);
  }) as MockFault;
}

/** A string path as the RegExp it stands for: the exact path, `*` standing for any run of characters. */
function globOf(path: string): RegExp {
  const parts = path.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`);
}

/**
 * What a matching fault does to a request: its latency (with `after`, between handling the request
 * and answering), the answer to give instead of the API's (`undefined` to let the request through).
 */
function effectOf(fault: MockFault): { latency: number; result: MockResult | undefined; after: boolean } {
  const { status = 503, body, reset, retryAfter, headers, latency = 0, after = false } = fault;
  const answers = [fault.status, body, reset || undefined, retryAfter, headers].some((v) => v !== undefined);
  if (fault.latency !== undefined && !answers) return { latency, result: undefined, after };
  if (reset) return { latency, result: { status: 0, drop: true }, after };
  const result = body !== undefined ? { status, body } : failure(status, STATUS_TEXT[status] ?? 'error');
  result.headers = status === 401 ? { 'www-authenticate': 'Bearer', ...headers } : { ...headers };
  if (retryAfter !== undefined) result.headers['retry-after'] = String(retryAfter);
  return { latency, result, after };
}

/** A fault in force, as `GET /__mock/faults` lists it. */
export interface FaultSummary {
  id: number;
  method: string | null;
  /** The exact path, or `null` for a pattern. */
  path: string | null;
  /** The RegExp source, or `null` for an exact path. */
  pathPattern: string | null;
  hits: number;
  /** `null` when unlimited. */
  remaining: number | null;
}

/** The faults of one mock, first match wins. Each gets an id (from 1). */
export class Faults {
  #active: ActiveFault[] = [];
  #lastId = 0;

  /** Adds a fault (checked, and copied: later changes to `given` change nothing) and returns its handle. */
  add(given: MockFault): MockFaultHandle {
    return this.addChecked(prepare(given));
  }

  /** Adds a fault `FaultSchema` already checked and copied (the mock's `faults` option). */
  addChecked(spec: MockFault): MockFaultHandle {
    const fault: ActiveFault = {
      id: ++this.#lastId,
      spec,
      effect: effectOf(spec),
      pattern: typeof spec.path === 'string' ? globOf(spec.path) : new RegExp(spec.path),
      hits: 0,
      remaining: spec.times ?? Number.POSITIVE_INFINITY,
      remove: () => this.remove(fault.id),
    };
    this.#active.push(fault);
    return fault;
  }

  /** Removes the fault with this id; `false` when none is in force. */
  remove(id: number): boolean {
    const fault = this.#active.find((f) => f.id === id);
    if (!fault) return false;
    fault.remaining = 0;
    this.#active = this.#active.filter((f) => f !== fault);
    return true;
  }

  /** Removes every fault and returns how many were in force. */
  clear(): number {
    for (const fault of this.#active) fault.remaining = 0;
    const count = this.#active.length;
    this.#active = [];
    return count;
  }

  /** The faults in force, oldest first. */
  list(): FaultSummary[] {
    return this.#active.map(({ id, spec: { method, path }, hits, remaining }) => ({
      id,
      method: method ?? null,
      path: typeof path === 'string' ? path : null,
      pathPattern: typeof path === 'string' ? null : path.source,
      hits,
      remaining: Number.isFinite(remaining) ? remaining : null,
    }));
  }

  /** Applies the first fault matching the request (counting it), or returns `undefined`. */
  take(method: string, path: string): ActiveFault['effect'] | undefined {
    // `search` starts from the start of the path each time, whatever a RegExp's `lastIndex`.
    const fault = this.#active.find(
      (f) => (f.spec.method ?? method) === method && path.search(f.pattern) >= 0,
    );
    if (!fault) return undefined;
    fault.hits += 1;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.remove(fault.id);
    return fault.effect;
  }
}
