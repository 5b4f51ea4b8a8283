/**
 * The options of `createMockApi` (`MockApiOptions`), checked and completed with their defaults.
 * The types of the options' parts live with the module that reads them: `MockFault` in
 * `engine/faults.ts`, `MockRateLimit` in `engine/rate-limit.ts`, `MockWebhookRetry` in
 * `engine/webhook-delivery.ts`, `MockWarehouse` in `domain/resources.ts`; the arguments of the
 * control methods likewise (`MockRestockQuantities` in `domain/restocking.ts`, `MockReturnOptions`
 * in `domain/outbound.ts`, `MockListenOptions` in `faces/listen.ts`).
 */
import type { MockStateFile } from './domain/persist.js';
import type { MockWarehouse } from './domain/resources.js';
import type { MockSeed } from './domain/seed.js';
import type { MockFault } from './engine/faults.js';
import type { MockRateLimit } from './engine/rate-limit.js';
import type { MockRequestEvent } from './engine/request-log.js';
import { MAX_DELAY_MS } from './engine/timers.js';
import { describeValue } from './engine/validation.js';
import type { MockWebhookRetry } from './engine/webhook-delivery.js';

/** A token the SDK client accepts (and `fetch` can send): visible ASCII. */
export const TOKEN = /^[\x21-\x7E]+$/;

/** Options of `createMockApi`. Every option is optional. */
export interface MockApiOptions {
  /**
   * Root of the mocked service, matched by the msw handlers and used by `api.fetch`. Default
   * `https://fulfillment.mock`. The HTTP server face answers on its own URL.
   */
  baseUrl?: string;
  /**
   * Accepted API tokens, oldest first: non-empty strings of visible ASCII (as the SDK client
   * accepts). The oldest (`tokens[0]`) signs webhooks. Default: one random token, exposed as
   * `api.token`.
   */
  tokens?: readonly string[];
  /** Warehouses of the merchant. Default: three warehouses, ids 1, 2 and 3. */
  warehouses?: readonly MockWarehouse[];
  /**
   * 2-letter country codes the shop does not ship to: an order to one of them is created
   * `unfulfillable`. Default `[]`.
   */
  blockedCountries?: readonly string[];
  /** Default page size of collections (when no `limit` is sent). Default 20. */
  pageSize?: number;
  /**
   * Milliseconds added to every API response (the control routes under `/__mock/` answer at once),
   * from 0 to 2147483647 (2^31 - 1, what a timer can wait). Default 0.
   */
  latency?: number;
  /** Faults active from the start (see {@link MockFault}). */
  faults?: readonly MockFault[];
  /** Receiver URLs of the "restocking shipment status updated" webhook. Default none. */
  webhooks?: readonly string[];
  /** Retry policy of webhook deliveries. */
  webhookRetry?: MockWebhookRetry;
  /** The clock of the mock (timestamps, `created_at` filters, rate-limit windows). Default `() => new Date()`. */
  now?: () => Date;
  /**
   * Per-token rate limit (sliding window): over it, requests get 429 with a fractional
   * `Retry-After`. Off by default: nothing is refused, and the headers report `X-Rate-Limit-Max: 100`
   * and the token's requests of the last 60 s as `X-Rate-Limit-Used` (which may then exceed 100).
   */
  rateLimit?: MockRateLimit;
  /** `merchant_id` of restocking shipments. Default 1. */
  merchantId?: number;
  /**
   * `fetch` used to deliver webhooks. Default: the global `fetch`, looked up at each delivery (so
   * an msw server in the same process sees the deliveries).
   */
  webhookFetch?: (input: string, init: RequestInit) => Promise<Response>;
  /**
   * A saved state to start from (from `api.exportState()`, possibly through `JSON.stringify` and
   * `JSON.parse`): its records, id counters and warehouses (which replace `warehouses`). Checked
   * at once: a bad one throws a `MockStateError` naming the field. `reset()` goes back to it.
   * Not together with `seed`.
   */
  initialState?: MockStateFile;
  /**
   * Fixtures to start from, applied through the API's own rules (see {@link MockSeed}); a fixture
   * the API would refuse throws a `MockSeedError` naming it. `reset()` applies it again. Not
   * together with `initialState`.
   */
  seed?: MockSeed;
  /**
   * Called once for every answered request, API and control routes alike, and the CORS
   * preflights a server started with `listen({ cors })` answers (errors it throws are ignored):
   * method, path, query, status, duration. It never sees headers or bodies.
   */
  onRequest?: (event: MockRequestEvent) => void;
  /**
   * Called after anything that may have changed the state: a 2xx answer of an API request other
   * than `GET` / `HEAD` / `OPTIONS` (also when an `after` fault then answers instead), and a control
   * action that succeeded (`advanceRestockingShipment` when the status changes, `fulfillOrder`,
   * `createReturn`, `reset`), in JS or over `/__mock/`. Refused requests (401, 404, 405, 400, 422,
   * 429, a fault answering instead) do not call it. Errors it throws are ignored. Meant for saving
   * the state (`api.exportState()`).
   */
  onChange?: () => void;
}

