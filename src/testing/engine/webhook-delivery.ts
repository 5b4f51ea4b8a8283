/**
 * Webhook delivery: each event is POSTed to every receiver URL, signed with the oldest token,
 * retried with the same event id after a non-2xx answer (3xx included: redirects are not followed)
 * or a connection error (bounded attempts, exponential backoff), and recorded for inspection.
 * Deliveries to one receiver go one at a time, in the order of the events, so that tests see a
 * shipment's events in order (the real provider does not promise ordering: receivers must cope
 * either way). What an event is about (`M`, e.g. the shipment and its status) is the domain's.
 *
 * Redelivery (`redeliver`): a delivery that was given up (out of attempts, or abandoned by
 * `close()`) can be sent again, and so can any finished one named by its event id (a delivered one
 * too: to test a receiver's dedupe). The SAME record is re-queued — same event id, same body, a fresh
 * budget of attempts — and shows it: `redeliveries` counts the times, `attempts` and `statusCodes`
 * keep the whole history (earlier rounds included). No new record is made, so `deliveries()` keeps
 * one record per event and receiver.
 */
import { signWebhook } from '../../webhooks/index.js';
import type { Timers } from './timers.js';
import { messageOf } from './validation.js';

/** Retry policy of webhook deliveries. */
export interface MockWebhookRetry {
  /** Attempts per delivery, the first included. Default 5. */
  attempts?: number;
  /**
   * Delay before the first retry, doubled for each later one (each wait capped at 2147483647 ms).
   * Default 50 ms; at most 2147483647 (2^31 - 1, what a timer can wait).
   */
  initialDelayMs?: number;
  /**
   * Time-out of one attempt, in ms: from 1 to 2147483647. Default 5000 ms. Enforced even
   * when `webhookFetch` ignores its `signal`: the attempt then fails as a time-out (and is retried).
   */
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
  /**
   * How many times the delivery was re-queued after it was given up (`api.redeliverWebhooks()`,
   * `POST /__mock/webhooks/redeliver`); 0 for the first round. Each round has a fresh budget of
   * attempts; `attempts` and `statusCodes` count every round.
   */
  redeliveries: number;
}

/** Which deliveries to send again: every one given up when empty. */
export interface MockRedeliverFilter {
  /**
   * Only the delivery with this `x-service-event-id`, whatever its outcome: a delivered one is sent
   * again too (to test a receiver's dedupe). One still in flight is left alone.
   */
  eventId?: string;
  /** Only deliveries to this receiver URL. */
  url?: string;
}

/**
 * Where a delivery stands: `delivered` (a 2xx answer), `failed` (given up: out of attempts, or
 * abandoned by `close()` / `reset()`; `redeliverWebhooks()` can send it again) or `pending` (an
 * attempt in flight or a retry waiting).
 */
export type MockDeliveryStatus = 'delivered' | 'failed' | 'pending';

/** Every {@link MockDeliveryStatus}. */
export const MOCK_DELIVERY_STATUSES: readonly MockDeliveryStatus[] = ['delivered', 'failed', 'pending'];

/** Where `delivery` stands (see {@link MockDeliveryStatus}). */
export const deliveryStatus = (d: Pick<WebhookDelivery, 'delivered' | 'finished'>): MockDeliveryStatus =>
  d.delivered ? 'delivered' : d.finished ? 'failed' : 'pending';

/** Settings of the dispatcher. */
export interface DispatcherOptions extends Required<MockWebhookRetry> {
  urls: readonly string[];
  /** Returns the `fetch` to use (looked up at each attempt). */
  fetch: () => (input: string, init: RequestInit) => Promise<Response>;
  /** The signing secret of every delivery. */
  secret: string;
  timers: Timers;
}

/** One event to send: its body, and what it is about (copied into its records). */
export interface WebhookEvent<M extends object> {
  body: string;
  about: M;
}

