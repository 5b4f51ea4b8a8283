/**
 * Validation is loaded on first use (zod, the compiler, the schemas): each test here starts from a
 * fresh module graph, where the setup's preload has not happened, as in an app that has just
 * imported the package. What importing the built package loads is checked on dist/ by
 * scripts/smoke-lazy.mjs.
 */
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BASE, TOKEN, useMsw } from '../helpers/msw.js';

const server = useMsw();

beforeEach(() => {
  vi.resetModules();
});

const fresh = async () => {
  vi.resetModules();
  const sdk = await import('../../src/index.js');
  const lazy = await import('../../src/core/lazy.js');
  // A graph the setup's preload did not reach: nothing of validation is loaded.
  expect(lazy.validation()).toBeUndefined();
  return { sdk, lazy };
};

describe('a fresh import', () => {
  it('has loaded nothing of validation; prepare loads it and the schemas once, then answers at once', async () => {
    const { lazy } = await fresh();
    expect(lazy.validation()).toBeUndefined();
    const schema = new lazy.LazySchema(async () => (await import('zod/mini')).string());
    expect(schema.schema).toBeUndefined();
    const [first, second] = [schema.load(), schema.load()];
    expect(first).toBe(second); // imported once
    await first;
    expect(schema.schema).toBe(await second);
    // Validation not loaded yet: prepare loads it.
    const loading = lazy.prepare(schema);
    expect(loading).toBeInstanceOf(Promise);
    const v = await loading;
    expect(v.parseResponse(schema.schema!, 'x', 'lenient')).toBe('x');
    expect(lazy.prepare(schema, undefined)).toBe(v); // all loaded: at once, no promise
    const other = new lazy.LazySchema(async () => (await import('zod/mini')).number());
    const optional = new lazy.OptionalBody(other);
    expect(lazy.prepare(schema, optional)).toBeInstanceOf(Promise); // a schema not loaded yet
    expect(await lazy.prepare(optional)).toBe(v);
    expect(other.schema).toBeDefined();
    expect(lazy.validation()).toBe(v);
  });

  it("the client's first request loads validation: a bad body is refused, nothing sent", async () => {
    const { sdk } = await fresh();
    const calls: string[] = [];
    server.use(
      http.post(`${BASE}/merchant_api/v1/skus`, ({ request }) => {
        calls.push(request.url);
        return HttpResponse.json({});
      }),
    );
    const client = new sdk.FulfillmentClient({ apiToken: TOKEN, baseUrl: BASE, maxRetries: 0 });
    const error = await client.skus.create({ name: '' } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdk.RequestValidationError);
    expect((error as InstanceType<typeof sdk.RequestValidationError>).issues.map((i) => i.path)).toEqual([
      'name',
      'merchant_sku_id',
    ]);
    expect(calls).toEqual([]);
  });

  it("the client's first list parses its pages, and the first verification its payload", async () => {
    const { sdk } = await fresh();
    server.use(
      http.get(`${BASE}/merchant_api/v1/warehouses`, () =>
        HttpResponse.json({
          data: [{ id: 1, name: 'Berlin' }],
          pagination: { current_page: 1, page_count: 1 },
        }),
      ),
    );
    const client = new sdk.FulfillmentClient({ apiToken: TOKEN, baseUrl: BASE, maxRetries: 0 });
    const names: string[] = [];
    for await (const warehouse of client.warehouses.list()) names.push(String(warehouse.name));
    expect(names).toEqual(['Berlin']);

    const { sdk: other } = await fresh();
    const body = JSON.stringify({
      id: 7,
      merchant_id: 1,
      warehouse_id: 2,
      status: 'restocked',
      restocking_shipment_items: [],
    });
    const headers = await other.createWebhookHeaders({ body, secret: TOKEN, eventId: 'evt-1' });
    const event = await other.verifyWebhook({ body, headers, secret: TOKEN });
    expect(event.data.id).toBe(7);
    const broken = JSON.stringify({ id: 'seven' });
    const refused = await other
      .verifyWebhook({
        body: broken,
        headers: await other.createWebhookHeaders({ body: broken, secret: TOKEN, eventId: 'evt-2' }),
        secret: TOKEN,
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(other.WebhookVerificationError);
    expect(String((refused as Error).message)).toMatch(/id: Invalid input: expected number, received string/);
  });
});
