/**
 * The limits every request body is held to (`engine/json.ts`, applied by `engine/pipeline.ts`),
 * and what JSON cannot write refused where the kit takes it in (a fault's body).
 */
import { describe, expect, test } from 'vitest';
import { MAX_BODY_BYTES, readJson } from '../../../src/testing/engine/json.js';
import { mockRequest, testApi } from '../helpers.js';

describe('request body limits', () => {
  test('api.fetch answers a body over 10 MiB with 413, as the HTTP server does, storing nothing', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'POST', '/merchant_api/v1/skus', `"${'x'.repeat(MAX_BODY_BYTES)}"`);
    expect(answer).toMatchObject({
      status: 413,
      body: { success: false, errors: [`request body too large (over ${MAX_BODY_BYTES} bytes)`] },
    });
    // Counted in UTF-8 bytes: fewer characters than the limit, more bytes.
    const wide = await mockRequest(
      api,
      'POST',
      '/merchant_api/v1/skus',
      `"${'é'.repeat(MAX_BODY_BYTES / 2)}"`,
    );
    expect(wide.status).toBe(413);
    expect(api.state.skus).toEqual([]);
    expect(api.state.requests).toEqual([]);
  });

  test('text that is not JSON is a 400 with a hint; blank text is no body', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'POST', '/merchant_api/v1/skus', '{oops');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, errors: ['bad request'] });
    expect(answer.headers.get('x-mock-hint')).toBe('request body is not JSON');
    expect(readJson('  ')).toEqual({ value: undefined, bad: false });
  });

  test('a fault body JSON cannot write (too deep, a cycle) is refused at once', () => {
    const api = testApi();
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(() => api.injectFault({ path: '/x', body: deep as never })).toThrow(/body must be a JSON value/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => api.injectFault({ path: '/x', body: cyclic as never })).toThrow(/body must be a JSON value/);
    expect(api.faults()).toEqual([]);
  });
});
