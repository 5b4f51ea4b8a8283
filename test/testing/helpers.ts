/**
 * Helpers of the testing kit's tests: the one request helper (`mockRequest`, for any `fetch`), a
 * mock with a known token and clock, bodies, small waits, and the bin spawned in a sandbox
 * (`binSandbox`, `spawnBin`, `waitFor`, `exitOf`). Imports nothing from vitest, so
 * fixture scripts run by plain `node` use it too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMockApi, type MockApi, type MockApiOptions } from '../../src/testing/index.js';

/** The token every test mock accepts. */
export const TOKEN = 'tok_mock_test';

/** A mock with a known token and a clock that moves 1 s per reading (deterministic ordering). */
export function testApi(options: MockApiOptions = {}): MockApi {
  let t = Date.parse('2025-01-01T00:00:00.000Z');
  return createMockApi({
    tokens: [TOKEN],
    now: () => {
      t += 1000;
      return new Date(t);
    },
    ...options,
  });
}

/**
 * Hostile arguments for the control methods' checks, each throwing an error that carries `secret`
 * (which a refusal must never show): an object whose `key` getter throws (on `fields`, when
 * given), a revoked Proxy, and a Proxy whose key listing throws.
 */
export function hostile(secret: string) {
  const trap = (): never => {
    throw new Error(`trap said ${secret}`);
  };
  return {
    getter: (key: string, fields: Record<string, unknown> = {}) =>
      Object.defineProperty(fields, key, { enumerable: true, get: trap }),
    revoked: () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    },
    noKeys: new Proxy({}, { ownKeys: trap }),
  };
}

/** A clock that only moves when told to. */
export function manualClock(start = '2025-01-01T00:00:00.000Z') {
  let t = Date.parse(start);
  return {
    now: () => new Date(t),
    set(iso: string) {
      t = Date.parse(iso);
    },
    advance(ms: number) {
      t += ms;
    },
  };
}

/** A parsed answer. */
export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
  body: any;
  headers: Headers;
}

/** A `fetch` to send requests with. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Where {@link mockRequest} sends a request: a mock itself (its in-process `api.fetch`, on
 * `api.baseUrl`), any `{ fetch, baseUrl }`, or the root URL of a running server or of msw handlers
 * (e.g. `server.url`), reached with the global `fetch`.
 */
export type MockTarget = { readonly fetch: FetchLike; readonly baseUrl: string } | string;

/**
 * The one way the tests call the mock: sends `method path` (JSON `body` when given; a string is
 * sent as is) with `Authorization: Bearer <token>` (none when `token` is `null`), and parses the
 * JSON answer (`body` is `undefined` for an empty one). Rejects as the `fetch` used does (e.g. a
 * `TypeError` for a dropped connection).
 */
export async function mockRequest(
  target: MockTarget,
  method: string,
  path: string,
  body?: unknown,
  token: string | null = TOKEN,
): Promise<Answer> {
  const { fetch: send, baseUrl } =
    typeof target === 'string'
      ? { fetch: (input: string, init: RequestInit) => fetch(input, init), baseUrl: target }
      : target;
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await send(`${baseUrl}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** A valid SKU body. */
export function skuBody(code: string, extra: Record<string, unknown> = {}) {
  return { name: `SKU ${code}`, merchant_sku_id: code, ...extra };
}

/** A valid shipping address. */
export const ADDRESS = {
  full_name: 'Ada Lovelace',
  first_name: 'Ada',
  last_name: 'Lovelace',
  line1: 'Main Street 1',
  city: 'Berlin',
  postal_code: '10115',
  country_code: 'DE',
};

/** A valid order body for one item of `code`. */
export function orderBody(id: string, code: string, quantity = 1, extra: Record<string, unknown> = {}) {
  return {
    merchant_order_id: id,
    shipping_address: ADDRESS,
    items: [{ merchant_item_id: `${id}-1`, merchant_sku_id: code, quantity, price_per_unit_in_cents: 1000 }],
    ...extra,
  };
}

/** Creates a SKU and returns its id. */
export async function createSku(
  target: MockTarget,
  code: string,
  extra: Record<string, unknown> = {},
  token: string | null = TOKEN,
): Promise<number> {
  const answer = await mockRequest(target, 'POST', '/merchant_api/v1/skus', skuBody(code, extra), token);
  if (answer.status !== 201) throw new Error(`createSku: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.id;
}

/**
 * Puts `quantity` units of a SKU in stock in a warehouse (default 1), through a restocking
 * shipment moved to `restocked`. Returns the shipment id.
 */
export async function stock(api: MockApi, skuId: number, quantity: number, warehouseId = 1): Promise<number> {
  const answer = await mockRequest(api, 'POST', '/merchant_api/v1/restocking_shipments', {
    warehouse_id: warehouseId,
    delivery_option: 'courier',
    restocking_shipment_items: [{ sku_id: skuId, announced_quantity: quantity }],
  });
  if (answer.status !== 201) throw new Error(`stock: ${answer.status} ${JSON.stringify(answer.body)}`);
  api.advanceRestockingShipment(answer.body.id, 'restocked');
  return answer.body.id;
}

/**
 * A SKU `code` and a restocking shipment of `quantity` units of it to warehouse 1 (status
 * `shipped`), created through the API. Returns the shipment id.
 */
export async function restockingShipment(target: MockTarget, code = 'A', quantity = 2): Promise<number> {
  const sku = await createSku(target, code);
  const answer = await mockRequest(target, 'POST', '/merchant_api/v1/restocking_shipments', {
    warehouse_id: 1,
    restocking_shipment_items: [{ sku_id: sku, announced_quantity: quantity }],
  });
  return answer.body.id as number;
}

/** The SKU as `GET /skus` shows it. */
export async function skuById(api: MockApi, id: number) {
  const answer = await mockRequest(api, 'GET', '/merchant_api/v1/skus?limit=1000');
  return answer.body.data.find((s: { id: number }) => s.id === id);
}

/** Waits until `condition()` holds, checking every 5 ms, for at most `ms` (then throws). */
export async function until(condition: () => boolean, ms = 2000): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited >= ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The number of ref'd timers keeping the event loop alive. */
export function activeTimeouts(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

/**
 * {@link activeTimeouts} once the test runner's own timer has fired: vitest reports results through
 * a ref'd 100 ms throttle armed after each test or hook, which would otherwise be counted in a
 * baseline taken at the start of a test and be gone moments later.
 */
export async function settledTimeouts(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 150));
  return activeTimeouts();
}

