import { describe, expectTypeOf, it } from 'vitest';
import type {
  Address,
  AddressParams,
  CreatedAtFilter,
  ErrorBody,
  ListEnvelope,
  Order,
  OrderCreateParams,
  OrderItemBatch,
  OrderItemParams,
  OrderListParams,
  OrderUpdateParams,
  Pagination,
  RestockingShipmentItem,
  RestockingShipmentItemV1Params,
  RestockingShipmentItemV2Params,
  RestockingShipmentV1,
  RestockingShipmentV1CreateParams,
  RestockingShipmentV1UpdateParams,
  RestockingShipmentV2,
  RestockingShipmentV2CreateParams,
  Return,
  Shipment,
  Sku,
  SkuCreateParams,
  SkuInventoryBatch,
  SkuListParams,
  SkuUpdateParams,
  Warehouse,
  WarehouseListParams,
} from '../../src/schemas/index.js';
import { listEnvelopeSchema, SkuSchema } from '../../src/schemas/index.js';

describe('response types', () => {
  it('types enums as the union of their documented values (an exhaustive switch compiles)', () => {
    expectTypeOf<Sku['status']>().toEqualTypeOf<'active' | 'deleted'>();
    expectTypeOf<string>().not.toExtend<Sku['status']>();
    expectTypeOf<'restocked'>().toExtend<RestockingShipmentV1['status']>();
    expectTypeOf<'on_hold'>().toExtend<RestockingShipmentV1['status']>();
    expectTypeOf<'received'>().toExtend<RestockingShipmentV2['status']>();
    expectTypeOf<'service_freight'>().toExtend<RestockingShipmentV2['delivery_option']>();
    expectTypeOf<'in_picking'>().toExtend<NonNullable<Shipment['status']>>();
    expectTypeOf<''>().toExtend<NonNullable<Return['return_reason']>>();
  });

  it('makes what every response carries required, and what may be unset `T | null`', () => {
    expectTypeOf<Sku['id']>().toEqualTypeOf<number>();
    expectTypeOf<Sku['name']>().toEqualTypeOf<string>();
    expectTypeOf<Sku['merchant_sku_id']>().toEqualTypeOf<string | null>();
    expectTypeOf<Sku['inventory']['stocked']>().toEqualTypeOf<number>();
    expectTypeOf<Order['items']>().toBeArray();
    expectTypeOf<Order['shipping_address']>().toEqualTypeOf<Address>();
    expectTypeOf<Order['total_price_in_cents']>().toEqualTypeOf<number | null>();
    expectTypeOf<RestockingShipmentV2['estimated_arrival_date']>().toEqualTypeOf<string | null>();
    expectTypeOf<RestockingShipmentItem['arrived_quantity']>().toEqualTypeOf<number | null>();
    expectTypeOf<Warehouse['id']>().toEqualTypeOf<number>();
  });

  it('makes only what the API sends in some answers optional', () => {
    expectTypeOf<Order['items'][number]>().toHaveProperty('batches');
    expectTypeOf<NonNullable<Order['items'][number]['batches']>>().toEqualTypeOf<OrderItemBatch[]>();
    expectTypeOf<Warehouse['name']>().toEqualTypeOf<string | null | undefined>();
  });

  it('has the normalised SKU fields', () => {
    expectTypeOf<Sku['un_names']>().toEqualTypeOf<string[]>();
    expectTypeOf<Sku['cost_in_cents']>().toEqualTypeOf<number | null>();
    expectTypeOf(SkuSchema.parse({})).toExtend<Sku>();
  });

  it('types stocked_quantities as one object or an array', () => {
    type StockedQuantities = NonNullable<SkuInventoryBatch['stocked_quantities']>;
    expectTypeOf<{ warehouse_id: number; quantity: number }>().toExtend<StockedQuantities>();
    expectTypeOf<{ warehouse_id: number; quantity: number }[]>().toExtend<StockedQuantities>();
  });

  it('types dates as strings', () => {
    expectTypeOf<Order['created_at']>().toEqualTypeOf<string>();
    expectTypeOf<RestockingShipmentV1['estimated_arrival_date']>().toEqualTypeOf<string | null>();
  });

  it('types list envelopes and error bodies', () => {
    const SkuPage = listEnvelopeSchema(SkuSchema);
    expectTypeOf(SkuPage.parse({}).data).toExtend<Sku[]>();
    expectTypeOf(SkuPage.parse({})).toExtend<ListEnvelope<Sku>>();
    expectTypeOf<Pagination['next_page_url']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Pagination['current_page']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<ErrorBody['errors']>().toEqualTypeOf<string[] | null | undefined>();
  });
});

