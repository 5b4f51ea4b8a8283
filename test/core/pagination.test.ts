import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { MAX_CURSORS } from '../../src/core/pagination.js';
import { type FulfillmentClient, Page, PaginationError, RequestValidationError } from '../../src/index.js';
import { orderFixture } from '../fixtures/orders.js';
import { returnFixture } from '../fixtures/returns.js';
import { shipmentFixture } from '../fixtures/shipments.js';
import { skuMinimalFixture } from '../fixtures/skus.js';
import { warehousesFixture } from '../fixtures/warehouses.js';
import { BASE, testClient, useMsw } from '../helpers/msw.js';

const server = useMsw();
const WAREHOUSES = `${BASE}/merchant_api/v1/warehouses`;

const items = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: from + i }));

/** A page-number collection of `total` items served `perPage` at a time; records every request URL. */
function pageNumbered(path: string, total: number, perPage: number) {
  const seen: URL[] = [];
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  server.use(
    http.get(`${BASE}${path}`, ({ request }) => {
      const url = new URL(request.url);
      seen.push(url);
      const page = Number(url.searchParams.get('page') ?? '1');
      const from = (page - 1) * perPage;
      return HttpResponse.json({
        data: items(from + 1, Math.max(0, Math.min(perPage, total - from))),
        pagination: { current_page: page, page_count: pageCount, item_count: total, items_per_page: perPage },
      });
    }),
  );
  return seen;
}

