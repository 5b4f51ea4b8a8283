/**
 * Every record type a response field holds can be named from the main entry, so that a consumer can
 * type a helper that takes one (`function label(item: OrderLineItem)`).
 */
import { expectTypeOf } from 'expect-type';
import type {
  Order,
  OrderLineItem,
  RestockingShipmentV1,
  RestockingShipmentV2,
  Return,
  Shipment,
  Sku,
  SkuInventory,
} from 'merchant-fulfillment';
import type {
  RestockingShipmentItem,
  RestockingShipmentItemV2,
  ReturnItem,
  ReturnLineItem,
  ShipmentItem,
  SkuInventoryBatch,
  SkuInventoryPerWarehouse,
} from 'merchant-fulfillment/schemas';

expectTypeOf<Order['items'][number]>().toEqualTypeOf<OrderLineItem>();
expectTypeOf<Sku['inventory']>().toEqualTypeOf<SkuInventory>();
expectTypeOf<Sku['inventory_per_warehouse'][number]>().toEqualTypeOf<SkuInventoryPerWarehouse>();
expectTypeOf<Sku['inventory_batches'][number]>().toEqualTypeOf<SkuInventoryBatch>();
expectTypeOf<
  RestockingShipmentV1['restocking_shipment_items'][number]
>().toEqualTypeOf<RestockingShipmentItem>();
expectTypeOf<
  RestockingShipmentV2['restocking_shipment_items'][number]
>().toEqualTypeOf<RestockingShipmentItemV2>();
expectTypeOf<Shipment['items'][number]>().toEqualTypeOf<ShipmentItem>();
expectTypeOf<Return['return_items'][number]>().toEqualTypeOf<ReturnItem>();
expectTypeOf<Return['return_line_items'][number]>().toEqualTypeOf<ReturnLineItem>();
