/**
 * Everything every request goes through once it is built (see `request.ts`): URL, auth and
 * headers, per-attempt timeout, retries with backoff and `Retry-After`, redirects, the client-side
 * rate limiter, what a failed attempt becomes and whether it is retried, logging and the client's
 * events. One ky instance per client.
 */
import type { KyInstance, Options as KyOptions } from 'ky';
import { VERSION } from '../version.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  aborted,
  FulfillmentError,
  type RateLimitError,
  ResponseTooLargeError,
  shortUrl,
} from './errors.js';
import type { ClientEmitter, RetryReason } from './events.js';
import { MAX_TIMER_MS } from './headers.js';
import type { LevelledLogger } from './log.js';
import type { ResolvedClientOptions } from './options.js';
import { type RateLimiter, sleep } from './rate-limit.js';
import { publicUrl, type Redactor } from './redact.js';
import type { RequestSpec } from './request.js';
import { parseBody, type RawResponse, readBody } from './response.js';
import { redirectTarget } from './url.js';

/** What the transport needs: the client's resolved options, its logger, redactor, rate limiter and events. */
export type TransportConfig = Omit<ResolvedClientOptions, 'logger'> & {
  logger: LevelledLogger;
  /** Keeps the client's secrets out of errors and logs. */
  redactor: Redactor;
  /** The client-side rate limiter shared by every request of the client, when one is on. */
  rateLimiter?: RateLimiter | undefined;
  /** The client's event listeners (`client.on`). */
  events?: ClientEmitter | undefined;
};

/** Waits longer than this (ms) for a rate limit are logged at `info`. */
const LONG_WAIT_MS = 1000;
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
const isRedirect = (r: Response) => REDIRECT_STATUS.has(r.status) || r.type === 'opaqueredirect';

type KyModule = typeof import('ky');
let kyModule: Promise<KyModule> | undefined;

/** Sends requests with the SDK's retry, timeout and error rules. */
export class Transport {
  readonly #config: TransportConfig;
  #ky: KyInstance | undefined;
  /** Headers of every request without / with a JSON body, built once per client. */
  readonly #baseHeaders: Record<string, string>;
  readonly #jsonHeaders: Record<string, string>;

  constructor(config: TransportConfig) {
    this.#config = config;
    const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
    const agent = `merchant-fulfillment/${VERSION}${node ? ` node/${node}` : ''}`;
    const base = mergeHeaders({ accept: 'application/json', 'user-agent': agent }, config.defaultHeaders);
    // Set last so no default header can replace the credential by accident.
    base.authorization = `Bearer ${config.apiToken}`;
    this.#baseHeaders = base;
    this.#jsonHeaders = { ...base, 'content-type': 'application/json' };
  }

