/**
 * `merchant-fulfillment/testing` beyond the in-process mock: `connectMock` (a mock in another
 * process), saved states (`exportState`, `initialState`: {@link MockStateFile}), fixtures (`seed`:
 * {@link MockSeed}), and `listen({ cors })`.
 */
import { expectTypeOf } from 'expect-type';
import { FulfillmentClient } from 'merchant-fulfillment';
import {
  type ConnectMockOptions,
  connectMock,
  createMockApi,
  type MockConnection,
  MockControlError,
  type MockControlErrorCode,
  type MockRestockingShipmentV1,
  type MockSeed,
  type MockShipment,
  type MockStateFile,
  type MockStatePage,
  type MockWebhookDelivery,
} from 'merchant-fulfillment/testing';

expectTypeOf(connectMock).parameters.toEqualTypeOf<[url: string | URL, options: ConnectMockOptions]>();
expectTypeOf(connectMock).returns.toEqualTypeOf<MockConnection>();

const seed: MockSeed = {
  skus: [{ name: 'Mug', merchant_sku_id: 'MUG' }],
  restockingShipments: [
    {
      warehouse_id: 1,
      delivery_option: 'postal',
      restocking_shipment_items: [{ sku_code: 'MUG', announced_quantity: 10 }],
      status: 'restocked',
    },
  ],
};
const api = createMockApi({ seed });
const saved: MockStateFile = api.exportState();
const restored = createMockApi({ initialState: saved });
// A saved state survives JSON (a file written by one test run, read by the next).
createMockApi({ initialState: JSON.parse(JSON.stringify(saved)) as MockStateFile });
expectTypeOf(restored.exportState()).toEqualTypeOf<MockStateFile>();
// @ts-expect-error: a seed lists SKUs, not a number of them
createMockApi({ seed: { skus: 3 } });

export async function remote(): Promise<void> {
  const server = await api.listen({ port: 0, cors: ['http://localhost:5173'] });
  await api.listen({ cors: '*' });
  const mock = connectMock(server.url, { token: api.token, timeoutMs: 5_000 });
  const client = new FulfillmentClient({ apiToken: mock.token, baseUrl: mock.baseUrl });

  const moved = await mock.advanceRestockingShipment(1, 'received', { arrived: 9, damaged: { 1: 1 } });
  expectTypeOf(mock.advanceRestockingShipment(1, 'shipped')).toEqualTypeOf<
    Promise<MockRestockingShipmentV1>
  >();
  expectTypeOf(moved).toEqualTypeOf<MockRestockingShipmentV1>();
  expectTypeOf(moved.id).toEqualTypeOf<number>();
  expectTypeOf(await mock.fulfillOrder(1)).toEqualTypeOf<MockShipment>();
  expectTypeOf(await mock.flushWebhooks()).toEqualTypeOf<MockWebhookDelivery[]>();
  expectTypeOf(await mock.state({ collection: 'skus' })).toEqualTypeOf<MockStatePage<'skus'>>();
  expectTypeOf(mock.reset()).toEqualTypeOf<Promise<void>>();
  expectTypeOf((await client.restockingShipments.v1.retrieve(moved.id)).id).toEqualTypeOf<number>();
  // @ts-expect-error: 'lost' is not a restocking shipment status
  await mock.advanceRestockingShipment(1, 'lost');

  try {
    await mock.fulfillOrder(999);
  } catch (error) {
    if (error instanceof MockControlError) {
      expectTypeOf(error.code).toEqualTypeOf<MockControlErrorCode>();
      expectTypeOf(error.status).toEqualTypeOf<number | null>();
      expectTypeOf(error.errors).toEqualTypeOf<readonly string[]>();
    }
  }
  await server.close();
}
