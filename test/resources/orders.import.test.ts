/**
 * `orders.createMany` against the mock: results in input order with every outcome, progress,
 * a streamed source read only as fast as the import goes, a re-run that doubles nothing, and
 * 1,000 orders (300 outside CI) under a mixed schedule of ambiguous faults: exactly one order per
 * `merchant_order_id`, none lost.
 */
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  FulfillmentClient,
  FulfillmentError,
  type ImportProgress,
  type ImportResult,
  RequestValidationError,
} from '../../src/index.js';
import { createMany } from '../../src/resources/order-import.js';
import type { MockApi, MockFault } from '../../src/testing/index.js';
import { createSku, mockRequest, orderBody, TOKEN, testApi } from '../testing/helpers.js';

const ORDERS = '/merchant_api/v1/orders';
/** Orders of the import under faults: the full 1,000 in CI, fewer in the quick loop. */
const N = process.env.CI ? 1000 : 300;

async function setup(options: { timeout?: number } = {}) {
  const api = testApi({ now: () => new Date() });
  await createSku(api, 'A');
  const client = new FulfillmentClient({
    apiToken: TOKEN,
    baseUrl: api.baseUrl,
    fetch: api.fetch,
    maxRetries: 0,
    timeout: options.timeout ?? 5000,
    logLevel: 'off',
  });
  return { api, client };
}

/** Every order the mock holds, by merchant_order_id → how many. */
async function held(api: MockApi): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let page = 1; page <= 50; page++) {
    const answer = await mockRequest(api, 'GET', `${ORDERS}?limit=100&page=${page}`);
    const data = answer.body.data as { merchant_order_id: string }[];
    for (const order of data)
      counts.set(order.merchant_order_id, (counts.get(order.merchant_order_id) ?? 0) + 1);
    if (answer.body.pagination.current_page >= answer.body.pagination.page_count) break;
  }
  return counts;
}

const body = (id: string) => orderBody(id, 'A') as never;

