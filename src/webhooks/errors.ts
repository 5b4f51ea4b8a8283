/**
 * The error of webhook verification and its machine-readable reasons.
 */
import { FulfillmentError } from '../core/errors.js';

/** Why a webhook delivery was rejected. */
export type WebhookVerificationReason =
  | 'parsed_body'
  | 'invalid_body'
  | 'missing_secret'
  | 'missing_signature'
  | 'empty_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'missing_event_id'
  | 'invalid_payload';

/** A webhook delivery failed verification; `reason` says why in machine-readable form. */
export class WebhookVerificationError extends FulfillmentError {
  static override readonly brand: string = 'WebhookVerificationError';
  /** Machine-readable reason. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}
