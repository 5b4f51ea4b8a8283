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

/** A promise and its resolve/reject, to hold a handler until the test lets it go. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending callbacks run (a few macrotask turns). Bounded. */
export async function settle(turns = 5) {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
