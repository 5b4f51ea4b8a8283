/**
 * Resolution matrix: a CommonJS file under `moduleResolution` node16 (scripts/consumer-types.mjs).
 * The main and schemas entry points resolve to their `require` declarations (`.d.cts`); the testing
 * kit is ESM only, so CommonJS loads it with `await import()` and takes its types with `import type`
 * and the `resolution-mode` attribute (under node16 a plain `import type` of an ES module from
 * CommonJS is error TS1541; nodenext accepts it, and also a static import that would `require()` the
 * kit, which fails at run time: its top-level await makes it ERR_REQUIRE_ASYNC_MODULE).
 */
import { expectTypeOf } from 'expect-type';
import {
  type APIPromise,
  type ClientEvents,
  createWebhookHandler,
  FulfillmentClient,
  type Order,
  type Sku,
  type WebhookHandler,
} from 'merchant-fulfillment';
import { OrderSchema, SkuSchema } from 'merchant-fulfillment/schemas';
import type {
  MockApi,
  MockConnection,
  MockRestockingShipmentV1,
  MockSeed,
  MockStateFile,
} from 'merchant-fulfillment/testing' with { 'resolution-mode': 'import' };
import type { HttpHandler } from 'msw' with { 'resolution-mode': 'import' };

type RetryEvent = ClientEvents['retry'];

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
  expectTypeOf(api.exportState()).toEqualTypeOf<MockStateFile>();
  return api;
}

// The webhook handler, from the `require` declarations.
const handler = createWebhookHandler({
  secret: 'token',
  on: { delivered: (s) => expectTypeOf(s.status).toEqualTypeOf<'delivered'>() },
});
expectTypeOf(handler).toEqualTypeOf<WebhookHandler>();
// @ts-expect-error: 'received' is version 2's name; the webhook calls it 'delivered'
createWebhookHandler({ secret: 'token', on: { received: () => {} } });

// The client's events.
client.on('retry', (e) => {
  expectTypeOf(e).toEqualTypeOf<RetryEvent>();
  return e.delayMs;
});
// @ts-expect-error: not an event of the client
client.on('retrying', () => {});

// A mock in another process, and fixtures, through the dynamic import.
export async function remote(): Promise<MockConnection> {
  const { connectMock, createMockApi } = await import('merchant-fulfillment/testing');
  const seed: MockSeed = { skus: [{ name: 'Mug', merchant_sku_id: 'MUG' }] };
  const api = createMockApi({ seed });
  const mock = connectMock('http://127.0.0.1:4010', { token: api.token });
  expectTypeOf(mock.advanceRestockingShipment(1, 'received')).toEqualTypeOf<
    Promise<MockRestockingShipmentV1>
  >();
  return mock;
}

// The stores several processes share, from CommonJS.
import { createRedisDeduplicator, type RedisEval } from 'merchant-fulfillment/redis';

const viaEval: RedisEval = { eval: async (_script, _keys, _args) => null };
expectTypeOf(createRedisDeduplicator(viaEval).claim('id', 'token')).toEqualTypeOf<
  Promise<'new' | 'in_progress' | 'done'>
>();
// @ts-expect-error: a client needs eval
createRedisDeduplicator({});
