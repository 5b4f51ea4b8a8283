/** APIPromise: awaited late or never, read on arrival, asResponse. */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { NotFoundError, RequestValidationError } from '../../src/index.js';
import { orderFixture } from '../fixtures/orders.js';
import { skuMinimalFixture } from '../fixtures/skus.js';
import { countingEndpoint, testClient, useMsw } from '../helpers/msw.js';

const server = useMsw();

describe('promises awaited late, or never', () => {
  it('a failure is reported to whoever awaits it later, not as an unhandled rejection', async () => {
    countingEndpoint(server, 'get', '/merchant_api/v1/warehouses', () => HttpResponse.json([{ id: 1 }]));
    countingEndpoint(server, 'get', '/merchant_api/v1/orders/42', () =>
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
      server,
      'put',
      '/merchant_api/v1/orders/7/cancel',
      () => new HttpResponse(null, { status: 204 }),
    );
    // The 204 makes the SDK read the order back: that request must not leave a timer either.
    countingEndpoint(server, 'get', '/merchant_api/v1/orders/7', () =>
      HttpResponse.json({ ...orderFixture, id: 7 }),
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
    countingEndpoint(server, 'delete', '/merchant_api/v1/skus/1', () =>
      HttpResponse.json({ ...skuMinimalFixture, id: 1, name: 'x', status: 'deleted' }),
    );
    const pending = testClient({ timeout: 100 }).skus.delete(1);
    await new Promise((r) => setTimeout(r, 250));
    expect(await pending).toMatchObject({ id: 1, status: 'deleted' });
  });

  it('asResponse gives a readable copy of the response', async () => {
    countingEndpoint(server, 'get', '/merchant_api/v1/warehouses', () =>
      HttpResponse.json([{ id: 3 }], { headers: { 'x-rate-limit-used': '5' } }),
    );
    const response = await testClient().warehouses.list().asResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-rate-limit-used')).toBe('5');
    expect(await response.json()).toEqual([{ id: 3 }]);
  });
});
