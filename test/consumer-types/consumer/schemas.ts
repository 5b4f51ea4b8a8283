/** `merchant-fulfillment/schemas`: the Zod schemas, whose outputs are the SDK's data types. */
import { expectTypeOf } from 'expect-type';
import type {
  Order,
  OrderCreateParams,
  RestockingShipmentV1,
  RestockingShipmentV2,
  Return,
  Shipment,
  Sku,
  SkuCreateParams,
  Warehouse,
} from 'merchant-fulfillment';
import {
  ORDER_STATUSES,
  type OrderCreateParamsSchema,
  OrderSchema,
  RestockingShipmentV1Schema,
  RestockingShipmentV2Schema,
  ReturnSchema,
  type Sku as SchemasSku,
  ShipmentSchema,
  SKU_STATUSES,
  SkuCreateParamsSchema,
  SkuSchema,
  WarehouseSchema,
} from 'merchant-fulfillment/schemas';

declare const input: unknown;

// What a schema parses is usable where the SDK's data type is expected.
expectTypeOf(SkuSchema.parse(input)).toExtend<Sku>();
expectTypeOf(OrderSchema.parse(input)).toExtend<Order>();
expectTypeOf(RestockingShipmentV1Schema.parse(input)).toExtend<RestockingShipmentV1>();
expectTypeOf(RestockingShipmentV2Schema.parse(input)).toExtend<RestockingShipmentV2>();
expectTypeOf(ShipmentSchema.parse(input)).toExtend<Shipment>();
expectTypeOf(ReturnSchema.parse(input)).toExtend<Return>();
expectTypeOf(WarehouseSchema.parse(input)).toExtend<Warehouse>();
expectTypeOf(SkuSchema.parse(input).status).toExtend<Sku['status']>();

// Request schemas accept the SDK's parameter types.
expectTypeOf<SkuCreateParams>().toExtend<Parameters<typeof SkuCreateParamsSchema.parse>[0]>();
expectTypeOf<OrderCreateParams>().toExtend<Parameters<typeof OrderCreateParamsSchema.parse>[0]>();
const parsed = SkuCreateParamsSchema.safeParse(input);
if (parsed.success) expectTypeOf(parsed.data.merchant_sku_id).toEqualTypeOf<string>();

// The same data types from both entries, and the known values as readonly tuples.
expectTypeOf<SchemasSku>().toEqualTypeOf<Sku>();
expectTypeOf(ORDER_STATUSES).toEqualTypeOf<readonly ['fulfillable', 'unfulfillable', 'fulfilled']>();
expectTypeOf(SKU_STATUSES).toEqualTypeOf<readonly ['active', 'deleted']>();
expectTypeOf<(typeof ORDER_STATUSES)[number]>().toEqualTypeOf<Order['status']>();
