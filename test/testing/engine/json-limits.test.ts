/**
 * Request bodies as the pipeline reads them (`engine/json.ts`), and what JSON cannot write refused
 * where the kit takes it in (a fault's body). The HTTP server's size limit: faces/server.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { readJson } from '../../../src/testing/engine/json.js';
import { mockRequest, testApi } from '../helpers.js';

describe('request bodies', () => {
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
    expect(() => api.injectFault({ path: '/x', body: deep as never })).toThrow(/body: must be a JSON value/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => api.injectFault({ path: '/x', body: cyclic as never })).toThrow(
      /body: must be a JSON value/,
    );
    expect(api.faults()).toEqual([]);
  });
});
