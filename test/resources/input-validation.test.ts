/**
 * Bad caller input to the resource helpers: a `RequestValidationError` naming the field, a
 * rejected promise (never a synchronous throw; `createMany` validates synchronously by design),
 * and nothing sent.
 */
import { describe, expect, it } from 'vitest';
import { type FulfillmentClient, InternalServerError, RequestValidationError } from '../../src/index.js';
import { testClient } from '../helpers/msw.js';
import { orderBody } from '../testing/helpers.js';

const MAX_LOOKBACK_MS = 30 * 24 * 60 * 60 * 1000;

/** A client whose every request is recorded: POST answers 503, anything else an empty list. */
function recording(): { client: FulfillmentClient; sent: string[] } {
  const sent: string[] = [];
  const client = testClient({
    maxRetries: 0,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      sent.push(`${request.method} ${decodeURIComponent(request.url)}`);
      return request.method === 'POST'
        ? Response.json({ error: 'upstream' }, { status: 503 })
        : Response.json([]);
    },
  });
  return { client, sent };
}

const order = (id = 'V-1', extra: Record<string, unknown> = {}) => orderBody(id, 'MUG', 1, extra) as never;
const sku = { name: 'Mug', merchant_sku_id: 'MUG' };

/** Calls `call` and returns what it threw synchronously, or what its promise rejected with. */
async function outcome(call: () => unknown): Promise<{ sync: boolean; error: unknown }> {
  let promise: unknown;
  try {
    promise = call();
  } catch (error) {
    return { sync: true, error };
  }
  return {
    sync: false,
    error: await (promise as Promise<unknown>).then(
      () => undefined,
      (e: unknown) => e,
    ),
  };
}

function paths(error: unknown): string[] {
  expect(error).toBeInstanceOf(RequestValidationError);
  return (error as RequestValidationError).issues.map((i) => i.path);
}

describe('orders.submit / createMany: lookbackMs is bounded (at most 30 days)', () => {
  it.each([1e16, Number.MAX_VALUE, MAX_LOOKBACK_MS + 1, Number.POSITIVE_INFINITY, Number.NaN, '60000'])(
    'submit refuses lookbackMs %s before sending anything',
    async (lookbackMs) => {
      const { client, sent } = recording();
      const { sync, error } = await outcome(() =>
        client.orders.submit(order(), { lookbackMs: lookbackMs as number, maxAttempts: 1 }),
      );
      expect(sync).toBe(false);
      expect(paths(error)).toEqual(['lookbackMs']);
      expect((error as Error).message).toMatch(/lookbackMs: expected milliseconds from 0 up to 2592000000/);
      expect(sent).toEqual([]);
    },
  );

  it('accepts 30 days: after a 503 the lookup runs over that window and the 503 is what is thrown', async () => {
    const { client, sent } = recording();
    const before = Date.now();
    const error = await client.orders
      .submit(order(), { lookbackMs: MAX_LOOKBACK_MS, maxAttempts: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^POST .*\/merchant_api\/v1\/orders$/);
    const gte = /created_at\[gte\]=([^&]+)/.exec(sent[1]!)?.[1];
    expect(Date.parse(gte!)).toBeLessThanOrEqual(before - MAX_LOOKBACK_MS + 1000);
    expect(Date.parse(gte!)).toBeGreaterThanOrEqual(before - MAX_LOOKBACK_MS - 1000);
  });

  it('createMany refuses a lookbackMs beyond 30 days at once (synchronously, as its other options), nothing sent', () => {
    const { client, sent } = recording();
    let error: unknown;
    try {
      client.orders.createMany([order()], { lookbackMs: 1e16 });
    } catch (e) {
      error = e;
    }
    expect(paths(error)).toEqual(['lookbackMs']);
    expect(sent).toEqual([]);
  });
});

describe('options that are not an object: refused by the helpers as by every method, nothing sent', () => {
  const bad: [string, unknown][] = [
    ['a string', 'fast'],
    ['a number', 42],
    ['null', null],
    ['an array', []],
  ];
  const helpers: [string, (c: FulfillmentClient, options: never) => unknown][] = [
    ['skus.create (the reference)', (c, o) => c.skus.create(sku, o)],
    ['orders.submit', (c, o) => c.orders.submit(order(), o)],
    ['orders.findByMerchantOrderId', (c, o) => c.orders.findByMerchantOrderId('A1', o)],
    ['skus.bulkUpsert', (c, o) => c.skus.bulkUpsert([sku], o)],
  ];
  for (const [name, call] of helpers) {
    it.each(bad)(`${name} rejects %s`, async (_what, options) => {
      const { client, sent } = recording();
      const { sync, error } = await outcome(() => call(client, options as never));
      expect(sync).toBe(false);
      expect(paths(error)).toEqual(['options']);
      expect((error as Error).message).toContain('options: expected an object of request options');
      expect(sent).toEqual([]);
    });
  }

  it.each(bad)('orders.createMany refuses %s synchronously, as its other options', (_what, options) => {
    const { client, sent } = recording();
    let error: unknown;
    try {
      client.orders.createMany([order()], options as never);
    } catch (e) {
      error = e;
    }
    expect(paths(error)).toEqual(['options']);
    expect(sent).toEqual([]);
  });

  it('undefined options are still the defaults', async () => {
    const { client, sent } = recording();
    expect(await client.orders.findByMerchantOrderId('A1', undefined)).toBeNull();
    expect(sent).toHaveLength(1);
  });
});
