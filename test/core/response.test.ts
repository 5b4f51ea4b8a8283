import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { countingEndpoint, testClient, useMsw } from '../helpers/msw.js';

const server = useMsw();

describe('endpoints without a documented body', () => {
  it.each([
    ['{"success":true}', 'application/json'],
    ['{}', 'application/json'],
    ['"OK"', 'application/json'],
    ['OK', 'text/plain'],
  ])('delete and cancel resolve undefined for %s', async (body, type) => {
    const reply = () => new HttpResponse(body, { status: 200, headers: { 'content-type': type } });
    countingEndpoint(server, 'delete', '/merchant_api/v1/skus/3', reply);
    countingEndpoint(server, 'put', '/merchant_api/v1/orders/3/cancel', reply);
    const client = testClient();
    expect(await client.skus.delete(3)).toBeUndefined();
    const { data, response } = await client.orders.cancel(3).withResponse();
    expect(data).toBeUndefined();
    expect(response.status).toBe(200);
  });

  it('a resource with a wrong type is still a validation error', async () => {
    countingEndpoint(server, 'delete', '/merchant_api/v1/skus/3', () =>
      HttpResponse.json({ id: 'three', name: 'x', status: 'deleted' }),
    );
    await expect(testClient().skus.delete(3)).rejects.toThrow(/id/);
  });
});
