/**
 * What `injectFault` refuses at once (`engine/faults.ts`), so that a fault in force can always
 * build its answer: a body JSON cannot serialize, a header name or value `fetch` / `node:http`
 * reject, a latency a timer cannot wait. And the copy it keeps: changing the caller's object later
 * changes nothing. Over `POST /__mock/faults` the same refusals are a 422 naming the field.
 */
import { describe, expect, test } from 'vitest';
import type { MockFault } from '../../../src/testing/index.js';
import { mockRequest, testApi } from '../helpers.js';

const WAREHOUSES = '/merchant_api/v1/warehouses';

describe('injectFault refuses a fault whose answer cannot be built', () => {
  test.each([
    [
      'a BigInt body',
      { body: 1n },
      /^Invalid fault: body must be a JSON value that can be serialized \(.*BigInt.*\)$/,
    ],
    ['a function body', { body: () => 1 }, /^Invalid fault: body must be a JSON value$/],
    [
      'a header name with a space',
      { headers: { 'bad name': 'v' } },
      /^Invalid fault: headers: a header name must be an HTTP token/,
    ],
    [
      'a header value with CR LF',
      { headers: { 'x-a': 'a\r\nb' } },
      /^Invalid fault: headers: the value of x-a must be a valid header value/,
    ],
    ['a header value with NUL', { headers: { 'x-a': 'a\0b' } }, /^Invalid fault: headers: the value of x-a/],
    [
      'a header value over U+00FF',
      { headers: { 'x-a': '\u0100' } },
      /^Invalid fault: headers: the value of x-a/,
    ],
    [
      'a latency a timer cannot wait',
      { latency: 2 ** 31 },
      /^Invalid fault: latency must be at most 2147483647 ms/,
    ],
    ['a huge latency', { latency: 1e20 }, /^Invalid fault: latency must be at most 2147483647 ms/],
  ])('%s', async (_, extra, message) => {
    const api = testApi();
    expect(() => api.injectFault({ path: WAREHOUSES, ...(extra as object) } as MockFault)).toThrow(TypeError);
    expect(() => api.injectFault({ path: WAREHOUSES, ...(extra as object) } as MockFault)).toThrow(message);
    expect(api.faults()).toEqual([]);
    expect((await mockRequest(api, 'GET', WAREHOUSES)).status).toBe(200);
  });

  test('and createMockApi({ faults }) likewise', () => {
    expect(() => testApi({ faults: [{ path: WAREHOUSES, latency: 2 ** 31 }] })).toThrow(
      /latency must be at most/,
    );
    expect(() => testApi({ faults: [{ path: WAREHOUSES, body: 1n as never }] })).toThrow(
      /body must be a JSON value/,
    );
  });

  test('the largest latency, valid headers and bodies are accepted', () => {
    const api = testApi();
    expect(() =>
      api.injectFault({
        path: WAREHOUSES,
        latency: 2 ** 31 - 1,
        headers: { 'x-Custom_1': 'a value\twith tab, é' },
        body: { toJSON: () => ({ ok: true }) } as never,
        times: 1,
      }),
    ).not.toThrow();
    api.clearFaults();
  });
});

describe('injectFault keeps a copy of the fault', () => {
  test('changing the object after injecting changes nothing', async () => {
    const api = testApi();
    const spec = {
      path: WAREHOUSES,
      status: 503,
      body: { errors: ['first'] },
      headers: { 'x-a': 'one' } as Record<string, string>,
    };
    api.injectFault(spec);
    spec.status = 42;
    spec.path = '/other';
    spec.body.errors.push('second');
    spec.headers['x-a'] = 'a\r\nb';
    spec.headers['bad name'] = 'v';
    const answer = await mockRequest(api, 'GET', WAREHOUSES);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ errors: ['first'] });
    expect(answer.headers.get('x-a')).toBe('one');
    expect(api.faults()[0]).toMatchObject({ path: WAREHOUSES });
  });

  test('a body with toJSON is answered as it serialized when injected', async () => {
    const api = testApi();
    let n = 0;
    api.injectFault({ path: WAREHOUSES, status: 500, body: { toJSON: () => ({ n: ++n }) } as never });
    expect((await mockRequest(api, 'GET', WAREHOUSES)).body).toEqual({ n: 1 });
    expect((await mockRequest(api, 'GET', WAREHOUSES)).body).toEqual({ n: 1 });
  });
});

describe('POST /__mock/faults names the field refused', () => {
  test.each([
    [{ path: WAREHOUSES, headers: { 'bad name': 'v' } }, 'headers'],
    [{ path: WAREHOUSES, headers: { 'x-a': 'a\r\nb' } }, 'headers'],
    [{ path: WAREHOUSES, latency: 2 ** 31 }, 'latency'],
    [{ pathPattern: '(' }, 'pathPattern'],
  ])('%j', async (fault, field) => {
    const api = testApi();
    const answer = await mockRequest(api, 'POST', '/__mock/faults', fault);
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0]).toMatch(new RegExp(`^${field}: Invalid fault: `));
    expect(api.faults()).toEqual([]);
  });
});
