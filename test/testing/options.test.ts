/**
 * The options of `createMockApi` (`options.ts`): checks, defaults, and their effect.
 */
import { describe, expect, test } from 'vitest';
import { createMockApi, DEFAULT_BASE_URL } from '../../src/testing/index.js';
import { mockRequest, testApi } from './helpers.js';

describe('options', () => {
  test('the default base URL', () => {
    expect(createMockApi().baseUrl).toBe(DEFAULT_BASE_URL);
    expect(DEFAULT_BASE_URL).toBe('https://fulfillment.mock');
  });

  test('invalid options throw a TypeError naming the option', () => {
    expect(() => createMockApi({ pageSize: 0 })).toThrow(/pageSize/);
    expect(() => createMockApi({ tokens: [] })).toThrow(/tokens/);
    expect(() => createMockApi({ baseUrl: 'not a url' })).toThrow(/baseUrl/);
    expect(() => createMockApi({ warehouses: [] })).toThrow(/warehouses/);
    expect(() => createMockApi({ warehouses: [{ id: 1 }, { id: 1 }] })).toThrow(/warehouse ids/);
    expect(() => createMockApi({ rateLimit: { requests: 0, perMs: 1000 } })).toThrow(/rateLimit/);
    expect(() => createMockApi({ latency: -1 })).toThrow(/latency/);
    expect(() => createMockApi({ webhooks: ['/relative'] })).toThrow(/webhooks/);
  });

  test('pageSize sets the default page size', async () => {
    const api = testApi({ pageSize: 2 });
    const answer = await mockRequest(api, 'GET', '/merchant_api/v1/warehouses');
    expect(answer.body.data).toHaveLength(2);
    expect(answer.body.pagination).toEqual({
      current_page: 1,
      page_count: 2,
      item_count: 3,
      items_per_page: 2,
    });
  });

  test('latency delays every response', async () => {
    const api = testApi({ latency: 40 });
    const started = performance.now();
    await mockRequest(api, 'GET', '/merchant_api/v1/warehouses');
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
  });

  test('delays a timer cannot wait are refused, naming the option (not turned into 1 ms)', () => {
    for (const ms of [2 ** 31, 1e20]) {
      expect(() => createMockApi({ latency: ms })).toThrow(
        /^createMockApi: latency must be at most 2147483647 ms/,
      );
      expect(() => createMockApi({ webhookRetry: { timeoutMs: ms } })).toThrow(
        /^createMockApi: webhookRetry.timeoutMs must be at most 2147483647 ms/,
      );
      expect(() => createMockApi({ webhookRetry: { initialDelayMs: ms } })).toThrow(
        /^createMockApi: webhookRetry.initialDelayMs must be at most 2147483647 ms/,
      );
    }
    expect(() =>
      createMockApi({ latency: 2 ** 31 - 1, webhookRetry: { timeoutMs: 2 ** 31 - 1 } }),
    ).not.toThrow();
  });

  test('options of the wrong type throw a TypeError naming the field (never a token)', () => {
    for (const [options, message] of [
      [null, /^createMockApi: options must be an object, got null$/],
      ['x', /^createMockApi: options must be an object, got a string of 1 character$/],
      [
        { tokens: 'abc' },
        /^createMockApi: tokens must be an array of strings, got a string of 3 characters$/,
      ],
      [
        { tokens: ['a\0b'] },
        /^createMockApi: tokens must be a non-empty list of non-empty strings of visible ASCII/,
      ],
      [{ tokens: ['tok\u0100en'] }, /^createMockApi: tokens must be a non-empty list/],
      [{ tokens: ['ok', 'has space'] }, /^createMockApi: tokens must be a non-empty list/],
      [{ blockedCountries: [1] }, /^createMockApi: blockedCountries\[0\] must be a string, got 1$/],
      [{ blockedCountries: 'DE' }, /^createMockApi: blockedCountries must be an array of strings/],
      [{ latency: '5' }, /^createMockApi: latency must be a number >= 0, got a string of 1 character$/],
    ] as const) {
      expect(() => createMockApi(options as never), JSON.stringify(options)).toThrow(TypeError);
      expect(() => createMockApi(options as never), JSON.stringify(options)).toThrow(message);
    }
    let thrown: unknown;
    try {
      createMockApi({ tokens: ['SECRET\0'] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect(String(thrown)).toMatch(/tokens/);
    expect(String(thrown)).not.toContain('SECRET');
    // A lower-case country code is accepted.
    expect(() => createMockApi({ blockedCountries: ['de'] })).not.toThrow();
  });
});
