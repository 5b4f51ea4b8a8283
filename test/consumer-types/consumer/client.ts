/** The client, its options and its namespaces, as a consumer sees them. */
import { expectTypeOf } from 'expect-type';
import { type ClientOptions, FulfillmentClient, VERSION } from 'merchant-fulfillment';

type Orders = FulfillmentClient['orders'];
type RestockingShipments = FulfillmentClient['restockingShipments'];
type RestockingShipmentsV1 = FulfillmentClient['restockingShipments']['v1'];
type RestockingShipmentsV2 = FulfillmentClient['restockingShipments']['v2'];
type Returns = FulfillmentClient['returns'];
type Shipments = FulfillmentClient['shipments'];
type Skus = FulfillmentClient['skus'];
type Warehouses = FulfillmentClient['warehouses'];
type Webhooks = FulfillmentClient['webhooks'];

export const client = new FulfillmentClient({
  apiToken: 'token',
  baseUrl: 'https://fulfillment.example.com',
  timeout: 10_000,
  maxRetries: 2,
  maxRetryAfter: 60,
  retryDelay: { initialMs: 500, maxMs: 8000 },
  fetch: (input, init) => fetch(input, init),
  defaultHeaders: { 'x-tenant': 'a', 'x-removed': undefined },
  logLevel: 'debug',
  logger: console,
  validateResponses: 'lenient',
});
new FulfillmentClient();
new FulfillmentClient({});
// @ts-expect-error: the modes are 'lenient' and 'off'
export const noStrictMode = () => new FulfillmentClient({ validateResponses: 'strict' });

expectTypeOf(FulfillmentClient).constructorParameters.toEqualTypeOf<[options?: ClientOptions | undefined]>();
expectTypeOf(client).toEqualTypeOf<FulfillmentClient>();
expectTypeOf(client.skus).toEqualTypeOf<Skus>();
expectTypeOf(client.orders).toEqualTypeOf<Orders>();
expectTypeOf(client.restockingShipments).toEqualTypeOf<RestockingShipments>();
expectTypeOf(client.restockingShipments.v1).toEqualTypeOf<RestockingShipmentsV1>();
expectTypeOf(client.restockingShipments.v2).toEqualTypeOf<RestockingShipmentsV2>();
expectTypeOf(client.shipments).toEqualTypeOf<Shipments>();
expectTypeOf(client.returns).toEqualTypeOf<Returns>();
expectTypeOf(client.warehouses).toEqualTypeOf<Warehouses>();
expectTypeOf(client.webhooks).toEqualTypeOf<Webhooks>();
expectTypeOf(client.baseUrl).toEqualTypeOf<string>();
expectTypeOf(VERSION).toBeString();

// Options are checked: an unknown option or a wrong log level is refused.
// @ts-expect-error: 'verbose' is not a log level
new FulfillmentClient({ logLevel: 'verbose' });
// @ts-expect-error: 'apiKey' is not an option (it is apiToken)
new FulfillmentClient({ apiKey: 'token' });