  /**
   * ky is loaded on the first request, not at import: importing the SDK stays cheap (ky's feature
   * checks load the runtime's fetch implementation), which matters for serverless cold starts.
   */
  async #loadKy(): Promise<KyInstance> {
    kyModule ??= import('ky');
    const { default: ky } = await kyModule;
    const fetch = this.#config.fetch;
    this.#ky = ky.create({ retry: 0, throwHttpErrors: false, ...(fetch ? { fetch } : {}) });
    return this.#ky;
  }

  /**
   * Sends the request, retrying as the rules allow. Resolves with a 2xx response and its body,
   * read at once so that no socket or timer outlives the request even if the result is never
   * used; rejects with a typed `FulfillmentError`. Each attempt is bounded by `timeout` twice
   * over, as ky does it: once for the response to arrive, once for its body to be read. Events are
   * built only while someone listens (the listeners are counted when the request starts).
   */
  async send(spec: RequestSpec): Promise<RawResponse> {
    const { logger: log, rateLimiter, maxResponseBytes, maxRetryAfter, origin } = this.#config;
    const events = this.#config.events?.count ? this.#config.events : undefined;
    const { method, options = {} } = spec;
    const { signal, timeout = this.#config.timeout, maxRetries = this.#config.maxRetries } = options;
    const idempotent = spec.idempotent ?? method !== 'POST';
    const base = /^https?:\/\//i.test(spec.path) ? spec.path : this.#config.baseUrl + spec.path;
    const url = spec.query ? base + (base.includes('?') ? '&' : '?') + spec.query : base;
    // The SDK decides on redirects itself: the runtime must not follow one to another origin.
    const init: KyOptions = { method, headers: this.#headers(spec), timeout, redirect: 'manual' };
    if (spec.bodyText !== undefined) init.body = spec.bodyText;
    if (signal) init.signal = signal;
    const redactor = this.#config.redactor.with(options.headers);
    // What every event and log line of an attempt carries: the URL without credentials.
    const at = { method, url: publicUrl(url, redactor), attempt: 1 };
    try {
      const request = this.#ky ?? (await this.#loadKy());
      for (; ; at.attempt++) {
        if (signal?.aborted) throw aborted(signal);
        const attemptDone = await rateLimiter?.acquire(
          signal,
          (delayMs, reason) => {
            if (delayMs > LONG_WAIT_MS)
              log.write('info', `Waiting ${delayMs} ms before ${method} ${at.url}`, {
                ...at,
                delayMs,
                reason,
              });
          },
          timeout,
          redactor,
        );
        events?.emit('request', { ...at });
        if (log.debug) log.write('debug', `→ ${method} ${at.url} (attempt ${at.attempt})`, { ...at });
        let failure: FulfillmentError;
        let retryable: boolean;
        let retryAfter: number | undefined;
        let target = url;
        try {
          let response = await request(target, init);
          for (let hops = 0; isRedirect(response); hops++) {
            rateLimiter?.observe(response.headers);
            await response.body?.cancel().catch(() => {}); // release the connection
            target = redirectTarget(response, target, { method, hops, origin }, redactor);
            response = await request(target, init);
          }
          rateLimiter?.observe(response.headers);
          const { status, headers } = response;
          if (log.debug)
            log.write('debug', `← ${status} ${method} ${at.url} (attempt ${at.attempt})`, { ...at, status });
          const text = await readBody(response, maxResponseBytes, timeout, (size) => {
            const url = publicUrl(target, redactor);
            return new ResponseTooLargeError({ status, method, url, size, limit: maxResponseBytes });
          });
          if (response.ok) {
            events?.emit('response', { ...at, status });
            return { response, text, method, url: target, redactor };
          }
          const body = redactor.value(parseBody(text));
          const responseHeaders = redactor.responseHeaders(headers);
          const { attempt } = at;
          const url = publicUrl(target, redactor);
          failure = APIError.from({ attempt, status, body, method, headers: responseHeaders, url });
          retryable = RETRYABLE_STATUS.has(status) && (idempotent || status === 429);
          if (status === 429 || status === 503) retryAfter = (failure as RateLimitError).retryAfter;
        } catch (error) {
          if (error instanceof FulfillmentError) throw error;
          failure = failureOf(error, signal, { ...at, url: publicUrl(target, redactor) }, redactor);
          if (failure instanceof APIUserAbortError) throw failure;
          retryable = idempotent || (!(failure instanceof APITimeoutError) && neverSent(error));
        } finally {
          attemptDone?.();
        }

        const status = statusOf(failure);
        if (!retryable || at.attempt > maxRetries) throw failure;
        if (retryAfter !== undefined && retryAfter > maxRetryAfter) {
          log.write(
            'warn',
            `${method} ${at.url}: server asked to retry after ${retryAfter} s, more than maxRetryAfter (${maxRetryAfter} s); not waiting`,
            { ...at, status, retryAfterSeconds: retryAfter, maxRetryAfter },
          );
          throw failure;
        }
        const fromRetryAfter = retryAfter !== undefined;
        const delayMs = fromRetryAfter
          ? Math.min(Math.ceil(retryAfter! * 1000), MAX_TIMER_MS)
          : this.#backoff(at.attempt);
        const retry = { ...at, reason: retryReason(failure), status, delayMs, fromRetryAfter };
        events?.emit('retry', { ...retry, error: failure });
        const line = `Retrying ${method} ${at.url} in ${delayMs} ms (retry ${at.attempt} of ${maxRetries}): ${failure.message}`;
        log.write('info', line, { ...retry, maxRetries });
        await sleep(delayMs, signal);
      }
    } catch (error) {
      if (events && error instanceof FulfillmentError)
        events.emit('error', { ...at, errorName: error.name, error, status: statusOf(error) });
      throw error;
    }
  }

  #headers(spec: RequestSpec): Record<string, string> {
    const shared = spec.bodyText === undefined ? this.#baseHeaders : this.#jsonHeaders;
    const extra = spec.options?.headers;
    // The credential is set last: no header of the request can replace it.
    return extra ? { ...mergeHeaders({ ...shared }, extra), authorization: shared.authorization! } : shared;
  }

  /** Backoff before retry number `retry` (1-based): exponential from the initial delay, capped, with jitter. */
  #backoff(retry: number): number {
    const { initialRetryDelay, maxRetryDelay } = this.#config;
    const base = Math.min(initialRetryDelay * 2 ** (retry - 1), maxRetryDelay);
    // Jitter: between 75 % and 100 % of the computed delay.
    return Math.round(base * (1 - Math.random() * 0.25));
  }
}

