/**
 * Resolution matrix: the three entry points imported with ESM syntax, compiled under
 * `moduleResolution` node10, node16 (an ESM file) and bundler (scripts/consumer-types.mjs). Each
 * assertion fails if an entry point resolved to nothing (`any`) or to the wrong declarations; so does
 * each `@ts-expect-error` (an `any` would accept the line).
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
import {
  connectMock,
  createMockApi,
  type MockApi,
  type MockRestockingShipmentV1,
  type MockSeed,
  type MockStateFile,
} from 'merchant-fulfillment/testing';
import type { HttpHandler } from 'msw';

type RetryEvent = ClientEvents['retry'];

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

// The webhook handler: handlers keyed by version 1 status, each shipment's status narrowed.
const handler = createWebhookHandler({
  secret: 'token',
  on: { delivered: (s) => expectTypeOf(s.status).toEqualTypeOf<'delivered'>() },
});
expectTypeOf(handler).toEqualTypeOf<WebhookHandler>();
expectTypeOf(handler.fetch).returns.toEqualTypeOf<Promise<Response>>();
// @ts-expect-error: 'received' is version 2's name; the webhook calls it 'delivered'
createWebhookHandler({ secret: 'token', on: { received: () => {} } });

// The client's events.
client.on('retry', (e) => {
  expectTypeOf(e).toEqualTypeOf<RetryEvent>();
  return e.delayMs;
});
// @ts-expect-error: not an event of the client
client.on('retrying', () => {});

// A mock in another process, saved states and fixtures.
const remote = connectMock('http://127.0.0.1:4010', { token: api.token });
expectTypeOf(remote.advanceRestockingShipment(1, 'received')).toEqualTypeOf<
  Promise<MockRestockingShipmentV1>
>();
expectTypeOf(api.exportState()).toEqualTypeOf<MockStateFile>();
const seed: MockSeed = { skus: [{ name: 'Mug', merchant_sku_id: 'MUG' }] };
export const seeded = createMockApi({ seed });

// The stores several processes share: any client with `eval(script, keys, args)`.
import {
  createRedisDeduplicator,
  createRedisRateLimitStore,
  type RedisEval,
} from 'merchant-fulfillment/redis';

const viaEval: RedisEval = { eval: async (_script, _keys, _args) => null };
expectTypeOf(createRedisDeduplicator(viaEval).claim('id', 'token')).toEqualTypeOf<
  Promise<'new' | 'in_progress' | 'done'>
>();
expectTypeOf(createRedisRateLimitStore(viaEval, { key: 'mf:rate' }).acquire).returns.toEqualTypeOf<
  Promise<number>
>();
// @ts-expect-error: a client needs eval
createRedisDeduplicator({});
