/**
 * Everything every request goes through once it is built (see `request.ts`): URL, auth and
 * headers, per-attempt timeout, retries with backoff and `Retry-After`, redirects, the client-side
 * rate limiter, error mapping, logging and the client's events. One ky instance per client.
 */
import type { KyInstance, Options as KyOptions } from 'ky';
import { VERSION } from '../version.js';
import { BodyTooLargeError, readBody } from './body.js';
import {
  APIError,
  APITimeoutError,
  APIUserAbortError,
  aborted,
  FulfillmentError,
  ResponseTooLargeError,
} from './errors.js';
import type { ClientEmitter } from './events.js';
import { MAX_TIMER_MS, parseRetryAfter, type RateLimitInfo, readRateLimit } from './headers.js';
import type { LevelledLogger } from './log.js';
import type { ResolvedClientOptions } from './options.js';
import { type RateLimiter, sleep } from './rate-limit.js';
import { publicUrl, type Redactor } from './redact.js';
import type { RequestSpec } from './request.js';
import { parseBody, type RawResponse } from './response.js';
import {
  failureOf,
  type KyErrors,
  neverSent,
  RETRYABLE_STATUS,
  retryReason,
  seconds,
  statusOf,
  whyWait,
} from './retry.js';
import { redirectTarget } from './url.js';

