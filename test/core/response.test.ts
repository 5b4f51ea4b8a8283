/** Reading a response: bodies, endpoints without a documented body, enum values not known yet. */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { PagePromise } from '../../src/core/pagination.js';
import { Redactor } from '../../src/core/redact.js';
import { contextOf, type RawResponse, ResponseParsers } from '../../src/core/response.js';
import { FulfillmentError, NotFoundError, ResponseValidationError } from '../../src/index.js';
import { READ_BACK_PAGES } from '../../src/resources/skus.js';
import { orderFixture } from '../fixtures/orders.js';
import { skuMinimalFixture } from '../fixtures/skus.js';
import { BASE, countingEndpoint, testClient, useMsw } from '../helpers/msw.js';

const server = useMsw();

describe('endpoints without a documented body', () => {
  const skuPage = (page: number, ids: number[], pageCount: number) =>
    HttpResponse.json({
      data: ids.map((id) => ({ ...skuMinimalFixture, id, status: id === 3 ? 'deleted' : 'active' })),
      pagination: { current_page: page, page_count: pageCount },
    });

  it.each([
    ['{"success":true}', 'application/json'],
    ['{}', 'application/json'],
    ['"OK"', 'application/json'],
    ['OK', 'text/plain'],
    ['', 'text/plain'],
  ])('delete and cancel read the resource back after %j', async (body, type) => {
    const reply = () => new HttpResponse(body, { status: 200, headers: { 'content-type': type } });
    countingEndpoint(server, 'delete', '/merchant_api/v1/skus/3', reply);
    countingEndpoint(server, 'put', '/merchant_api/v1/orders/3/cancel', reply);
    const orderReads = countingEndpoint(server, 'get', '/merchant_api/v1/orders/3', () =>
      HttpResponse.json({ ...orderFixture, id: 3, status: 'unfulfillable' }),
    );
    const skuPages: string[] = [];
    server.use(
      http.get(`${BASE}/merchant_api/v1/skus`, ({ request }) => {
        const url = new URL(request.url);
        skuPages.push(url.search);
        return url.searchParams.get('page') === '2' ? skuPage(2, [3, 2], 2) : skuPage(1, [5, 4], 2);
      }),
    );
    const client = testClient();
    const sku = await client.skus.delete(3);
    expect([sku.id, sku.status]).toEqual([3, 'deleted']);
    expect(skuPages).toEqual(['?limit=100', '?limit=100&page=2']);
    const { data, response } = await client.orders.cancel(3).withResponse();
    expect([data.id, data.status]).toEqual([3, 'unfulfillable']);
    expect(response.url).toBe(`${BASE}/merchant_api/v1/orders/3`);
    expect(orderReads.calls).toBe(1);
  });

  it('uses the resource the API sends back, with no extra request', async () => {
    countingEndpoint(server, 'put', '/merchant_api/v1/orders/3/cancel', () =>
      HttpResponse.json({ ...orderFixture, id: 3, status: 'unfulfillable' }),
    );
    const reads = countingEndpoint(server, 'get', '/merchant_api/v1/orders/3', () => HttpResponse.json({}));
    expect((await testClient().orders.cancel(3)).status).toBe('unfulfillable');
    expect(reads.calls).toBe(0);
  });

  it('says the change succeeded when reading it back fails, keeping the error class', async () => {
    countingEndpoint(
      server,
      'put',
      '/merchant_api/v1/orders/3/cancel',
      () => new HttpResponse(null, { status: 204 }),
    );
    countingEndpoint(server, 'get', '/merchant_api/v1/orders/3', () =>
      HttpResponse.json({ errors: ['gone'] }, { status: 404 }),
    );
    const error = await testClient()
      .orders.cancel(3)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(
      /^PUT \/merchant_api\/v1\/orders\/3\/cancel succeeded, but reading the result back failed: 404 GET/,
    );
  });

  it('gives up on a SKU that is not among the newest ones, saying the delete succeeded', async () => {
    countingEndpoint(
      server,
      'delete',
      '/merchant_api/v1/skus/3',
      () => new HttpResponse(null, { status: 204 }),
    );
    let reads = 0;
    server.use(
      http.get(`${BASE}/merchant_api/v1/skus`, ({ request }) => {
        reads++;
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        return skuPage(page, [1000 - page], 50);
      }),
    );
    const error = await testClient()
      .skus.delete(3)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FulfillmentError);
    expect((error as Error).message).toBe(
      'DELETE /merchant_api/v1/skus/3 succeeded, but reading the result back failed: SKU 3 is not among the 500 newest SKUs.',
    );
    expect(reads).toBe(READ_BACK_PAGES);
  });

  it('a resource with a wrong type is still a validation error', async () => {
    countingEndpoint(server, 'delete', '/merchant_api/v1/skus/3', () =>
      HttpResponse.json({ id: 'three', name: 'x', status: 'deleted' }),
    );
    await expect(testClient().skus.delete(3)).rejects.toThrow(/id/);
  });
});