/** `promise`'s value, or `fallback` after `ms` (the timer is cleared either way). */
export async function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<F>((resolve) => {
        timer = setTimeout(() => resolve(fallback), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The mock's bin script, relative to the repository (and to a {@link binSandbox}). */
export const MOCK_BIN = 'bin/merchant-fulfillment-mock.mjs';

/**
 * A temporary folder laid out as the package is — the bin script and a fresh one-file bundle of
 * the kit's sources as `dist/testing.js` — for tests that spawn the bin. Never the checkout's own
 * `dist/`: a build running meanwhile rewrites it. No `node_modules` beside it, so msw cannot be
 * found there: this also proves the HTTP server face works without the optional peer. Returns the
 * folder; remove it when done.
 */
export async function binSandbox(prefix: string): Promise<string> {
  const esbuild = await import('esbuild');
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const sandbox = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(sandbox, 'bin'));
  copyFileSync(join(root, MOCK_BIN), join(sandbox, MOCK_BIN));
  await esbuild.build({
    entryPoints: [join(root, 'src/testing/index.ts')],
    outfile: join(sandbox, 'dist/testing.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    external: ['msw'],
    logLevel: 'silent',
  });
  return sandbox;
}

/** Everything each child of {@link spawnBin} has written to stdout so far. */
const outputs = new WeakMap<ChildProcess, string>();

/** The exit code of each child of {@link spawnBin}, once its output is drained (`'close'`). */
const closes = new WeakMap<ChildProcess, Promise<number | null>>();

/**
 * Spawns the bin of the layout at `root` (a {@link binSandbox}) with `args`, stdout and stderr
 * piped; its stdout is collected from the start (read it with {@link output}, wait on it with
 * {@link waitFor}).
 */
export function spawnBin(root: string, args: string[], env?: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [join(root, MOCK_BIN), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(env ? { env } : {}),
  });
  outputs.set(child, '');
  child.stdout!.on('data', (chunk: Buffer) => {
    outputs.set(child, output(child) + chunk.toString());
  });
  closes.set(child, new Promise((resolve) => child.once('close', (code: number | null) => resolve(code))));
  return child;
}

/** What a child of {@link spawnBin} has written to stdout so far. */
export function output(child: ChildProcess): string {
  return outputs.get(child) ?? '';
}

/**
 * Resolves with the first match of `pattern` in the stdout of a child of {@link spawnBin} (output
 * written before the call counts too); rejects if the child exits first or after `ms`.
 */
export function waitFor(child: ChildProcess, pattern: RegExp, ms = 10_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`timed out waiting for ${pattern}; got: ${output(child)}`)),
      ms,
    );
    const check = () => {
      const match = output(child).match(pattern);
      if (match) finish(undefined, match);
    };
    const exited = (code: number | null) =>
      finish(new Error(`exited with ${code} before ${pattern}; got: ${output(child)}`));
    function finish(error?: Error, match?: RegExpMatchArray) {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.off('exit', exited);
      if (match) resolve(match);
      else reject(error);
    }
    child.stdout!.on('data', check);
    child.once('exit', exited);
    check();
  });
}

/**
 * Resolves with the exit code of a child of {@link spawnBin} once it has exited and its stdout and
 * stderr are drained (on `'exit'` alone, the last output may still be in the pipes). Bounded:
 * SIGKILL after `ms`.
 */
export function exitOf(child: ChildProcess, ms = 5_000): Promise<number | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the process did not exit by itself'));
    }, ms);
  });
  return Promise.race([closes.get(child)!, late]).finally(() => clearTimeout(timer));
}
