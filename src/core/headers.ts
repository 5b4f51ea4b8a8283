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

/**
 * Parses a `Retry-After` header: seconds (fractional allowed) or an HTTP-date.
 * Returns seconds (never negative), or `undefined` when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}
