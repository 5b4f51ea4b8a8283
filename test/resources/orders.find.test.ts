/**
 * `orders.findByMerchantOrderId`: a newest-first scan of the order list against the mock, counted
 * in requests; bounds sent as `created_at` filters; a page budget that ends in `LookupLimitError`,
 * never in a silent `null`; bad input refused before anything is sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FulfillmentClient, LookupLimitError, RequestValidationError } from '../../src/index.js';
import { createSku, mockRequest, orderBody, TOKEN, testApi } from '../testing/helpers.js';

const api = testApi(); // its clock moves 1 s per reading: orders O-1 … O-250 are in creation order
const requests: string[] = [];
const client = new FulfillmentClient({
  apiToken: TOKEN,
  baseUrl: api.baseUrl,
  maxRetries: 0,
  fetch: (input, init) => {
    requests.push(String(input instanceof Request ? input.url : input));
    return api.fetch(input, init);
  },
});
const ORDERS = 250;

/** Runs `fn` and returns what it resolved with, and the requests it sent. */
async function counting<T>(fn: () => Promise<T>): Promise<{ result: T; sent: string[] }> {
  const before = requests.length;
  const result = await fn();
  return { result, sent: requests.slice(before) };
}

beforeAll(async () => {
  await createSku(api, 'A');
  for (let i = 1; i <= ORDERS; i++) {
    const answer = await mockRequest(api, 'POST', '/merchant_api/v1/orders', orderBody(`O-${i}`, 'A'));
    if (answer.status !== 201) throw new Error(`order ${i}: ${answer.status}`);
  }
});

describe('orders.findByMerchantOrderId', () => {
  it('reads newest first, 100 per page, and stops at the match', async () => {
    const newest = await counting(() => client.orders.findByMerchantOrderId('O-240'));
    expect(newest.result?.merchant_order_id).toBe('O-240');
    expect(newest.sent).toHaveLength(1);
    expect(newest.sent[0]).toContain('limit=100');

    const older = await counting(() => client.orders.findByMerchantOrderId('O-120'));
    expect(older.result?.merchant_order_id).toBe('O-120');
    expect(older.sent).toHaveLength(2); // O-250…O-151, then O-150…O-51
  });

  it('answers null only after reading every page it was asked to', async () => {
    const missing = await counting(() =>
      client.orders.findByMerchantOrderId('NOPE', { createdAfter: '2024-01-01T00:00:00Z' }),
    );
    expect(missing.result).toBeNull();
    expect(missing.sent).toHaveLength(3); // the window holds all 250 orders
    expect(new URL(missing.sent[0]!).searchParams.get('created_at[gte]')).toBe('2024-01-01T00:00:00Z');
  });

  it('without createdAfter, stops at its page budget with LookupLimitError, not null', async () => {
    const error = await client.orders.findByMerchantOrderId('O-5', { maxPages: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LookupLimitError);
    expect(error).toMatchObject({ pagesScanned: 2, itemsScanned: 200 });
    expect((error as Error).message).toMatch(/"O-5".*200 newest orders.*createdAfter/);
    // The default budget (10 pages) reaches it.
    expect((await client.orders.findByMerchantOrderId('O-5'))?.merchant_order_id).toBe('O-5');
    // So does a budget that is exhausted exactly when the list ends: no more pages, so null is sure.
    expect(await client.orders.findByMerchantOrderId('NOPE', { maxPages: 3 })).toBeNull();
  });

  it('sends its bounds as created_at filters (a Date as ISO 8601) and finds within them', async () => {
    const all = await client.orders.list({ limit: 100 }).toArray({ max: ORDERS });
    const o100 = all.find((o) => o.merchant_order_id === 'O-100')!;
    const o90 = all.find((o) => o.merchant_order_id === 'O-90')!;
    const found = await counting(() =>
      client.orders.findByMerchantOrderId('O-95', {
        createdAfter: new Date(o90.created_at),
        createdBefore: o100.created_at,
      }),
    );
    expect(found.result?.merchant_order_id).toBe('O-95');
    expect(found.sent).toHaveLength(1);
    const url = new URL(found.sent[0]!);
    expect(url.searchParams.get('created_at[gte]')).toBe(new Date(o90.created_at).toISOString());
    expect(url.searchParams.get('created_at[lte]')).toBe(o100.created_at);
    // Outside the window: null after the window's one page.
    const outside = await counting(() =>
      client.orders.findByMerchantOrderId('O-200', {
        createdAfter: o90.created_at,
        createdBefore: o100.created_at,
      }),
    );
    expect(outside.result).toBeNull();
    expect(outside.sent).toHaveLength(1);
  });

  it.each([
    ['', {}, 'merchantOrderId'],
    [42, {}, 'merchantOrderId'],
    ['O-1', { createdAfter: 'yesterday' }, 'createdAfter'],
    ['O-1', { createdBefore: new Date(Number.NaN) }, 'createdBefore'],
    ['O-1', { maxPages: 0 }, 'maxPages'],
    ['O-1', { maxPages: 1.5 }, 'maxPages'],
    ['O-1', { timeout: -1 }, 'options.timeout'],
  ])('refuses %j with %j naming %s; nothing is sent', async (id, options, field) => {
    const before = requests.length;
    const error = await client.orders
      .findByMerchantOrderId(id as string, options as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toContain(field);
    expect(requests.length).toBe(before);
  });
});
