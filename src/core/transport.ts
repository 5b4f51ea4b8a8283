/**
 * Everything every request goes through: URL, auth and headers, per-attempt timeout, retries with
 * backoff and `Retry-After`, error mapping and logging. One ky instance per client.
 */
import ky, { type KyInstance, NetworkError, TimeoutError } from 'ky';
import { VERSION } from '../version.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  FulfillmentError,
  parseRetryAfter,
  ResponseValidationError,
} from './errors.js';
import { type LevelledLogger, redactHeaders } from './log.js';
import { sleep } from './sleep.js';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Per-request options: the last argument of every resource method. Never sent to the API. */
export interface RequestOptions {
  /** Aborts the request, including any retry wait (rejects with `APIUserAbortError`). */
  signal?: AbortSignal | undefined;
  /** Milliseconds per attempt; overrides the client's `timeout`. */
  timeout?: number | undefined;
  /** Extra attempts after the first; overrides the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Extra headers for this request (a value of `undefined` removes a default header). */
  headers?: Record<string, string | undefined> | undefined;
}

/** One API call, as the resources describe it. */
export interface RequestSpec {
  method: HttpMethod;
  /** Path below the service root (`/merchant_api/v1/skus`), or an absolute URL on the same origin. */
  path: string;
  /** Encoded query string without `?` (see `encodeQuery`). */
  query?: string | undefined;
  /** JSON body (already validated). */
  body?: unknown;
  /**
   * Whether the request may be repeated safely. Defaults to true for every method but POST.
   * A non-idempotent request is retried only when it provably never reached the server's logic.
   */
  idempotent?: boolean | undefined;
  options?: RequestOptions | undefined;
}

/** Resolved transport settings. */
export interface TransportConfig {
  apiToken: string;
  /** Service root, normalised, without a trailing slash. */
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  /** Longest `Retry-After` (seconds) the SDK waits for; longer asks fail at once. */
  maxRetryAfter: number;
  /** First backoff delay in ms (doubles each retry). */
  initialRetryDelay: number;
  /** Cap of the backoff delay in ms. */
  maxRetryDelay: number;
  fetch: typeof globalThis.fetch | undefined;
  defaultHeaders: Record<string, string | undefined>;
  logger: LevelledLogger;
  /** Called before each attempt; may wait (the client-side rate limiter). */
  beforeAttempt?: ((signal: AbortSignal | undefined) => Promise<void> | void) | undefined;
  /** Called with every response's headers (the client-side rate limiter reads them). */
  onResponse?: ((response: Response) => void) | undefined;
}

