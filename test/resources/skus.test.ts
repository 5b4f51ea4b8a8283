import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  APIError,
  BulkUpsertError,
  type BulkUpsertProgress,
  RequestValidationError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { skuFixture, skuMinimalFixture, skuMinimalParsed, skuWithNullsFixture } from '../fixtures/skus.js';
import { BASE, TOKEN, testClient, useMsw } from '../helpers/msw.js';
import { capture, expectWire } from '../helpers/wire.js';

const server = useMsw();
const client = () => testClient();

describe('skus.list', () => {
  it('sends filters in the API encoding and parses the page with quirks normalised', async () => {
    const seen = capture(server, 'get', '/merchant_api/v1/skus', {
      data: [skuFixture, skuWithNullsFixture, skuMinimalFixture],
      pagination: { current_page: 1, page_count: 1, item_count: 3, items_per_page: 20 },
    });
    const page = await client().skus.list({
      merchant_sku_ids: ['LAMP-OIL-500', 'A&B'],
      created_at: { gte: new Date('2025-01-01T00:00:00Z'), lt: '2025-02-01' },
      limit: 50,
    });
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'GET',
      path: '/merchant_api/v1/skus',
      search:
        '?merchant_sku_ids[]=LAMP-OIL-500&merchant_sku_ids[]=A%26B&created_at[gte]=2025-01-01T00%3A00%3A00.000Z&created_at[lt]=2025-02-01&limit=50',
      body: undefined,
    });
    const [sku, nulls, minimal] = page.data;
    expect(sku).toMatchObject({
      id: 48213,
      cost_in_cents: 349,
      cost_in_cent: 349,
      un_names: ['UN1223'],
      un_numbers: ['UN1223'],
      fulfilled_by: 'partner', // unknown enum value kept
      customs_description: 'Kerosene', // unknown field kept
    });
    expect(sku?.inventory_per_warehouse?.[1]).toMatchObject({ warehouse_id: 7, zone: 'B' });
    expect(nulls?.id).toBe(48214);
    expect(minimal).toEqual(skuMinimalParsed);
    expect(page.data).toHaveLength(3);
    expect(page.pagination).toEqual({ current_page: 1, page_count: 1, item_count: 3, items_per_page: 20 });
  });

  it('sends no query string without params', async () => {
    const seen = capture(server, 'get', '/merchant_api/v1/skus', {
      data: [skuMinimalFixture],
      pagination: { current_page: 1, page_count: 1 },
    });
    const page = await client().skus.list();
    expect(seen).toHaveLength(1);
    expectWire(seen[0], { method: 'GET', path: '/merchant_api/v1/skus', search: '', body: undefined });
    expect(page.data).toEqual([skuMinimalParsed]);
  });

  it('refuses bad filters before sending', async () => {
    // @ts-expect-error: merchant_sku_ids is a list
    await expect(client().skus.list({ merchant_sku_ids: 'A' })).rejects.toThrow(/merchant_sku_ids/);
    await expect(client().skus.list({ limit: 0 })).rejects.toThrow(/limit: expected integer > 0/);
  });
});

