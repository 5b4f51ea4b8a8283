/**
 * Resolution matrix: a CommonJS file under `moduleResolution` node16 (scripts/consumer-types.mjs).
 * The main and schemas entry points resolve to their `require` declarations (`.d.cts`); the testing
 * kit is ESM only, so CommonJS loads it with `await import()` and takes its types with `import type`
 * and the `resolution-mode` attribute (under node16 a plain `import type` of an ES module from
 * CommonJS is error TS1541; nodenext accepts it, and also a static import that would `require()` the
 * kit, which fails at run time: its top-level await makes it ERR_REQUIRE_ASYNC_MODULE).
 */
import { expectTypeOf } from 'expect-type';
import { type APIPromise, FulfillmentClient, type Order, type Sku } from 'merchant-fulfillment';
import { OrderSchema, SkuSchema } from 'merchant-fulfillment/schemas';
import type { MockApi } from 'merchant-fulfillment/testing' with { 'resolution-mode': 'import' };
import type { HttpHandler } from 'msw' with { 'resolution-mode': 'import' };

const client = new FulfillmentClient({ apiToken: 'token', baseUrl: 'https://fulfillment.example.com' });
expectTypeOf(client).not.toBeAny();
expectTypeOf(client.orders.retrieve(1)).toEqualTypeOf<APIPromise<Order>>();

expectTypeOf(SkuSchema.parse(null)).toExtend<Sku>();
expectTypeOf(OrderSchema.parse(null)).toExtend<Order>();
expectTypeOf<Order['id']>().toEqualTypeOf<number>();

export async function mock(): Promise<MockApi> {
  const { createMockApi } = await import('merchant-fulfillment/testing');
  const api = createMockApi();
  expectTypeOf(api).toEqualTypeOf<MockApi>();
  expectTypeOf(api.handlers).toEqualTypeOf<HttpHandler[]>();
  return api;
}
