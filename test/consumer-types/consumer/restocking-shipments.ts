/** `client.restockingShipments.v1` and `.v2`: every method's parameters and result, and the records. */
import { expectTypeOf } from 'expect-type';
import type {
  APIPromise,
  RequestOptions,
  RestockingShipmentV1,
  RestockingShipmentV1CreateParams,
  RestockingShipmentV1UpdateParams,
  RestockingShipmentV2,
  RestockingShipmentV2CreateParams,
  RestockingShipmentV2ReplaceParams,
} from 'merchant-fulfillment';
import type { RestockingShipmentItem } from 'merchant-fulfillment/schemas';
import { client } from './client.js';
import type { Exactness } from './helpers.js';

type Id = number | string;

const { v1, v2 } = client.restockingShipments;

// Version 1
expectTypeOf(v1.create).parameters.toEqualTypeOf<
  [body: RestockingShipmentV1CreateParams, options?: RequestOptions | undefined]
>();
expectTypeOf(
  v1.create({
    warehouse_id: 1,
    estimated_arrival_date: new Date(),
    delivery_option: 'courier',
    restocking_shipment_items: [
      { sku_id: 1, announced_quantity: 10 },
      { merchant_sku_id: 'MUG', announced_quantity: 5 },
    ],
  }),
).resolves.toEqualTypeOf<RestockingShipmentV1>();
expectTypeOf(v1.update).parameters.toEqualTypeOf<
  [id: Id, body: RestockingShipmentV1UpdateParams, options?: RequestOptions | undefined]
>();
expectTypeOf(
  v1.update(1, { warehouse_id: '2', restocking_shipment_items: [] }),
).resolves.toEqualTypeOf<RestockingShipmentV1>();
expectTypeOf(v1.retrieve).parameters.toEqualTypeOf<[id: Id, options?: RequestOptions | undefined]>();
expectTypeOf(v1.retrieve(1)).resolves.toEqualTypeOf<RestockingShipmentV1>();

// Version 2
expectTypeOf(v2.create).parameters.toEqualTypeOf<
  [body: RestockingShipmentV2CreateParams, options?: RequestOptions | undefined]
>();
const v2Body = {
  delivery_option: 'dropoff',
  estimated_arrival_date: '2025-03-01',
  warehouse_id: 1,
  po_number: null,
  priority: true,
  restocking_shipment_items: [
    { sku_code: 'MUG', announced_quantity: 5, remarks: 'fragile', total_cost_in_cents: 1200 },
    { sku_id: 2, announced_quantity: 1, inventory_batch_id: 9 },
  ],
} satisfies RestockingShipmentV2CreateParams;
expectTypeOf(v2.create(v2Body)).resolves.toEqualTypeOf<RestockingShipmentV2>();
expectTypeOf(v2.replace).parameters.toEqualTypeOf<
  [id: Id, body: RestockingShipmentV2ReplaceParams, options?: RequestOptions | undefined]
>();
expectTypeOf(v2.replace(1, v2Body)).resolves.toEqualTypeOf<RestockingShipmentV2>();
expectTypeOf(v2.retrieve).parameters.toEqualTypeOf<[id: Id, options?: RequestOptions | undefined]>();
expectTypeOf(v2.retrieve(1)).resolves.toEqualTypeOf<RestockingShipmentV2>();

export async function useRestockingShipments(): Promise<void> {
  const shipment = await v2.retrieve(1);
  expectTypeOf(shipment.id).toEqualTypeOf<number>();
  expectTypeOf(shipment.warehouse_id).toEqualTypeOf<number>();
  // Version 2 items carry the version 2 fields (their type's name: see names.ts).
  expectTypeOf(shipment.restocking_shipment_items).items.toExtend<RestockingShipmentItem>();
  expectTypeOf(shipment.restocking_shipment_items).items.toHaveProperty('sku_code');
  expectTypeOf(shipment.estimated_arrival_date).toEqualTypeOf<string | null>();
  const old = await v1.retrieve(1);
  expectTypeOf(old.restocking_shipment_items).toEqualTypeOf<RestockingShipmentItem[]>();
}

// These methods return an APIPromise (`.withResponse()`, `.asResponse()`).
expectTypeOf(v1.create).returns.toExtend<APIPromise<unknown>>();
expectTypeOf(v1.update).returns.toExtend<APIPromise<unknown>>();
expectTypeOf(v1.retrieve).returns.toExtend<APIPromise<unknown>>();
expectTypeOf(v2.create).returns.toExtend<APIPromise<unknown>>();
expectTypeOf(v2.replace).returns.toExtend<APIPromise<unknown>>();
expectTypeOf(v2.retrieve).returns.toExtend<APIPromise<unknown>>();

// The records are exact.
expectTypeOf<Exactness<RestockingShipmentV1>>().toEqualTypeOf<'exact'>();
expectTypeOf<Exactness<RestockingShipmentV2>>().toEqualTypeOf<'exact'>();
expectTypeOf<Exactness<RestockingShipmentItem>>().toEqualTypeOf<'exact'>();
expectTypeOf<Exactness<RestockingShipmentV2['restocking_shipment_items'][number]>>().toEqualTypeOf<'exact'>();
expectTypeOf<RestockingShipmentV1['status']>().toEqualTypeOf<
  'created' | 'shipped' | 'delivered' | 'arrived' | 'processing' | 'restocked' | 'on_hold' | 'cancelled'
>();
expectTypeOf<RestockingShipmentV2['status']>().toEqualTypeOf<
  'arrived' | 'cancelled' | 'created' | 'processing' | 'received' | 'restocked' | 'shipped'
>();
