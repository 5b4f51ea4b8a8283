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
});
