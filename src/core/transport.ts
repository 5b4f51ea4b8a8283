/**
 * Everything every request goes through once it is built (see `request.ts`): URL, auth and
 * headers, per-attempt timeout, retries with backoff and `Retry-After`, the client-side rate
 * limiter, error mapping and logging. One ky instance per client.
 */
import type { KyInstance, Options as KyOptions } from 'ky';
import { VERSION } from '../version.js';
import { BodyTimeoutError, BodyTooLargeError, readBody } from './body.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  FulfillmentError,
  RedirectError,
  ResponseTooLargeError,
} from './errors.js';
import type { ClientEmitter, RetryReason } from './events.js';
import { MAX_TIMER_MS, parseRetryAfter, type RateLimitInfo, readRateLimit } from './headers.js';
import type { LevelledLogger } from './log.js';
import type { ResolvedClientOptions } from './options.js';
import type { RateLimiter, RateLimitWaitCause } from './rate-limit.js';
import { publicUrl, type Redactor } from './redact.js';
import type { RequestSpec } from './request.js';
import { parseBody, type RawResponse } from './response.js';
import { sleep } from './sleep.js';
import { originOf } from './url.js';

/** What the transport needs: the client's resolved options, its logger and its rate limiter. */
export interface TransportConfig
  extends Pick<
    ResolvedClientOptions,
    | 'apiToken'
    | 'baseUrl'
    | 'origin'
    | 'timeout'
    | 'maxRetries'
    | 'maxRetryAfter'
    | 'initialRetryDelay'
    | 'maxRetryDelay'
    | 'fetch'
    | 'defaultHeaders'
    | 'maxResponseBytes'
  > {
  logger: LevelledLogger;
  /** Keeps the client's secrets out of errors and logs. */
  redactor: Redactor;
  /** The client-side rate limiter shared by every request of the client, when one is on. */
  rateLimiter?: RateLimiter | undefined;
  /** The client's event listeners (`client.on`). */
  events?: ClientEmitter | undefined;
}

/** One request's progress, kept only while someone listens to the client's events. */
interface Trace {
  readonly events: ClientEmitter;
  /** When `send` was called. */
  readonly started: number;
  /** The URL as events show it. */
  url: string;
  /** The current (or last) attempt. */
  attempt: number;
  /** When the current attempt was sent; 0 before it is. */
  sentAt: number;
  /** When the current attempt's outcome was in; 0 before it is. */
  endedAt: number;
}

/** Waits longer than this (ms) for a rate limit are logged at `info`. */
const LONG_WAIT_MS = 1000;

