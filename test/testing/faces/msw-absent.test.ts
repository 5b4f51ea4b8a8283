/**
 * The msw face (`faces/msw.ts`) when the optional peer `msw` is missing.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { mockRequest } from '../helpers.js';

afterEach(() => {
  vi.doUnmock('msw');
  vi.resetModules();
});

test('without msw the kit still loads and serves HTTP; only .handlers throws, saying what to install', async () => {
  vi.resetModules();
  vi.doMock('msw', () => {
    throw new Error("Cannot find package 'msw'");
  });
  const { createMockApi } = await import('../../../src/testing/index.js');
  const api = createMockApi({ tokens: ['t'] });
  let error: unknown;
  try {
    void api.handlers;
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toMatch(
    /optional peer dependency 'msw' \(v2 or v3\).*npm install --save-dev msw/,
  );
  expect((error as Error).message).toMatch(/Loading msw failed/);
  expect((error as Error).cause).toBeInstanceOf(Error);
  const server = await api.listen();
  try {
    const answer = await mockRequest(server.url, 'GET', '/merchant_api/v1/warehouses', undefined, 't');
    expect(answer.status).toBe(200);
  } finally {
    await server.close();
  }
});
