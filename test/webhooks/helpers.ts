/**
 * Helpers shared by the webhook tests.
 */
import { expect } from 'vitest';
import { WebhookVerificationError, type WebhookVerificationReason } from '../../src/webhooks/index.js';

/** Awaits a rejection and checks it is a WebhookVerificationError with this reason. */
export async function rejection(promise: Promise<unknown>, reason: WebhookVerificationReason) {
  const err = await promise.then(
    () => {
      throw new Error(`expected a rejection with reason ${reason}`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebhookVerificationError);
  expect((err as WebhookVerificationError).reason).toBe(reason);
  return err as WebhookVerificationError;
}