describe('enum values the SDK does not know yet', () => {
  const orders = (statuses: string[]) =>
    HttpResponse.json({
      data: statuses.map((status, i) => ({ ...orderFixture, id: i + 1, status })),
      pagination: { current_page: 1, page_count: 1 },
    });

  it('lenient: are kept as received', async () => {
    server.use(http.get(`${BASE}/merchant_api/v1/orders`, () => orders(['on_hold', 'fulfilled', 'on_hold'])));
    const first = await testClient().orders.list();
    expect(first.data.map((o) => o.status as string)).toEqual(['on_hold', 'fulfilled', 'on_hold']);
  });
});

describe('the URL of a response is shown without the secrets of its request', () => {
  const SECRET = 'tok_context_secret_42';
  const URL_WITH_SECRET = `${BASE}/merchant_api/v1/warehouses?session=${SECRET}`;
  const SHOWN = `${BASE}/merchant_api/v1/warehouses?session=***`;
  const Warehouse = z.object({ id: z.number() });

  /** A 2xx response as the transport hands it over, with the redactor of its request. */
  function received(text: string) {
    const raw: RawResponse = {
      response: new Response(text, { status: 200 }),
      text,
      method: 'GET',
      url: URL_WITH_SECRET,
      redactor: new Redactor([SECRET]),
    };
    return { raw };
  }

  it('contextOf', () => {
    expect(contextOf(received('{}').raw)).toEqual({ status: 200, method: 'GET', url: SHOWN });
  });

  it('a failed parse', () => {
    const parsers = new ResponseParsers('lenient');
    const ok = received('{"id":1}');
    expect(parsers.read(Warehouse, ok.raw)).toEqual({ id: 1 });

    const bad = received('{"id":"one"}');
    let error: unknown;
    try {
      parsers.read(Warehouse, bad.raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).url).toBe(SHOWN);
    expect((error as Error).message).toBe(
      'Unexpected response from GET /merchant_api/v1/warehouses?session=***: id: Invalid input: expected number, received string',
    );
  });

  it('a page that fails', async () => {
    const pageClient = {
      _origin: BASE,
      _responses: new ResponseParsers('lenient'),
      get: () => {
        throw new Error('no next page is asked for here');
      },
    };
    const request = { path: '/merchant_api/v1/warehouses', params: undefined, options: undefined };
    const ok = received('{"data":[{"id":1}],"pagination":{"current_page":1,"page_count":1}}');
    const page = await new PagePromise(pageClient, Promise.resolve(ok.raw), request, Warehouse);
    expect(page.data).toEqual([{ id: 1 }]);

    const bad = received('{"data":[{"id":"one"}]}');
    const error = await new PagePromise(pageClient, Promise.resolve(bad.raw), request, Warehouse).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).url).toBe(SHOWN);
  });
});

describe('own __proto__ keys of a body', () => {
  const polluted = (escaped: boolean) =>
    `{"data":[{"id":1}],"pagination":{"current_page":1,"page_count":1,"${escaped ? '\\u005f_proto__' : '__proto__'}":{"isAdmin":true}},"errors":["no"],"__proto__":{"isAdmin":true}}`;

  it.each([false, true])(
    'are dropped from page.pagination and APIError.body (escaped: %s)',
    async (escaped) => {
      server.use(
        http.get(
          `${BASE}/merchant_api/v1/warehouses`,
          () => new HttpResponse(polluted(escaped), { status: 200 }),
        ),
        http.get(
          `${BASE}/merchant_api/v1/returns/1`,
          () => new HttpResponse(polluted(escaped), { status: 404 }),
        ),
      );
      const client = testClient();
      const page = await client.warehouses.list();
      expect(Object.hasOwn(page.pagination!, '__proto__')).toBe(false);
      expect((Object.assign({}, page.pagination) as { isAdmin?: boolean }).isAdmin).toBeUndefined();
      const error = await client.returns.retrieve(1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      const body = (error as NotFoundError).body as object;
      expect(Object.hasOwn(body, '__proto__')).toBe(false);
      expect(Object.hasOwn((body as { pagination: object }).pagination, '__proto__')).toBe(false);
      expect(({ ...body } as { isAdmin?: boolean }).isAdmin).toBeUndefined();
    },
  );
});
