/** Response headers the SDK reads: `Retry-After` and the rate-limit figures. */
import { describe, expect, it } from 'vitest';
import { parseRetryAfter, readRateLimit } from '../../src/core/headers.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it.each([
    ['0', 0],
    ['7', 7],
    [' 12 ', 12],
    ['1.5', 1.5],
  ])('reads delta-seconds %j as %d', (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });

  it('reads an HTTP-date as the seconds until then, never negative', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
  });

  it.each([null, undefined, '', '   ', 'soon'])('gives no hint for %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
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
