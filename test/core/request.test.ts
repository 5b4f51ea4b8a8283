import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/index.js';
import { BASE, countingEndpoint, testClient, useMsw } from '../helpers/msw.js';

const server = useMsw();

describe('request options are checked, and nothing is sent when they are wrong', () => {
  it.each([
    [{ maxRetries: Number.NaN }, 'options.maxRetries'],
    [{ maxRetries: -1 }, 'options.maxRetries'],
    [{ timeout: 'abc' }, 'options.timeout'],
    [{ timeout: 0 }, 'options.timeout'],
    [{ signal: 'stop' }, 'options.signal'],
    [{ headers: { 'x-a': 'line\nbreak' } }, 'options.headers.x-a'],
    [{ headers: 'x' }, 'options.headers'],
  ])('%o is refused as %s', async (options, path) => {
    const state = countingEndpoint(server, 'get', '/merchant_api/v1/orders/1', () => HttpResponse.json({}));
    const error = (await testClient()
      .orders.retrieve(1, undefined, options as never)
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues.map((i) => i.path)).toContain(path);
    expect(state.calls).toBe(0);
  });

  it.each([
    [{ maxPages: 0 }, 'options.maxPages'],
    [{ prefetch: 2 }, 'options.prefetch'],
  ])('list option %o is refused as %s', async (options, path) => {
    const state = countingEndpoint(server, 'get', '/merchant_api/v1/warehouses', () => HttpResponse.json([]));
    const error = (await testClient()
      .warehouses.list(undefined, options as never)
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error.issues.map((i) => i.path)).toContain(path);
    expect(state.calls).toBe(0);
  });
});

describe('extra query parameters of undocumented endpoints', () => {
  it('pass through when they are scalars, lists or records of scalars', async () => {
    const seen: string[] = [];
    server.use(
      http.get(`${BASE}/merchant_api/v1/shipments`, ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json([]);
      }),
    );
    await testClient().shipments.list({ status: 'shipped', ids: [1, 2], shipped_at: { gte: '2025-01-01' } });
    expect(seen).toEqual(['?status=shipped&ids[]=1&ids[]=2&shipped_at[gte]=2025-01-01']);
  });

  it('are refused, naming the parameter, when they cannot be encoded', async () => {
    const error = (await testClient()
      .returns.list({ deep: { a: { b: 1 } } } as never)
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues[0]?.path).toBe('deep');
  });
});