/** Applies `extra` onto `target` (lower-cased names; `undefined` removes a header). */
function mergeHeaders(
  target: Record<string, string>,
  extra: Record<string, string | undefined>,
): Record<string, string> {
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete target[name.toLowerCase()];
    else target[name.toLowerCase()] = value;
  }
  return target;
}

/* What follows a failed attempt: what a library's failure becomes, whether it is retried, why. */

/** Statuses worth another attempt (429 even for a POST: the server did not handle it). */
const RETRYABLE_STATUS: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Maps what ky or fetch threw to the SDK's errors (`url` already without secrets). ky's errors are
 * known by name (`TimeoutError`, as the body read's own; `NetworkError`, whose cause is the runtime's).
 */
function failureOf(
  error: unknown,
  signal: AbortSignal | undefined,
  request: { method: string; url: string; attempt: number },
  redactor: Redactor,
): FulfillmentError {
  if (signal?.aborted) return aborted(signal);
  const { method } = request;
  const url = shortUrl(request.url);
  const { name, cause: inner } = (error ?? {}) as { name?: unknown; cause?: unknown };
  if (name === 'TimeoutError') {
    const message = `Request timed out: ${method} ${url}`;
    return new APITimeoutError({ ...request, message, cause: redactor.cause(error) });
  }
  const cause = name === 'NetworkError' && inner ? inner : error;
  const detail = redactor.text(describeCause(cause));
  const message = `Connection error: ${method} ${url}${detail ? ` (${detail})` : ''}`;
  return new APIConnectionError({ ...request, message, cause: redactor.cause(cause) });
}

/** The HTTP status an error carries, if any. */
const statusOf = (error: FulfillmentError) => (error as { status?: number | undefined }).status;

/** Why a failed attempt is retried. */
function retryReason(failure: FulfillmentError): RetryReason {
  if (failure instanceof APITimeoutError) return 'timeout';
  if (failure instanceof APIConnectionError) return 'connection';
  return statusOf(failure) === 429 ? 'rate_limited' : 'status';
}

/** True when some cause in the chain says the connection was never established. */
function neverSent(error: unknown): boolean {
  const seen = new Set<unknown>();
  const stack: unknown[] = [error];
  while (stack.length > 0 && seen.size < 20) {
    const current = stack.pop() as { code?: unknown; cause?: unknown; errors?: unknown } | null;
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    if (typeof current.code === 'string' && NOT_SENT_CODES.has(current.code)) return true;
    stack.push(current.cause, ...(Array.isArray(current.errors) ? current.errors : []));
  }
  return false;
}

/** The codes (or, below the top, messages) along a cause chain: `ECONNRESET: socket hang up`. */
function describeCause(error: unknown): string {
  const parts = new Set<string>();
  let current = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    if (typeof current.code === 'string') parts.add(current.code);
    else if (typeof current.message === 'string' && current.message && depth > 0) parts.add(current.message);
    current = current.cause as typeof current;
  }
  return [...parts].join(': ');
}
