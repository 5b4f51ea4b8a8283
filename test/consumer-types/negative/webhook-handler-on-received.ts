// @expect-error /'received' does not exist in type 'WebhookStatusHandlers'/
/**
 * `createWebhookHandler`'s `on` is keyed by version 1 status: version 2's `received` (which arrives
 * as `delivered`) is a type error, not a handler that is never called.
 */
import { createWebhookHandler } from 'merchant-fulfillment';

export const handler = createWebhookHandler({
  secret: 'token',
  on: { received: (shipment) => shipment.id },
});
