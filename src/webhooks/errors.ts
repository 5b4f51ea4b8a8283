/**
 * The error of webhook verification and its machine-readable reasons.
 */
import { FulfillmentError } from '../core/errors.js';

/**
 * Why a webhook delivery was rejected, or why the inputs could not be checked. `invalid_options`:
 * an option has the wrong type or value (the options object itself, `headers`, a header name,
 * `signature`, `eventId`, `maxBodyBytes`), cannot be read (a getter or a Proxy that throws: what it
 * threw is not kept), or two header-name options name the same header; its message names the option. `body_too_large`: the raw
 * body is longer than `maxBodyBytes` (refused before any HMAC work). `response_already_sent`:
 * `handler.node` found the response already sent or ended by other code, so it could not answer
 * (reported to `onError`, never thrown).
 */
export type WebhookVerificationReason =
  | 'invalid_options'
  | 'body_too_large'
  | 'parsed_body'
  | 'invalid_body'
  | 'missing_secret'
  | 'missing_signature'
  | 'empty_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'missing_event_id'
  | 'invalid_payload'
  | 'response_already_sent';

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