/** Options with every default applied. */
export interface MockConfig {
  baseUrl: string;
  /** Path part of `baseUrl` without trailing slash (`''` for a bare origin). */
  basePath: string;
  tokens: readonly string[];
  warehouses: readonly MockWarehouse[];
  blockedCountries: ReadonlySet<string>;
  pageSize: number;
  latency: number;
  faults: readonly MockFault[];
  webhooks: readonly string[];
  webhookRetry: { attempts: number; initialDelayMs: number; timeoutMs: number };
  now: () => Date;
  rateLimit: MockRateLimit | undefined;
  merchantId: number;
  webhookFetch: ((input: string, init: RequestInit) => Promise<Response>) | undefined;
}

/** The default base URL of the mock. */
export const DEFAULT_BASE_URL = 'https://fulfillment.mock';

/** The three warehouses of a mock created without `warehouses`. */
export const DEFAULT_WAREHOUSES: readonly MockWarehouse[] = [
  {
    id: 1,
    name: 'Berlin',
    address: { line1: 'Lagerstraße 1', city: 'Berlin', postal_code: '10115', country_code: 'DE' },
  },
  {
    id: 2,
    name: 'Amsterdam',
    address: { line1: 'Havenweg 2', city: 'Amsterdam', postal_code: '1011 AB', country_code: 'NL' },
  },
  {
    id: 3,
    name: 'Warsaw',
    address: { line1: 'ul. Magazynowa 3', city: 'Warszawa', postal_code: '00-001', country_code: 'PL' },
  },
];

function fail(message: string): never {
  throw new TypeError(`createMockApi: ${message}`);
}

function positiveInteger(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) fail(`${name} must be an integer >= 1, got ${String(value)}`);
  return value;
}

function nonNegative(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    fail(`${name} must be a number >= 0, got ${describeValue(value)}`);
  }
  return value;
}

/** A delay in ms: from 0 to {@link MAX_DELAY_MS} (a timer cannot wait longer: Node would wait 1 ms). */
function delay(value: number | undefined, name: string, fallback: number): number {
  const ms = nonNegative(value, name, fallback);
  if (ms > MAX_DELAY_MS) fail(`${name} must be at most ${MAX_DELAY_MS} ms (2^31 - 1), got ${String(ms)}`);
  return ms;
}

/** A random API token such as `mock_5f2c…` (Web Crypto). */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `mock_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Checks the options and applies the defaults. Throws a `TypeError` naming the bad option. */
export function resolveOptions(options: MockApiOptions = {}): MockConfig {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail(`options must be an object, got ${describeValue(options)}`);
  }
  let url: URL;
  try {
    url = new URL(options.baseUrl ?? DEFAULT_BASE_URL);
  } catch {
    fail(`baseUrl must be an absolute URL, got ${String(options.baseUrl)}`);
  }
  const basePath = url.pathname.replace(/\/+$/, '');
  const tokens = options.tokens ?? [randomToken()];
  if (!Array.isArray(tokens)) fail(`tokens must be an array of strings, got ${describeValue(tokens)}`);
  if (tokens.length === 0 || tokens.some((t) => typeof t !== 'string' || !TOKEN.test(t))) {
    // The tokens themselves are never shown.
    fail(
      'tokens must be a non-empty list of non-empty strings of visible ASCII characters (no white space or control characters)',
    );
  }
  const blocked = options.blockedCountries ?? [];
  if (!Array.isArray(blocked))
    fail(`blockedCountries must be an array of strings, got ${describeValue(blocked)}`);
  blocked.forEach((code: unknown, i) => {
    if (typeof code !== 'string') fail(`blockedCountries[${i}] must be a string, got ${describeValue(code)}`);
  });
  const warehouses = options.warehouses ?? DEFAULT_WAREHOUSES;
  if (warehouses.length === 0) fail('warehouses must hold at least one warehouse');
  const ids = new Set<number>();
  for (const w of warehouses) {
    if (!Number.isInteger(w.id) || w.id < 1 || ids.has(w.id))
      fail(`warehouse ids must be unique integers >= 1`);
    ids.add(w.id);
  }
  const rateLimit = options.rateLimit;
  if (rateLimit) {
    positiveInteger(rateLimit.requests, 'rateLimit.requests', 1);
    positiveInteger(rateLimit.perMs, 'rateLimit.perMs', 1);
  }
  for (const hook of options.webhooks ?? []) {
    if (!URL.canParse(hook)) fail(`webhooks must be absolute URLs, got ${String(hook)}`);
  }
  const retry = options.webhookRetry ?? {};
  return {
    baseUrl: `${url.origin}${basePath}`,
    basePath,
    tokens: [...tokens],
    warehouses: structuredClone([...warehouses]),
    blockedCountries: new Set(blocked.map((c) => c.toUpperCase())),
    pageSize: positiveInteger(options.pageSize, 'pageSize', 20),
    latency: delay(options.latency, 'latency', 0),
    faults: options.faults ?? [],
    webhooks: [...(options.webhooks ?? [])],
    webhookRetry: {
      attempts: positiveInteger(retry.attempts, 'webhookRetry.attempts', 5),
      initialDelayMs: delay(retry.initialDelayMs, 'webhookRetry.initialDelayMs', 50),
      timeoutMs: delay(
        positiveInteger(retry.timeoutMs, 'webhookRetry.timeoutMs', 5000),
        'webhookRetry.timeoutMs',
        5000,
      ),
    },
    now: options.now ?? (() => new Date()),
    rateLimit,
    merchantId: positiveInteger(options.merchantId, 'merchantId', 1),
    webhookFetch: options.webhookFetch,
  };
}
