/**
 * Resolution matrix: the three entry points imported with ESM syntax, compiled under
 * `moduleResolution` node10, node16 (an ESM file) and bundler (scripts/consumer-types.mjs). Each
 * assertion fails if an entry point resolved to nothing (`any`) or to the wrong declarations.
 */
import { expectTypeOf } from 'expect-type';
import { type APIPromise, FulfillmentClient, type Order, type Sku } from 'merchant-fulfillment';
import { OrderSchema, SkuSchema } from 'merchant-fulfillment/schemas';
import { createMockApi, type MockApi } from 'merchant-fulfillment/testing';
import type { HttpHandler } from 'msw';

const client = new FulfillmentClient({ apiToken: 'token', baseUrl: 'https://fulfillment.example.com' });
expectTypeOf(client).not.toBeAny();
expectTypeOf(client.orders.retrieve(1)).toEqualTypeOf<APIPromise<Order>>();

expectTypeOf(SkuSchema.parse(null)).toExtend<Sku>();
expectTypeOf(OrderSchema.parse(null)).toExtend<Order>();
expectTypeOf<Order['id']>().toEqualTypeOf<number>();

const api = createMockApi();
expectTypeOf(api).toEqualTypeOf<MockApi>();
expectTypeOf(api.fetch).returns.toEqualTypeOf<Promise<Response>>();
expectTypeOf(api.handlers).toEqualTypeOf<HttpHandler[]>();
export const mocked = new FulfillmentClient({ apiToken: api.token, baseUrl: api.baseUrl, fetch: api.fetch });
