/**
 * List filters of any size: a `merchant_sku_ids` filter too long for one URL is split into requests
 * of at most MAX_URL_LENGTH characters (any list, through pagination; the `merge: true` lookup of
 * `bulkUpsert`), and every SKU is found.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH } from '../../src/core/url.js';
import { skuMinimalFixture } from '../fixtures/skus.js';
import { BASE, testClient, useMsw } from '../helpers/msw.js';

const server = useMsw();

/** A catalogue endpoint answering the SKUs of the codes asked for, recording each request's URL. */
function catalogueEndpoint(held: (code: string) => Record<string, unknown> = () => ({})) {
  const urls: string[] = [];
  const upserted: Record<string, unknown>[] = [];
  server.use(
    http.get(`${BASE}/merchant_api/v1/skus`, ({ request }) => {
      urls.push(request.url);
      const codes = new URL(request.url).searchParams.getAll('merchant_sku_ids[]');
      const data = codes.map((code, i) => ({
        ...skuMinimalFixture,
        id: i,
        merchant_sku_id: code,
        ...held(code),
      }));
      return HttpResponse.json({ data, pagination: { current_page: 1, page_count: 1 } });
    }),
    http.post(`${BASE}/merchant_api/v1/skus/bulk_upsert`, async ({ request }) => {
      upserted.push(...((await request.json()) as { skus: Record<string, unknown>[] }).skus);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { urls, upserted };
}

const codes = (n: number, width = 24) =>
  Array.from({ length: n }, (_, i) => `CODE-${String(i).padStart(width - 5, '0')}`);

describe('a merchant_sku_ids filter of any size', () => {
  it('skus.list: every URL within the bound; awaiting gives the first page, iterating finds every SKU', async () => {
    const { urls } = catalogueEndpoint();
    const wanted = codes(3_000);
    const list = testClient().skus.list({ merchant_sku_ids: wanted, limit: 100 });
    const first = await list;
    expect(urls).toHaveLength(1);
    expect(first.data.length).toBeGreaterThan(0);
    const found: string[] = [];
    for await (const sku of list) found.push(sku.merchant_sku_id!);
    expect(found).toEqual(wanted);
    expect(urls.length).toBeGreaterThan(10);
    for (const url of urls) {
      expect(url.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
      expect(new URL(url).searchParams.get('limit')).toBe('100');
    }
  });

  it('a request of several pages: its later pages (`&page=N`) stay within the bound too', async () => {
    const urls: string[] = [];
    server.use(
      http.get(`${BASE}/merchant_api/v1/skus`, ({ request }) => {
        urls.push(request.url);
        const params = new URL(request.url).searchParams;
        const asked = params.getAll('merchant_sku_ids[]');
        const page = Number(params.get('page') ?? 1);
        const half = Math.ceil(asked.length / 2);
        const codesOfPage = page === 1 ? asked.slice(0, half) : asked.slice(half);
        const data = codesOfPage.map((code, i) => ({
          ...skuMinimalFixture,
          id: page * 10_000 + i,
          merchant_sku_id: code,
        }));
        return HttpResponse.json({ data, pagination: { current_page: page, page_count: 2 } });
      }),
    );
    // Codes of every width from 10 to 40 characters: some request's URL ends within a few
    // characters of the bound, where `&page=2` would cross it.
    for (let width = 10; width <= 40; width++) {
      const wanted = codes(400, width);
      const found: string[] = [];
      for await (const sku of testClient().skus.list({ merchant_sku_ids: wanted }))
        found.push(sku.merchant_sku_id!);
      expect(found).toEqual(wanted);
    }
    expect(urls.some((url) => new URL(url).searchParams.get('page') === '2')).toBe(true);
    for (const url of urls) expect(url.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
  });

  it('skus.list(…).toArray({ max }) crosses requests and stops at max', async () => {
    const { urls } = catalogueEndpoint();
    const wanted = codes(1_000);
    const some = await testClient().skus.list({ merchant_sku_ids: wanted }).toArray({ max: 300 });
    expect(some.map((s) => s.merchant_sku_id)).toEqual(wanted.slice(0, 300));
    expect(urls.length).toBeGreaterThan(1);
    expect(urls.length).toBeLessThan(10);
  });

  it('withResponse() and a bad filter behave as on any list: the first request, a rejection before sending', async () => {
    const { urls } = catalogueEndpoint();
    const { data, response } = await testClient()
      .skus.list({ merchant_sku_ids: codes(1_000) })
      .withResponse();
    expect(response.status).toBe(200);
    expect(data.data.length).toBeGreaterThan(0);
    expect(urls).toHaveLength(1);
    const bad = testClient().skus.list({ merchant_sku_ids: codes(1_000), limit: 0 });
    await expect(bad).rejects.toThrow(/limit/);
    await expect(bad.toArray({ max: 10 })).rejects.toThrow(/limit/);
    expect(urls).toHaveLength(1);
  });

  it('the bound is the documented 4,096 characters', () => {
    expect(MAX_URL_LENGTH).toBe(4_096);
  });

  it('paging by hand goes on to the next request; maxPages counts the pages of every request', async () => {
    const { urls } = catalogueEndpoint();
    const wanted = codes(1_000);
    let page = await testClient().skus.list({ merchant_sku_ids: wanted });
    const found = [...page.data];
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      found.push(...page.data);
    }
    expect(found.map((s) => s.merchant_sku_id)).toEqual(wanted);
    const requests = urls.length;
    expect(requests).toBeGreaterThan(2);
    const capped = testClient().skus.list({ merchant_sku_ids: wanted }, { maxPages: 2 });
    await expect(capped.toArray({ max: 1_000_000 })).rejects.toThrow(
      /Stopped after 2 pages \(maxPages is 2\)/,
    );
  });

  it('a short filter is still one request', async () => {
    const { urls } = catalogueEndpoint();
    const page = await testClient().skus.list({ merchant_sku_ids: codes(20) });
    expect(page.data).toHaveLength(20);
    expect(urls).toHaveLength(1);
  });

  it('bulkUpsert merge: long codes are looked up in several bounded URLs, every held value kept', async () => {
    const { urls, upserted } = catalogueEndpoint((code) => ({ barcode: `BC-${code}` }));
    const long = codes(100, 120);
    const items = long.map((code) => ({ name: code, merchant_sku_id: code }));
    await testClient().skus.bulkUpsert(items, { merge: true });
    expect(urls.length).toBeGreaterThan(1);
    for (const url of urls) expect(url.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
    expect(upserted.map((sku) => sku.barcode)).toEqual(long.map((code) => `BC-${code}`));
  });
});
