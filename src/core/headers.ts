/**
 * What the SDK reads from response headers: `Retry-After` and the API's rate-limit figures.
 */

/** Rate-limit figures the API reports on every response (`X-Rate-Limit-Used` / `X-Rate-Limit-Max`). */
export interface RateLimitInfo {
  /** Requests used in the current window, or `undefined` when the header is absent. */
  used: number | undefined;
  /** Requests allowed per window, or `undefined` when the header is absent. */
  max: number | undefined;
}

function headerNumber(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

/** Reads the API's rate-limit headers. */
export function readRateLimit(headers: Headers): RateLimitInfo {
  return { used: headerNumber(headers, 'x-rate-limit-used'), max: headerNumber(headers, 'x-rate-limit-max') };
}

/** The longest wait `setTimeout` can express (2^31 − 1 ms); every wait of the SDK is capped by it. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Parses a `Retry-After` header: seconds, a fraction accepted (this API sends `3.2`). Returns
 * `undefined` for anything else (an HTTP-date, `-5`, `abc`, an empty value): then the normal
 * backoff applies.
 */
export function parseRetryAfter(value: string | null | undefined): number | undefined {
  return /^\s*\d+(\.\d+)?\s*$/.test(value ?? '') ? Number(value) : undefined;
}
