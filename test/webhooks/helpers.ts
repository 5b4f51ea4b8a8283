/**
 * Helpers shared by the webhook tests.
 */
import { expect } from 'vitest';
import {
  createWebhookHeaders,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  verifyWebhook,
  type WebhookBody,
  type WebhookHandlerOptions,
  type WebhookSecret,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from '../../src/webhooks/index.js';
import { SHIPMENT_BODY, TOKEN } from './fixtures.js';

/** Where the handler tests post their deliveries. */
export const WEBHOOK_URL = 'https://shop.example/webhooks/fulfillment';

/** A signed delivery of `body` as a Fetch API request. */
export async function delivery(
  body: string = SHIPMENT_BODY,
  { eventId = 'evt-1', secret = TOKEN }: { eventId?: string; secret?: string } = {},
): Promise<Request> {
  const headers = await createWebhookHeaders({ body, secret, eventId });
  return new Request(WEBHOOK_URL, { method: 'POST', body, headers });
}

/** A handler's answer: its status, content type and JSON body. */
export async function read(response: Response) {
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    json: (await response.json()) as Record<string, unknown>,
  };
}

/** Handler options that keep failures the test provokes out of the output. */
export const quiet: Pick<WebhookHandlerOptions, 'onError'> = { onError: () => {} };

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

/**
 * Whether verifyWebhook accepts `signature` for `body`: `true` once the signature check passed (an
 * event, or a body that then is not a shipment), `false` on `signature_mismatch`; any other
 * refusal rejects.
 */
export function signatureMatches(options: {
  body: WebhookBody;
  secret: WebhookSecret;
  signature: string;
  maxBodyBytes?: number;
}): Promise<boolean> {
  const { signature, ...rest } = options;
  const headers = { [SIGNATURE_HEADER]: signature, [EVENT_ID_HEADER]: 'evt-1' };
  return verifyWebhook({ ...rest, headers }).then(
    () => true,
    (error: unknown) => {
      const reason = error instanceof WebhookVerificationError ? error.reason : undefined;
      if (reason !== 'invalid_payload' && reason !== 'signature_mismatch') throw error;
      return reason === 'invalid_payload';
    },
  );
}
