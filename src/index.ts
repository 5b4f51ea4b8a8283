/**
 * merchant-fulfillment: the TypeScript SDK of the Merchant Fulfillment API.
 * @packageDocumentation
 * @module merchant-fulfillment
 */
export { type ClientOptions, FulfillmentClient } from './client.js';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  FulfillmentError,
  InternalServerError,
  LookupLimitError,
  NotFoundError,
  PaginationError,
  PermissionDeniedError,
  RateLimitError,
  RateLimitStoreError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
  type ValidationIssue,
} from './core/errors.js';
export type { ClientEventName, ClientEvents } from './core/events.js';
export type { RateLimitInfo } from './core/headers.js';
export type { Logger, LogLevel } from './core/log.js';
export type { RateLimitStore } from './core/options.js';
export { type ClientRequestInit, Page, PagePromise, type Pagination } from './core/pagination.js';
export type { ListOptions, RequestOptions } from './core/request.js';
export { APIPromise, type WithResponse } from './core/response.js';
export { BulkUpsertError, type BulkUpsertProgress, type BulkUpsertResult } from './resources/bulk-upsert.js';
export type { ImportProgress, ImportResult } from './resources/order-import.js';
export type { SubmitResult } from './resources/order-submit.js';
// The data types users name most. Every data type, and the schemas themselves (values), come from
// 'merchant-fulfillment/schemas'.
export type {
  Address,
  AddressParams,
  Order,
  OrderCreateParams,
  OrderItemParams,
  OrderLineItem,
  OrderListParams,
  OrderStatus,
  OrderUpdateParams,
  RestockingShipmentV1,
  RestockingShipmentV1CreateParams,
  RestockingShipmentV1Status,
  RestockingShipmentV1UpdateParams,
  RestockingShipmentV2,
  RestockingShipmentV2CreateParams,
  RestockingShipmentV2ReplaceParams,
  RestockingShipmentV2Status,
  Return,
  ReturnListParams,
  ReturnStatus,
  Shipment,
  ShipmentListParams,
  ShipmentStatus,
  Sku,
  SkuBulkUpsertItem,
  SkuCreateParams,
  SkuInventory,
  SkuListParams,
  SkuStatus,
  SkuUpdateParams,
  Warehouse,
  WarehouseListParams,
} from './schemas/index.js';
export { VERSION } from './version.js';
export * from './webhooks/index.js';
