/**
 * Webhook delivery: each event is POSTed to every receiver URL, signed with the oldest token,
 * retried with the same event id after a non-2xx answer (3xx included: redirects are not followed)
 * or a connection error (bounded attempts, exponential backoff), and recorded for inspection.
 * Deliveries to one receiver go one at a time, in the order of the events, so that tests see a
 * shipment's events in order (the real provider does not promise ordering: receivers must cope
 * either way). What an event is about (`M`, e.g. the shipment and its status) is the domain's.
 */
import { signWebhook } from '../../webhooks/index.js';
import type { Timers } from './timers.js';

/** Retry policy of webhook deliveries. */
export interface MockWebhookRetry {
  /** Attempts per delivery, the first included. Default 5. */
  attempts?: number;
  /** Delay before the first retry, doubled for each later one. Default 50 ms. */
  initialDelayMs?: number;
  /** Time-out of one attempt. Default 5000 ms. */
  timeoutMs?: number;
}

/** One delivery: one event to one receiver URL, with its attempts (what every event's record has). */
export interface WebhookDelivery {
  /** The `x-service-event-id` (the same on every attempt). */
  eventId: string;
  /** Receiver URL. */
  url: string;
  /** The exact body sent. */
  body: string;
  /** The `x-service-signature` sent. */
  signature: string;
  /** Attempts made so far. */
  attempts: number;
  /** Status code of each attempt; `null` for a connection error or time-out. */
  statusCodes: (number | null)[];
  /**
   * Why the delivery is not (yet) delivered: while retrying, the last failure (`receiver answered
   * 503`, or the connection error); once out of attempts, e.g. `gave up after 3 attempts (last
   * status 503)`; when abandoned by `close()`, `abandoned: …`. `null` once delivered.
   */
  error: string | null;
  /** A 2xx answer was received (a 3xx is not followed: it counts as a failed attempt). */
  delivered: boolean;
  /** No attempt is pending: delivered, out of attempts, or abandoned by `close()` / `reset()`. */
  finished: boolean;
}

/** A `fetch` as the dispatcher calls it. */
export type DeliveryFetch = (input: string, init: RequestInit) => Promise<Response>;

/** Settings of the dispatcher. */
export interface DispatcherOptions {
  urls: readonly string[];
  attempts: number;
  initialDelayMs: number;
  timeoutMs: number;
  /** Returns the `fetch` to use (looked up at each attempt). */
  fetch: () => DeliveryFetch;
  timers: Timers;
}

/** One event to send: its body, the signing secret, and what it is about (copied into its records). */
export interface WebhookEvent<M extends object> {
  body: string;
  secret: string;
  about: M;
}

/** Sends webhook events and keeps a record of every delivery. */
export class WebhookDispatcher<M extends object> {
  readonly #options: DispatcherOptions;
  #deliveries: (WebhookDelivery & M)[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  /** The last delivery queued for each receiver URL. */
  #tails = new Map<string, Promise<void>>();
  #abort = new AbortController();

  constructor(options: DispatcherOptions) {
    this.#options = options;
  }

  /** Starts one delivery per receiver URL (returns at once). */
  emit(event: WebhookEvent<M>): void {
    for (const url of this.#options.urls) {
      const delivery: WebhookDelivery & M = {
        eventId: crypto.randomUUID(),
        url,
        ...event.about,
        body: event.body,
        signature: '',
        attempts: 0,
        statusCodes: [],
        error: null,
        delivered: false,
        finished: false,
      };
      this.#deliveries.push(delivery);
      const cancelled = this.#abort.signal;
      const previous = this.#tails.get(url) ?? Promise.resolve();
      const run = previous
        .then(() => this.#run(delivery, event.secret, cancelled))
        .catch((error: unknown) => {
          delivery.error = error instanceof Error ? messageOf(error) : String(error);
        })
        .finally(() => {
          delivery.finished = true;
          this.#inFlight.delete(run);
          if (this.#tails.get(url) === run) this.#tails.delete(url);
        });
      this.#tails.set(url, run);
      this.#inFlight.add(run);
    }
  }

  /** Copies of every delivery so far, oldest first. */
  deliveries(): (WebhookDelivery & M)[] {
    return this.#deliveries.map((d) => ({ ...d, statusCodes: [...d.statusCodes] }));
  }

  /** Resolves once no delivery is in flight (retries included). */
  async flush(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /**
   * Abandons every delivery in flight or queued (its attempt is aborted, its backoff wait ended)
   * and keeps their records, marked finished with `error` saying why. Later events are delivered
   * as usual.
   */
  abandon(reason: string): void {
    this.#abort.abort(new Error(reason));
    this.#abort = new AbortController();
    this.#tails = new Map();
    this.#options.timers.cancelBackground();
  }

  /** Abandons every delivery in flight and forgets them all. */
  reset(): void {
    this.abandon('the mock was reset');
    this.#deliveries = [];
  }

  async #run(delivery: WebhookDelivery, secret: string, cancelled: AbortSignal): Promise<void> {
    const { attempts, initialDelayMs, timeoutMs, timers } = this.#options;
    delivery.signature = await signWebhook({ body: delivery.body, secret });
    const headers = {
      'content-type': 'application/json',
      'x-service-signature': delivery.signature,
      'x-service-event-id': delivery.eventId,
    };
    for (let attempt = 1; attempt <= attempts && !cancelled.aborted; attempt++) {
      delivery.attempts = attempt;
      try {
        const response = await this.#options.fetch()(delivery.url, {
          method: 'POST',
          headers,
          body: delivery.body,
          // A 3xx is an answer like any other non-2xx: never follow it (a POST would become a GET).
          redirect: 'manual',
          signal: AbortSignal.any([cancelled, AbortSignal.timeout(timeoutMs)]),
        });
        delivery.statusCodes.push(response.status);
        await response.body?.cancel().catch(() => {});
        if (response.ok) {
          delivery.delivered = true;
          delivery.error = null;
          return;
        }
        delivery.error = `receiver answered ${response.status}`;
      } catch (error) {
        if (cancelled.aborted) break;
        delivery.statusCodes.push(null);
        delivery.error = error instanceof Error ? messageOf(error) : String(error);
      }
      if (attempt < attempts) await timers.background(initialDelayMs * 2 ** (attempt - 1));
    }
    if (cancelled.aborted) {
      const reason: unknown = cancelled.reason;
      delivery.error = `abandoned: ${reason instanceof Error ? reason.message : String(reason)}`;
      return;
    }
    const last = delivery.statusCodes.at(-1);
    const plural = delivery.attempts === 1 ? '' : 's';
    delivery.error =
      typeof last === 'number'
        ? `gave up after ${delivery.attempts} attempt${plural} (last status ${last})`
        : `gave up after ${delivery.attempts} attempt${plural} (last error: ${delivery.error})`;
  }
}

/** The message of an error and of its cause (fetch reports "fetch failed" with the reason as cause). */
function messageOf(error: Error): string {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
