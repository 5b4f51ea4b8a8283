/** `client.orders`: every method's parameters and result, the `Order` record and its request bodies. */
import { expectTypeOf } from 'expect-type';
import type {
  Address,
  APIPromise,
  ListOptions,
  Order,
  OrderCreateParams,
  OrderLineItem,
  OrderListParams,
  OrderStatus,
  OrderUpdateParams,
  PagePromise,
  RequestOptions,
} from 'merchant-fulfillment';
import type { OrderRetrieveParams } from 'merchant-fulfillment/schemas';
import { client } from './client.js';
import type { Exactness } from './helpers.js';

type Id = number | string;

// list
expectTypeOf(client.orders.list).parameters.toEqualTypeOf<
  [params?: OrderListParams | undefined, options?: ListOptions | undefined]
>();
expectTypeOf(client.orders.list).returns.toEqualTypeOf<PagePromise<Order>>();
expectTypeOf(
  client.orders.list({ created_at: { gte: new Date('2025-01-01'), lt: '2025-02-01' }, include: ['batches'] }),
).toEqualTypeOf<PagePromise<Order>>();

// retrieve
expectTypeOf(client.orders.retrieve).parameters.toEqualTypeOf<
  [id: Id, params?: OrderRetrieveParams | undefined, options?: RequestOptions | undefined]
>();
expectTypeOf(client.orders.retrieve(1, { include: ['batches'] })).resolves.toEqualTypeOf<Order>();

// create
expectTypeOf(client.orders.create).parameters.toEqualTypeOf<
  [body: OrderCreateParams, options?: RequestOptions | undefined]
>();
const address = {
  full_name: 'Ada Lovelace',
  line1: 'Unter den Linden 1',
  city: 'Berlin',
  postal_code: '10117',
  country_code: 'DE',
} as const;
// Either name is enough, and both are fine.
expectTypeOf(
  client.orders.create({
    merchant_order_id: 'A-1001',
    shipping_address: { ...address, first_name: 'Ada', last_name: 'Lovelace' },
    items: [
      { merchant_item_id: '1', merchant_sku_id: 'TSHIRT-M', quantity: 2, price_per_unit_in_cents: 1999 },
    ],
  }),
).resolves.toEqualTypeOf<Order>();
client.orders.create({
  merchant_order_id: 'A-1002',
  shipping_address: { ...address, first_name: 'Ada' },
  items: [{ merchant_item_id: '1', sku_id: 7, quantity: 1, price_per_unit_in_cents: 0 }],
  created_at: new Date(),
  payment_method: 'COD',
  total_price_in_cents: 1999,
  carrier_preference: 'DHL',
});
client.orders.create({
  merchant_order_id: 'A-1003',
  shipping_address: { ...address, last_name: 'Lovelace' },
  items: [
    {
      merchant_item_id: '1',
      sku_id: 7,
      merchant_sku_id: 'TSHIRT-M',
      quantity: 1,
      price_per_unit_in_cents: 0,
    },
  ],
});

// update (PATCH)
expectTypeOf(client.orders.update).parameters.toEqualTypeOf<
  [id: Id, body: OrderUpdateParams, options?: RequestOptions | undefined]
>();
expectTypeOf(
  client.orders.update(1, {
    shipping_address: { city: 'Potsdam' },
    items: [{ merchant_item_id: '1', quantity: 3 }],
  }),
).resolves.toEqualTypeOf<Order>();

// cancel: resolves with the order, never `undefined`
expectTypeOf(client.orders.cancel).parameters.toEqualTypeOf<[id: Id, options?: RequestOptions | undefined]>();
expectTypeOf(client.orders.cancel(1)).resolves.toEqualTypeOf<Order>();

export async function useOrders(): Promise<void> {
  const cancelledStatus = (await client.orders.cancel(1)).status;
  expectTypeOf(cancelledStatus).toEqualTypeOf<OrderStatus>();

  const order = await client.orders.retrieve('42');
  expectTypeOf(order).toEqualTypeOf<Order>();
  expectTypeOf(order.id).toEqualTypeOf<number>();
  expectTypeOf(order.merchant_order_id).toEqualTypeOf<string>();
  expectTypeOf(order.items).toEqualTypeOf<OrderLineItem[]>();
  expectTypeOf(order.shipping_address).toEqualTypeOf<Address>();
  // Presence and nullability follow the spec: a field without a value is `null`, never absent.
  expectTypeOf(order.shipping_address.first_name).toEqualTypeOf<string | null>();
  expectTypeOf(order.items[0]).toEqualTypeOf<OrderLineItem | undefined>(); // noUncheckedIndexedAccess
  expectTypeOf(order.carrier_preference).toEqualTypeOf<string | null>();
  expectTypeOf(order.currency).toEqualTypeOf<string>(); // the spec's default, EUR, is filled in
}

// These methods return an APIPromise (`.withResponse()`, `.asResponse()`).
expectTypeOf(client.orders.retrieve).returns.toExtend<APIPromise<unknown>>();
expectTypeOf(client.orders.create).returns.toExtend<APIPromise<unknown>>();
expectTypeOf(client.orders.update).returns.toExtend<APIPromise<unknown>>();
expectTypeOf(client.orders.cancel).returns.toExtend<APIPromise<unknown>>();

// The records are exact: a misspelled field name is a type error, not `unknown`.
expectTypeOf<Exactness<Order>>().toEqualTypeOf<'exact'>();
expectTypeOf<Exactness<OrderLineItem>>().toEqualTypeOf<'exact'>();
expectTypeOf<Exactness<Address>>().toEqualTypeOf<'exact'>();
expectTypeOf<Order['status']>().toEqualTypeOf<'fulfillable' | 'unfulfillable' | 'fulfilled'>();
expectTypeOf<OrderStatus>().toEqualTypeOf<Order['status']>();
