/**
 * The per-token rate limit (`engine/rate-limit.ts`): headers, 429 with `Retry-After`, the sliding window.
 */
import { describe, expect, test } from 'vitest';
import { manualClock, mockRequest, TOKEN, testApi } from '../helpers.js';

const WAREHOUSES = '/merchant_api/v1/warehouses';

describe('rate limit', () => {
  test('headers on every response; off by default with a maximum of 100', async () => {
    const api = testApi();
    for (let i = 1; i <= 3; i++) {
      const answer = await mockRequest(api, 'GET', WAREHOUSES);
      expect(answer.headers.get('x-rate-limit-used')).toBe(String(i));
      expect(answer.headers.get('x-rate-limit-max')).toBe('100');
    }
    for (const answer of [
      await mockRequest(api, 'GET', '/merchant_api/v1/nope'),
      await mockRequest(api, 'POST', '/merchant_api/v1/skus', {}),
    ]) {
      expect(answer.headers.get('x-rate-limit-used')).not.toBeNull();
    }
    const unauthenticated = await mockRequest(api, 'GET', WAREHOUSES, undefined, null);
    expect(unauthenticated.headers.get('x-rate-limit-used')).toBe('0');
    expect(unauthenticated.headers.get('x-rate-limit-max')).toBe('100');
  });

  test('over the limit: 429 with a fractional Retry-After; the window slides', async () => {
    const clock = manualClock();
    const api = testApi({ now: clock.now, rateLimit: { requests: 3, perMs: 10_000 } });
    for (let i = 0; i < 3; i++) {
      expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(200);
      clock.advance(1000); // requests at t = 0 s, 1 s, 2 s
    }
    clock.advance(3_800); // t = 6.8 s: the oldest slot frees at 10 s
    const refused = await mockRequest(api, 'GET', WAREHOUSES);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, errors: ['rate limit exceeded'] });
    expect(refused.headers.get('retry-after')).toBe('3.2');
    expect(refused.headers.get('x-rate-limit-used')).toBe('3');
    expect(refused.headers.get('x-rate-limit-max')).toBe('3');
    clock.advance(3_200); // t = 10 s
    const allowed = await mockRequest(api, 'GET', WAREHOUSES);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('x-rate-limit-used')).toBe('3');
  });

  test('the limit is per token', async () => {
    const api = testApi({ tokens: [TOKEN, 'other'], rateLimit: { requests: 1, perMs: 60_000 } });
    expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(200);
    expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(429);
    expect((await mockRequest(api, 'GET', WAREHOUSES, undefined, 'other')).status).toBe(200);
  });

  test('reset() clears the windows', async () => {
    const api = testApi({ rateLimit: { requests: 1, perMs: 60_000 } });
    await mockRequest(api, 'GET', WAREHOUSES);
    expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(429);
    api.reset();
    expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(200);
  });
});