describe('skus.create', () => {
  it('POSTs the body as given and parses the created SKU', async () => {
    const seen = capture(server, 'post', '/merchant_api/v1/skus', skuFixture, 201);
    const body = {
      name: 'Lamp oil 500 ml',
      merchant_sku_id: 'LAMP-OIL-500',
      cost_in_cents: 349,
      country_code_of_origin: 'DE',
      weight_in_kg: 0.56,
      batch_tracking_enabled: true,
    };
    const sku = await client().skus.create(body);
    expect(seen).toHaveLength(1);
    expectWire(seen[0], { method: 'POST', path: '/merchant_api/v1/skus', search: '', body });
    expect(sku).toMatchObject({ id: 48213, merchant_sku_id: 'LAMP-OIL-500', cost_in_cents: 349 });
  });

  it('lists every bad field and sends nothing', async () => {
    const error = await client()
      // @ts-expect-error: cost_in_cents must be an integer number
      .skus.create({ name: '', cost_in_cents: 1.5, country_code_of_origin: 'DEU' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    const paths = (error as RequestValidationError).issues.map((i) => i.path).sort();
    expect(paths).toEqual(['cost_in_cents', 'country_code_of_origin', 'merchant_sku_id', 'name']);
  });

  it('keeps the API messages of a 422', async () => {
    capture(
      server,
      'post',
      '/merchant_api/v1/skus',
      { success: false, errors: ['Merchant sku has already been taken'] },
      422,
    );
    const error = await client()
      .skus.create({ name: 'X', merchant_sku_id: 'X' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).errors).toEqual(['Merchant sku has already been taken']);
  });
});

describe('skus.update and skus.put', () => {
  it.each([
    ['update', 'PATCH'],
    ['put', 'PUT'],
  ] as const)('%s sends %s /skus/{id} with the body as given', async (method, verb) => {
    const seen = capture(server, verb.toLowerCase() as 'patch', '/merchant_api/v1/skus/48213', skuFixture);
    const body = { cost_in_cents: '450', weight_in_kg: '0.6', batch_tracking_enabled: null };
    const sku = await client().skus[method]('48213', body);
    expect(seen).toHaveLength(1);
    expectWire(seen[0], { method: verb, path: '/merchant_api/v1/skus/48213', search: '', body });
    expect(sku).toMatchObject({ id: 48213, un_names: ['UN1223'], cost_in_cents: 349 });
  });

  it.each(['../x', -1, 1.5, '1 OR 1', 0, '', Number.MAX_SAFE_INTEGER + 1])(
    'refuses the path id %s and sends nothing',
    async (id) => {
      const error = await client()
        .skus.update(id as number, { name: 'x' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues[0]?.path).toBe('id');
    },
  );

  it('refuses a cost that is not digits', async () => {
    await expect(client().skus.update(1, { cost_in_cents: '4.50' })).rejects.toThrow(/cost_in_cents/);
  });
});

describe('skus.delete', () => {
  it('reads the SKU back from the list on 204', async () => {
    const seen = capture(
      server,
      'delete',
      '/merchant_api/v1/skus/5',
      () => new HttpResponse(null, { status: 204 }),
    );
    const reads = capture(server, 'get', '/merchant_api/v1/skus', {
      data: [{ ...skuMinimalFixture, id: 5, status: 'deleted' }],
      pagination: { current_page: 1, page_count: 1 },
    });
    expect(await client().skus.delete(5)).toMatchObject({ id: 5, status: 'deleted' });
    expect(seen).toHaveLength(1);
    expectWire(seen[0], { method: 'DELETE', path: '/merchant_api/v1/skus/5', search: '', body: undefined });
    expectWire(reads[0], {
      method: 'GET',
      path: '/merchant_api/v1/skus',
      search: '?limit=100',
      body: undefined,
    });
  });

  it('reads the SKU back on an empty 200', async () => {
    capture(server, 'delete', '/merchant_api/v1/skus/5', () => new HttpResponse('', { status: 200 }));
    capture(server, 'get', '/merchant_api/v1/skus', [{ ...skuMinimalFixture, id: 5, status: 'deleted' }]);
    expect((await client().skus.delete(5)).status).toBe('deleted');
  });

  it('resolves the SKU when the server sends it', async () => {
    const seen = capture(server, 'delete', '/merchant_api/v1/skus/7', skuMinimalFixture);
    expect(await client().skus.delete(7)).toEqual(skuMinimalParsed);
    expectWire(seen[0], { method: 'DELETE', path: '/merchant_api/v1/skus/7', search: '', body: undefined });
  });
});

describe('skus.retrieveByMerchantSkuId', () => {
  it('filters by merchant_sku_ids[] and returns the exact match', async () => {
    const seen = capture(server, 'get', '/merchant_api/v1/skus', {
      data: [skuFixture],
      pagination: { current_page: 1, page_count: 1 },
    });
    const sku = await client().skus.retrieveByMerchantSkuId('LAMP-OIL-500');
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'GET',
      path: '/merchant_api/v1/skus',
      search: '?merchant_sku_ids[]=LAMP-OIL-500',
      body: undefined,
    });
    expect(sku).toMatchObject({ id: 48213, merchant_sku_id: 'LAMP-OIL-500', un_names: ['UN1223'] });
  });

  it('returns null when there is none', async () => {
    const seen = capture(server, 'get', '/merchant_api/v1/skus', {
      data: [],
      pagination: { current_page: 1, page_count: 0 },
    });
    expect(await client().skus.retrieveByMerchantSkuId('NOPE')).toBeNull();
    expectWire(seen[0], {
      method: 'GET',
      path: '/merchant_api/v1/skus',
      search: '?merchant_sku_ids[]=NOPE',
      body: undefined,
    });
  });

  it('refuses an empty code', async () => {
    await expect(client().skus.retrieveByMerchantSkuId('')).rejects.toBeInstanceOf(RequestValidationError);
  });
});

describe('skus.bulkUpsert', () => {
  const catalogue = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ name: `SKU ${i}`, merchant_sku_id: `S-${i}` }));

  function bulkEndpoint(reply: (skus: { merchant_sku_id: string }[], call: number) => Response) {
    const calls: { skus: { merchant_sku_id: string }[] }[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    server.use(
      http.post(`${BASE}/merchant_api/v1/skus/bulk_upsert`, async ({ request }) => {
        const body = (await request.json()) as { skus: { merchant_sku_id: string }[] };
        calls.push(body);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return reply(body.skus, calls.length);
      }),
    );
    return { calls, maxInFlight: () => maxInFlight };
  }

  it('POSTs { skus } to /skus/bulk_upsert with the exact wire format', async () => {
    const seen = capture(
      server,
      'post',
      '/merchant_api/v1/skus/bulk_upsert',
      () => new HttpResponse(null, { status: 204 }),
    );
    const skus = [
      { name: 'Lamp oil 500 ml', merchant_sku_id: 'LAMP-OIL-500', cost_in_cents: 349 },
      { name: 'Gift wrap', merchant_sku_id: 'GIFT-WRAP' },
    ];
    const result = await client().skus.bulkUpsert(skus);
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'POST',
      path: '/merchant_api/v1/skus/bulk_upsert',
      search: '',
      body: { skus },
    });
    expect(result).toMatchObject({ written: 2, skus: undefined });
  });

  it('splits 250 SKUs into requests of at most 100, two in flight by default', async () => {
    const endpoint = bulkEndpoint(() => new HttpResponse(null, { status: 204 }));
    const result = await client().skus.bulkUpsert(catalogue(250));
    expect(endpoint.calls.map((c) => c.skus.length)).toEqual([100, 100, 50]);
    expect(endpoint.calls.flatMap((c) => c.skus.map((s) => s.merchant_sku_id))).toEqual(
      catalogue(250).map((s) => s.merchant_sku_id),
    );
    expect(endpoint.maxInFlight()).toBe(2);
    expect(result).toMatchObject({ written: 250, skus: undefined });
    expect(result.chunks.map((c) => c.status)).toEqual(['written', 'written', 'written']);
  });

  it('honours concurrency and chunkSize', async () => {
    const endpoint = bulkEndpoint(() => new HttpResponse(null, { status: 204 }));
    await client().skus.bulkUpsert(catalogue(40), { concurrency: 4, chunkSize: 10 });
    expect(endpoint.calls).toHaveLength(4);
    expect(endpoint.maxInFlight()).toBe(4);
  });

  it('parses SKUs when the API returns them (array or envelope)', async () => {
    bulkEndpoint((skus, call) =>
      call === 1
        ? HttpResponse.json(
            skus.map((s, i) => ({
              ...skuMinimalFixture,
              id: i + 1,
              name: 'n',
              status: 'active',
              merchant_sku_id: s.merchant_sku_id,
            })),
          )
        : HttpResponse.json({
            data: skus.map((s, i) => ({
              ...skuMinimalFixture,
              id: 1000 + i,
              name: 'n',
              status: 'active',
              merchant_sku_id: s.merchant_sku_id,
            })),
          }),
    );
    const result = await client().skus.bulkUpsert(catalogue(150), { concurrency: 1 });
    expect(result.skus).toHaveLength(150);
    expect(result.skus?.[149]?.id).toBe(1049);
  });

  it('keeps an undocumented body as received', async () => {
    bulkEndpoint(() => HttpResponse.json({ success: true, upserted: 3 }));
    const result = await client().skus.bulkUpsert(catalogue(3));
    expect(result.skus).toBeUndefined();
    expect(result.chunks[0]?.body).toEqual({ success: true, upserted: 3 });
  });

  it('retries a 503 (an upsert is idempotent)', async () => {
    const endpoint = bulkEndpoint((_s, call) =>
      call === 1
        ? HttpResponse.json({ errors: ['busy'] }, { status: 503 })
        : new HttpResponse(null, { status: 204 }),
    );
    await client().skus.bulkUpsert(catalogue(5));
    expect(endpoint.calls).toHaveLength(2);
  });

  it('validates every item first and sends nothing if one is invalid', async () => {
    const items = catalogue(150);
    // @ts-expect-error: deliberately broken item
    items[120] = { name: 'no code' };
    const error = await client()
      .skus.bulkUpsert(items)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toBe('skus[120].merchant_sku_id');
  });

  it('refuses an empty list', async () => {
    await expect(client().skus.bulkUpsert([])).rejects.toThrow(/at least 1 SKU/);
  });

  it("refuses the wire body's shape instead of the list (a realistic slip), naming skus", async () => {
    const sku = { name: 'Mug', merchant_sku_id: 'MUG' };
    await expect(client().skus.bulkUpsert({ skus: [sku] } as never)).rejects.toThrow(
      /skus: expected an array of SKUs/,
    );
  });

  it('on a partial failure says which items were written, failed and not sent', async () => {
    bulkEndpoint((_s, call) =>
      call === 2
        ? HttpResponse.json({ success: false, errors: ["Name can't be blank"] }, { status: 422 })
        : new HttpResponse(null, { status: 204 }),
    );
    const error = (await client()
      .skus.bulkUpsert(catalogue(350), { concurrency: 1 })
      .catch((e: unknown) => e)) as BulkUpsertError;
    expect(error).toBeInstanceOf(BulkUpsertError);
    expect(error.written).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(error.failed).toEqual(Array.from({ length: 100 }, (_, i) => 100 + i));
    expect(error.skipped).toHaveLength(150);
    expect(error.cause).toBeInstanceOf(UnprocessableEntityError);
    expect(error.message).toContain('100 of 350 SKUs written, 100 failed, 150 not sent');
    expect(error.message).toContain("Name can't be blank");
  });
});

