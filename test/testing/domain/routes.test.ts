/**
 * The API's route table (`domain/routes.ts`): every endpoint answers, unknown ids, list parameters,
 * and the warehouses list.
 */
import { describe, expect, test } from 'vitest';
import { mockRequest, testApi } from '../helpers.js';

describe('routing', () => {
  test('an unknown id is 404', async () => {
    const api = testApi();
    for (const [method, path] of [
      ['GET', '/merchant_api/v1/orders/99'],
      ['PATCH', '/merchant_api/v1/skus/99'],
      ['PUT', '/merchant_api/v1/orders/99/cancel'],
      ['GET', '/merchant_api/v1/restocking_shipments/99'],
      ['GET', '/merchant_api/v2/restocking_shipments/99'],
      ['GET', '/merchant_api/v1/returns/99'],
    ] as const) {
      const answer = await mockRequest(api, method, path, method === 'GET' ? undefined : {});
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
  });

  test('malformed list parameters are 400', async () => {
    const api = testApi();
    for (const query of ['page=0', 'limit=-1', 'limit=abc', 'created_at[gte]=yesterday']) {
      expect((await mockRequest(api, 'GET', `/merchant_api/v1/orders?${query}`)).status, query).toBe(400);
    }
  });

  test("a malformed list parameter: the provider's body, x-mock-hint naming the parameter and why", async () => {
    const api = testApi();
    const integer = 'must be an integer from 1 to 999999999';
    for (const [path, hint] of [
      // A short run of digits as it is; any other text by its length only.
      ['/v1/orders?page=0', `query parameter page ${integer}, got '0'`],
      ['/v1/skus?limit=abc', `query parameter limit ${integer}, got a string of 3 characters`],
      ['/v1/shipments?page=2&limit=-1', `query parameter limit ${integer}, got '-1'`],
      ['/v1/warehouses?page=1000000000', `query parameter page ${integer}, got '1000000000'`],
      ['/v1/orders?limit=1.5', `query parameter limit ${integer}, got a string of 3 characters`],
      [
        '/v1/returns?created_at[lt]=2025-01-01&created_at[gte]=yesterday',
        'query parameter created_at[gte] must be a date-time such as 2025-01-01T00:00:00Z, got a string of 9 characters',
      ],
    ] as const) {
      const answer = await mockRequest(api, 'GET', `/merchant_api${path}`);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toEqual({ success: false, errors: ['bad request'] });
      expect(answer.headers.get('x-mock-hint'), path).toBe(hint);
    }
    const fine = await mockRequest(
      api,
      'GET',
      '/merchant_api/v1/orders?page=1&limit=5&created_at[gte]=2025-01-01',
    );
    expect(fine.status).toBe(200);
    expect(fine.headers.get('x-mock-hint')).toBeNull();
  });

  test('the hint never shows a refused value but a short run of digits: a token pasted as a parameter', async () => {
    const api = testApi();
    const server = await api.listen({ port: 0 });
    try {
      for (const [param, value, got] of [
        ['limit', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'a string of 32 characters'],
        ['page', `\r\né${'9'.repeat(50)}`, 'a string of 53 characters'],
        ['created_at[gte]', 'tok_9f8e7d6c5b4a', 'a string of 16 characters'],
        // Digits beyond a short run are no longer shown either (a card number?).
        ['page', '4242424242424242', 'a string of 16 characters'],
      ] as const) {
        const answer = await mockRequest(
          server.url,
          'GET',
          `/merchant_api/v1/orders?${param}=${encodeURIComponent(value)}`,
        );
        expect(answer.status, param).toBe(400);
        const hint = answer.headers.get('x-mock-hint')!;
        expect(hint, param).toMatch(
          new RegExp(`^query parameter ${param.replace(/[[\]]/g, '\\$&')} must be .*, got ${got}$`),
        );
        expect(hint, param).not.toContain(value.slice(0, 6));
      }
    } finally {
      await server.close();
    }
  });

  test('every endpoint of the spec answers', async () => {
    const api = testApi();
    const routes = [
      ['GET', '/merchant_api/v1/skus'],
      ['GET', '/merchant_api/v1/orders'],
      ['GET', '/merchant_api/v1/shipments'],
      ['GET', '/merchant_api/v1/returns'],
      ['GET', '/merchant_api/v1/warehouses'],
    ] as const;
    for (const [method, path] of routes)
      expect((await mockRequest(api, method, path)).status, path).toBe(200);
    for (const [method, path] of [
      ['POST', '/merchant_api/v1/skus'],
      ['POST', '/merchant_api/v1/skus/bulk_upsert'],
      ['POST', '/merchant_api/v1/orders'],
      ['POST', '/merchant_api/v1/restocking_shipments'],
      ['POST', '/merchant_api/v2/restocking_shipments'],
    ] as const) {
      expect((await mockRequest(api, method, path, {})).status, path).toBe(422);
    }
  });
});

describe('warehouses', () => {
  test('three seeded warehouses by default, in the list envelope', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'GET', '/merchant_api/v1/warehouses');
    expect(answer.body.data.map((w: { id: number }) => w.id)).toEqual([1, 2, 3]);
    expect(answer.body.data[0]).toMatchObject({ id: 1, name: 'Berlin', address: { country_code: 'DE' } });
    expect(answer.body.pagination).toEqual({
      current_page: 1,
      page_count: 1,
      item_count: 3,
      items_per_page: 20,
    });
  });

  test('custom warehouses are answered as given', async () => {
    const api = testApi({ warehouses: [{ id: 7, name: 'Lyon', code: 'LYS' }] });
    const answer = await mockRequest(api, 'GET', '/merchant_api/v1/warehouses');
    expect(answer.body.data).toEqual([{ id: 7, name: 'Lyon', code: 'LYS' }]);
  });
});
