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

const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate, the preferred form). */
const IMF_FIXDATE = /* @__PURE__ */ new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT` (obsolete RFC 850 form). */
const RFC850 = /* @__PURE__ */ new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
/** `Sun Nov  6 08:49:37 1994` (obsolete asctime form). */
const ASCTIME = /* @__PURE__ */ new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`);
const DELTA_SECONDS = /^\d+(\.\d+)?$/;

function utc(year: number, month: string, day: number, h: number, m: number, s: number): number | undefined {
  const time = Date.UTC(year, MONTHS.indexOf(month), day, h, m, s);
  const date = new Date(time);
  // Refuses what Date.UTC would roll over (31 Feb, 25:00), which is not a date.
  if (date.getUTCDate() !== day || date.getUTCHours() !== h || m > 59 || s > 60) return undefined;
  return time;
}

/** An HTTP-date (RFC 9110 §5.6.7: IMF-fixdate, or the obsolete RFC 850 and asctime forms) in ms. */
export function parseHttpDate(value: string, now: number = Date.now()): number | undefined {
  let match = IMF_FIXDATE.exec(value);
  if (match) return utc(+match[4]!, match[3]!, +match[2]!, +match[5]!, +match[6]!, +match[7]!);
  match = RFC850.exec(value);
  if (match) {
    // A two-digit year more than 50 years in the future means the most recent past year (RFC 9110).
    let year = 2000 + +match[4]!;
    if (year > new Date(now).getUTCFullYear() + 50) year -= 100;
    return utc(year, match[3]!, +match[2]!, +match[5]!, +match[6]!, +match[7]!);
  }
  match = ASCTIME.exec(value);
  if (match) return utc(+match[7]!, match[2]!, +match[3]!.trim(), +match[4]!, +match[5]!, +match[6]!);
  return undefined;
}

/**
 * Parses a `Retry-After` header (RFC 9110 §10.2.3): delta-seconds (a fraction is accepted, as this
 * API sends `3.2`) or an HTTP-date. Returns seconds, never negative, or `undefined` for anything
 * else (`-5`, `abc 1`, an empty value): then the normal backoff applies.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (DELTA_SECONDS.test(trimmed)) {
    const seconds = Number(trimmed);
    return Number.isFinite(seconds) ? seconds : undefined;
  }
  const date = parseHttpDate(trimmed, now);
  return date === undefined ? undefined : Math.max(0, (date - now) / 1000);
}