describe('page-number strategy (version 1 envelope)', () => {
  it('iterates every item of every page in order, lazily', async () => {
    const seen = pageNumbered('/merchant_api/v1/warehouses', 45, 20);
    const ids: number[] = [];
    for await (const w of testClient().warehouses.list()) ids.push(w.id);
    expect(ids).toEqual(items(1, 45).map((i) => i.id));
    expect(seen.map((u) => u.searchParams.get('page'))).toEqual([null, '2', '3']);
  });

  it('carries filters and limit to every page', async () => {
    const seen = pageNumbered('/merchant_api/v1/skus', 0, 1);
    server.use(
      http.get(`${BASE}/merchant_api/v1/skus`, ({ request }) => {
        const url = new URL(request.url);
        seen.push(url);
        const page = Number(url.searchParams.get('page') ?? '1');
        return HttpResponse.json({
          data: [
            {
              ...skuMinimalFixture,
              id: 100 - page,
              name: `n${page}`,
              status: 'active',
              merchant_sku_id: 'A',
            },
          ],
          pagination: { current_page: page, page_count: 3, item_count: 3, items_per_page: 1 },
        });
      }),
    );
    const gte = new Date('2025-01-01T00:00:00.000Z');
    const all = await testClient()
      .skus.list({ merchant_sku_ids: ['A', 'B'], created_at: { gte }, limit: 1 })
      .toArray({ max: 100 });
    expect(all).toHaveLength(3);
    expect(seen).toHaveLength(3);
    for (const [i, url] of seen.entries()) {
      expect(url.searchParams.getAll('merchant_sku_ids[]')).toEqual(['A', 'B']);
      expect(url.searchParams.get('created_at[gte]')).toBe('2025-01-01T00:00:00.000Z');
      expect(url.searchParams.get('limit')).toBe('1');
      expect(url.searchParams.get('page')).toBe(i === 0 ? null : String(i + 1));
    }
  });

  it('starts at the requested page', async () => {
    const seen = pageNumbered('/merchant_api/v1/warehouses', 60, 20);
    const ids: number[] = [];
    for await (const w of testClient().warehouses.list({ page: 2 })) ids.push(w.id);
    expect(ids[0]).toBe(21);
    expect(ids).toHaveLength(40);
    expect(seen.map((u) => u.searchParams.get('page'))).toEqual(['2', '3']);
  });

  it('stops at an empty page even if page_count says more', async () => {
    let requests = 0;
    server.use(
      http.get(WAREHOUSES, ({ request }) => {
        requests++;
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        return HttpResponse.json({
          data: page === 1 ? items(1, 2) : [],
          pagination: { current_page: page, page_count: 99 },
        });
      }),
    );
    expect(await testClient().warehouses.list().toArray({ max: 1000 })).toHaveLength(2);
    expect(requests).toBe(2);
  });

  it('await gives the first Page with data, pagination, response and navigation', async () => {
    pageNumbered('/merchant_api/v1/warehouses', 30, 20);
    const page = await testClient().warehouses.list();
    expect(page).toBeInstanceOf(Page);
    expect(page.data).toHaveLength(20);
    expect(page.pagination).toEqual({ current_page: 1, page_count: 2, item_count: 30, items_per_page: 20 });
    expect(page.response.status).toBe(200);
    expect(page.hasNextPage()).toBe(true);
    const second = await page.getNextPage();
    expect(second.data).toHaveLength(10);
    expect(second.hasNextPage()).toBe(false);
    await expect(second.getNextPage()).rejects.toBeInstanceOf(PaginationError);
  });

  it('.pages() yields Page objects; .withResponse() gives the first page and its Response', async () => {
    pageNumbered('/merchant_api/v1/warehouses', 50, 20);
    const sizes: number[] = [];
    for await (const page of testClient().warehouses.list().pages()) sizes.push(page.data.length);
    expect(sizes).toEqual([20, 20, 10]);
    const { data, response } = await testClient().warehouses.list().withResponse();
    expect(data).toBeInstanceOf(Page);
    expect(response.ok).toBe(true);
  });

  it('breaking out of the loop stops fetching', async () => {
    const seen = pageNumbered('/merchant_api/v1/warehouses', 200, 20);
    let n = 0;
    for await (const _ of testClient().warehouses.list()) {
      if (++n === 25) break;
    }
    expect(seen).toHaveLength(2);
  });

  it.each([
    [1, 1],
    [20, 1],
    [21, 2],
    [40, 2],
    [41, 3],
  ])('toArray({ max: %i }) fetches %i page(s)', async (max, pages) => {
    const seen = pageNumbered('/merchant_api/v1/warehouses', 200, 20);
    const out = await testClient().warehouses.list().toArray({ max });
    expect(out).toHaveLength(max);
    expect(seen).toHaveLength(pages);
  });

  it('toArray requires a bound', async () => {
    pageNumbered('/merchant_api/v1/warehouses', 5, 20);
    const list = testClient().warehouses.list();
    await list;
    // @ts-expect-error: max is required
    const error = await list.toArray({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toEqual(['max']);
    // @ts-expect-error: the options object is required
    await expect(list.toArray()).rejects.toThrow(/needs a bound/);
    await expect(list.toArray({ max: -1 })).rejects.toBeInstanceOf(RequestValidationError);
  });

  it('a bad toArray bound after the first page arrived refuses only the collection', async () => {
    const seen = pageNumbered('/merchant_api/v1/warehouses', 5, 20);
    const list = testClient().warehouses.list();
    const first = await list;
    await expect(list.toArray({ max: -1 })).rejects.toBeInstanceOf(RequestValidationError);
    expect(seen).toHaveLength(1);
    // The page already received stays what it was.
    expect((await list).data).toBe(first.data);
  });

  it('retries a 503 in the middle of an iteration and continues', async () => {
    let calls = 0;
    const seen = pageNumbered('/merchant_api/v1/warehouses', 100, 20);
    server.use(
      http.get(WAREHOUSES, ({ request }) => {
        if (new URL(request.url).searchParams.get('page') === '3' && calls++ === 0) {
          return HttpResponse.json({ errors: ['busy'] }, { status: 503 });
        }
        return undefined; // fall through to the collection
      }),
    );
    const all = await testClient().warehouses.list().toArray({ max: 1000 });
    expect(all.map((w) => w.id)).toEqual(items(1, 100).map((i) => i.id));
    expect(calls).toBe(2);
    expect(seen.map((u) => u.searchParams.get('page'))).toEqual([null, '2', '3', '4', '5']);
  });
});

describe('cursor strategy (version 2 envelope)', () => {
  function cursored(
    pages: unknown[][],
    nextUrl = (i: number) => `${BASE}/merchant_api/v1/warehouses?page=c${i}&limit=2`,
  ) {
    const seen: string[] = [];
    server.use(
      http.get(WAREHOUSES, ({ request }) => {
        seen.push(request.url);
        const cursor = new URL(request.url).searchParams.get('page');
        const index = cursor ? Number(cursor.slice(1)) : 0;
        return HttpResponse.json({
          data: pages[index],
          pagination: {
            first_page_url: `${BASE}/merchant_api/v1/warehouses?limit=2`,
            limit: 2,
            next_page_url: index + 1 < pages.length ? nextUrl(index + 1) : null,
          },
        });
      }),
    );
    return seen;
  }

  it('follows next_page_url until it is null', async () => {
    const seen = cursored([items(1, 2), items(3, 2), items(5, 1)]);
    const ids = (await testClient().warehouses.list({ limit: 2 }).toArray({ max: 10 })).map((w) => w.id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(seen).toEqual([
      `${BASE}/merchant_api/v1/warehouses?limit=2`,
      `${BASE}/merchant_api/v1/warehouses?page=c1&limit=2`,
      `${BASE}/merchant_api/v1/warehouses?page=c2&limit=2`,
    ]);
  });

  it('continues past an empty page that still carries a cursor', async () => {
    cursored([items(1, 2), [], items(3, 1)]);
    const ids = (await testClient().warehouses.list().toArray({ max: 10 })).map((w) => w.id);
    expect(ids).toEqual([1, 2, 3]);
  });

  it('never sends the token to another origin', async () => {
    let foreign = 0;
    server.use(
      http.get('https://evil.test/*', () => {
        foreign++;
        return HttpResponse.json([]);
      }),
    );
    cursored([items(1, 2), items(3, 2)], () => 'https://evil.test/merchant_api/v1/warehouses?page=c1');
    const seen: number[] = [];
    const error = await (async () => {
      for await (const w of testClient().warehouses.list()) seen.push(w.id);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toMatch(/not the configured origin/);
    expect(seen).toEqual([1, 2]);
    expect(foreign).toBe(0);
  });

  it('ends with PaginationError when a cursor repeats', async () => {
    let calls = 0;
    server.use(
      http.get(WAREHOUSES, () => {
        calls++;
        return HttpResponse.json({
          data: items(calls * 10, 1),
          pagination: { next_page_url: `${WAREHOUSES}?page=same` },
        });
      }),
    );
    await expect(testClient().warehouses.list().toArray({ max: 1000 })).rejects.toThrow(
      /sent this cursor before/,
    );
    expect(calls).toBe(2);
  });
});

describe('cursor memory is bounded', () => {
  /** A cursor collection whose cursors go round a cycle of `period`, answered without msw. */
  function cycling(period: number) {
    let requests = 0;
    const fetch = async (input: string | URL | Request) => {
      requests++;
      const url = new URL(input instanceof Request ? input.url : String(input));
      const at = Number(url.searchParams.get('c') ?? '0');
      return Response.json({
        data: [{ id: requests }],
        pagination: { next_page_url: `${WAREHOUSES}?c=${(at % period) + 1}` },
      });
    };
    return { fetch, requests: () => requests };
  }

  it(`a loop of ${MAX_CURSORS} cursors is found, a longer one ends at maxPages`, async () => {
    const short = cycling(MAX_CURSORS);
    const shortList = testClient({ fetch: short.fetch }).warehouses.list(undefined, { maxPages: 5_000 });
    await expect(shortList.toArray({ max: 10_000 })).rejects.toThrow(/sent this cursor before/);
    // The first page, then each cursor of the cycle once.
    expect(short.requests()).toBe(MAX_CURSORS + 1);

    const long = cycling(MAX_CURSORS + 1);
    const longList = testClient({ fetch: long.fetch }).warehouses.list(undefined, { maxPages: 2_500 });
    await expect(longList.toArray({ max: 10_000 })).rejects.toThrow(/Stopped after 2500 pages/);
    expect(long.requests()).toBe(2_500);
  });
});

describe('bare JSON array', () => {
  function bare(total: number, perPage: number) {
    const seen: URL[] = [];
    server.use(
      http.get(WAREHOUSES, ({ request }) => {
        const url = new URL(request.url);
        seen.push(url);
        const page = Number(url.searchParams.get('page') ?? '1');
        const size = Number(url.searchParams.get('limit') ?? perPage);
        const from = (page - 1) * size;
        return HttpResponse.json(items(from + 1, Math.max(0, Math.min(size, total - from))));
      }),
    );
    return seen;
  }

  it('is one page when it is not full', async () => {
    const seen = bare(5, 20);
    expect(await testClient().warehouses.list().toArray({ max: 100 })).toHaveLength(5);
    expect(seen).toHaveLength(1);
  });

  it('asks for the next page while pages are full at the default size of 20', async () => {
    const seen = bare(45, 20);
    expect(await testClient().warehouses.list().toArray({ max: 100 })).toHaveLength(45);
    expect(seen.map((u) => u.searchParams.get('page'))).toEqual([null, '2', '3']);
  });

  it('uses the requested limit and stops at an empty page', async () => {
    const seen = bare(20, 20);
    expect(await testClient().warehouses.list({ limit: 10 }).toArray({ max: 100 })).toHaveLength(20);
    expect(seen.map((u) => u.searchParams.get('page'))).toEqual([null, '2', '3']);
  });
});

describe('loop defences', () => {
  it('a page that repeats the previous one ends with PaginationError', async () => {
    let calls = 0;
    server.use(
      http.get(WAREHOUSES, () => {
        calls++;
        return HttpResponse.json(items(1, 20)); // the server ignores `page`
      }),
    );
    await expect(testClient().warehouses.list().toArray({ max: 10_000 })).rejects.toThrow(/same items/);
    expect(calls).toBe(2);
  });

  it('a current_page that does not advance ends with PaginationError', async () => {
    let calls = 0;
    server.use(
      http.get(WAREHOUSES, () => {
        calls++;
        return HttpResponse.json({
          data: items(calls * 100, 3),
          pagination: { current_page: 1, page_count: 5 },
        });
      }),
    );
    await expect(testClient().warehouses.list().toArray({ max: 10_000 })).rejects.toThrow(
      /answered page 1 after page 1/,
    );
    expect(calls).toBe(2);
  });

  it('maxPages caps an endless collection', async () => {
    let calls = 0;
    server.use(
      http.get(WAREHOUSES, ({ request }) => {
        calls++;
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        return HttpResponse.json({
          data: items(page * 10, 1),
          pagination: { current_page: page, page_count: 1e9 },
        });
      }),
    );
    const error = await testClient()
      .warehouses.list(undefined, { maxPages: 5 })
      .toArray({ max: 1e9 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toMatch(/Stopped after 5 pages \(maxPages is 5\)/);
    expect(calls).toBe(5);
  });
});

describe('one page at a time', () => {
  it('a page is fetched only when the loop asks', async () => {
    const log: string[] = [];
    server.use(
      http.get(WAREHOUSES, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        log.push(`fetch ${page}`);
        return HttpResponse.json({
          data: items(page * 10, 2),
          pagination: { current_page: page, page_count: 3 },
        });
      }),
    );
    for await (const page of testClient().warehouses.list().pages())
      log.push(`done ${page.pagination?.current_page}`);
    expect(log).toEqual(['fetch 1', 'done 1', 'fetch 2', 'done 2', 'fetch 3', 'done 3']);
  });
});

describe('every list method walks 3 pages in each strategy', () => {
  /** One list method: how to call it with filters, and a valid item of its schema with a given id. */
  interface ListCase {
    name: string;
    path: string;
    item: (id: number) => Record<string, unknown>;
    list: (client: FulfillmentClient) => AsyncIterable<{ id: number }>;
    /** The query every page must carry (decoded `name=value` pairs), `limit=2` included. */
    query: string[];
  }

  const LIMIT = 2;
  const lists: ListCase[] = [
    {
      name: 'skus.list',
      path: '/merchant_api/v1/skus',
      item: (id) => ({ ...skuMinimalFixture, id }),
      list: (c) => c.skus.list({ merchant_sku_ids: ['LAMP-OIL-500', 'A&B'], limit: LIMIT }),
      query: ['merchant_sku_ids[]=LAMP-OIL-500', 'merchant_sku_ids[]=A&B', `limit=${LIMIT}`],
    },
    {
      name: 'orders.list',
      path: '/merchant_api/v1/orders',
      item: (id) => ({ ...structuredClone(orderFixture), id }),
      list: (c) =>
        c.orders.list({
          include: ['batches'],
          created_at: { gte: new Date('2025-01-01T00:00:00Z') },
          limit: LIMIT,
        }),
      query: ['include=batches', 'created_at[gte]=2025-01-01T00:00:00.000Z', `limit=${LIMIT}`],
    },
    {
      name: 'shipments.list',
      path: '/merchant_api/v1/shipments',
      item: (id) => ({ ...structuredClone(shipmentFixture), id }),
      list: (c) => c.shipments.list({ created_at: { gt: '2025-01-01', lt: '2025-02-01' }, limit: LIMIT }),
      query: ['created_at[gt]=2025-01-01', 'created_at[lt]=2025-02-01', `limit=${LIMIT}`],
    },
    {
      name: 'returns.list',
      path: '/merchant_api/v1/returns',
      item: (id) => ({ ...structuredClone(returnFixture), id }),
      list: (c) => c.returns.list({ created_at: { lte: new Date('2025-03-01T12:00:00Z') }, limit: LIMIT }),
      query: ['created_at[lte]=2025-03-01T12:00:00.000Z', `limit=${LIMIT}`],
    },
    {
      name: 'warehouses.list',
      path: '/merchant_api/v1/warehouses',
      item: (id) => ({ ...structuredClone(warehousesFixture[0]!), id }),
      list: (c) => c.warehouses.list({ created_at: { gte: '2024-12-01' }, limit: LIMIT }),
      query: ['created_at[gte]=2024-12-01', `limit=${LIMIT}`],
    },
  ];

  type Strategy = 'page numbers' | 'cursor' | 'bare array';
  const strategies: Strategy[] = ['page numbers', 'cursor', 'bare array'];

  /** Pages of 2, 2 and 1 items with distinct ids 101…105. */
  const PAGES = [[101, 102], [103, 104], [105]];
  const IDS = PAGES.flat();

  /**
   * Serves the 3 pages at `path` in the given style and records each request URL. Page n is chosen by
   * the `page` query parameter (absent: page 1); a request beyond page 3 fails the test.
   */
  function serve(spec: ListCase, strategy: Strategy) {
    const seen: string[] = [];
    server.use(
      http.get(`${BASE}${spec.path}`, ({ request }) => {
        seen.push(request.url);
        const url = new URL(request.url);
        const number = Number(url.searchParams.get('page') ?? '1');
        const ids = PAGES[number - 1];
        if (!ids) return HttpResponse.json({ errors: [`no page ${number}`] }, { status: 404 });
        const data = ids.map(spec.item);
        if (strategy === 'bare array') return HttpResponse.json(data);
        if (strategy === 'page numbers') {
          return HttpResponse.json({
            data,
            pagination: {
              current_page: number,
              page_count: PAGES.length,
              item_count: IDS.length,
              items_per_page: LIMIT,
            },
          });
        }
        // Cursor: the server hands out the full URL of the next page, filters and limit included.
        const filters = url.search.replace(/&page=\d+$/, '');
        const next = number < PAGES.length ? `${BASE}${spec.path}${filters}&page=${number + 1}` : null;
        return HttpResponse.json({
          data,
          pagination: { first_page_url: `${BASE}${spec.path}`, limit: LIMIT, next_page_url: next },
        });
      }),
    );
    return seen;
  }

  /** The decoded query of a URL as sorted `name=value` pairs. */
  const queryOf = (url: string) =>
    [...new URL(url).searchParams].map(([name, value]) => `${name}=${value}`).sort();

  describe.each(lists)('$name', (spec) => {
    it.each(strategies)(
      '%s: every item in order, filters and limit on every page, 3 requests',
      async (strategy) => {
        const seen = serve(spec, strategy);
        const ids: number[] = [];
        for await (const item of spec.list(testClient())) {
          ids.push(item.id);
          if (ids.length > 50) break; // bound: a broken paginator must not loop forever
        }
        expect(ids).toEqual(IDS);
        expect(seen).toHaveLength(3);
        for (const [index, url] of seen.entries()) {
          const parsed = new URL(url);
          expect(parsed.origin + parsed.pathname).toBe(`${BASE}${spec.path}`);
          const page = index === 0 ? [] : [`page=${index + 1}`];
          expect(queryOf(url), `query of request ${index + 1}`).toEqual([...spec.query, ...page].sort());
        }
        if (strategy === 'cursor') {
          // The cursor URLs are followed exactly as the server sent them.
          expect(seen[1]).toBe(`${seen[0]}&page=2`);
          expect(seen[2]).toBe(`${seen[0]}&page=3`);
        }
      },
    );
  });
});

describe('relative cursors', () => {
  it('are resolved against the page they came from, and stay on the configured origin', async () => {
    const seen: string[] = [];
    server.use(
      http.get(`${BASE}/root/merchant_api/v1/warehouses`, ({ request }) => {
        seen.push(request.url);
        const cursor = new URL(request.url).searchParams.get('c');
        return HttpResponse.json({
          data: [{ id: cursor ? 2 : 1 }],
          pagination: { next_page_url: cursor ? null : '?c=2' },
        });
      }),
    );
    const client = testClient({ baseUrl: `${BASE}/root` });
    const ids = (await client.warehouses.list().toArray({ max: 10 })).map((w) => w.id);
    expect(ids).toEqual([1, 2]);
    expect(seen).toEqual([
      `${BASE}/root/merchant_api/v1/warehouses`,
      `${BASE}/root/merchant_api/v1/warehouses?c=2`,
    ]);
  });

  it('a protocol-relative cursor to another host is refused', async () => {
    server.use(
      http.get(`${BASE}/merchant_api/v1/warehouses`, () =>
        HttpResponse.json({ data: [{ id: 1 }], pagination: { next_page_url: '//evil.test/steal' } }),
      ),
    );
    await expect(testClient().warehouses.list().toArray({ max: 10 })).rejects.toBeInstanceOf(PaginationError);
  });
});

describe('cursors of another scheme', () => {
  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'data:text/plain,x'])(
    'a next_page_url %s is a PaginationError naming its scheme',
    async (cursor) => {
      server.use(
        http.get(`${BASE}/merchant_api/v1/warehouses`, () =>
          HttpResponse.json({ data: [{ id: 1 }], pagination: { next_page_url: cursor } }),
        ),
      );
      const error = await testClient()
        .warehouses.list()
        .toArray({ max: 10 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaginationError);
      expect((error as Error).message).toContain(
        `it leads to a ${cursor.split(':')[0]}: URL, not the configured origin`,
      );
    },
  );
});

describe('toArray', () => {
  it('fetches no page beyond what max needs', async () => {
    const pages: string[] = [];
    server.use(
      http.get(`${BASE}/merchant_api/v1/warehouses`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        pages.push(String(page));
        return HttpResponse.json({
          data: [{ id: page * 10 }, { id: page * 10 + 1 }],
          pagination: { current_page: page, page_count: 10 },
        });
      }),
    );
    const items = await testClient().warehouses.list().toArray({ max: 4 });
    expect(items).toHaveLength(4);
    expect(pages).toEqual(['1', '2']);
  });
});

describe('cursors with credentials', () => {
  it('a next_page_url with userinfo is a PaginationError, and nothing is sent to it', async () => {
    server.use(
      http.get(`${BASE}/merchant_api/v1/warehouses`, () =>
        HttpResponse.json({
          data: [{ id: 1 }],
          pagination: {
            next_page_url: `${BASE.replace('https://', 'https://user:pass@')}/merchant_api/v1/warehouses?c=2`,
          },
        }),
      ),
    );
    const error = await testClient()
      .warehouses.list()
      .toArray({ max: 10 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toContain('credentials');
    expect((error as Error).message).not.toContain('pass');
  });
});