/** A monotonic clock in milliseconds. */
function now(): number {
  return performance.now();
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
/** Most same-origin redirects one attempt follows. */
export const MAX_REDIRECTS = 5;
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

function userAgent(): string {
  const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  return node ? `merchant-fulfillment/${VERSION} node/${node}` : `merchant-fulfillment/${VERSION}`;
}

/** True when some cause in the chain says the connection was never established. */
function neverSent(error: unknown): boolean {
  const seen = new Set<unknown>();
  const stack: unknown[] = [error];
  while (stack.length > 0 && seen.size < 20) {
    const current = stack.pop();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return true;
    stack.push((current as { cause?: unknown }).cause);
    const inner = (current as { errors?: unknown }).errors;
    if (Array.isArray(inner)) stack.push(...inner);
  }
  return false;
}

type KyModule = typeof import('ky');
let kyModule: Promise<KyModule> | undefined;
/**
 * ky is loaded on the first request, not at import: importing the SDK stays cheap (ky's feature
 * checks load the runtime's fetch implementation), which matters for serverless cold starts.
 */
function loadKy(): Promise<KyModule> {
  kyModule ??= import('ky');
  return kyModule;
}

/** Sends requests with the SDK's retry, timeout and error rules. */
export class Transport {
  readonly #config: TransportConfig;
  #ky: KyInstance | undefined;
  #kyErrors: Pick<KyModule, 'NetworkError' | 'TimeoutError'> | undefined;
  /** Headers of every request without / with a JSON body, built once per client. */
  readonly #baseHeaders: Record<string, string>;
  readonly #jsonHeaders: Record<string, string>;
  /** Keeps the token and every default header value out of errors and logs. */
  readonly #redactor: Redactor;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#redactor = config.redactor;
    const base: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent() };
    mergeHeaders(base, config.defaultHeaders);
    // Set last so no default header can replace the credential by accident.
    base.authorization = `Bearer ${config.apiToken}`;
    this.#baseHeaders = base;
    this.#jsonHeaders = { ...base, 'content-type': 'application/json' };
  }

  async #loadKy(): Promise<KyInstance> {
    const { default: ky, NetworkError, TimeoutError } = await loadKy();
    this.#kyErrors = { NetworkError, TimeoutError };
    this.#ky = ky.create({
      retry: 0,
      throwHttpErrors: false,
      ...(this.#config.fetch ? { fetch: this.#config.fetch } : {}),
    });
    return this.#ky;
  }

  /** Full URL for a path or a same-origin absolute URL. */
  url(path: string, query?: string): string {
    const base = /^https?:\/\//i.test(path) ? path : this.#config.baseUrl + path;
    if (!query) return base;
    return base + (base.includes('?') ? '&' : '?') + query;
  }

  #headers(spec: RequestSpec): Record<string, string> {
    const shared = spec.bodyText === undefined ? this.#baseHeaders : this.#jsonHeaders;
    const extra = spec.options?.headers;
    if (!extra) return shared;
    const headers = mergeHeaders({ ...shared }, extra);
    headers.authorization = shared.authorization!;
    return headers;
  }

  /** Backoff before retry number `retry` (1-based): exponential from the initial delay, capped, with jitter. */
  #backoff(retry: number): number {
    const { initialRetryDelay, maxRetryDelay } = this.#config;
    const base = Math.min(initialRetryDelay * 2 ** (retry - 1), maxRetryDelay);
    // Jitter: between 75 % and 100 % of the computed delay.
    return Math.round(base * (1 - Math.random() * 0.25));
  }

  /**
   * Sends the request, retrying as the rules allow. Resolves with a 2xx response and its body,
   * read at once so that no socket or timer outlives the request even if the result is never
   * used; rejects with a typed `FulfillmentError`.
   *
   * Each attempt is bounded by `timeout` twice over, as ky does it: once for the response to
   * arrive, once for its body to be read (a stalled body is cut off, its socket closed).
   *
   * With no event listener, the only cost of the client's events is the one `active` check here.
   */
  send(spec: RequestSpec): Promise<RawResponse> {
    const events = this.#config.events;
    if (!events?.active) return this.#send(spec, undefined);
    return this.#traced(spec, events);
  }

  /** {@link send} with events: the request's final failure is the `error` event. */
  async #traced(spec: RequestSpec, events: ClientEmitter): Promise<RawResponse> {
    const trace: Trace = { events, started: now(), url: '', attempt: 1, sentAt: 0, endedAt: 0 };
    try {
      return await this.#send(spec, trace);
    } catch (error) {
      if (error instanceof FulfillmentError) {
        const end = now();
        const last = trace.sentAt === 0 ? 0 : (trace.endedAt || end) - trace.sentAt;
        events.emit('error', {
          method: spec.method,
          url: trace.url || publicUrl(this.url(spec.path, spec.query), this.#redactor),
          attempt: trace.attempt,
          errorName: error.name,
          error,
          status: statusOf(error),
          durationMs: last,
          elapsedMs: end - trace.started,
        });
      }
      throw error;
    }
  }

  async #send(spec: RequestSpec, trace: Trace | undefined): Promise<RawResponse> {
    const config = this.#config;
    const log = config.logger;
    const options = spec.options ?? {};
    const signal = options.signal;
    const timeout = options.timeout ?? config.timeout;
    const maxRetries = options.maxRetries ?? config.maxRetries;
    const idempotent = spec.idempotent ?? spec.method !== 'POST';
    const url = this.url(spec.path, spec.query);
    const method = spec.method;
    // The SDK decides on redirects itself: the runtime must not follow one to another origin.
    const init: KyOptions = { method, headers: this.#headers(spec), timeout, redirect: 'manual' };
    if (spec.bodyText !== undefined) init.body = spec.bodyText;
    if (signal) init.signal = signal;
    const request = this.#ky ?? (await this.#loadKy());
    const redactor = this.#redactor.with(options.headers);
    // The URL as events and log lines show it (no credentials), worked out when first needed.
    let shown: string | undefined;
    if (trace) shown = trace.url = publicUrl(url, redactor);
    const debug = log.enabled('debug');
    const info = log.enabled('info');

    for (let attempt = 1; ; attempt++) {
      if (trace) {
        trace.attempt = attempt;
        trace.sentAt = 0;
        trace.endedAt = 0;
      }
      if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
      let attemptDone: (() => void) | undefined;
      let waited = 0;
      if (config.rateLimiter) {
        // A wait is only watched for when an event or an `info` line can tell of it.
        if (trace || info) {
          const asked = now();
          let paused = false;
          attemptDone = await config.rateLimiter.acquire(signal, (delayMs, cause) => {
            paused = true;
            if (info && delayMs > LONG_WAIT_MS) {
              shown ??= publicUrl(url, redactor);
              this.#logLimiterWait(method, shown, attempt, delayMs, cause);
            }
          });
          if (paused) waited = now() - asked;
        } else {
          attemptDone = await config.rateLimiter.acquire(signal);
        }
      }

      const started = trace || debug ? now() : 0;
      if (trace) {
        trace.sentAt = started;
        trace.events.emit('request', { method, url: shown!, attempt, rateLimitWaitMs: waited });
      }
      if (debug) {
        shown ??= publicUrl(url, redactor);
        log.debug(`→ ${method} ${shown} (attempt ${attempt})`, {
          method,
          url: shown,
          attempt,
          headers: redactor.headers(init.headers as Record<string, string>),
        });
      }

      let failure: FulfillmentError;
      let retryable: boolean;
      let retryAfter: number | undefined;
      let failedRateLimit: RateLimitInfo | undefined;
      let target = url;
      let pending = request(target, init);
      try {
        let response = await pending;
        for (let hops = 0; isRedirect(response); hops++) {
          config.rateLimiter?.observe(response.headers);
          await response.body?.cancel().catch(() => {}); // release the connection
          target = this.#redirect(response, target, method, hops, redactor);
          if (debug) {
            const to = publicUrl(target, redactor);
            log.debug(`↪ ${method} ${to} (redirect ${hops + 1} of at most ${MAX_REDIRECTS})`, {
              method,
              url: to,
              attempt,
              status: response.status,
            });
          }
          pending = request(target, init);
          response = await pending;
        }
        config.rateLimiter?.observe(response.headers);
        if (debug) {
          const durationMs = Math.round(now() - started);
          log.debug(`← ${response.status} ${method} ${shown} (${durationMs} ms, attempt ${attempt})`, {
            method,
            url: shown,
            attempt,
            status: response.status,
            durationMs,
            rateLimit: rateLimitOf(response.headers),
          });
        }
        let text: string;
        try {
          text = await readBody(response, config.maxResponseBytes, timeout);
        } catch (error) {
          if (!(error instanceof BodyTooLargeError)) throw error;
          throw new ResponseTooLargeError({
            status: response.status,
            method,
            url: publicUrl(target, redactor),
            size: error.size,
            limit: config.maxResponseBytes,
          });
        }
        if (response.ok) {
          if (trace) {
            const end = now();
            trace.events.emit('response', {
              method,
              url: shown!,
              attempt,
              status: response.status,
              durationMs: end - started,
              elapsedMs: end - trace.started,
              rateLimit: rateLimitOf(response.headers),
            });
          }
          return { response, text, method, url: target, redactor };
        }
        failure = APIError.from({
          attempt,
          status: response.status,
          body: redactor.value(parseBody(text)),
          headers: redactor.responseHeaders(response.headers),
          method,
          url: publicUrl(target, redactor),
        });
        retryable = RETRYABLE_STATUS.has(response.status) && (idempotent || response.status === 429);
        if (trace) failedRateLimit = rateLimitOf(response.headers);
        if (response.status === 429 || response.status === 503) {
          retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        }
      } catch (error) {
        if (error instanceof FulfillmentError) throw error;
        failure = this.#failure(error, signal, method, publicUrl(target, redactor), redactor, attempt);
        if (failure instanceof APIUserAbortError) throw failure;
        retryable = idempotent || (!(failure instanceof APITimeoutError) && neverSent(error));
      } finally {
        attemptDone?.();
        if (trace) trace.endedAt = now();
      }

      const status = statusOf(failure);
      if (!retryable || attempt > maxRetries) {
        if (debug) {
          shown ??= publicUrl(url, redactor);
          log.debug(`✗ ${method} ${shown}: ${failure.message}`, {
            method,
            url: shown,
            attempt,
            status,
            error: failure.name,
          });
        }
        throw failure;
      }
      let delay: number;
      if (retryAfter !== undefined) {
        if (retryAfter > config.maxRetryAfter) {
          shown ??= publicUrl(url, redactor);
          log.warn(
            `${method} ${shown}: server asked to retry after ${retryAfter} s, more than maxRetryAfter (${config.maxRetryAfter} s); not waiting`,
            {
              method,
              url: shown,
              attempt,
              status,
              retryAfterSeconds: retryAfter,
              maxRetryAfter: config.maxRetryAfter,
            },
          );
          throw failure;
        }
        delay = Math.min(Math.ceil(retryAfter * 1000), MAX_TIMER_MS);
      } else {
        delay = this.#backoff(attempt);
      }
      const reason = retryReason(failure);
      const fromRetryAfter = retryAfter !== undefined;
      if (trace) {
        shown ??= publicUrl(url, redactor);
        trace.events.emit('retry', {
          method,
          url: shown,
          attempt,
          reason,
          status,
          durationMs: trace.sentAt === 0 ? 0 : trace.endedAt - trace.sentAt,
          rateLimit: failedRateLimit,
          delayMs: delay,
          fromRetryAfter,
          error: failure,
        });
      }
      if (info) {
        shown ??= publicUrl(url, redactor);
        log.info(
          `Retrying ${method} ${shown} in ${delay} ms (retry ${attempt} of ${maxRetries}): ${failure.message}${whyWait(reason, fromRetryAfter, delay)}`,
          { method, url: shown, attempt, status, delayMs: delay, reason, fromRetryAfter, maxRetries },
        );
      }
      await sleep(delay, signal);
    }
  }

  /** Logs, at `info`, a wait for the rate limit (callers pass only those longer than {@link LONG_WAIT_MS}). */
  #logLimiterWait(
    method: string,
    url: string,
    attempt: number,
    delayMs: number,
    cause: RateLimitWaitCause,
  ): void {
    const log = this.#config.logger;
    const { requests, perMs } = this.#config.rateLimiter!;
    const why =
      cause === 'server'
        ? 'the server reported its rate limit spent (X-Rate-Limit-Used reached X-Rate-Limit-Max)'
        : `the client-side rate limit (rateLimit: ${requests} request${requests === 1 ? '' : 's'} per ${perMs} ms) is reached`;
    log.info(`Waiting ${seconds(delayMs)} before ${method} ${url}: ${why}`, {
      method,
      url,
      attempt,
      delayMs,
      reason: cause === 'server' ? 'server_rate_limit' : 'client_rate_limit',
    });
  }

  /**
   * Where a redirect may be followed to: the same origin (scheme, host and port), for a `GET`
   * (nothing is re-sent), within {@link MAX_REDIRECTS}. Anything else is a `RedirectError` naming
   * the target origin, and nothing is sent there.
   */
  #redirect(response: Response, from: string, method: string, hops: number, redactor: Redactor): string {
    const location = response.type === 'opaqueredirect' ? null : response.headers.get('location');
    const init = {
      status: response.status,
      body: '',
      headers: redactor.responseHeaders(response.headers),
      method,
      url: publicUrl(from, redactor),
    };
    if (location === null) {
      throw new RedirectError(init, undefined, 'the runtime does not expose where it leads');
    }
    let target: URL;
    try {
      target = new URL(location, from);
    } catch {
      throw new RedirectError(init, undefined, 'its Location is not a URL');
    }
    const origin = this.#config.origin;
    // The target's origin as errors show it: a server may put a secret in a host name.
    const shown = redactor.text(originOf(target));
    if (target.origin !== origin || target.username || target.password) {
      throw new RedirectError(
        init,
        shown,
        `it leads to ${shown}, not the configured origin ${origin}; the token must not leave it`,
      );
    }
    if (method !== 'GET') {
      throw new RedirectError(init, shown, `a ${method} is not repeated at another address`);
    }
    if (hops >= MAX_REDIRECTS) {
      throw new RedirectError(init, shown, `more than ${MAX_REDIRECTS} redirects`);
    }
    return target.href;
  }

  /** Maps what ky or fetch threw to the SDK's errors. */
  #failure(
    error: unknown,
    signal: AbortSignal | undefined,
    method: string,
    url: string,
    redactor: Redactor,
    attempt: number,
  ): FulfillmentError {
    if (error instanceof FulfillmentError) return error;
    if (signal?.aborted) return new APIUserAbortError(undefined, { cause: signal.reason });
    const kyErrors = this.#kyErrors;
    if (error instanceof BodyTimeoutError || (kyErrors && error instanceof kyErrors.TimeoutError)) {
      return new APITimeoutError({
        method,
        url,
        message: `Request timed out: ${method} ${url}`,
        cause: redactor.cause(error),
        attempt,
      });
    }
    const cause = kyErrors && error instanceof kyErrors.NetworkError && error.cause ? error.cause : error;
    const detail = redactor.text(describeCause(cause));
    return new APIConnectionError({
      method,
      url,
      message: `Connection error: ${method} ${url}${detail ? ` (${detail})` : ''}`,
      cause: redactor.cause(cause),
      attempt,
    });
  }
}

