/**
 * Webhooks: the public entry — receive the "Restocking shipment status updated" calls the provider
 * sends in one call (`createWebhookHandler`) or verify them yourself, sign test deliveries, and
 * remember event ids to handle retries and duplicates idempotently.
 *
 * Web APIs (`crypto.subtle`, `TextEncoder`, `Headers`), and `node:crypto` looked up at run time where
 * the runtime has it: the same code runs on Node 22+, Bun, Deno, Cloudflare Workers and Vercel Edge. Re-exports only; each job lives in its own module.
 */
export { InMemoryWebhookDeduplicator } from './dedupe.js';
export { createWebhookHandler } from './handler.js';
export {
  EVENT_ID_HEADER,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  type RestockingShipmentStatusUpdatedEvent,
  SIGNATURE_HEADER,
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
} from './types.js';
export { createWebhookHeaders, signWebhook, type VerifyWebhookOptions, verifyWebhook } from './verify.js';
