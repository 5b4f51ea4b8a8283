/**
 * Faults with `after: true`: the request is handled (its change made), then the answer is replaced
 * or held back. The ambiguous failures a client cannot tell from "nothing happened".
 */
import { describe, expect, it } from 'vitest';
import { APITimeoutError, FulfillmentClient, InternalServerError } from '../../../src/index.js';
import { createSku, mockRequest, orderBody, TOKEN, testApi } from '../helpers.js';

const ORDERS = '/merchant_api/v1/orders';

async function ordersIn(api: ReturnType<typeof testApi>): Promise<string[]> {
  const answer = await mockRequest(api, 'GET', `${ORDERS}?limit=100`);
  return (answer.body.data as { merchant_order_id: string }[]).map((o) => o.merchant_order_id);
}

describe('faults applied after the request is handled', () => {
  it('store-then-5xx: the order is stored, the answer is the fault', async () => {
    const api = testApi();
    await createSku(api, 'A');
    const fault = api.injectFault({ method: 'POST', path: ORDERS, status: 500, after: true, times: 1 });
    const answer = await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ success: false, errors: ['internal server error'] });
    expect(fault.hits).toBe(1);
    expect(await ordersIn(api)).toEqual(['O-1']);
    // The retry meets the provider's duplicate answer.
    const again = await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
    expect(again.status).toBe(422);
    expect(await ordersIn(api)).toEqual(['O-1']);
  });

  it('store-then-reset: the order is stored, the connection dropped', async () => {
    const api = testApi();
    await createSku(api, 'A');
    api.injectFault({ method: 'POST', path: ORDERS, reset: true, after: true, times: 1 });
    await expect(mockRequest(api, 'POST', ORDERS, orderBody('O-2', 'A'))).rejects.toThrow(TypeError);
    expect(await ordersIn(api)).toEqual(['O-2']);
  });

  it('store-then-timeout: the order is stored before the client gives up', async () => {
    const api = testApi();
    await createSku(api, 'A');
    api.injectFault({ method: 'POST', path: ORDERS, latency: 300, after: true, times: 1 });
    const client = new FulfillmentClient({
      apiToken: TOKEN,
      baseUrl: api.baseUrl,
      fetch: api.fetch,
      timeout: 50,
      logLevel: 'off',
    });
    const error = await client.orders.create(orderBody('O-3', 'A') as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(await ordersIn(api)).toEqual(['O-3']); // the order exists although the client saw a timeout
  });

  it('a refused request stays refused: after-faults never turn a 422 into a stored order', async () => {
    const api = testApi();
    await createSku(api, 'A');
    const fault = api.injectFault({ method: 'POST', path: ORDERS, status: 503, after: true, times: 1 });
    const client = new FulfillmentClient({
      apiToken: TOKEN,
      baseUrl: api.baseUrl,
      fetch: api.fetch,
      maxRetries: 0,
    });
    const bad = { ...orderBody('O-4', 'NOPE') };
    const error = await client.orders.create(bad as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError); // 503 is not retried for a POST
    expect(fault.hits).toBe(1);
    expect(await ordersIn(api)).toEqual([]); // the unknown SKU was refused underneath
  });

  it('after must be a boolean, through the API and the control route', async () => {
    const api = testApi();
    expect(() => api.injectFault({ path: ORDERS, after: 'yes' as never })).toThrow(/after must be a boolean/);
    const added = await mockRequest(api, 'POST', '/__mock/faults', {
      path: ORDERS,
      status: 500,
      after: true,
    });
    expect(added.status).toBe(201);
    const refused = await mockRequest(api, 'POST', '/__mock/faults', { path: ORDERS, after: 1 });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toMatch(/after must be a boolean/);
  });
});
