/**
 * merchant-fulfillment: the TypeScript SDK of the Merchant Fulfillment API.
 * @packageDocumentation
 * @module merchant-fulfillment
 */
export { type ClientOptions, FulfillmentClient } from './client.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export {
  APIConnectionError,
  APIError,
  type APIErrorInit,
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
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
  type ValidationIssue,
} from './core/errors.js';
export type {
  ClientEventListener,
  ClientEventName,
  ClientEvents,
  RequestErrorEvent,
  RequestEvent,
  RequestEventBase,
  ResponseEvent,
  RetryEvent,
  RetryReason,
} from './core/events.js';
export type { RateLimitInfo } from './core/headers.js';
export type { LazySchema, SchemaLike } from './core/lazy.js';
export type { LogDetails, Logger, LoggerStyle, LogLevel } from './core/log.js';
export type { ListOptions, RateLimitOptions, RequestOptions } from './core/options.js';
export { Page, PagePromise, type Pagination } from './core/pagination.js';
export type { HttpMethod, QueryParams, RequestParts, RequestPath } from './core/request.js';
export type { RawResponse, ResponseParser, ResponseSpec } from './core/response.js';
export type { ClientListInit, ClientRequestInit, RequestSurface } from './core/surface.js';
export type { Id, QueryScalar, QueryValue } from './core/url.js';
export type { ValidationMode } from './core/validation.js';
export {
  type BulkUpsertChunk,
  BulkUpsertError,
  type BulkUpsertOptions,
  type BulkUpsertProgress,
  type BulkUpsertResult,
} from './resources/bulk-upsert.js';
export {
  type CreateManyOptions,
  type ImportOutcome,
  type ImportProgress,
  type ImportResult,
  type ImportSummary,
  OrderImport,
  type OrderSource,
} from './resources/order-import.js';
export type { SubmitOptions, SubmitOutcome, SubmitResult } from './resources/order-submit.js';
export type { FindOrderOptions, Orders } from './resources/orders.js';
export type {
  RestockingShipments,
  RestockingShipmentsV1,
  RestockingShipmentsV2,
} from './resources/restocking-shipments.js';
export type { Returns } from './resources/returns.js';
export type { Shipments } from './resources/shipments.js';
export type { Skus } from './resources/skus.js';
export type { Warehouses } from './resources/warehouses.js';
export type { Webhooks } from './resources/webhooks.js';
// The data types of the API. The schemas themselves (values) come from 'merchant-fulfillment/schemas'.
export type {
  Address,
  AddressParams,
  AddressUpdateParams,
  CreatedAtFilter,
  DeliveryOption,
  DeliveryOptionParam,
  ErrorBody,
  FinancialStatus,
  InventoryPerWarehouse,
  ListEnvelope,
  Order,
  OrderCreateParams,
  OrderInclude,
  OrderItemBatch,
  OrderItemParams,
  OrderItemUpdateParams,
  OrderLineItem,
  OrderListParams,
  OrderRetrieveParams,
  OrderStatus,
  OrderUpdateParams,
  RestockingShipmentItem,
  RestockingShipmentItemBatch,
  RestockingShipmentItemV1Params,
  RestockingShipmentItemV2,
  RestockingShipmentItemV2Params,
  RestockingShipmentV1,
  RestockingShipmentV1CreateParams,
  RestockingShipmentV1Status,
  RestockingShipmentV1UpdateParams,
  RestockingShipmentV2,
  RestockingShipmentV2CreateParams,
  RestockingShipmentV2ReplaceParams,
  RestockingShipmentV2Status,
  Return,
  ReturnItem,
  ReturnItemCondition,
  ReturnLineItem,
  ReturnListParams,
  ReturnOrderRef,
  ReturnPhoto,
  ReturnReason,
  ReturnReasonType,
  ReturnStatus,
  Shipment,
  ShipmentItem,
  ShipmentListParams,
  ShipmentSerialNumber,
  ShipmentStatus,
  Sku,
  SkuBulkUpsertItem,
  SkuBulkUpsertParams,
  SkuCreateParams,
  SkuFulfilledBy,
  SkuInventory,
  SkuInventoryBatch,
  SkuInventoryPerWarehouse,
  SkuListParams,
  SkuRef,
  SkuStatus,
  SkuUpdateParams,
  Warehouse,
  WarehouseListParams,
} from './schemas/index.js';
export { VERSION } from './version.js';
export {
  createWebhookHandler,
  createWebhookHeaders,
  EVENT_ID_HEADER,
  InMemoryWebhookDeduplicator,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  type RestockingShipmentStatusUpdatedEvent,
  SIGNATURE_HEADER,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookSignature,
  type WebhookBody,
  type WebhookDeduplicator,
  type WebhookErrorContext,
  type WebhookHandler,
  type WebhookHandlerOptions,
  type WebhookHeaders,
  type WebhookSecret,
  type WebhookStatusHandlers,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './webhooks/index.js';
