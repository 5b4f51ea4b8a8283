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

/** Sends a request through `api.fetch` (in-process) and parses the JSON answer. */
export async function call(
  api: MockApi,
  method: string,
  path: string,
  body?: unknown,
  token: string | null = TOKEN,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await api.fetch(`${api.baseUrl}${path}`, {
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
  api: MockApi,
  code: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const answer = await call(api, 'POST', '/merchant_api/v1/skus', skuBody(code, extra));
  if (answer.status !== 201) throw new Error(`createSku: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.id;
}

/**
 * Puts `quantity` units of a SKU in stock in a warehouse (default 1), through a restocking
 * shipment moved to `restocked`. Returns the shipment id.
 */
export async function stock(api: MockApi, skuId: number, quantity: number, warehouseId = 1): Promise<number> {
  const answer = await call(api, 'POST', '/merchant_api/v1/restocking_shipments', {
    warehouse_id: warehouseId,
    delivery_option: 'courier',
    restocking_shipment_items: [{ sku_id: skuId, announced_quantity: quantity }],
  });
  if (answer.status !== 201) throw new Error(`stock: ${answer.status} ${JSON.stringify(answer.body)}`);
  api.advanceRestockingShipment(answer.body.id, 'restocked');
  return answer.body.id;
}

/** The SKU as `GET /skus` shows it. */
export async function skuById(api: MockApi, id: number) {
  const answer = await call(api, 'GET', '/merchant_api/v1/skus?limit=1000');
  return answer.body.data.find((s: { id: number }) => s.id === id);
}

/** Sends a request to a real server at `url` with plain `fetch` and parses the JSON answer. */
export async function httpCall(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  token: string | null = TOKEN,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
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