describe('orders.createMany', () => {
  it('one result per input, in input order, with every outcome; progress after each', async () => {
    const { client } = await setup();
    const progress: ImportProgress[] = [];
    const source = [
      body('I-1'),
      { merchant_order_id: 'I-2' } as never, // invalid: no address, no items
      orderBody('I-3', 'NOPE') as never, // rejected: unknown SKU
      body('I-1'), // the same order again: existing
      body('I-4'),
    ];
    const results: ImportResult[] = [];
    for await (const result of client.orders.createMany(source, {
      concurrency: 1,
      onProgress: (p) => progress.push(p),
    })) {
      results.push(result);
    }
    expect(results.map((r) => [r.index, r.merchant_order_id, r.outcome])).toEqual([
      [0, 'I-1', 'created'],
      [1, 'I-2', 'invalid'],
      [2, 'I-3', 'rejected'],
      [3, 'I-1', 'existing'],
      [4, 'I-4', 'created'],
    ]);
    expect(results[1]!.issues?.map((i) => i.path)).toEqual(
      expect.arrayContaining(['shipping_address', 'items']),
    );
    expect(results[2]!.error).toMatchObject({ status: 422 });
    expect(results[3]!.order?.id).toBe(results[0]!.order?.id);
    expect(progress).toHaveLength(5);
    expect(progress.at(-1)).toEqual({
      done: 5,
      created: 2,
      recovered: 0,
      existing: 1,
      invalid: 1,
      rejected: 1,
      failed: 0,
    });
  });

  it('reads a streamed source only as fast as the import goes, and stops reading on break', async () => {
    const { client } = await setup();
    let pulled = 0;
    let closed = false;
    async function* lines() {
      try {
        for (let i = 0; i < 100; i++) {
          pulled++;
          yield body(`L-${i}`);
        }
      } finally {
        closed = true;
      }
    }
    let seen = 0;
    for await (const result of client.orders.createMany(lines(), { concurrency: 3 })) {
      seen++;
      expect(result.index).toBe(seen - 1);
      expect(pulled).toBeLessThanOrEqual(seen + 3); // never more than the window ahead
      if (seen === 10) break;
    }
    expect(pulled).toBeLessThanOrEqual(13);
    expect(closed).toBe(true);
  });

  it('summary() counts and lists the problems; a bad option or source is refused before anything', async () => {
    const { client } = await setup();
    const summary = await client.orders
      .createMany(new Set([body('M-1'), { merchant_order_id: 'M-2' } as never]))
      .summary();
    expect(summary).toMatchObject({ done: 2, created: 1, invalid: 1 });
    expect(summary.problems.map((p) => p.merchant_order_id)).toEqual(['M-2']);
    for (const [source, options, field] of [
      [[], { concurrency: 0 }, 'concurrency'],
      [[], { onProgress: 'yes' }, 'onProgress'],
      [[], { maxAttempts: -1 }, 'maxAttempts'],
      [42, {}, 'source'],
    ] as const) {
      let error: unknown;
      try {
        client.orders.createMany(source as never, options as never);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.path).toBe(field);
    }
  });

  it('a run iterated with for await can then be summarised: the counts and problems of that loop', async () => {
    const { client } = await setup();
    const run = client.orders.createMany([body('S-1'), { merchant_order_id: 'S-2' } as never, body('S-3')]);
    const seen: ImportResult[] = [];
    for await (const result of run) seen.push(result);
    const summary = await run.summary();
    expect(summary).toMatchObject({ done: 3, created: 2, invalid: 1 });
    expect(summary.problems).toEqual([seen[1]]);
    // Summarised again: the same figures, nothing sent twice.
    expect(await run.summary()).toEqual(summary);
    expect(() => run[Symbol.asyncIterator]()).toThrow(TypeError);
  });

  it('summary() called twice at once: both wait for the one run and give its full figures', async () => {
    const { client } = await setup();
    const run = client.orders.createMany([body('T-1'), body('T-2'), body('T-3')]);
    const [a, b] = await Promise.all([run.summary(), run.summary()]);
    expect(a).toMatchObject({ done: 3, created: 3 });
    expect(b).toEqual(a);
  });

  it('types every error as one of the SDK errors; a failure that is not one is wrapped, its cause kept', async () => {
    expectTypeOf<ImportResult['error']>().toEqualTypeOf<FulfillmentError | undefined>();
    const thrown = new Error('not an SDK error');
    const orders = { create: () => Promise.reject(thrown), findByMerchantOrderId: async () => null };
    const { problems } = await createMany(orders, [body('W-1')]).summary();
    const [result] = problems;
    expect(result).toMatchObject({ outcome: 'failed', error: { cause: thrown } });
    expect(result?.error).toBeInstanceOf(FulfillmentError);
  });

  it('random fault schedules (property): every order once, every result created or recovered', async () => {
    const kinds: Partial<MockFault>[] = [
      { latency: 0 }, // goes through
      { latency: 150, after: true },
      { reset: true, after: true },
      { reset: true },
      { status: 503 },
      { status: 502, after: true },
    ];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: kinds.length - 1 }), { maxLength: 30 }),
        async (schedule) => {
          const { api } = await setup();
          const client = new FulfillmentClient({
            apiToken: TOKEN,
            baseUrl: api.baseUrl,
            fetch: api.fetch,
            maxRetries: 0,
            timeout: 60,
            logLevel: 'off',
          });
          // One fault per send, in order of arrival; the sends after the schedule go through.
          for (const kind of schedule)
            api.injectFault({ method: 'POST', path: ORDERS, times: 1, ...kinds[kind] });
          const ids = Array.from({ length: 12 }, (_, i) => `R-${run}-${i}`);
          run++;
          const summary = await client.orders
            .createMany(ids.map(body), { concurrency: 4, maxAttempts: 12 })
            .summary();
          expect(summary.problems).toEqual([]);
          expect(summary.created + summary.recovered).toBe(12);
          const counts = await held(api);
          expect(ids.map((id) => counts.get(id))).toEqual(ids.map(() => 1));
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);

  it(`${N} orders under ambiguous faults: one order each, none lost; a re-run adds nothing`, async () => {
    const { api, client } = await setup({ timeout: 60 });
    // Each POST meets, at random (seeded), one of the four ambiguities, 12.5 % each, or nothing.
    const kinds: Partial<MockFault>[] = [
      { latency: 150, after: true }, // store, then answer after the client's 60 ms timeout
      { reset: true, after: true }, // store, then drop the connection
      { reset: true }, // drop the connection before storing
      { status: 502, after: true }, // store, then answer 5xx
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const injected = new Map<number, number>();
    const faulty = new FulfillmentClient({
      apiToken: TOKEN,
      baseUrl: api.baseUrl,
      maxRetries: 0,
      timeout: 60,
      logLevel: 'off',
      fetch: (input, init) => {
        const request = input instanceof Request ? input : undefined;
        if ((request?.method ?? init?.method) === 'POST') {
          const pick = Math.floor(random() * 8);
          if (pick < kinds.length) {
            injected.set(pick, (injected.get(pick) ?? 0) + 1);
            api.injectFault({ method: 'POST', path: ORDERS, times: 1, ...kinds[pick] });
          }
        }
        return api.fetch(input, init);
      },
    });
    const ids = Array.from({ length: N }, (_, i) => `F-${i}`);
    const first = await faulty.orders.createMany(ids.map(body), { concurrency: 8, maxAttempts: 8 }).summary();
    expect(first.problems).toEqual([]);
    expect(first.created + first.recovered).toBe(N);
    expect(first.existing).toBe(0);
    expect(first.recovered).toBeGreaterThanOrEqual(N / 4); // the three store-then-fail kinds, about 37 %
    for (let kind = 0; kind < kinds.length; kind++) expect(injected.get(kind)).toBeGreaterThanOrEqual(N / 10);
    const counts = await held(api);
    expect(counts.size).toBe(N);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);

    const again = await client.orders.createMany(ids.map(body), { concurrency: 8 }).summary();
    expect(again).toMatchObject({ done: N, existing: N, created: 0, recovered: 0 });
    expect((await held(api)).size).toBe(N);
  }, 180_000);
});
