/** A CommonJS consumer: the `require` condition's declarations (`dist/*.d.cts`). */
import { expectTypeOf } from 'expect-type';
import { type APIPromise, FulfillmentClient, type Order, type Sku } from 'merchant-fulfillment';
import { SkuSchema } from 'merchant-fulfillment/schemas';

const client = new FulfillmentClient({ apiToken: 'token', baseUrl: 'https://fulfillment.example.com' });
expectTypeOf(client.orders.retrieve(1)).toEqualTypeOf<APIPromise<Order>>();
expectTypeOf(client.orders.cancel(1)).toEqualTypeOf<APIPromise<Order>>();
expectTypeOf(SkuSchema.parse(null)).toExtend<Sku>();

// The testing kit is ESM only: CommonJS loads it with a dynamic import.
export async function mock(): Promise<void> {
  const { createMockApi } = await import('merchant-fulfillment/testing');
  expectTypeOf(createMockApi().fetch).returns.toEqualTypeOf<Promise<Response>>();
}
