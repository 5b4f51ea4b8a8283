/**
 * `skus.bulkUpsert` against the mock: progress after each request, a run stopped part-way resumed
 * with exactly what was not written (`BulkUpsertError.remaining()`), and a code twice in one call
 * refused before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import {
  BulkUpsertError,
  type BulkUpsertProgress,
  FulfillmentClient,
  RequestValidationError,
} from '../../src/index.js';
import { TOKEN, testApi } from '../testing/helpers.js';

const BULK = '/merchant_api/v1/skus/bulk_upsert';

const requests: string[] = [];

function setup() {
  const api = testApi();
  const posts: number[] = [];
  const client = new FulfillmentClient({
    apiToken: TOKEN,
    baseUrl: api.baseUrl,
    maxRetries: 0,
    logLevel: 'off',
    fetch: async (input, init) => {
      const request = input instanceof Request ? input : undefined;
      const method = request?.method ?? init?.method ?? 'GET';
      if (method === 'POST') posts.push(1);
      requests.push(`${method} ${new URL(request?.url ?? String(input)).pathname}`);
      return api.fetch(input, init);
    },
  });
  return { api, client, posts };
}

const catalogue = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ name: `Product ${from + i}`, merchant_sku_id: `P-${from + i}` }));

describe('skus.bulkUpsert: progress, resume, duplicates', () => {
  it('reports progress after each request', async () => {
    const { client } = setup();
    const progress: BulkUpsertProgress[] = [];
    const result = await client.skus.bulkUpsert(catalogue(250), {
      concurrency: 1,
      onProgress: (p) => progress.push(p),
    });
    expect(result.written).toBe(250);
    expect(progress).toEqual([
      { done: 1, requests: 3, written: 100, total: 250, failed: 0 },
      { done: 2, requests: 3, written: 200, total: 250, failed: 0 },
      { done: 3, requests: 3, written: 250, total: 250, failed: 0 },
    ]);
  });

  it('remaining() gives exactly what was not written; upserting it finishes the run', async () => {
    const { api, client } = setup();
    const items = catalogue(350);
    // The first request fails: items 0–99 fail, 100–349 are not sent.
    api.injectFault({ method: 'POST', path: BULK, status: 500, times: 1 });
    const progress: BulkUpsertProgress[] = [];
    const error = await client.skus
      .bulkUpsert(items, { concurrency: 1, onProgress: (p) => progress.push(p) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BulkUpsertError);
    const stopped = error as BulkUpsertError;
    expect(progress.at(-1)).toMatchObject({ done: 1, written: 0, failed: 1 });
    const rest = stopped.remaining();
    expect(rest).toEqual(items); // nothing written: everything remains, in order
    const finished = await client.skus.bulkUpsert(rest);
    expect(finished.written).toBe(350);

    // A run that stops after a written request: remaining() is what follows it.
    const more = catalogue(300, 1000);
    let calls = 0;
    const { client: second, api: secondApi } = setup();
    const failing = new FulfillmentClient({
      apiToken: TOKEN,
      baseUrl: secondApi.baseUrl,
      maxRetries: 0,
      logLevel: 'off',
      fetch: async (input, init) => {
        if ((input instanceof Request ? input.method : init?.method) === 'POST' && ++calls === 2) {
          secondApi.injectFault({ method: 'POST', path: BULK, status: 503, times: 1 });
        }
        return secondApi.fetch(input, init);
      },
    });
    const partial = (await failing.skus
      .bulkUpsert(more, { concurrency: 1 })
      .catch((e: unknown) => e)) as BulkUpsertError;
    expect(partial.written).toHaveLength(100);
    expect(partial.remaining()).toEqual(more.slice(100));
    expect((await second.skus.bulkUpsert(partial.remaining())).written).toBe(200);
  });

  it('merge: true keeps what an item omits (one list request per upsert request); without it, null', async () => {
    const { client } = setup();
    await client.skus.create({
      name: 'Mug',
      merchant_sku_id: 'MUG',
      cost_in_cents: 450,
      barcode: '4006381333931',
      weight_in_kg: 0.3,
    });
    const before = requests.length;
    // A price-only feed: name and code (required) and the new cost.
    const merged = await client.skus.bulkUpsert(
      [
        { name: 'Mug', merchant_sku_id: 'MUG', cost_in_cents: 499 },
        { name: 'New', merchant_sku_id: 'NEW' },
      ],
      {
        merge: true,
      },
    );
    const mug = merged.skus?.find((s) => s.merchant_sku_id === 'MUG');
    expect(mug).toMatchObject({ cost_in_cents: 499, barcode: '4006381333931' });
    expect(Number(mug?.weight_in_kg)).toBe(0.3);
    expect(requests.slice(before)).toEqual([
      'GET /merchant_api/v1/skus',
      'POST /merchant_api/v1/skus/bulk_upsert',
    ]);
    expect(merged.skus?.find((s) => s.merchant_sku_id === 'NEW')).toMatchObject({ barcode: null });
    // Without merge the API nulls what the item omits (spec §4.1).
    const plain = await client.skus.bulkUpsert([{ name: 'Mug', merchant_sku_id: 'MUG', cost_in_cents: 520 }]);
    expect(plain.skus?.[0]).toMatchObject({ cost_in_cents: 520, barcode: null, weight_in_kg: null });
    const bad = await client.skus
      .bulkUpsert(catalogue(1), { merge: 'yes' as never })
      .catch((e: unknown) => e);
    expect((bad as RequestValidationError).issues[0]?.path).toBe('merge');
  });

  it('refuses a merchant_sku_id twice in one call, naming both, before anything is sent', async () => {
    const { client } = setup();
    const before = requests.length;
    const items = [...catalogue(3), { name: 'Again', merchant_sku_id: 'P-1' }];
    const error = (await client.skus.bulkUpsert(items).catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues).toEqual([
      { path: 'skus[3].merchant_sku_id', message: 'duplicate (same as skus[1])' },
    ]);
    expect(requests.length).toBe(before);
    const bad = await client.skus
      .bulkUpsert(catalogue(1), { onProgress: 'yes' as never })
      .catch((e: unknown) => e);
    expect((bad as RequestValidationError).issues[0]?.path).toBe('onProgress');
  });
});
