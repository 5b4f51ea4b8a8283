/**
 * `merchant-fulfillment/testing`, compiled with and without the optional peer `msw` installed: the
 * kit's types must not need msw to compile (only `api.handlers` is about msw).
 */
import { expectTypeOf } from 'expect-type';
import { FulfillmentClient } from 'merchant-fulfillment';
import {
  createMockApi,
  type MockApi,
  type MockApiOptions,
  type MockListenOptions,
  type MockServer,
} from 'merchant-fulfillment/testing';

expectTypeOf(createMockApi).parameters.toEqualTypeOf<[options?: MockApiOptions | undefined]>();
expectTypeOf(createMockApi).returns.toEqualTypeOf<MockApi>();

const api = createMockApi({ tokens: ['test-token'], blockedCountries: ['XX'], pageSize: 50 });
expectTypeOf(api.baseUrl).toEqualTypeOf<string>();
expectTypeOf(api.token).toEqualTypeOf<string>();

// The in-process fetch: a drop-in `fetch` for the client.
expectTypeOf(api.fetch).parameters.toEqualTypeOf<
  [input: string | URL | Request, init?: RequestInit | undefined]
>();
expectTypeOf(api.fetch).returns.toEqualTypeOf<Promise<Response>>();
export const client = new FulfillmentClient({ apiToken: api.token, baseUrl: api.baseUrl, fetch: api.fetch });

// The msw handlers: an array whatever msw's presence (its items are never `any`: see
// negative/testing-handlers-not-any.ts).
expectTypeOf(api.handlers).toBeArray();

// The real HTTP server.
expectTypeOf(api.listen).parameters.toEqualTypeOf<[options?: MockListenOptions | undefined]>();
expectTypeOf(api.listen).returns.toEqualTypeOf<Promise<MockServer>>();

export async function serve(): Promise<void> {
  const server = await api.listen({ port: 0 });
  expectTypeOf(server.url).toEqualTypeOf<string>();
  expectTypeOf(server.port).toEqualTypeOf<number>();
  expectTypeOf(server.close()).toEqualTypeOf<Promise<void>>();
  expectTypeOf(api.close()).toEqualTypeOf<Promise<void>>();
  const sku = await client.skus.create({ name: 'Mug', merchant_sku_id: 'MUG' });
  expectTypeOf(sku.id).toEqualTypeOf<number>();
}
