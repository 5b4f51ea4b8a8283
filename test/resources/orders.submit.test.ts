/**
 * `orders.submit` against the mock and its faults (before and after the order is stored): every
 * outcome, what it costs in requests, and, property-based, that no schedule of faults produces two
 * orders or loses one that was reported.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  FulfillmentClient,
  InternalServerError,
  RequestValidationError,
  UnprocessableEntityError,
} from '../../src/index.js';
import type { MockFault } from '../../src/testing/index.js';
import { createSku, mockRequest, orderBody, TOKEN, testApi } from '../testing/helpers.js';

const ORDERS = '/merchant_api/v1/orders';

async function setup() {
  // The real clock: the lookup window is measured from this machine's time, as with the API.
  const api = testApi({ now: () => new Date() });
  await createSku(api, 'A');
  const sent: string[] = [];
  const client = new FulfillmentClient({
    apiToken: TOKEN,
    baseUrl: api.baseUrl,
    timeout: 100,
    maxRetries: 0,
    logLevel: 'off',
    fetch: (input, init) => {
      const request = input instanceof Request ? input : undefined;
      const method = request?.method ?? init?.method ?? 'GET';
      sent.push(`${method} ${new URL(request ? request.url : String(input)).pathname}`);
      return api.fetch(input, init);
    },
  });
  const stored = async (id: string) => {
    const answer = await mockRequest(api, 'GET', `${ORDERS}?limit=100`);
    return (answer.body.data as { merchant_order_id: string }[]).filter((o) => o.merchant_order_id === id)
      .length;
  };
  return { api, client, sent, stored };
}

const body = (id: string, quantity = 1) => orderBody(id, 'A', quantity) as never;

describe('orders.submit', () => {
  it('a 422 whose message is 1 MB of "merchant order" is not "taken": rejected as it is, at once', async () => {
    const message = 'merchant order '.repeat(70_000);
    const client = new FulfillmentClient({
      apiToken: TOKEN,
      baseUrl: 'https://api.test',
      logLevel: 'off',
      fetch: async () => Response.json({ success: false, errors: [message] }, { status: 422 }),
    });
    // A pattern with `.*` after each of its 70,000 starts took a minute here.
    await expect(client.orders.submit(body('S-0'))).rejects.toBeInstanceOf(UnprocessableEntityError);
  });

  it("'created' in one request when the API answers 201", async () => {
    const { client, sent, stored } = await setup();
    const result = await client.orders.submit(body('S-1'));
    expect(result).toMatchObject({ outcome: 'created', differences: [] });
    expect(result.order.merchant_order_id).toBe('S-1');
    expect(sent).toEqual(['POST /merchant_api/v1/orders']);
    expect(await stored('S-1')).toBe(1);
  });

  it.each<[string, Partial<MockFault>]>([
    ['store-then-5xx', { status: 500 }],
    ['store-then-reset', { reset: true }],
    ['store-then-timeout', { latency: 400 }],
  ])("'recovered' after %s: found by one lookup, not sent again", async (_name, fault) => {
    const { api, client, sent, stored } = await setup();
    api.injectFault({ method: 'POST', path: ORDERS, after: true, times: 1, ...fault });
    const result = await client.orders.submit(body('S-2'));
    expect(result).toMatchObject({ outcome: 'recovered', differences: [] });
    expect(result.order.merchant_order_id).toBe('S-2');
    expect(sent).toEqual(['POST /merchant_api/v1/orders', 'GET /merchant_api/v1/orders']);
    expect(await stored('S-2')).toBe(1);
  });

  it('sends again after an ambiguous failure that stored nothing', async () => {
    const { api, client, sent, stored } = await setup();
    api.injectFault({ method: 'POST', path: ORDERS, status: 503, times: 1 });
    const result = await client.orders.submit(body('S-3'));
    expect(result.outcome).toBe('created');
    expect(sent).toEqual([
      'POST /merchant_api/v1/orders',
      'GET /merchant_api/v1/orders',
      'POST /merchant_api/v1/orders',
    ]);
    expect(await stored('S-3')).toBe(1);
  });

  it("'existing' when the order is already there, with where it differs", async () => {
    const { client, stored } = await setup();
    await client.orders.submit(body('S-4'));
    const again = await client.orders.submit(body('S-4'));
    expect(again).toMatchObject({ outcome: 'existing', differences: [] });
    const changed = await client.orders.submit({
      ...orderBody('S-4', 'A', 3),
      shipping_address: { ...orderBody('S-4', 'A').shipping_address, city: 'Elsewhere' },
    } as never);
    expect(changed).toMatchObject({ outcome: 'existing', differences: ['items', 'shipping_address.city'] });
    expect(await stored('S-4')).toBe(1);
  });

  it('gives up after maxAttempts with the last failure; nothing stored, nothing doubled', async () => {
    const { api, client, sent, stored } = await setup();
    api.injectFault({ method: 'POST', path: ORDERS, reset: true });
    const error = await client.orders.submit(body('S-5'), { maxAttempts: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    // Send, look up (nothing), send again, look up (nothing), give up.
    expect(sent).toEqual([
      'POST /merchant_api/v1/orders',
      'GET /merchant_api/v1/orders',
      'POST /merchant_api/v1/orders',
      'GET /merchant_api/v1/orders',
    ]);
    expect(await stored('S-5')).toBe(0);
  });

  it('throws what is not ambiguous: an invalid body (nothing sent), another refusal (no lookup)', async () => {
    const { api, client, sent } = await setup();
    const invalid = await client.orders
      .submit({ merchant_order_id: 'S-6' } as never)
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(RequestValidationError);
    expect(sent).toEqual([]);
    const unknownSku = await client.orders.submit(orderBody('S-7', 'NOPE') as never).catch((e: unknown) => e);
    expect(unknownSku).toBeInstanceOf(UnprocessableEntityError);
    expect(sent).toEqual(['POST /merchant_api/v1/orders']);
    api.injectFault({ method: 'POST', path: ORDERS, status: 500 });
    expect(
      await client.orders.submit(body('S-8'), { maxAttempts: 1 }).catch((e: unknown) => e),
    ).toBeInstanceOf(InternalServerError);
    for (const [options, field] of [
      [{ maxAttempts: 0 }, 'maxAttempts'],
      [{ lookbackMs: -1 }, 'lookbackMs'],
    ] as const) {
      const error = (await client.orders
        .submit(body('S-9'), options)
        .catch((e: unknown) => e)) as RequestValidationError;
      expect(error.issues.map((i) => i.path)).toEqual([field]);
    }
  });

  it("a server clock outside the window: the lookup misses, the resend is refused as taken: 'existing', one order", async () => {
    const api = testApi(); // its clock is in 2025: far outside a window measured from now
    await createSku(api, 'A');
    const client = new FulfillmentClient({
      apiToken: TOKEN,
      baseUrl: api.baseUrl,
      fetch: api.fetch,
      maxRetries: 0,
    });
    api.injectFault({ method: 'POST', path: ORDERS, status: 500, after: true, times: 1 });
    const result = await client.orders.submit(body('S-11'));
    expect(result.outcome).toBe('existing');
    const listed = await mockRequest(api, 'GET', `${ORDERS}?limit=100`);
    expect(listed.body.data).toHaveLength(1);
  });

  it('recovers an order whose body sets its own created_at (the window follows it)', async () => {
    const { api, client } = await setup();
    api.injectFault({ method: 'POST', path: ORDERS, status: 500, after: true, times: 1 });
    const result = await client.orders.submit({
      ...orderBody('S-10', 'A'),
      created_at: '2020-06-01T12:00:00Z',
    } as never);
    expect(result.outcome).toBe('recovered');
    expect(result.order.created_at).toBe('2020-06-01T12:00:00.000Z');
  });

  it('a created_at that Date cannot read (an offset in hours only) still gets a lookup window', async () => {
    const { api, client, sent } = await setup();
    api.injectFault({ method: 'POST', path: ORDERS, status: 503, times: 1 });
    const result = await client.orders
      .submit({ ...orderBody('S-12', 'A'), created_at: '2025-01-01T10:00:00+01' } as never)
      .catch((e: unknown) => e);
    expect(result).not.toBeInstanceOf(RequestValidationError);
    expect(sent.slice(0, 2)).toEqual(['POST /merchant_api/v1/orders', 'GET /merchant_api/v1/orders']);
  });

  it('no schedule of faults doubles an order or reports one that is not there', async () => {
    const kinds: Record<string, Partial<MockFault>> = {
      none: { latency: 0 }, // lets the send through
      'reset-before-store': { reset: true },
      '5xx-before-store': { status: 503 },
      'store-then-5xx': { status: 500, after: true },
      'store-then-reset': { reset: true, after: true },
      'store-then-timeout': { latency: 300, after: true },
    };
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...Object.keys(kinds)), { minLength: 1, maxLength: 4 }),
        async (schedule) => {
          const { api, client, stored } = await setup();
          // One fault per send, in order; the sends after the schedule go through.
          for (const kind of schedule)
            api.injectFault({ method: 'POST', path: ORDERS, times: 1, ...kinds[kind] });
          const id = `P-${++run}`;
          const outcome = await client.orders.submit(body(id), { maxAttempts: 3 }).then(
            (r) => r.outcome,
            () => 'thrown',
          );
          // What must happen: the first send that is not refused before the order is stored decides.
          const decisive = [0, 1, 2]
            .map((n) => schedule[n] ?? 'none')
            .find((k) => !k.endsWith('before-store'));
          const expected = decisive === undefined ? 'thrown' : decisive === 'none' ? 'created' : 'recovered';
          expect(outcome).toBe(expected);
          expect(await stored(id)).toBe(expected === 'thrown' ? 0 : 1);
        },
      ),
      { numRuns: 40 },
    );
  });
});
