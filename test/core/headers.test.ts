/** Response headers the SDK reads: `Retry-After` and the rate-limit figures. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter, readRateLimit } from '../../src/core/headers.js';

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['7', 7],
    [' 12 ', 12],
    ['1.5', 1.5],
  ])('reads delta-seconds %j as %d', (value, seconds) => {
    expect(parseRetryAfter(value)).toBe(seconds);
  });

  it.each([
    null,
    undefined,
    '',
    '   ',
    'soon',
    '-5',
    'abc 1',
    '1e3',
    '0x10',
    '+5',
    '5 s',
    'Thu, 01 Jan 2026 00:00:30 GMT',
    'Thursday, 01-Jan-26 00:01:00 GMT',
    'Thu Jan  1 00:02:00 2026',
    '2026-01-01T00:00:30Z',
    'Thu, 01 Jan 2026 00:00:30 +0000',
  ])('gives no hint for %j, an HTTP-date too (the normal backoff applies)', (value) => {
    expect(parseRetryAfter(value)).toBeUndefined();
  });
});

describe('readRateLimit', () => {
  it('reads X-Rate-Limit-Used and X-Rate-Limit-Max', () => {
    const headers = new Headers({ 'x-rate-limit-used': '12', 'x-rate-limit-max': '100' });
    expect(readRateLimit(headers)).toEqual({ used: 12, max: 100 });
  });

  it('leaves out what is absent, empty or not a number', () => {
    expect(readRateLimit(new Headers())).toEqual({ used: undefined, max: undefined });
    expect(readRateLimit(new Headers({ 'x-rate-limit-used': ' ', 'x-rate-limit-max': 'many' }))).toEqual({
      used: undefined,
      max: undefined,
    });
  });
});

describe('parseRetryAfter, property-based', () => {
  it('any string gives undefined or a finite number of seconds >= 0, never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (value) => {
        const seconds = parseRetryAfter(value);
        return seconds === undefined || (Number.isFinite(seconds) && seconds >= 0);
      }),
      { numRuns: 500 },
    );
  });

  it('delta-seconds round-trip', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000_000 }), (n) => parseRetryAfter(String(n)) === n),
      { numRuns: 300 },
    );
  });
});