/** A response received with a 2xx status, body not yet read. */
export interface RawResponse {
  response: Response;
  /** Request method, for messages. */
  method: string;
  /** Request URL, for messages. */
  url: string;
  /** Reads the body as text and releases the attempt's timer. */
  text(): Promise<string>;
  /** Releases the attempt's timer without reading the body. */
  release(): void;
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
const TIMEOUT = Symbol('timeout');

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

/** Parses a body as JSON when it looks like JSON; otherwise returns the text. */
export function parseBody(text: string): unknown {
  if (text === '') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Reads a 2xx body as JSON. An empty body (or a 204) gives `undefined` when `allowEmpty`, else a
 * `ResponseValidationError`; a body that is not JSON is a `ResponseValidationError` keeping the text.
 */
export async function readJson(raw: RawResponse, allowEmpty: boolean): Promise<unknown> {
  const text = await raw.text();
  const context = { status: raw.response.status, method: raw.method, url: raw.url };
  if (raw.response.status === 204 || text.trim() === '') {
    if (allowEmpty) return undefined;
    throw new ResponseValidationError({
      body: text,
      issues: [{ path: '', message: 'expected a JSON body, got an empty response' }],
      ...context,
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ResponseValidationError({
      body: text,
      issues: [{ path: '', message: `expected JSON, got ${JSON.stringify(text.slice(0, 80))}` }],
      ...context,
    });
  }
}

/** Sends requests with the SDK's retry, timeout and error rules. */
export class Transport {
  readonly #config: TransportConfig;
  readonly #ky: KyInstance;
  readonly #userAgent = userAgent();

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#ky = ky.create({
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      ...(config.fetch ? { fetch: config.fetch } : {}),
    });
  }

  /** The configured service root (no trailing slash). */
  get baseUrl(): string {
    return this.#config.baseUrl;
  }

  /** Full URL for a path or a same-origin absolute URL. */
  url(path: string, query?: string): string {
    const base = /^https?:\/\//i.test(path) ? path : this.#config.baseUrl + path;
    if (!query) return base;
    return base + (base.includes('?') ? '&' : '?') + query;
  }

  #headers(spec: RequestSpec): Headers {
    const headers = new Headers();
    headers.set('accept', 'application/json');
    headers.set('user-agent', this.#userAgent);
    if (spec.body !== undefined) headers.set('content-type', 'application/json');
    const apply = (extra: Record<string, string | undefined> | undefined) => {
      if (!extra) return;
      for (const [name, value] of Object.entries(extra)) {
        if (value === undefined) headers.delete(name);
        else headers.set(name, value);
      }
    };
    apply(this.#config.defaultHeaders);
    apply(spec.options?.headers);
    // Set last so no default or per-request header can replace the credential by accident.
    headers.set('authorization', `Bearer ${this.#config.apiToken}`);
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
   * Sends the request, retrying as the rules allow. Resolves with a 2xx response whose body is
   * still unread; rejects with a typed `FulfillmentError`.
   */
  async send(spec: RequestSpec): Promise<RawResponse> {
    const config = this.#config;
    const log = config.logger;
    const options = spec.options ?? {};
    const signal = options.signal;
    const timeout = options.timeout ?? config.timeout;
    const maxRetries = options.maxRetries ?? config.maxRetries;
    const idempotent = spec.idempotent ?? spec.method !== 'POST';
    const url = this.url(spec.path, spec.query);
    const headers = this.#headers(spec);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const method = spec.method;

    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
      if (config.beforeAttempt) await config.beforeAttempt(signal);

      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(TIMEOUT), timeout);
      const attemptSignal = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
      const started = Date.now();
      if (log.enabled('debug')) {
        log.debug(`→ ${method} ${url} (attempt ${attempt})`, { headers: redactHeaders(headers) });
      }

      let failure: FulfillmentError;
      let retryable: boolean;
      let retryAfter: number | undefined;
      try {
        const response = await this.#ky(url, {
          method,
          headers,
          signal: attemptSignal,
          ...(body === undefined ? {} : { body }),
        });
        config.onResponse?.(response);
        if (log.enabled('debug')) {
          log.debug(`← ${response.status} ${method} ${url} (${Date.now() - started} ms, attempt ${attempt})`);
        }
        if (response.ok) {
          let released = false;
          const release = () => {
            if (!released) {
              released = true;
              clearTimeout(timer);
            }
          };
          return {
            response,
            method,
            url,
            release,
            text: async () => {
              try {
                return await response.text();
              } catch (error) {
                throw this.#connectionError(error, controller, signal, method, url);
              } finally {
                release();
              }
            },
          };
        }
        let text: string;
        try {
          text = await response.text();
        } finally {
          clearTimeout(timer);
        }
        const apiError = APIError.from({
          status: response.status,
          body: parseBody(text),
          headers: response.headers,
          method,
          url,
        });
        failure = apiError;
        retryable = RETRYABLE_STATUS.has(response.status) && (idempotent || response.status === 429);
        if (response.status === 429 || response.status === 503) {
          retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        }
      } catch (error) {
        clearTimeout(timer);
        if (error instanceof FulfillmentError) throw error;
        failure = this.#connectionError(error, controller, signal, method, url);
        if (failure instanceof APIUserAbortError) throw failure;
        retryable = idempotent || (!(failure instanceof APITimeoutError) && neverSent(error));
      }

      if (!retryable || attempt > maxRetries) {
        log.debug(`✗ ${method} ${url}: ${failure.message}`);
        throw failure;
      }
      let delay: number;
      if (retryAfter !== undefined) {
        if (retryAfter > config.maxRetryAfter) {
          log.warn(
            `${method} ${url}: server asked to retry after ${retryAfter} s, more than maxRetryAfter (${config.maxRetryAfter} s); not waiting`,
          );
          throw failure;
        }
        delay = Math.ceil(retryAfter * 1000);
      } else {
        delay = this.#backoff(attempt);
      }
      log.info(
        `Retrying ${method} ${url} in ${delay} ms (retry ${attempt} of ${maxRetries}): ${failure.message}`,
      );
      await sleep(delay, signal);
    }
  }

  #connectionError(
    error: unknown,
    controller: AbortController,
    signal: AbortSignal | undefined,
    method: string,
    url: string,
  ): FulfillmentError {
    if (signal?.aborted) return new APIUserAbortError(undefined, { cause: signal.reason });
    if (controller.signal.aborted && controller.signal.reason === TIMEOUT) {
      return new APITimeoutError({
        method,
        url,
        message: `Request timed out: ${method} ${url}`,
        cause: error,
      });
    }
    if (error instanceof TimeoutError) {
      return new APITimeoutError({
        method,
        url,
        message: `Request timed out: ${method} ${url}`,
        cause: error,
      });
    }
    const cause = error instanceof NetworkError && error.cause ? error.cause : error;
    const detail = describeCause(cause);
    return new APIConnectionError({
      method,
      url,
      message: `Connection error: ${method} ${url}${detail ? ` (${detail})` : ''}`,
      cause,
    });
  }
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