describe('request types', () => {
  it('SkuCreateParams requires name and merchant_sku_id', () => {
    expectTypeOf<{ name: string; merchant_sku_id: string }>().toExtend<SkuCreateParams>();
    expectTypeOf<{ name: string }>().not.toExtend<SkuCreateParams>();
    expectTypeOf<{ merchant_sku_id: string }>().not.toExtend<SkuCreateParams>();
    expectTypeOf<{
      name: string;
      merchant_sku_id: string;
      cost_in_cents: string;
    }>().not.toExtend<SkuCreateParams>();
  });

  it('SkuUpdateParams makes everything optional and accepts the documented strings and null', () => {
    expectTypeOf<{}>().toExtend<SkuUpdateParams>();
    expectTypeOf<{ cost_in_cents: '349'; weight_in_kg: '0.5' }>().toExtend<SkuUpdateParams>();
    expectTypeOf<{ batch_tracking_enabled: null }>().toExtend<SkuUpdateParams>();
  });

  it('OrderCreateParams accepts a Date or a string created_at and requires the core fields', () => {
    expectTypeOf<Date>().toExtend<NonNullable<OrderCreateParams['created_at']>>();
    expectTypeOf<string>().toExtend<NonNullable<OrderCreateParams['created_at']>>();
    expectTypeOf<OrderCreateParams['merchant_order_id']>().toEqualTypeOf<string>();
    expectTypeOf<OrderCreateParams['items']>().toBeArray();
    expectTypeOf<'paid'>().toExtend<NonNullable<OrderCreateParams['financial_status']>>();
    expectTypeOf<'payed'>().not.toExtend<NonNullable<OrderCreateParams['financial_status']>>();
    expectTypeOf<{ merchant_order_id: string }>().not.toExtend<OrderCreateParams>();
  });

  it('OrderUpdateParams makes everything optional but merchant_item_id on items', () => {
    expectTypeOf<{}>().toExtend<OrderUpdateParams>();
    expectTypeOf<{ shipping_address: { city: string } }>().toExtend<OrderUpdateParams>();
    expectTypeOf<{ items: { merchant_item_id: string }[] }>().toExtend<OrderUpdateParams>();
    expectTypeOf<{ items: { quantity: number }[] }>().not.toExtend<OrderUpdateParams>();
  });

  it('list params take Dates and strings in created_at and open include values', () => {
    expectTypeOf<{ gte: Date; lt: string }>().toExtend<CreatedAtFilter>();
    expectTypeOf<{
      merchant_sku_ids: string[];
      created_at: { gte: Date };
      limit: number;
    }>().toExtend<SkuListParams>();
    expectTypeOf<{ include: ('batches' | 'future')[] }>().toExtend<OrderListParams>();
  });

  it('restocking shipment params', () => {
    expectTypeOf<string | number>().toEqualTypeOf<RestockingShipmentV1CreateParams['warehouse_id']>();
    expectTypeOf<Date>().toExtend<NonNullable<RestockingShipmentV1CreateParams['estimated_arrival_date']>>();
    expectTypeOf<{ tracking_code: string }>().not.toExtend<RestockingShipmentV1UpdateParams>();
    expectTypeOf<{ restocking_shipment_items: [] }>().toExtend<RestockingShipmentV1UpdateParams>();
    expectTypeOf<'courier'>().toExtend<RestockingShipmentV2CreateParams['delivery_option']>();
    expectTypeOf<'drone'>().not.toExtend<RestockingShipmentV2CreateParams['delivery_option']>();
    expectTypeOf<null>().toExtend<RestockingShipmentV2CreateParams['po_number']>();
    expectTypeOf<RestockingShipmentV2CreateParams['warehouse_id']>().toEqualTypeOf<number>();
  });

  it('request types are closed: a misspelt or misplaced key in a literal is a type error', () => {
    // @ts-expect-error: misspelt key
    const list: OrderListParams = { limt: 5 };
    // @ts-expect-error: request options are not query parameters
    const misplaced: SkuListParams = { maxPages: 2 };
    const address: OrderCreateParams['shipping_address'] = {
      full_name: 'A B',
      first_name: 'A',
      line1: 'x',
      city: 'y',
      postal_code: '1',
      country_code: 'DE',
      // @ts-expect-error: misspelt nested key
      zip: '1',
    };
    expectTypeOf([list, misplaced, address]).toBeArray();
    expectTypeOf<{ limt: number }>().not.toExtend<OrderListParams>();
    // Undocumented endpoints (warehouses, shipments, returns) pass further query parameters through.
    expectTypeOf<{ region: string }>().toExtend<WarehouseListParams>();
  });

  it('keeps records open', () => {
    type Metadata = NonNullable<OrderCreateParams['custom_metadata']>;
    expectTypeOf<{ anything: { nested: 1 } }>().toExtend<Metadata>();
    expectTypeOf<string>().not.toExtend<Metadata>();
  });
});

