/**
 * One source of truth: every published interface equals the output of its schema, once the
 * schema's index signature (unknown keys are kept at run time) is taken away. A field added to one
 * and not the other, or typed differently, fails here.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type * as s from '../../src/schemas/index.js';

type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 0 };
/** The type without index signatures, deeply; a pure record (`Record<string, unknown>`) stays as is. */
type Exact<T> = T extends readonly (infer U)[]
  ? Exact<U>[]
  : T extends object
    ? [KnownKeys<T>] extends [never]
      ? T
      : { [K in keyof T as string extends K ? never : number extends K ? never : K]: Exact<T[K]> }
    : T;
type Out<S extends z.core.$ZodType> = Exact<z.output<S>>;

describe('interfaces equal their schemas', () => {
  it('orders', () => {
    expectTypeOf<Out<typeof s.AddressSchema>>().toEqualTypeOf<s.Address>();
    expectTypeOf<Out<typeof s.OrderItemBatchSchema>>().toEqualTypeOf<s.OrderItemBatch>();
    expectTypeOf<Out<typeof s.OrderLineItemSchema>>().toEqualTypeOf<s.OrderLineItem>();
    expectTypeOf<Out<typeof s.OrderSchema>>().toEqualTypeOf<s.Order>();
  });

  it('SKUs', () => {
    expectTypeOf<Out<typeof s.SkuInventorySchema>>().toEqualTypeOf<s.SkuInventory>();
    expectTypeOf<Out<typeof s.SkuInventoryPerWarehouseSchema>>().toEqualTypeOf<s.SkuInventoryPerWarehouse>();
    expectTypeOf<Out<typeof s.InventoryPerWarehouseSchema>>().toEqualTypeOf<s.InventoryPerWarehouse>();
    expectTypeOf<Out<typeof s.SkuInventoryBatchSchema>>().toEqualTypeOf<s.SkuInventoryBatch>();
    expectTypeOf<Out<typeof s.SkuSchema>>().toEqualTypeOf<s.Sku>();
    expectTypeOf<Out<typeof s.SkuRefSchema>>().toEqualTypeOf<s.SkuRef>();
  });

  it('restocking shipments', () => {
    expectTypeOf<
      Out<typeof s.RestockingShipmentItemBatchSchema>
    >().toEqualTypeOf<s.RestockingShipmentItemBatch>();
    expectTypeOf<Out<typeof s.RestockingShipmentItemSchema>>().toEqualTypeOf<s.RestockingShipmentItem>();
    expectTypeOf<Out<typeof s.RestockingShipmentItemV2Schema>>().toEqualTypeOf<s.RestockingShipmentItemV2>();
    expectTypeOf<Out<typeof s.RestockingShipmentV1Schema>>().toEqualTypeOf<s.RestockingShipmentV1>();
    expectTypeOf<Out<typeof s.RestockingShipmentV2Schema>>().toEqualTypeOf<s.RestockingShipmentV2>();
  });

  it('shipments, returns, warehouses', () => {
    expectTypeOf<Out<typeof s.ShipmentSerialNumberSchema>>().toEqualTypeOf<s.ShipmentSerialNumber>();
    expectTypeOf<Out<typeof s.ShipmentItemSchema>>().toEqualTypeOf<s.ShipmentItem>();
    expectTypeOf<Out<typeof s.ShipmentSchema>>().toEqualTypeOf<s.Shipment>();
    expectTypeOf<Out<typeof s.ReturnPhotoSchema>>().toEqualTypeOf<s.ReturnPhoto>();
    expectTypeOf<Out<typeof s.ReturnOrderRefSchema>>().toEqualTypeOf<s.ReturnOrderRef>();
    expectTypeOf<Out<typeof s.ReturnItemSchema>>().toEqualTypeOf<s.ReturnItem>();
    expectTypeOf<Out<typeof s.ReturnLineItemSchema>>().toEqualTypeOf<s.ReturnLineItem>();
    expectTypeOf<Out<typeof s.ReturnSchema>>().toEqualTypeOf<s.Return>();
    expectTypeOf<Out<typeof s.WarehouseSchema>>().toEqualTypeOf<s.Warehouse>();
  });

  it('response types carry no index signature (a typo never compiles)', () => {
    // @ts-expect-error: no such field
    type _A = s.Order['stauts'];
    // @ts-expect-error: no such field
    type _B = s.Sku['inventroy'];
    expectTypeOf<s.Order>().not.toHaveProperty('stauts');
  });
});