/** Sends webhook events and keeps a record of every delivery. */
export class WebhookDispatcher<M extends object> {
  readonly #options: DispatcherOptions;
  #deliveries: (WebhookDelivery & M)[] = [];
  /** The last delivery queued for each receiver URL (it settles after those before it). */
  readonly #tails = new Map<string, Promise<void>>();
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
        redeliveries: 0,
      };
      this.#deliveries.push(delivery);
      this.#queue(delivery);
    }
  }

  /**
   * Sends again every delivery that was given up (finished, not delivered) and matches `filter`,
   * or with `filter.eventId` that finished delivery, delivered or not: the same record, event id
   * and body, with a fresh budget of attempts, queued behind the receiver's other deliveries.
   * Returns copies of the deliveries re-queued (returns at once).
   */
  redeliver(filter: MockRedeliverFilter = {}): (WebhookDelivery & M)[] {
    const chosen = this.#deliveries.filter(
      (d) =>
        d.finished &&
        (filter.eventId === undefined ? !d.delivered : d.eventId === filter.eventId) &&
        (filter.url === undefined || d.url === filter.url),
    );
    for (const delivery of chosen) {
      Object.assign(delivery, { finished: false, delivered: false, error: null });
      delivery.redeliveries += 1;
      this.#queue(delivery);
    }
    return structuredClone(chosen);
  }

  /** Runs `delivery` after the last one queued for its receiver. */
  #queue(delivery: WebhookDelivery & M): void {
    const { url } = delivery;
    const cancelled = this.#abort.signal;
    const previous = this.#tails.get(url) ?? Promise.resolve();
    const run = previous
      .then(() => this.#run(delivery, cancelled))
      .catch((error: unknown) => {
        delivery.error = messageOf(error);
      })
      .finally(() => {
        delivery.finished = true;
        if (this.#tails.get(url) === run) this.#tails.delete(url);
      });
    this.#tails.set(url, run);
  }

  /** Copies of every delivery so far, oldest first. */
  deliveries(): (WebhookDelivery & M)[] {
    return structuredClone(this.#deliveries);
  }

  /** Resolves once no delivery is in flight (retries included). */
  async flush(): Promise<void> {
    while (this.#tails.size > 0) await Promise.allSettled([...this.#tails.values()]);
  }

  /**
   * Abandons every delivery in flight or queued (its attempt is aborted; the caller ends the
   * backoff waits with `Timers.cancelAll`) and keeps their records, marked finished with `error`
   * saying why. Later events are delivered as usual.
   */
  abandon(reason: string): void {
    this.#abort.abort(new Error(reason));
    this.#abort = new AbortController();
  }

  /** Abandons every delivery in flight and forgets them all. */
  reset(): void {
    this.abandon('the mock was reset');
    this.#deliveries = [];
  }

  async #run(delivery: WebhookDelivery, cancelled: AbortSignal): Promise<void> {
    const { attempts, initialDelayMs, timeoutMs, timers, secret } = this.#options;
    delivery.signature = await signWebhook({ body: delivery.body, secret });
    const headers = {
      'content-type': 'application/json',
      'x-service-signature': delivery.signature,
      'x-service-event-id': delivery.eventId,
    };
    // Each round (the first, then each redelivery) has its own budget; `attempts` counts them all.
    for (let attempt = 1; attempt <= attempts && !cancelled.aborted; attempt++) {
      delivery.attempts += 1;
      // A timer of its own, not `AbortSignal.timeout` (unref'd): a hung receiver must not let the process exit.
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new Error('timed out')), timeoutMs);
      const signal = AbortSignal.any([cancelled, timeout.signal]);
      try {
        // A race too, so that a `webhookFetch` ignoring its signal still fails in time.
        const response = await Promise.race([
          this.#options.fetch()(delivery.url, {
            method: 'POST',
            headers,
            body: delivery.body,
            // A 3xx is an answer like any other non-2xx: never follow it (a POST would become a GET).
            redirect: 'manual',
            signal,
          }),
          new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
        ]);
        delivery.statusCodes.push(response.status);
        // Not awaited: a body whose `cancel` never settles must not hold the delivery. A body that is
        // no web stream (a `webhookFetch` over node-fetch 2 answers a Node stream) has none.
        response.body?.cancel?.().catch(() => {});
        if (response.ok) {
          delivery.delivered = true;
          delivery.error = null;
          return;
        }
        delivery.error = `receiver answered ${response.status}`;
      } catch (error) {
        if (cancelled.aborted) break;
        delivery.statusCodes.push(null);
        delivery.error = signal.aborted
          ? `the receiver did not answer within ${timeoutMs} ms`
          : messageOf(error);
      } finally {
        clearTimeout(timer);
      }
      if (attempt < attempts) await timers.wait(initialDelayMs * 2 ** (attempt - 1));
    }
    const last = delivery.statusCodes.at(-1);
    const tries = `${delivery.attempts} attempt${delivery.attempts === 1 ? '' : 's'}`;
    delivery.error = cancelled.aborted
      ? `abandoned: ${(cancelled.reason as Error).message}`
      : `gave up after ${tries} (${typeof last === 'number' ? `last status ${last}` : `last error: ${delivery.error}`})`;
  }
}
