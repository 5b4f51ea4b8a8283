/**
 * The options of `createMockApi` (`MockApiOptions`), checked and completed with their defaults.
 * The types of the options' parts live with the module that reads them: `MockFault` in
 * `engine/faults.ts`, `MockRateLimit` in `engine/rate-limit.ts`, `MockWebhookRetry` in
 * `engine/webhook-delivery.ts`, `MockWarehouse` in `domain/resources.ts`; the arguments of the
 * control methods likewise (`MockRestockQuantities` in `domain/restocking.ts`, `MockReturnOptions`
 * in `domain/outbound.ts`, `MockListenOptions` in `faces/listen.ts`).
 */
import { distance } from '../core/describe.js';
import type { MockStateFile } from './domain/persist.js';
import { MAX_WAREHOUSE_VALUES, type MockWarehouse } from './domain/resources.js';
import type { MockSeed } from './domain/seed.js';
import {
  InvalidFault,
  type MockFault,
  type PreparedFault,
  prepare as prepareFault,
} from './engine/faults.js';
import { MAX_JSON_DEPTH } from './engine/json.js';
import type { MockRateLimit } from './engine/rate-limit.js';
import type { MockRequestEvent } from './engine/request-log.js';
import { MAX_DELAY_MS } from './engine/timers.js';
import {
  describeUrlScheme,
  describeValue,
  guarded,
  isObject,
  jsonCopier,
  readList,
  shownKey,
  UNREADABLE,
} from './engine/validation.js';
import type { MockWebhookRetry } from './engine/webhook-delivery.js';

/** A token the SDK client accepts (and `fetch` can send): visible ASCII. */
export const TOKEN = /^[\x21-\x7E]+$/;

/**
 * Options of `createMockApi`. Every option is optional; one set to `undefined` counts as not given.
 * `createMockApi` checks them at once and throws a `TypeError` naming the option (`createMockApi:
 * warehouses[1].name must be a string, got 5`) for a value of the wrong type or an unknown option
 * (a typo such as `webhook` for `webhooks`). Each option is read once.
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
   * Warehouses of the merchant: at least one, each a plain object whose `id` is a unique integer
   * >= 1, whose `name` (when given) is a string, and whose every field is a JSON value (no
   * function, class instance or cycle; at most 32 levels of arrays and objects, the warehouse
   * included, and 100 000 values in all). Copied at once. Default: three warehouses, ids 1, 2
   * and 3.
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

/**
 * Options with every default applied: the snapshot `createMockApi` works from (each option read
 * once, checked, copied where a later change by the caller would matter).
 */