/** What the transport needs: the client's resolved options, its logger, redactor, rate limiter and events. */
export type TransportConfig = ResolvedClientOptions & {
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

const now = () => performance.now();

type KyModule = typeof import('ky');
let kyModule: Promise<KyModule> | undefined;

/** Sends requests with the SDK's retry, timeout and error rules. */
export class Transport {
  readonly #config: TransportConfig;
  #ky: KyInstance | undefined;
  #kyErrors: KyErrors | undefined;
  /** Headers of every request without / with a JSON body, built once per client. */
  readonly #baseHeaders: Record<string, string>;
  readonly #jsonHeaders: Record<string, string>;
  /** Whether `debug` / `info` lines are written (the level is fixed per client). */
  readonly #debug: boolean;
  readonly #info: boolean;

  constructor(config: TransportConfig) {
    this.#config = config;
    const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
    const agent = `merchant-fulfillment/${VERSION}${node ? ` node/${node}` : ''}`;
    const base = mergeHeaders({ accept: 'application/json', 'user-agent': agent }, config.defaultHeaders);
    // Set last so no default header can replace the credential by accident.
    base.authorization = `Bearer ${config.apiToken}`;
    this.#baseHeaders = base;
    this.#jsonHeaders = { ...base, 'content-type': 'application/json' };
    this.#debug = config.logger.enabled('debug');
    this.#info = config.logger.enabled('info');
  }

  /**
   * ky is loaded on the first request, not at import: importing the SDK stays cheap (ky's feature
   * checks load the runtime's fetch implementation), which matters for serverless cold starts.
   */
  async #loadKy(): Promise<KyInstance> {
    kyModule ??= import('ky');
    const { default: ky, NetworkError, TimeoutError } = await kyModule;
    this.#kyErrors = { NetworkError, TimeoutError };
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
    const { logger: log, rateLimiter, maxResponseBytes, maxRetryAfter } = this.#config;
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
    const redactor = options.headers ? this.#config.redactor.with(options.headers) : this.#config.redactor;
    // What every event and log line of an attempt carries: the URL without credentials.
    const at = { method, url: publicUrl(url, redactor), attempt: 1 };
    const started = now();
    // When the current attempt was sent and ended (0 before), for the events' durations.
    let sentAt = 0;
    let endedAt = 0;
    try {
      const request = this.#ky ?? (await this.#loadKy());
      for (; ; at.attempt++) {
        sentAt = endedAt = 0;
        if (signal?.aborted) throw aborted(signal);
        let attemptDone: (() => void) | undefined;
        let waited = 0;
        if (rateLimiter) {
          const asked = now();
          let paused = false;
          attemptDone = await rateLimiter.acquire(
            signal,
            (delayMs, cause) => {
              paused = true;
              if (!this.#info || delayMs <= LONG_WAIT_MS) return;
              const { why, reason } = rateLimiter.waitCause(cause);
              log.info(`Waiting ${seconds(delayMs)} before ${method} ${at.url}: ${why}`, {
                ...at,
                delayMs,
                reason,
              });
            },
            timeout,
            redactor,
          );
          if (paused) waited = now() - asked;
        }
        sentAt = now();
        events?.emit('request', { ...at, rateLimitWaitMs: waited });
        if (this.#debug) {
          const headers = redactor.headers(init.headers as Record<string, string>);
          log.debug(`→ ${method} ${at.url} (attempt ${at.attempt})`, { ...at, headers });
        }
        let failure: FulfillmentError;
        let retryable: boolean;
        let retryAfter: number | undefined;
        let failedRateLimit: RateLimitInfo | undefined;
        let target = url;
        try {
          let response = await request(target, init);
          for (
            let hops = 0;
            REDIRECT_STATUS.has(response.status) || response.type === 'opaqueredirect';
            hops++
          ) {
            rateLimiter?.observe(response.headers);
            await response.body?.cancel().catch(() => {}); // release the connection
            target = redirectTarget(
              response,
              target,
              { method, hops, origin: this.#config.origin },
              redactor,
            );
            response = await request(target, init);
          }
          rateLimiter?.observe(response.headers);
          const { status, headers } = response;
          if (this.#debug) {
            const durationMs = Math.round(now() - sentAt);
            const line = `← ${status} ${method} ${at.url} (${durationMs} ms, attempt ${at.attempt})`;
            log.debug(line, { ...at, status, durationMs, rateLimit: rateLimitOf(headers) });
          }
          const shownTarget = () => publicUrl(target, redactor);
          const text = await readBody(response, maxResponseBytes, timeout).catch((error: unknown) => {
            if (!(error instanceof BodyTooLargeError)) throw error;
            const { size } = error;
            throw new ResponseTooLargeError({
              status,
              method,
              url: shownTarget(),
              size,
              limit: maxResponseBytes,
            });
          });
          if (response.ok) {
            if (events) {
              const end = now();
              const timing = { durationMs: end - sentAt, elapsedMs: end - started };
              events.emit('response', { ...at, status, ...timing, rateLimit: rateLimitOf(headers) });
            }
            return { response, text, method, url: target, redactor };
          }
          const body = redactor.value(parseBody(text));
          const responseHeaders = redactor.responseHeaders(headers);
          failure = APIError.from({
            attempt: at.attempt,
            status,
            body,
            method,
            headers: responseHeaders,
            url: shownTarget(),
          });
          retryable = RETRYABLE_STATUS.has(status) && (idempotent || status === 429);
          if (events) failedRateLimit = rateLimitOf(headers);
          if (status === 429 || status === 503) retryAfter = parseRetryAfter(headers.get('retry-after'));
        } catch (error) {
          if (error instanceof FulfillmentError) throw error;
          failure = failureOf(
            error,
            this.#kyErrors,
            signal,
            { ...at, url: publicUrl(target, redactor) },
            redactor,
          );
          if (failure instanceof APIUserAbortError) throw failure;
          retryable = idempotent || (!(failure instanceof APITimeoutError) && neverSent(error));
        } finally {
          attemptDone?.();
          endedAt = now();
        }

        const status = statusOf(failure);
        if (!retryable || at.attempt > maxRetries) throw failure;
        if (retryAfter !== undefined && retryAfter > maxRetryAfter) {
          log.warn(
            `${method} ${at.url}: server asked to retry after ${retryAfter} s, more than maxRetryAfter (${maxRetryAfter} s); not waiting`,
            { ...at, status, retryAfterSeconds: retryAfter, maxRetryAfter },
          );
          throw failure;
        }
        const fromRetryAfter = retryAfter !== undefined;
        const delayMs = fromRetryAfter
          ? Math.min(Math.ceil(retryAfter! * 1000), MAX_TIMER_MS)
          : this.#backoff(at.attempt);
        const reason = retryReason(failure);
        const retry = { ...at, reason, status, delayMs, fromRetryAfter };
        const durationMs = endedAt - sentAt;
        events?.emit('retry', { ...retry, durationMs, rateLimit: failedRateLimit, error: failure });
        if (this.#info) {
          const line = `Retrying ${method} ${at.url} in ${delayMs} ms (retry ${at.attempt} of ${maxRetries}): ${failure.message}`;
          log.info(line + whyWait(reason, fromRetryAfter, delayMs), { ...retry, maxRetries });
        }
        await sleep(delayMs, signal);
      }
    } catch (error) {
      if (events && error instanceof FulfillmentError) {
        const end = now();
        events.emit('error', {
          ...at,
          errorName: error.name,
          error,
          status: statusOf(error),
          durationMs: sentAt === 0 ? 0 : (endedAt || end) - sentAt,
          elapsedMs: end - started,
        });
      }
      throw error;
    }
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
}

/** The rate-limit figures of an answer, or `undefined` when it has neither header. */
function rateLimitOf(headers: Headers): RateLimitInfo | undefined {
  const info = readRateLimit(headers);
  return info.used === undefined && info.max === undefined ? undefined : info;
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
