/**
 * What follows a failed attempt: what the failure of a library becomes (`APIConnectionError`,
 * `APITimeoutError`, `APIUserAbortError`), whether the attempt is retried, why, and how the wait
 * is told. The transport's loop (`transport.ts`) asks; nothing here is on a successful request's path.
 */
import type { NetworkError, TimeoutError } from 'ky';
import { BodyTimeoutError } from './body.js';
import { APIConnectionError, APITimeoutError, aborted, type FulfillmentError, shortUrl } from './errors.js';
import type { RetryReason } from './events.js';
import type { Redactor } from './redact.js';

/** Statuses worth another attempt (429 even for a POST: the server did not handle it). */
export const RETRYABLE_STATUS: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** ky's error classes, known once ky is loaded. */
export interface KyErrors {
  NetworkError: typeof NetworkError;
  TimeoutError: typeof TimeoutError;
}

/** Maps what ky or fetch threw to the SDK's errors (`url` already without secrets). */
export function failureOf(
  error: unknown,
  kyErrors: KyErrors | undefined,
  signal: AbortSignal | undefined,
  request: { method: string; url: string; attempt: number },
  redactor: Redactor,
): FulfillmentError {
  if (signal?.aborted) return aborted(signal);
  const { method } = request;
  const url = shortUrl(request.url);
  if (error instanceof BodyTimeoutError || (kyErrors && error instanceof kyErrors.TimeoutError)) {
    const message = `Request timed out: ${method} ${url}`;
    return new APITimeoutError({ ...request, message, cause: redactor.cause(error) });
  }
  const cause = kyErrors && error instanceof kyErrors.NetworkError && error.cause ? error.cause : error;
  const detail = redactor.text(describeCause(cause));
  const message = `Connection error: ${method} ${url}${detail ? ` (${detail})` : ''}`;
  return new APIConnectionError({ ...request, message, cause: redactor.cause(cause) });
}

/** The HTTP status an error carries, if any. */
export function statusOf(error: FulfillmentError): number | undefined {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/** Why a failed attempt is retried. */
export function retryReason(failure: FulfillmentError): RetryReason {
  if (failure instanceof APITimeoutError) return 'timeout';
  if (failure instanceof APIConnectionError) return 'connection';
  return statusOf(failure) === 429 ? 'rate_limited' : 'status';
}

/** True when some cause in the chain says the connection was never established. */
export function neverSent(error: unknown): boolean {
  const seen = new Set<unknown>();
  const stack: unknown[] = [error];
  while (stack.length > 0 && seen.size < 20) {
    const current = stack.pop() as { code?: unknown; cause?: unknown; errors?: unknown } | null;
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    if (typeof current.code === 'string' && NOT_SENT_CODES.has(current.code)) return true;
    stack.push(current.cause, ...(Array.isArray(current.errors) ? current.errors : []));
  }
  return false;
}

/** What a retry line adds about a rate limit or a wait the server asked for. */
export function whyWait(reason: RetryReason, fromRetryAfter: boolean, delayMs: number): string {
  const wait = seconds(delayMs);
  if (reason === 'rate_limited') {
    return fromRetryAfter
      ? ` (rate limited: waiting ${wait} as the server's Retry-After asks)`
      : ` (rate limited: backing off ${wait})`;
  }
  return fromRetryAfter ? ` (waiting ${wait} as the server's Retry-After asks)` : '';
}

/** `1500` → `'1.5 s'`. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 10_000 ? 2 : 0))} s`;
}

/** The codes (or, below the top, messages) along a cause chain: `ECONNRESET: socket hang up`. */
function describeCause(error: unknown): string {
  const parts = new Set<string>();
  let current = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    if (typeof current.code === 'string') parts.add(current.code);
    else if (typeof current.message === 'string' && current.message && depth > 0) parts.add(current.message);
    current = current.cause as typeof current;
  }
  return [...parts].join(': ');
}
