import {
  type RestockingShipmentStatusUpdatedEvent,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookBody,
  type WebhookHeaders,
} from '../webhooks/index.js';

/** Webhook verification bound to the client's API token. */
export class Webhooks {
  readonly #secret: () => string;

  /** @internal */
  constructor(secret: () => string) {
    this.#secret = secret;
  }

  /**
   * Verifies a delivery signed with this client's token: `verifyWebhook` with `secret` set to the
   * client's `apiToken`. Pass the raw body exactly as received. To accept several tokens during a
   * rotation, call `verifyWebhook` with all of them.
   */
  verify(
    body: WebhookBody,
    headers: WebhookHeaders,
    options?: Pick<VerifyWebhookOptions, 'signatureHeader' | 'eventIdHeader' | 'maxBodyBytes'>,
  ): Promise<RestockingShipmentStatusUpdatedEvent> {
    return verifyWebhook({ ...options, body, headers, secret: this.#secret() });
  }
}