describe('skus.bulkUpsert: the answer to each request', () => {
  const catalogue = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ name: `SKU ${i}`, merchant_sku_id: `S-${i}` }));

  it('a 200 with "success": false is a failed request, its errors kept, its SKUs remaining', async () => {
    let call = 0;
    server.use(
      http.post(`${BASE}/merchant_api/v1/skus/bulk_upsert`, () =>
        ++call === 2
          ? HttpResponse.json({ success: false, errors: ["Name can't be blank", `echo ${TOKEN}`] })
          : new HttpResponse(null, { status: 204 }),
      ),
    );
    const items = catalogue(250);
    const progress: BulkUpsertProgress[] = [];
    const error = (await client()
      .skus.bulkUpsert(items, { concurrency: 1, onProgress: (p) => progress.push(p) })
      .catch((e: unknown) => e)) as BulkUpsertError;
    expect(error).toBeInstanceOf(BulkUpsertError);
    expect(error.chunks.map((c) => c.status)).toEqual(['written', 'failed', 'skipped']);
    expect(error.written).toHaveLength(100);
    expect(error.failed).toEqual(Array.from({ length: 100 }, (_, i) => 100 + i));
    expect(error.remaining()).toEqual(items.slice(100));
    expect(progress).toEqual([
      { done: 1, requests: 3, written: 100, total: 250, failed: 0 },
      { done: 2, requests: 3, written: 100, total: 250, failed: 1 },
    ]);
    expect(error.cause).toBeInstanceOf(APIError);
    expect((error.cause as APIError).status).toBe(200);
    expect((error.cause as APIError).errors).toEqual(["Name can't be blank", 'echo ***']);
    expect(error.message).toContain("Name can't be blank");
    expect(inspect(error, { depth: 10 })).not.toContain(TOKEN);
  });

  it('keeps no own __proto__ key in a chunk body, at any depth', async () => {
    server.use(
      http.post(
        `${BASE}/merchant_api/v1/skus/bulk_upsert`,
        () =>
          new HttpResponse('{"__proto__": {"polluted": true}, "nested": {"__proto__": {"polluted": true}}}', {
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    const result = await client().skus.bulkUpsert(catalogue(1));
    const body = result.chunks[0]?.body as Record<string, unknown>;
    expect(Object.hasOwn(body, '__proto__')).toBe(false);
    expect(Object.hasOwn(body.nested as object, '__proto__')).toBe(false);
    expect((Object.assign({}, body) as { polluted?: unknown }).polluted).toBeUndefined();
    expect((Object.assign({}, body.nested) as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('skus.bulkUpsert and validateResponses', () => {
  const archived = { ...skuMinimalFixture, id: 1, name: 'A', status: 'archived', merchant_sku_id: 'A' };
  const reply = () => HttpResponse.json([archived]);

  it('lenient keeps an unknown status; a body that fails the check leaves the list out but keeps the raw body', async () => {
    server.use(http.post(`${BASE}/merchant_api/v1/skus/bulk_upsert`, reply));
    const lenient = await testClient().skus.bulkUpsert([{ name: 'A', merchant_sku_id: 'A' }]);
    expect(lenient.skus?.[0]?.status).toBe('archived');
    const broken = { ...archived, id: 'one' };
    server.use(http.post(`${BASE}/merchant_api/v1/skus/bulk_upsert`, () => HttpResponse.json([broken])));
    const failed = await testClient().skus.bulkUpsert([{ name: 'A', merchant_sku_id: 'A' }]);
    expect(failed.skus).toBeUndefined();
    expect(failed.chunks[0]?.body).toEqual([broken]);
  });

  it('off returns the list unchecked', async () => {
    server.use(
      http.post(`${BASE}/merchant_api/v1/skus/bulk_upsert`, () => HttpResponse.json({ data: [{ id: 'x' }] })),
    );
    const result = await testClient({ validateResponses: 'off' }).skus.bulkUpsert([
      { name: 'A', merchant_sku_id: 'A' },
    ]);
    expect(result.skus).toEqual([{ id: 'x' }]);
  });
});

describe('skus.retrieveByMerchantSkuId().withResponse()', () => {
  it('gives the SKU (or null) with the response and its rate-limit figures', async () => {
    server.use(
      http.get(`${BASE}/merchant_api/v1/skus`, () =>
        HttpResponse.json(
          { data: [skuFixture], pagination: { current_page: 1, page_count: 1 } },
          { headers: { 'x-rate-limit-used': '3', 'x-rate-limit-max': '100' } },
        ),
      ),
    );
    const { data, rateLimit } = await testClient()
      .skus.retrieveByMerchantSkuId('LAMP-OIL-500')
      .withResponse();
    expect(data?.id).toBe(48213);
    expect(rateLimit).toEqual({ used: 3, max: 100 });
    expect(await testClient().skus.retrieveByMerchantSkuId('OTHER')).toBeNull();
  });
});
