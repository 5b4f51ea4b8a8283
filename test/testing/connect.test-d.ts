/**
 * The types of `connectMock`: the connection's control methods take the in-process mock's
 * arguments and resolve with its results (one shared interface, `MockControlMethods`), and
 * `state()` is typed by the collection asked for.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  MockApi,
  MockCallOptions,
  MockCollectionName,
  MockConnection,
  MockControlMethods,
  MockDeliveriesPage,
  MockDeliveriesQuery,
  MockFaultHandle,
  MockOrder,
  MockRemoteFaultHandle,
  MockRequestLogEntry,
  MockSku,
  MockStatePage,
  MockStateSnapshot,
  MockWebhookDelivery,
} from '../../src/testing/index.js';
import { connectMock } from '../../src/testing/index.js';

type Shared = keyof MockControlMethods;

declare const connection: MockConnection;
declare const api: MockApi;

describe('MockConnection and MockApi', () => {
  it('share the control methods: same parameters, the connection resolving with the same results', () => {
    expectTypeOf<MockApi>().toExtend<MockControlMethods>();
    expectTypeOf<MockConnection>().toExtend<MockControlMethods<true>>();
    expectTypeOf<Shared>().toEqualTypeOf<
      | 'advanceRestockingShipment'
      | 'fulfillOrder'
      | 'createReturn'
      | 'faults'
      | 'clearFaults'
      | 'redeliverWebhooks'
      | 'reset'
      | 'injectFault'
      | 'flushWebhooks'
      | 'readDeliveries'
      | 'readState'
    >();
    type Same<K extends Shared> = [Parameters<MockApi[K]>, Awaited<ReturnType<MockConnection[K]>>];
    expectTypeOf<Same<'advanceRestockingShipment'>>().toEqualTypeOf<
      [
        Parameters<MockConnection['advanceRestockingShipment']>,
        ReturnType<MockApi['advanceRestockingShipment']>,
      ]
    >();
    expectTypeOf<Same<'fulfillOrder'>>().toEqualTypeOf<
      [Parameters<MockConnection['fulfillOrder']>, ReturnType<MockApi['fulfillOrder']>]
    >();
    expectTypeOf<Same<'createReturn'>>().toEqualTypeOf<
      [Parameters<MockConnection['createReturn']>, ReturnType<MockApi['createReturn']>]
    >();
    expectTypeOf<Same<'faults'>>().toEqualTypeOf<
      [Parameters<MockConnection['faults']>, ReturnType<MockApi['faults']>]
    >();
    expectTypeOf<Same<'clearFaults'>>().toEqualTypeOf<
      [Parameters<MockConnection['clearFaults']>, ReturnType<MockApi['clearFaults']>]
    >();
    expectTypeOf<Same<'redeliverWebhooks'>>().toEqualTypeOf<
      [Parameters<MockConnection['redeliverWebhooks']>, ReturnType<MockApi['redeliverWebhooks']>]
    >();
    expectTypeOf<Same<'reset'>>().toEqualTypeOf<
      [Parameters<MockConnection['reset']>, ReturnType<MockApi['reset']>]
    >();
  });

  it('injectFault, flushWebhooks, readDeliveries and readState are shared too', () => {
    // injectFault: the same argument; the handle differs (live in-process, removed by a call remotely).
    expectTypeOf<Parameters<MockApi['injectFault']>>().toEqualTypeOf<
      Parameters<MockConnection['injectFault']>
    >();
    expectTypeOf(api.injectFault({ path: '/x' })).toEqualTypeOf<MockFaultHandle>();
    // flushWebhooks: a promise of the same result on both sides, with or without a query.
    expectTypeOf(api.flushWebhooks()).toEqualTypeOf<Promise<MockWebhookDelivery[]>>();
    expectTypeOf(connection.flushWebhooks()).toEqualTypeOf<Promise<MockWebhookDelivery[]>>();
    const query: MockDeliveriesQuery = {
      status: 'failed',
      url: 'https://shop.example/hooks',
      page: 2,
      limit: 10,
    };
    expectTypeOf(api.flushWebhooks(query)).toEqualTypeOf<Promise<MockDeliveriesPage>>();
    expectTypeOf(connection.flushWebhooks(query)).toEqualTypeOf<Promise<MockDeliveriesPage>>();
    // Only the connection takes a per-call time-out.
    expectTypeOf(connection.flushWebhooks(undefined, { timeoutMs: 60_000 })).toEqualTypeOf<
      Promise<MockWebhookDelivery[]>
    >();
    expectTypeOf<MockCallOptions['timeoutMs']>().toEqualTypeOf<number | undefined>();
    // readDeliveries / readState: the in-process answer, and the connection's promise of it.
    expectTypeOf(api.readDeliveries()).toEqualTypeOf<MockWebhookDelivery[]>();
    expectTypeOf(connection.readDeliveries()).toEqualTypeOf<Promise<MockWebhookDelivery[]>>();
    expectTypeOf(api.readDeliveries(query)).toEqualTypeOf<MockDeliveriesPage>();
    expectTypeOf(connection.readDeliveries(query)).toEqualTypeOf<Promise<MockDeliveriesPage>>();
    expectTypeOf(connection.deliveries(query)).toEqualTypeOf<Promise<MockDeliveriesPage>>();
    expectTypeOf(api.readState()).toEqualTypeOf<MockStateSnapshot>();
    expectTypeOf(connection.readState()).toEqualTypeOf<Promise<MockStateSnapshot>>();
    expectTypeOf(api.readState({ collection: 'orders' })).toEqualTypeOf<MockStatePage<'orders'>>();
    expectTypeOf(connection.readState({ collection: 'orders' })).toEqualTypeOf<
      Promise<MockStatePage<'orders'>>
    >();
    expectTypeOf(api.readState({ collections: ['skus', 'orders'] })).toEqualTypeOf<{
      skus: MockStatePage<'skus'>;
      orders: MockStatePage<'orders'>;
    }>();
    expectTypeOf(connection.readState({ collections: ['skus', 'orders'] })).resolves.toEqualTypeOf<{
      skus: MockStatePage<'skus'>;
      orders: MockStatePage<'orders'>;
    }>();
    // The properties stay: the same values the reads give.
    expectTypeOf(api.state).toEqualTypeOf<MockStateSnapshot>();
    expectTypeOf(api.deliveries).toEqualTypeOf<MockWebhookDelivery[]>();
    // @ts-expect-error an unknown delivery status
    void api.readDeliveries({ status: 'lost' });
  });

  it('every result of the connection is a promise', () => {
    expectTypeOf(connection.fulfillOrder(1)).toEqualTypeOf<Promise<ReturnType<MockApi['fulfillOrder']>>>();
    expectTypeOf(connection.reset()).toEqualTypeOf<Promise<void>>();
    expectTypeOf(connection.flushWebhooks()).toEqualTypeOf<Promise<MockWebhookDelivery[]>>();
    expectTypeOf(connection.deliveries()).toEqualTypeOf<Promise<MockApi['deliveries']>>();
  });

  it('the remote fault handle is removed asynchronously; the in-process one at once', () => {
    expectTypeOf(connection.injectFault({ path: '/x' })).toEqualTypeOf<Promise<MockRemoteFaultHandle>>();
    expectTypeOf<MockRemoteFaultHandle['remove']>().returns.toEqualTypeOf<Promise<boolean>>();
    expectTypeOf<MockFaultHandle['remove']>().returns.toEqualTypeOf<void>();
    expectTypeOf<MockRemoteFaultHandle['id']>().toEqualTypeOf<MockFaultHandle['id']>();
  });

  it('state() is typed by the collection asked for', () => {
    expectTypeOf(connection.state()).toEqualTypeOf<Promise<MockStateSnapshot>>();
    expectTypeOf(connection.state()).resolves.toEqualTypeOf<MockApi['state']>();
    const skus = connection.state({ collection: 'skus', page: 2 });
    expectTypeOf(skus).resolves.toEqualTypeOf<MockStatePage<'skus'>>();
    expectTypeOf<MockStatePage<'skus'>['data']>().toEqualTypeOf<MockSku[]>();
    const two = connection.state({ collections: ['orders', 'requests'], limit: 5 });
    expectTypeOf(two).resolves.toEqualTypeOf<{
      orders: MockStatePage<'orders'>;
      requests: MockStatePage<'requests'>;
    }>();
    expectTypeOf<MockStatePage<'orders'>['data']>().toEqualTypeOf<MockOrder[]>();
    expectTypeOf<MockStatePage<'requests'>['data']>().toEqualTypeOf<MockRequestLogEntry[]>();
    expectTypeOf<MockCollectionName>().toEqualTypeOf<keyof MockStateSnapshot>();
    // @ts-expect-error an unknown collection
    void connection.state({ collection: 'nope' });
  });

  it('connectMock needs a token and returns a MockConnection', () => {
    expectTypeOf(connectMock).returns.toEqualTypeOf<MockConnection>();
    // @ts-expect-error the token is required
    void connectMock('http://127.0.0.1:4010', {});
    expectTypeOf(connection.baseUrl).toEqualTypeOf<string>();
    expectTypeOf(connection.token).toEqualTypeOf<string>();
  });
});
