/**
 * The client's events: what each one carries (`request`, `response`, `retry`, `error`) and the small
 * typed emitter behind `client.on` / `client.off`. A listener observes; it can never
 * change or break a request: what it throws (or the promise it rejects) is reported, not propagated.
 */
import { describe } from './describe.js';
import { FulfillmentError } from './errors.js';
import type { HttpMethod } from './request.js';

/** What every event of one request carries. */
export interface RequestEventBase {
  /** The HTTP method. */
  readonly method: HttpMethod;
  /**
   * The URL requested, query string included, without credentials: no userinfo, and the client's
   * secrets (the token, every `defaultHeaders` value, a request's own credential headers) masked as `***`.
   */
  readonly url: string;
  /** The attempt, from 1 (the first send) up to `maxRetries + 1`. */
  readonly attempt: number;
}

/** An attempt is about to be sent (after any wait for the client-side rate limit). @inline */
export interface RequestEvent extends RequestEventBase {}

/** The request succeeded: a 2xx answer, its body read. Emitted once per request, for its last attempt. @inline */
export interface ResponseEvent extends RequestEventBase {
  /** The HTTP status (2xx). */
  readonly status: number;
}

/**
 * Why an attempt is retried: `'rate_limited'` (a 429), `'status'` (another retryable status: 408,
 * 500, 502, 503, 504), `'connection'` (the connection failed or broke), `'timeout'` (the attempt
 * took longer than `timeout`).
 * @inline
 */
export type RetryReason = 'status' | 'rate_limited' | 'connection' | 'timeout';

/** An attempt failed and the request will be sent again after a wait. @inline */
export interface RetryEvent extends RequestEventBase {
  /** Why the attempt failed (`attempt` is the attempt that failed). */
  readonly reason: RetryReason;
  /** The status the failed attempt got, or `undefined` when no answer came (connection, timeout). */
  readonly status: number | undefined;
  /** Milliseconds the client waits before the next attempt. */
  readonly delayMs: number;
  /** True when the wait is what the server's `Retry-After` asked for, false for the client's backoff. */
  readonly fromRetryAfter: boolean;
  /** The error of the failed attempt (secrets already removed). */
  readonly error: FulfillmentError;
}

/** The request failed for good (no retry left, not retryable, or aborted). Emitted once per request. @inline */
export interface RequestErrorEvent extends RequestEventBase {
  /** The error's class name, e.g. `'NotFoundError'`, `'RateLimitError'`, `'APIConnectionError'`. */
  readonly errorName: string;
  /** The error the request rejects with (secrets already removed). */
  readonly error: FulfillmentError;
  /** The status of the last answer, or `undefined` when none came. */
  readonly status: number | undefined;
}

/** The client's events and what each one carries: the map `client.on` is typed by. */
export interface ClientEvents {
  /** An attempt is about to be sent. */
  request: RequestEvent;
  /** The request succeeded (its last attempt). */
  response: ResponseEvent;
  /** An attempt failed and will be retried. */
  retry: RetryEvent;
  /** The request failed for good. */
  error: RequestErrorEvent;
}

/** The name of a client event: `'request'`, `'response'`, `'retry'` or `'error'`. */
export type ClientEventName = keyof ClientEvents;

/**
 * A listener of event `E`. Its return value is ignored, except that a returned promise is watched:
 * what the listener throws, or the promise rejects with, is logged at `error` and never reaches the request.
 * @inline
 */
export type ClientEventListener<E extends ClientEventName> = (event: ClientEvents[E]) => unknown;

const EVENT_NAMES = ['request', 'response', 'retry', 'error'];

/** Called with what a listener threw or rejected with. */
export type ListenerFailureHandler = (event: ClientEventName, error: unknown) => void;

type AnyListener = ClientEventListener<ClientEventName>;

/**
 * The client's emitter. A listener is registered at most once per event (adding it again changes
 * nothing); listeners run synchronously, in the order they were added. With no listener at all,
 * {@link ClientEmitter.count} is 0 and the transport builds no event.
 * @internal
 */
export class ClientEmitter {
  /** Listeners by event, in the order they were added. */
  readonly #listeners = new Map(EVENT_NAMES.map((name) => [name, new Set<AnyListener>()]));
  readonly #onFailure: ListenerFailureHandler;
  /** How many listeners are registered; the request path checks only that it is not 0. */
  count = 0;

  constructor(onFailure: ListenerFailureHandler) {
    this.#onFailure = onFailure;
  }

  /** Adds `listener` to `event` (at most once). */
  add<E extends ClientEventName>(event: E, listener: ClientEventListener<E>): void {
    const listeners = this.#of(event, listener);
    if (!listeners.has(listener as AnyListener)) this.count++;
    listeners.add(listener as AnyListener);
  }

  /** Removes `listener` from `event`; nothing happens when it is not registered. */
  remove<E extends ClientEventName>(event: E, listener: ClientEventListener<E>): void {
    if (this.#of(event, listener).delete(listener as AnyListener)) this.count--;
  }

  /** Calls every listener of `event` with `payload`; a listener's failure is reported, never thrown. */
  emit<E extends ClientEventName>(event: E, payload: ClientEvents[E]): void {
    for (const listener of [...this.#listeners.get(event)!]) {
      try {
        const result = listener(payload) as PromiseLike<unknown> | undefined;
        if (typeof result?.then === 'function') result.then(undefined, (e) => this.#onFailure(event, e));
      } catch (error) {
        this.#onFailure(event, error);
      }
    }
  }

  /** The listeners of `event`, once the arguments are checked. */
  #of(event: unknown, listener: unknown): Set<AnyListener> {
    const listeners = this.#listeners.get(event as string);
    if (!listeners) {
      const names = EVENT_NAMES.map((n) => `'${n}'`).join(', ');
      const got = typeof event === 'string' ? JSON.stringify(event) : describe(event);
      throw new FulfillmentError(`event must be one of ${names}; got ${got}`);
    }
    if (typeof listener !== 'function')
      throw new FulfillmentError(`listener must be a function, got ${describe(listener)}`);
    return listeners;
  }
}