describe('either-or rules: plain interfaces, the rule checked before sending', () => {
  const address = { full_name: 'A B', line1: 'x', city: 'y', postal_code: '1', country_code: 'DE' };

  it('an address takes first_name, last_name or both (neither is refused at run time)', () => {
    expectTypeOf({ ...address, first_name: 'A' }).toExtend<AddressParams>();
    expectTypeOf({ ...address, last_name: 'B' }).toExtend<AddressParams>();
    expectTypeOf({ ...address, first_name: 'A', last_name: 'B' }).toExtend<AddressParams>();
    expectTypeOf({ first_name: 'A', line1: 'x' }).not.toExtend<AddressParams>();
  });

  it('a line item takes sku_id, merchant_sku_id or both, and needs its other fields', () => {
    const item = { merchant_item_id: '1', quantity: 1, price_per_unit_in_cents: 1 };
    expectTypeOf({ ...item, sku_id: 1 }).toExtend<OrderItemParams>();
    expectTypeOf({ ...item, merchant_sku_id: 'A' }).toExtend<OrderItemParams>();
    expectTypeOf({ merchant_item_id: '1', quantity: 1, sku_id: 1 }).not.toExtend<OrderItemParams>();
  });

  it('a version 1 restocking item carries no version 2 field', () => {
    const item = { sku_id: 1, announced_quantity: 1 };
    expectTypeOf(item).toExtend<RestockingShipmentItemV1Params>();
    expectTypeOf({ ...item, sku_code: 'A' }).not.toExtend<RestockingShipmentItemV1Params>();
    expectTypeOf({ ...item, remarks: 'A' }).not.toExtend<RestockingShipmentItemV1Params>();
    expectTypeOf({ ...item, total_cost_in_cents: 1 }).not.toExtend<RestockingShipmentItemV1Params>();
    expectTypeOf({ ...item, inventory_batch_id: 1 }).not.toExtend<RestockingShipmentItemV1Params>();
    expectTypeOf({ sku_code: 'A', announced_quantity: 1 }).toExtend<RestockingShipmentItemV2Params>();
    expectTypeOf({ sku_code: 'A' }).not.toExtend<RestockingShipmentItemV2Params>();
  });
});
