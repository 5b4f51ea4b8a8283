/**
 * Webhooks: the public entry — receive the "Restocking shipment status updated" calls the provider
 * sends in one call (`createWebhookHandler`) or verify them yourself, sign test deliveries, and
 * remember event ids to handle retries and duplicates idempotently.
 *
 * Web APIs only (`crypto.subtle`, `TextEncoder`, `Headers`): the same code runs on Node 22+, Bun,
 * Deno, Cloudflare Workers and Vercel Edge. Re-exports only; each job lives in its own module.
 */
export {
  InMemoryWebhookDeduplicator,
  type InMemoryWebhookDeduplicatorOptions,
  type WebhookDeduplicator,
} from './dedupe.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
export {
  createWebhookHandler,
  type WebhookErrorContext,
  type WebhookEventHandler,
  type WebhookHandler,
  type WebhookHandlerOptions,
  type WebhookShipment,
  type WebhookStatusEvent,
  type WebhookStatusHandler,
  type WebhookStatusHandlers,
} from './handler.js';
export type { NodeWebhookRequest, NodeWebhookResponse } from './node.js';
export {
  type CreateWebhookHeadersOptions,
  createWebhookHeaders,
  type SignWebhookOptions,
  signWebhook,
} from './sign.js';
export {
  DEFAULT_MAX_BODY_BYTES,
  EVENT_ID_HEADER,
  RESTOCKING_SHIPMENT_STATUS_UPDATED,
  type RestockingShipmentStatusUpdatedEvent,
  SIGNATURE_HEADER,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookSecret,
} from './types.js';
export {
  type VerifyWebhookOptions,
  type VerifyWebhookSignatureOptions,
  verifyWebhook,
  verifyWebhookSignature,
} from './verify.js';
