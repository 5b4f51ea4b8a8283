/**
 * The options of `createMockApi` (`MockApiOptions`), checked and completed with their defaults.
 * The types of the options' parts live with the module that reads them: `MockFault` in
 * `engine/faults.ts`, `MockRateLimit` in `engine/rate-limit.ts`, `MockWebhookRetry` in
 * `engine/webhook-delivery.ts`, `MockWarehouse` in `domain/resources.ts`; the arguments of the
 * control methods likewise (`MockRestockQuantities` in `domain/restocking.ts`, `MockReturnOptions`
 * in `domain/outbound.ts`, `MockListenOptions` in `faces/listen.ts`).
 */
import * as z from 'zod/mini';
import { readWarehouses } from './domain/persist.js';
import type { MockWarehouse } from './domain/resources.js';
import type { MockSeed } from './domain/seed.js';
import type { MockStateFile } from './domain/state-format.js';
import { checkInput } from './engine/check.js';
import { FaultSchema, type MockFault } from './engine/faults.js';
import type { MockRateLimit } from './engine/rate-limit.js';
import type { MockRequestEvent } from './engine/request-log.js';
import { Delay } from './engine/timers.js';
import { isObject } from './engine/validation.js';
import type { MockWebhookRetry } from './engine/webhook-delivery.js';

/** A token the SDK client accepts (and `fetch` can send): visible ASCII. */
export const TOKEN = /^[\x21-\x7E]+$/;

/**
 * Options of `createMockApi`. Every option is optional; one set to `undefined` counts as not given.
 * `createMockApi` checks them at once and throws a `TypeError` naming the option (`createMockApi:
 * warehouses[1].name: Invalid input: expected string, received number`) for a value of the wrong
 * type or an unknown option (a typo such as `webhook` for `webhooks`, with the closest name).
 */
export interface MockApiOptions {
  /**
   * Root of the mocked service, matched by the msw handlers and used by `api.fetch`: an absolute
   * `http:` or `https:` URL. Default `https://fulfillment.mock`. The HTTP server face answers on
   * its own URL.
   */
  baseUrl?: string;
  /**
   * Accepted API tokens, oldest first: non-empty strings of visible ASCII (as the SDK client
   * accepts). The oldest (`tokens[0]`) signs webhooks. Default: one random token, exposed as
   * `api.token`.
   */
  tokens?: readonly string[];
  /**
   * Warehouses of the merchant: at least one, each an object whose `id` is a unique integer >= 1
   * and whose `name` (when given) is a string. Copied at once as JSON writes them (a field JSON
   * leaves out, such as a function, is left out; a BigInt or a cycle is refused). Default: three
   * warehouses, ids 1, 2 and 3.
   */
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
  /**
   * Receiver URLs of the "restocking shipment status updated" webhook: absolute `http:` or `https:`
   * URLs without credentials (`fetch` refuses those). Default none.
   */
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

/** Refuses an option: throws the `TypeError` `createMockApi: <field>: <problem>`. */
function refuse(field: string, problem: string): never {
  throw new TypeError(`createMockApi: ${field ? `${field}: ` : ''}${problem}`);
}

const HttpUrl = z.url({
  protocol: /^https?$/,
  error: (issue) => (issue.code === 'invalid_type' ? undefined : 'must be an absolute http: or https: URL'),
});
const Positive = z.int().check(z.minimum(1));
const VISIBLE = 'must be visible ASCII characters (no white space or control characters)';
const Tokens = z
  .array(z.string().check(z.regex(TOKEN, VISIBLE)))
  .check(z.minLength(1, 'must hold at least one token'));
/** The option `K`, a function. */
const Fn = <K extends keyof MockApiOptions>() =>
  z.optional(
    z.custom<NonNullable<MockApiOptions[K]>>(
      (v) => typeof v === 'function',
      'Invalid input: expected function',
    ),
  );
// `fetch` refuses a URL with credentials: every delivery would fail.
const NO_CREDENTIALS = z.refine<string>(
  (v) => !/^\w+:\/\/[^/?#]*@/.test(v),
  'must not carry credentials (user:password@)',
);

/** Every option of `createMockApi` (the compiler keeps this in step with {@link MockApiOptions}). */
const OPTIONS = {
  baseUrl: z._default(HttpUrl, DEFAULT_BASE_URL),
  // A random token such as `mock_5f2c…` (Web Crypto).
  tokens: z._default(Tokens, () => [`mock_${crypto.randomUUID().replaceAll('-', '')}`]),
  // Checked and copied by `readWarehouses`.
  warehouses: z._default(z.unknown(), DEFAULT_WAREHOUSES),
  blockedCountries: z._default(z.array(z.string()), []),
  pageSize: z._default(Positive, 20),
  latency: z._default(Delay, 0),
  // Checked and copied: `reset()` adds them again as they are.
  faults: z._default(z.array(FaultSchema), []),
  webhooks: z._default(z.array(HttpUrl.check(NO_CREDENTIALS)), []),
  webhookRetry: z.prefault(
    z.strictObject({
      attempts: z._default(Positive, 5),
      initialDelayMs: z._default(Delay, 50),
      timeoutMs: z._default(Delay.check(z.minimum(1)), 5000),
    }),
    {},
  ),
  now: Fn<'now'>(),
  rateLimit: z.optional(z.strictObject({ requests: Positive, perMs: Positive })),
  merchantId: z._default(Positive, 1),
  webhookFetch: Fn<'webhookFetch'>(),
  // Not checked yet: `createMockApi` checks them (`importState`, `checkSeed`), which know their rules.
  initialState: z.optional(z.custom<MockStateFile>()),
  seed: z.optional(z.custom<MockSeed>()),
  onRequest: Fn<'onRequest'>(),
  onChange: Fn<'onChange'>(),
} satisfies Record<keyof MockApiOptions, z.core.$ZodType>;

const OptionsSchema = z.strictObject(OPTIONS);

/**
 * Checks the options and applies the defaults. Throws a `TypeError` `createMockApi: <field>:
 * <problem>` naming the bad option by its path (`warehouses[1].name`): an unknown option (with the
 * closest known name), a value of the wrong type or out of range. An option set to `undefined`
 * counts as not given.
 */
export function resolveOptions(options: MockApiOptions = {}) {
  const defined = isObject(options) && Object.entries(options).filter(([, v]) => v !== undefined);
  const given = checkInput(OptionsSchema, defined ? Object.fromEntries(defined) : options, refuse);
  const url = new URL(given.baseUrl);
  const basePath = url.pathname.replace(/\/+$/, '');
  return {
    ...given,
    baseUrl: `${url.origin}${basePath}`,
    /** Path part of `baseUrl` without trailing slash (`''` for a bare origin). */
    basePath,
    warehouses: readWarehouses(given.warehouses, refuse, 'warehouses'),
    blockedCountries: new Set(given.blockedCountries.map((code) => code.toUpperCase())),
    now: given.now ?? (() => new Date()),
  };
}

/** Options with every default applied: what `createMockApi` works from (checked and copied). */
export type MockConfig = ReturnType<typeof resolveOptions>;
