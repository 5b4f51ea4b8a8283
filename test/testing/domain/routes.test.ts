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