export interface MockConfig {
  baseUrl: string;
  /** Path part of `baseUrl` without trailing slash (`''` for a bare origin). */
  basePath: string;
  tokens: readonly string[];
  warehouses: readonly MockWarehouse[];
  blockedCountries: ReadonlySet<string>;
  pageSize: number;
  latency: number;
  /** The `faults` option, each checked, copied and compiled once: `reset()` adds them again as they are. */
  faults: readonly PreparedFault[];
  webhooks: readonly string[];
  webhookRetry: { attempts: number; initialDelayMs: number; timeoutMs: number };
  now: () => Date;
  rateLimit: MockRateLimit | undefined;
  merchantId: number;
  webhookFetch: ((input: string, init: RequestInit) => Promise<Response>) | undefined;
  /** `onRequest` as read (a function, or `undefined`). */
  onRequest: ((event: MockRequestEvent) => void) | undefined;
  /** `onChange` as read (a function, or `undefined`). */
  onChange: (() => void) | undefined;
  /** `initialState` as read, not checked yet (`createMockApi` checks it with `importState`). */
  initialState: MockStateFile | undefined;
  /** `seed` as read, not checked yet (`createMockApi` checks it with `checkSeed`). */
  seed: MockSeed | undefined;
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

/**
 * Every option of `createMockApi`: one entry per field of {@link MockApiOptions} (the compiler
 * keeps the two in step), the one list the checks of option names derive from.
 */
const OPTION_FIELDS = {
  baseUrl: true,
  tokens: true,
  warehouses: true,
  blockedCountries: true,
  pageSize: true,
  latency: true,
  faults: true,
  webhooks: true,
  webhookRetry: true,
  now: true,
  rateLimit: true,
  merchantId: true,
  webhookFetch: true,
  initialState: true,
  seed: true,
  onRequest: true,
  onChange: true,
} as const satisfies Record<keyof MockApiOptions, true>;

/** The name of an option. */
type OptionName = keyof typeof OPTION_FIELDS;

/** The names of the options, in the order of {@link MockApiOptions}. */
const OPTION_NAMES = Object.keys(OPTION_FIELDS) as OptionName[];

/** The fields of `rateLimit` and of `webhookRetry`. */
const RATE_LIMIT_FIELDS = ['requests', 'perMs'] as const satisfies readonly (keyof MockRateLimit)[];
const WEBHOOK_RETRY_FIELDS = [
  'attempts',
  'initialDelayMs',
  'timeoutMs',
] as const satisfies readonly (keyof MockWebhookRetry)[];

/**
 * Throws the `TypeError` of a bad option: `createMockApi: <message>`. What a getter or Proxy trap of
 * the options threw is never kept (its message may hold a secret).
 */
function fail(message: string): never {
  throw new TypeError(`createMockApi: ${message}`);
}

/**
 * The result of `read`, a read of the caller's values (where a getter or a Proxy trap may throw):
 * a throw becomes a refusal naming `path`. `read` must not itself refuse anything.
 */
function guard<T>(path: string, read: () => T): T {
  return guarded(path, read, refuseOption);
}

/** Refuses the option at `path`: `createMockApi: <path> <problem>`. */
function refuseOption(path: string, problem: string): never {
  return fail(`${path} ${problem}`);
}

/**
 * Refuses the key `key` of an object whose keys may only be `known` (`prefix` names the object,
 * `rateLimit.` say): suggests the closest known key (case, `_` and `-` aside) or lists them all.
 */
function unknownKey(key: string, known: readonly string[], prefix = ''): never {
  const plain = (name: string): string => name.toLowerCase().replace(/[-_\s]/g, '');
  const scored = known.map((name) => ({ name, score: distance(plain(key), plain(name)) }));
  const best = scored.reduce((a, b) => (b.score < a.score ? b : a));
  const hint =
    best.score <= Math.max(1, Math.floor(key.length / 3))
      ? `did you mean "${prefix}${best.name}"?`
      : `known: ${known.map((name) => prefix + name).join(', ')}`;
  // A long name is shown by its length: it may be a token pasted as a key by mistake.
  const shown = shownKey(key);
  const name = shown === key ? JSON.stringify(prefix + key) : `${prefix}${shown}`;
  fail(`unknown option ${name} (${hint})`);
}

/** `value`, or an empty list when not given (`undefined`; `null` is refused as any other non-array). */
function orEmpty(value: unknown): unknown {
  return value === undefined ? [] : value;
}

/** A copy of the array `value` (read once), or a refusal: `<name> must be <what>, got …`. */
function list(value: unknown, name: string, what: string): unknown[] {
  return readList(value, name, refuseOption) ?? fail(`${name} must be ${what}, got ${describeValue(value)}`);
}

/**
 * The plain object `value` as its `fields`, each read once (what every check then looks at,
 * whatever a getter or a Proxy would answer later), or `undefined` when not given. Refuses anything
 * but an object, a field not in `fields` (unless `undefined`; named with `prefix`), and an object
 * whose keys or values cannot be read. Unlike `readFields`, which reads the own keys only, each
 * name of `fields` is read as a property (an inherited option, or a Proxy without own keys, counts).
 */
function optionalObject<K extends string>(
  value: unknown,
  name: string,
  fields: readonly K[],
  prefix = `${name}.`,
): Record<K, unknown> | undefined {
  if (value === undefined) return undefined;
  if (!guard(name, () => isObject(value))) fail(`${name} must be an object, got ${describeValue(value)}`);
  const source = value as Record<string, unknown>;
  const read = (key: string): unknown => guard(`${name}.${key}`, () => source[key]);
  for (const key of guard(name, () => Object.keys(source))) {
    if (!(fields as readonly string[]).includes(key) && read(key) !== undefined) {
      unknownKey(key, fields, prefix);
    }
  }
  return Object.fromEntries(fields.map((key) => [key, read(key)])) as Record<K, unknown>;
}

/** A function, or `undefined` when not given. */
function optionalFunction<F extends (...args: never[]) => unknown>(
  value: unknown,
  name: string,
): F | undefined {
  if (value !== undefined && typeof value !== 'function') {
    fail(`${name} must be a function, got ${describeValue(value)}`);
  }
  return value as F | undefined;
}

/** An integer >= 1, or `fallback` when not given (required when there is no fallback). */
function positiveInteger(value: unknown, name: string, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    fail(`${name} must be an integer >= 1, got ${describeValue(value)}`);
  }
  return value;
}

