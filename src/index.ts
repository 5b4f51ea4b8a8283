/**
 * merchant-fulfillment: the TypeScript SDK of the Merchant Fulfillment API.
 * @packageDocumentation
 */
export { type ClientOptions, FulfillmentClient } from './client.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  type BulkUpsertChunk,
  BulkUpsertError,
  type BulkUpsertResult,
  ConflictError,
  FulfillmentError,
  InternalServerError,
  NotFoundError,
  PaginationError,
  PermissionDeniedError,
  RateLimitError,
  type RateLimitInfo,
  RequestValidationError,
  ResponseValidationError,
  UnprocessableEntityError,
  type ValidationIssue,
} from './core/errors.js';
export type { Logger, LogLevel } from './core/log.js';
export { type ListOptions, Page, PagePromise, type Pagination } from './core/pagination.js';
export type { RateLimitOptions } from './core/rate-limit.js';
export type { RequestOptions } from './core/transport.js';
export type { Id, QueryValue } from './core/url.js';
export type { ValidationMode } from './core/validation.js';
export type { Orders } from './resources/orders.js';
export type {
  RestockingShipments,
  RestockingShipmentsV1,
  RestockingShipmentsV2,
} from './resources/restocking-shipments.js';
export type { Returns } from './resources/returns.js';
export type { Shipments } from './resources/shipments.js';
export type { BulkUpsertOptions, Skus } from './resources/skus.js';
export type { Warehouses } from './resources/warehouses.js';
export type { Webhooks } from './resources/webhooks.js';
export type * from './schemas/index.js';
export { VERSION } from './version.js';
export {
  type CreateWebhookHeadersOptions,
  createWebhookHeaders,
  EVENT_ID_HEADER,
  InMemoryWebhookDeduplicator,
  type InMemoryWebhookDeduplicatorOptions,
  RESTOCKING_SHIPMENT_STATUS_UPDATED,
  type RestockingShipmentStatusUpdatedEvent,
  SIGNATURE_HEADER,
  type SignWebhookOptions,
  signWebhook,
  type VerifyWebhookOptions,
  type VerifyWebhookSignatureOptions,
  verifyWebhook,
  verifyWebhookSignature,
  type WebhookBody,
  type WebhookDeduplicator,
  type WebhookHeaders,
  type WebhookSecret,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './webhooks/index.js';