/** The HTTP status an error carries, if any. */
function statusOf(error: FulfillmentError): number | undefined {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/** Why a failed attempt is retried. */
function retryReason(failure: FulfillmentError): RetryReason {
  if (failure instanceof APITimeoutError) return 'timeout';
  if (failure instanceof APIConnectionError) return 'connection';
  return statusOf(failure) === 429 ? 'rate_limited' : 'status';
}

/** What a retry line adds about a rate limit or a wait the server asked for. */
function whyWait(reason: RetryReason, fromRetryAfter: boolean, delayMs: number): string {
  if (reason === 'rate_limited') {
    return fromRetryAfter
      ? ` (rate limited: waiting ${seconds(delayMs)} as the server's Retry-After asks)`
      : ` (rate limited: backing off ${seconds(delayMs)})`;
  }
  return fromRetryAfter ? ` (waiting ${seconds(delayMs)} as the server's Retry-After asks)` : '';
}

/** `1500` → `'1.5 s'`. */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 10_000 ? 2 : 0))} s`;
}

/** The rate-limit figures of an answer, or `undefined` when it has neither header. */
function rateLimitOf(headers: Headers): RateLimitInfo | undefined {
  const info = readRateLimit(headers);
  return info.used === undefined && info.max === undefined ? undefined : info;
}

function isRedirect(response: Response): boolean {
  return REDIRECT_STATUS.has(response.status) || response.type === 'opaqueredirect';
}

/** Applies `extra` onto `target` (lower-cased names; `undefined` removes a header). */
function mergeHeaders(
  target: Record<string, string>,
  extra: Record<string, string | undefined>,
): Record<string, string> {
  for (const [name, value] of Object.entries(extra)) {
    const key = name.toLowerCase();
    if (value === undefined) delete target[key];
    else target[key] = value;
  }
  return target;
}

function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    const message = (current as { message?: unknown }).message;
    if (typeof code === 'string') parts.push(code);
    else if (typeof message === 'string' && message && depth > 0) parts.push(message);
    current = (current as { cause?: unknown }).cause;
  }
  return [...new Set(parts)].join(': ');
}