function nonNegative(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    fail(`${name} must be a number >= 0, got ${describeValue(value)}`);
  }
  return value;
}

/** A delay in ms: from 0 to {@link MAX_DELAY_MS} (a timer cannot wait longer: Node would wait 1 ms). */
function delay(value: unknown, name: string, fallback: number): number {
  const ms = nonNegative(value, name, fallback);
  if (ms > MAX_DELAY_MS)
    fail(`${name} must be at most ${MAX_DELAY_MS} ms (2^31 - 1), got ${describeValue(ms)}`);
  return ms;
}

/**
 * An absolute `http:` or `https:` URL. A refusal never shows the text (it may be a token given by
 * mistake, or hold credentials): only its length, or the scheme of a URL of another scheme.
 */
function httpUrl(value: unknown, name: string): URL {
  const expected = `${name} must be an absolute http: or https: URL`;
  if (typeof value !== 'string') fail(`${expected}, got ${describeValue(value)}`);
  if (!URL.canParse(value)) fail(`${expected}, got ${describeValue(value)} that is not one`);
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    fail(`${expected}, got ${describeUrlScheme(url)}`);
  return url;
}

/**
 * Copies of the warehouses (the defaults when not given): a non-empty array of plain objects, each
 * with an `id` that is a unique integer >= 1, a `name` that is a string when given, and JSON values
 * only (see {@link jsonCopier}), at most {@link MAX_WAREHOUSE_VALUES} of them in all.
 */
function readWarehouses(value: unknown): MockWarehouse[] {
  const entries = list(
    value === undefined ? DEFAULT_WAREHOUSES : value,
    'warehouses',
    'an array of warehouses',
  );
  if (entries.length === 0) fail('warehouses must hold at least one warehouse');
  const copyJson = jsonCopier({ maxDepth: MAX_JSON_DEPTH, maxValues: MAX_WAREHOUSE_VALUES }, refuseOption);
  const seen = new Map<unknown, number>();
  return entries.map((entry, i) => {
    const path = `warehouses[${i}]`;
    if (!guard(path, () => isObject(entry))) fail(`${path} must be an object, got ${describeValue(entry)}`);
    const warehouse = copyJson(entry, path) as MockWarehouse;
    const { id, name } = warehouse;
    const first = seen.get(id);
    if (!Number.isSafeInteger(id) || id < 1 || first !== undefined) {
      const got = first === undefined ? describeValue(id) : `${id} again (as warehouses[${first}].id)`;
      fail(`${path}.id: warehouse ids must be unique integers >= 1, got ${got}`);
    }
    seen.set(id, i);
    if (name !== undefined && typeof name !== 'string') {
      fail(`${path}.name must be a string, got ${describeValue(name)}`);
    }
    return warehouse;
  });
}

