/**
 * What the main entry exports: the client, its promises and pages, the errors, the options and
 * event types users name, the data types named daily, and the webhooks module as it is. Every data
 * type (and every schema value) comes from 'merchant-fulfillment/schemas'; the machinery of the
 * request path and the resource classes stay internal (users reach them as `client.skus`, …).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Pagination as PaginationBlock } from '../src/core/pagination.js';
import type * as main from '../src/index.js';
import type { Pagination as PaginationSchemaType } from '../src/schemas/index.js';
import type * as webhooks from '../src/webhooks/index.js';

/** The values of the main entry besides the webhooks module's (`export *`). */
type Values =
  | 'FulfillmentClient'
  | 'APIPromise'
  | 'Page'
  | 'PagePromise'
  | 'VERSION'
  | 'BulkUpsertError'
  | 'FulfillmentError'
  | 'APIError'
  | 'BadRequestError'
  | 'AuthenticationError'
  | 'PermissionDeniedError'
  | 'NotFoundError'
  | 'ConflictError'
  | 'UnprocessableEntityError'
  | 'RateLimitError'
  | 'RateLimitStoreError'
  | 'InternalServerError'
  | 'APIConnectionError'
  | 'APITimeoutError'
  | 'APIUserAbortError'
  | 'RequestValidationError'
  | 'ResponseValidationError'
  | 'RedirectError'
  | 'ResponseTooLargeError'
  | 'PaginationError'
  | 'LookupLimitError';

/** The types of the main entry besides the webhooks module's: each must resolve. */
type Types = [
  main.ClientOptions,
  main.WithResponse<1>,
  main.Pagination,
  main.ValidationIssue,
  main.ClientEventName,
  main.ClientEvents,
  main.RateLimitInfo,
  main.RateLimitStore,
  main.Logger,
  main.LogLevel,
  main.RequestOptions,
  main.ListOptions,
  main.ClientRequestInit<1>,
  main.BulkUpsertProgress,
  main.BulkUpsertResult,
  main.ImportProgress,
  main.ImportResult,
  main.SubmitResult,
  // The data types named daily.
  main.Address,
  main.AddressParams,
  main.Order,
  main.OrderCreateParams,
  main.OrderItemParams,
  main.OrderLineItem,
  main.OrderListParams,
  main.OrderStatus,
  main.OrderUpdateParams,
  main.RestockingShipmentV1,
  main.RestockingShipmentV1CreateParams,
  main.RestockingShipmentV1Status,
  main.RestockingShipmentV1UpdateParams,
  main.RestockingShipmentV2,
  main.RestockingShipmentV2CreateParams,
  main.RestockingShipmentV2ReplaceParams,
  main.RestockingShipmentV2Status,
  main.Return,
  main.ReturnListParams,
  main.ReturnStatus,
  main.Shipment,
  main.ShipmentListParams,
  main.ShipmentStatus,
  main.Sku,
  main.SkuBulkUpsertItem,
  main.SkuCreateParams,
  main.SkuInventory,
  main.SkuListParams,
  main.SkuStatus,
  main.SkuUpdateParams,
  main.Warehouse,
  main.WarehouseListParams,
];

describe('main entry', () => {
  it('exports exactly these values, and the webhooks module', () => {
    expectTypeOf<Exclude<keyof typeof main, keyof typeof webhooks>>().toEqualTypeOf<Values>();
    expectTypeOf<Extract<keyof typeof webhooks, keyof typeof main>>().toEqualTypeOf<keyof typeof webhooks>();
  });

  it('exports these types (26 values + 50 types besides the webhooks: at most 78)', () => {
    expectTypeOf<Types['length']>().toEqualTypeOf<50>();
    expectTypeOf<main.Order['merchant_order_id']>().toBeString();
    expectTypeOf<main.SkuCreateParams>().toHaveProperty('merchant_sku_id');
    expectTypeOf<main.OrderStatus>().toExtend<string>();
  });

  it('keeps the machinery of the request path and the resource classes internal', () => {
    // @ts-expect-error: internal
    type _Surface = main.RequestSurface;
    // @ts-expect-error: internal
    type _Parts = main.RequestParts;
    // @ts-expect-error: internal
    type _Lazy = main.LazySchema<1>;
    // @ts-expect-error: internal
    type _Raw = main.RawResponse;
    // @ts-expect-error: internal
    type _Method = main.HttpMethod;
    // @ts-expect-error: reached as client.skus
    type _Skus = main.Skus;
    // @ts-expect-error: reached as client.orders
    type _Orders = main.Orders;
    // @ts-expect-error: from 'merchant-fulfillment/schemas'
    type _Batch = main.SkuInventoryBatch;
  });

  it('exports no schema constant (those come from merchant-fulfillment/schemas)', () => {
    // @ts-expect-error: SkuSchema is not a member of the main entry
    type _Sku = main.SkuSchema;
    // @ts-expect-error: ORDER_STATUSES is not a member of the main entry
    type _Statuses = main.ORDER_STATUSES;
    expectTypeOf<Extract<keyof typeof main, `${string}Schema`>>().toBeNever();
  });

  it("keeps the pagination block of core equal to the schema's type", () => {
    expectTypeOf<PaginationBlock>().toEqualTypeOf<PaginationSchemaType>();
  });
});
