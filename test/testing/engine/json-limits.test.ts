/**
 * The limits every request body is held to (`engine/json.ts`, applied by `engine/pipeline.ts`):
 * one hostile body must not break the mock for everyone. A body nesting deeper than 32 levels is
 * answered 400 before anything is stored, through every face; the state stays readable.
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  jsonDepthExceeds,
  MAX_BODY_BYTES,
  MAX_JSON_DEPTH,
  readJson,
  textDepthExceeds,
} from '../../../src/testing/engine/json.js';
import type { MockApi, MockServer } from '../../../src/testing/index.js';
import { createSku, type MockTarget, mockRequest, orderBody, testApi } from '../helpers.js';

const ORDERS = '/merchant_api/v1/orders';

/** `{"a":{"a":…1…}}` nested `depth` levels, built as text without recursion. */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** An order body for SKU `A` whose `custom_metadata` nests `depth` levels. */
function orderWithMetadata(id: string, depth: number): string {
  return JSON.stringify(orderBody(id, 'A', 1, { custom_metadata: '<deep>' })).replace(
    '"<deep>"',
    nested(depth),
  );
}

const servers: MockServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** Every face a client may reach the mock through. */
const FACES: [string, (api: MockApi) => Promise<MockTarget>][] = [
  ['api.fetch', async (api) => api],
  [
    'the HTTP server',
    async (api) => {
      const server = await api.listen({ host: '127.0.0.1', port: 0 });
      servers.push(server);
      return server.url;
    },
  ],
];

describe.each(FACES)('request body limits through %s', (_face, reach) => {
  test('a custom_metadata nested 10 000 deep is a 400, nothing is stored, and the state stays readable', async () => {
    const api = testApi();
    const target = await reach(api);
    await createSku(target, 'A');
    const answer = await mockRequest(target, 'POST', ORDERS, orderWithMetadata('O-deep', 10_000));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, errors: ['bad request'] });
    expect(answer.headers.get('x-mock-hint')).toMatch(/deeper than 32 levels/);
    expect(api.state.orders).toEqual([]);
    const list = await mockRequest(target, 'GET', ORDERS);
    expect(list.status).toBe(200);
    expect(list.body.data ?? list.body).toEqual([]);
    // The request is logged; its body (refused) reads as no value, so the snapshot serializes.
    expect(JSON.stringify(api.state.requests.at(-2))).toContain('"status":400');
    const state = await mockRequest(target, 'GET', '/__mock/state');
    expect(state.status).toBe(200);
    expect(state.body.orders).toEqual([]);
  });

  test('a body at the limit is accepted, stored and read back', async () => {
    const api = testApi();
    const target = await reach(api);
    await createSku(target, 'A');
    // The order object is level 1: custom_metadata may nest 31 more.
    const answer = await mockRequest(target, 'POST', ORDERS, orderWithMetadata('O-ok', MAX_JSON_DEPTH - 1));
    expect(answer.status).toBe(201);
    expect(api.state.orders).toHaveLength(1);
    const read = await mockRequest(target, 'GET', `${ORDERS}/${answer.body.id}`);
    expect(JSON.stringify(read.body.custom_metadata)).toBe(nested(MAX_JSON_DEPTH - 1));
    expect((await mockRequest(target, 'GET', '/__mock/state')).status).toBe(200);
    const over = await mockRequest(target, 'POST', ORDERS, orderWithMetadata('O-over', MAX_JSON_DEPTH));
    expect(over.status).toBe(400);
    expect(api.state.orders).toHaveLength(1);
  });

  test('control routes hold their bodies to the same depth', async () => {
    const api = testApi();
    const target = await reach(api);
    const answer = await mockRequest(
      target,
      'POST',
      '/__mock/faults',
      `{"path":"/x","body":${nested(10_000)}}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.headers.get('x-mock-hint')).toMatch(/deeper than 32 levels/);
    expect((await mockRequest(target, 'GET', '/__mock/faults')).body).toEqual({ data: [] });
  });
});

describe('request body limits', () => {
  test('api.fetch answers a body over 10 MiB with 413, as the HTTP server does, storing nothing', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'POST', '/merchant_api/v1/skus', `"${'x'.repeat(MAX_BODY_BYTES)}"`);
    expect(answer).toMatchObject({
      status: 413,
      body: { success: false, errors: [`request body too large (over ${MAX_BODY_BYTES} bytes)`] },
    });
    expect(api.state.skus).toEqual([]);
    expect(api.state.requests).toEqual([]);
  });

  test('text that is not JSON is still a 400, now with a hint', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'POST', '/merchant_api/v1/skus', '{oops');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, errors: ['bad request'] });
    expect(answer.headers.get('x-mock-hint')).toBe('request body is not JSON');
  });

  test('a fault body given to injectFault is held to the same depth', () => {
    const api = testApi();
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(() => api.injectFault({ path: '/x', body: deep as never })).toThrow(/body must nest at most 32/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => api.injectFault({ path: '/x', body: cyclic as never })).toThrow(/body must nest at most 32/);
    expect(api.state.requests).toEqual([]);
  });
});

describe('depth checks (iterative)', () => {
  test('textDepthExceeds counts brackets outside strings only', () => {
    expect(textDepthExceeds(nested(32), 32)).toBe(false);
    expect(textDepthExceeds(nested(33), 32)).toBe(true);
    expect(textDepthExceeds('[[[]]]', 2)).toBe(true);
    expect(textDepthExceeds(`{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`, 1)).toBe(false);
    expect(textDepthExceeds(nested(1_000_000), 32)).toBe(true); // no stack to overflow
  });

  test('jsonDepthExceeds walks values with an explicit stack', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonDepthExceeds(deep, 32)).toBe(true);
    expect(jsonDepthExceeds({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(jsonDepthExceeds({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(jsonDepthExceeds('text', 0)).toBe(false);
  });

  test('readJson refuses deep text before parsing it', () => {
    expect(readJson(nested(33))).toMatchObject({ value: undefined, bad: true });
    expect(readJson(nested(32))).toMatchObject({ bad: false });
    expect(readJson('  ')).toEqual({ value: undefined, bad: false });
  });
});
