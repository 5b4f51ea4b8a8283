import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  FulfillmentClient,
  FulfillmentError,
  NotFoundError,
  PaginationError,
  RequestValidationError,
} from '../src/index.js';
import { BASE, TOKEN, testClient, useMsw } from './helpers/msw.js';

const server = useMsw();

function countingEndpoint(method: 'get' | 'delete' | 'put', path: string, reply: () => Response) {
  const state = { calls: 0 };
  server.use(
    http[method](`${BASE}${path}`, () => {
      state.calls++;
      return reply();
    }),
  );
  return state;
}

describe('promises awaited late, or never', () => {
  it('a failure is reported to whoever awaits it later, not as an unhandled rejection', async () => {
    countingEndpoint('get', '/merchant_api/v1/warehouses', () => HttpResponse.json([{ id: 1 }]));
    countingEndpoint('get', '/merchant_api/v1/orders/42', () =>
      HttpResponse.json({ errors: ['not found'] }, { status: 404 }),
    );
    const client = testClient();
    const warehouses = client.warehouses.list();
    const order = client.orders.retrieve(42);
    await new Promise((r) => setTimeout(r, 50)); // the 404 arrives while nobody awaits it yet
    expect((await warehouses).data).toHaveLength(1);
    await expect(order).rejects.toBeInstanceOf(NotFoundError);
  });

  it('input errors reject the promise lazily too, sending nothing', async () => {
    const pending = testClient().skus.update('../x', { name: 'x' });
    await new Promise((r) => setTimeout(r, 20));
    await expect(pending).rejects.toBeInstanceOf(RequestValidationError);
  });

  it('a request never awaited leaves no timer behind', async () => {
    countingEndpoint(
      'put',
      '/merchant_api/v1/orders/7/cancel',
      () => new HttpResponse(null, { status: 204 }),
    );
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    void testClient({ timeout: 30_000 }).orders.cancel(7); // fire and forget
    let after = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 50 && after > before; i++) {
      await new Promise((r) => setImmediate(r));
      after = timers();
    }
    expect(after).toBeLessThanOrEqual(before);
  });

  it('a successful reply awaited after `timeout` is still a success (the body was read on arrival)', async () => {
    countingEndpoint('delete', '/merchant_api/v1/skus/1', () =>
      HttpResponse.json({ id: 1, name: 'x', status: 'deleted' }),
    );
    const pending = testClient({ timeout: 100 }).skus.delete(1);
    await new Promise((r) => setTimeout(r, 250));
    expect(await pending).toMatchObject({ id: 1, status: 'deleted' });
  });

  it('asResponse gives a readable copy of the response', async () => {
    countingEndpoint('get', '/merchant_api/v1/warehouses', () =>
      HttpResponse.json([{ id: 3 }], { headers: { 'x-rate-limit-used': '5' } }),
    );
    const response = await testClient().warehouses.list().asResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-rate-limit-used')).toBe('5');
    expect(await response.json()).toEqual([{ id: 3 }]);
  });
});

describe('configuration that would break a header', () => {
  it('refuses a token with a line break without echoing it', () => {
    const secret = 'sk_live_SE\nCRET';
    const error = (() => {
      try {
        new FulfillmentClient({ apiToken: secret, baseUrl: BASE });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(FulfillmentError);
    expect((error as Error).message).toMatch(/apiToken.*FULFILLMENT_API_TOKEN/);
    expect(inspect(error)).not.toContain('SE');
  });

  it('refuses defaultHeaders a request could not carry, naming the header', () => {
    expect(() => testClient({ defaultHeaders: { 'x-shop': 'a\r\nb' } })).toThrow(/defaultHeaders\.x-shop/);
    expect(() => testClient({ defaultHeaders: { 'bad name': 'a' } })).toThrow(/not a valid header name/);
  });
});

describe('request options are checked, and nothing is sent when they are wrong', () => {
  it.each([
    [{ maxRetries: Number.NaN }, 'options.maxRetries'],
    [{ maxRetries: -1 }, 'options.maxRetries'],
    [{ timeout: 'abc' }, 'options.timeout'],
    [{ timeout: 0 }, 'options.timeout'],
    [{ signal: 'stop' }, 'options.signal'],
    [{ headers: { 'x-a': 'line\nbreak' } }, 'options.headers.x-a'],
    [{ headers: 'x' }, 'options.headers'],
  ])('%o is refused as %s', async (options, path) => {
    const state = countingEndpoint('get', '/merchant_api/v1/orders/1', () => HttpResponse.json({}));
    const error = (await testClient()
      .orders.retrieve(1, undefined, options as never)
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues.map((i) => i.path)).toContain(path);
    expect(state.calls).toBe(0);
  });

  it.each([
    [{ maxPages: 0 }, 'options.maxPages'],
    [{ prefetch: 2 }, 'options.prefetch'],
  ])('list option %o is refused as %s', async (options, path) => {
    const state = countingEndpoint('get', '/merchant_api/v1/warehouses', () => HttpResponse.json([]));
    const error = (await testClient()
      .warehouses.list(undefined, options as never)
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error.issues.map((i) => i.path)).toContain(path);
    expect(state.calls).toBe(0);
  });
});

describe('endpoints without a documented body', () => {
  it.each([
    ['{"success":true}', 'application/json'],
    ['{}', 'application/json'],
    ['"OK"', 'application/json'],
    ['OK', 'text/plain'],
  ])('delete and cancel resolve undefined for %s', async (body, type) => {
    const reply = () => new HttpResponse(body, { status: 200, headers: { 'content-type': type } });
    countingEndpoint('delete', '/merchant_api/v1/skus/3', reply);
    countingEndpoint('put', '/merchant_api/v1/orders/3/cancel', reply);
    const client = testClient();
    expect(await client.skus.delete(3)).toBeUndefined();
    const { data, response } = await client.orders.cancel(3).withResponse();
    expect(data).toBeUndefined();
    expect(response.status).toBe(200);
  });

  it('a resource with a wrong type is still a validation error', async () => {
    countingEndpoint('delete', '/merchant_api/v1/skus/3', () =>
      HttpResponse.json({ id: 'three', name: 'x', status: 'deleted' }),
    );
    await expect(testClient().skus.delete(3)).rejects.toThrow(/id/);
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

describe('the token stays secret in errors of every kind', () => {
  it('is absent from a connection error', async () => {
    const client = new FulfillmentClient({
      apiToken: TOKEN,
      baseUrl: BASE,
      logLevel: 'off',
      maxRetries: 0,
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    const error = await client.warehouses.list().catch((e: unknown) => e);
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(TOKEN);
  });
});

describe('extra query parameters of undocumented endpoints', () => {
  it('pass through when they are scalars, lists or records of scalars', async () => {
    const seen: string[] = [];
    server.use(
      http.get(`${BASE}/merchant_api/v1/shipments`, ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json([]);
      }),
    );
    await testClient().shipments.list({ status: 'shipped', ids: [1, 2], shipped_at: { gte: '2025-01-01' } });
    expect(seen).toEqual(['?status=shipped&ids[]=1&ids[]=2&shipped_at[gte]=2025-01-01']);
  });

  it('are refused, naming the parameter, when they cannot be encoded', async () => {
    const error = (await testClient()
      .returns.list({ deep: { a: { b: 1 } } } as never)
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues[0]?.path).toBe('deep');
  });
});

describe('toArray with prefetch', () => {
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
    const items = await testClient().warehouses.list(undefined, { prefetch: 1 }).toArray({ max: 4 });
    expect(items).toHaveLength(4);
    expect(pages).toEqual(['1', '2']);
  });
});