/** A random API token such as `mock_5f2c…` (Web Crypto). */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `mock_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Checked copies of the faults (their patterns compiled): what the mock adds when it starts and
 * again on every `reset()`, without checking them again, so each fault the caller gave is read
 * once. A bad one is an `InvalidFault` naming it: `Invalid fault: faults[1]: status must be …`.
 */
function readFaults(value: unknown): PreparedFault[] {
  return list(orEmpty(value), 'faults', 'an array of faults').map((fault, i) => {
    try {
      return prepareFault(fault as MockFault);
    } catch (error) {
      if (!(error instanceof InvalidFault)) fail(`faults[${i}] ${UNREADABLE}`);
      throw new InvalidFault(error.field, `faults[${i}]: ${error.message.replace(/^Invalid fault: /, '')}`);
    }
  });
}

/**
 * Checks the options and applies the defaults. Each option is read once (a getter or a Proxy is
 * not asked again). Throws a `TypeError` `createMockApi: <what>` naming the bad option by its
 * path (`warehouses[1].name`), showing a bad value by its kind ({@link describeValue}), never its
 * text: an unknown option (not `undefined`), a value of the wrong type, options that cannot be read.
 */
export function resolveOptions(options: MockApiOptions = {}): MockConfig {
  // Unknown names are shown without a prefix (`webhook`); never `undefined` (`options` defaults to `{}`).
  const given = optionalObject(options, 'options', OPTION_NAMES, '')!;
  const url = httpUrl(given.baseUrl === undefined ? DEFAULT_BASE_URL : given.baseUrl, 'baseUrl');
  const basePath = url.pathname.replace(/\/+$/, '');
  const tokens =
    given.tokens === undefined ? [randomToken()] : list(given.tokens, 'tokens', 'an array of strings');
  if (tokens.length === 0 || tokens.some((t) => typeof t !== 'string' || !TOKEN.test(t))) {
    // The tokens themselves are never shown.
    fail(
      'tokens must be a non-empty list of non-empty strings of visible ASCII characters (no white space or control characters)',
    );
  }
  const blocked = list(orEmpty(given.blockedCountries), 'blockedCountries', 'an array of strings').map(
    (code, i) => {
      if (typeof code !== 'string')
        fail(`blockedCountries[${i}] must be a string, got ${describeValue(code)}`);
      return code.toUpperCase();
    },
  );
  const warehouses = readWarehouses(given.warehouses);
  const rateLimit = optionalObject(given.rateLimit, 'rateLimit', RATE_LIMIT_FIELDS);
  const webhooks = list(orEmpty(given.webhooks), 'webhooks', 'an array of URLs').map((hook, i) => {
    const url = httpUrl(hook, `webhooks[${i}]`);
    // `fetch` refuses such a URL: every delivery would fail.
    if (url.username || url.password) fail(`webhooks[${i}] must not carry credentials (user:password@)`);
    return hook as string;
  });
  const retry = optionalObject(given.webhookRetry, 'webhookRetry', WEBHOOK_RETRY_FIELDS);
  return {
    baseUrl: `${url.origin}${basePath}`,
    basePath,
    tokens: tokens as string[],
    warehouses,
    blockedCountries: new Set(blocked),
    pageSize: positiveInteger(given.pageSize, 'pageSize', 20),
    latency: delay(given.latency, 'latency', 0),
    faults: readFaults(given.faults),
    webhooks,
    webhookRetry: {
      attempts: positiveInteger(retry?.attempts, 'webhookRetry.attempts', 5),
      initialDelayMs: delay(retry?.initialDelayMs, 'webhookRetry.initialDelayMs', 50),
      timeoutMs: delay(
        positiveInteger(retry?.timeoutMs, 'webhookRetry.timeoutMs', 5000),
        'webhookRetry.timeoutMs',
        5000,
      ),
    },
    now: optionalFunction<() => Date>(given.now, 'now') ?? (() => new Date()),
    rateLimit: rateLimit && {
      requests: positiveInteger(rateLimit.requests, 'rateLimit.requests'),
      perMs: positiveInteger(rateLimit.perMs, 'rateLimit.perMs'),
    },
    merchantId: positiveInteger(given.merchantId, 'merchantId', 1),
    webhookFetch: optionalFunction<NonNullable<MockApiOptions['webhookFetch']>>(
      given.webhookFetch,
      'webhookFetch',
    ),
    onRequest: optionalFunction<NonNullable<MockApiOptions['onRequest']>>(given.onRequest, 'onRequest'),
    onChange: optionalFunction<NonNullable<MockApiOptions['onChange']>>(given.onChange, 'onChange'),
    // Checked by `createMockApi` (`importState`, `checkSeed`), which knows their rules.
    initialState: given.initialState as MockStateFile | undefined,
    seed: given.seed as MockSeed | undefined,
  };
}
