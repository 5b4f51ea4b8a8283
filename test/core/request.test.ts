/** Building a request: ids, query and body validated, request options checked; nothing sent when wrong. */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildRequest, path } from '../../src/core/request.js';
import { RequestValidationError } from '../../src/index.js';
import { orderCreateParamsFixture } from '../fixtures/orders.js';
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
    [{ maxPages: 1.5 }, 'options.maxPages'],
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

describe('path templates', () => {
  it('check and encode every id when the request is built', () => {
    expect(path`/merchant_api/v1/orders/${7}/cancel`.resolve()).toBe('/merchant_api/v1/orders/7/cancel');
    expect(path`/merchant_api/v1/skus/${'0042'}`.resolve()).toBe('/merchant_api/v1/skus/42');
  });

  it.each([['../x'], [-1], [1.5], ['1 OR 1'], [0], [Number.MAX_SAFE_INTEGER + 1]])(
    'refuse the id %j, naming the field',
    (id) => {
      const template = path`/merchant_api/v1/orders/${id as number}`; // building the template checks nothing yet
      expect(() => template.resolve()).toThrow(RequestValidationError);
      expect(() => template.resolve()).toThrow(/id: expected a positive integer id/);
    },
  );

  it('refuse an object that cannot be turned into a string with a typed error, not a TypeError', () => {
    for (const [id, shown] of [
      [{ toString: 0 }, 'an object'],
      [Object.create(null), 'an object'],
      [[1], 'an array'],
      [() => 1, 'function'],
      [Symbol('id'), 'symbol'],
    ] as const) {
      const template = path`/merchant_api/v1/orders/${id as unknown as number}`;
      expect(() => template.resolve()).toThrow(RequestValidationError);
      expect(() => template.resolve()).toThrow(`id: expected a positive integer id, got ${shown}`);
    }
  });
});

describe('buildRequest', () => {
  const Body = z.strictObject({ name: z.string() });
  const response = () => undefined;

  it('validates the body with its schema and sends the schema output', () => {
    const spec = buildRequest(
      'POST',
      '/merchant_api/v1/skus',
      { body: { name: 'Mug' }, bodySchema: Body, response },
      BASE,
    );
    expect(spec).toMatchObject({ method: 'POST', path: '/merchant_api/v1/skus', bodyText: '{"name":"Mug"}' });
    expect(spec.query).toBeUndefined();
  });

  it('refuses a missing body that has a schema (nothing is sent empty)', () => {
    expect(() => buildRequest('POST', '/merchant_api/v1/skus', { bodySchema: Body, response }, BASE)).toThrow(
      /Invalid request to POST \/merchant_api\/v1\/skus/,
    );
  });

  it('validates, reshapes and encodes the query, keeping the validated params for the next page', () => {
    const spec = buildRequest(
      'GET',
      '/merchant_api/v1/orders',
      {
        query: { include: ['batches'], limit: 5 },
        querySchema: z.strictObject({ include: z.array(z.string()), limit: z.number() }),
        response,
        toQuery: ({ include, ...rest }) => ({
          ...(rest as { limit: number }),
          include: (include as string[]).join(','),
        }),
      },
      BASE,
    );
    expect(spec.params).toEqual({ limit: 5, include: 'batches' });
    expect(spec.query).toBe('limit=5&include=batches');
  });

  it('refuses a request option put among the query parameters', () => {
    expect(() =>
      buildRequest('GET', '/merchant_api/v1/skus', { query: { timeout: 5 }, response }, BASE),
    ).toThrow(/timeout: is a request option, not a query parameter/);
  });

  it('checks the request options last, naming each bad one', () => {
    expect(() => buildRequest('GET', '/x', { options: { timeout: -1 } as never, response }, BASE)).toThrow(
      /options\.timeout/,
    );
  });

  it('reports the first problem in declaration order: path, query, body, options', () => {
    const all = {
      query: { limit: 'x' },
      querySchema: z.strictObject({ limit: z.number() }),
      body: {},
      bodySchema: Body,
      options: { timeout: -1 } as never,
      response,
    };
    expect(() => buildRequest('PUT', path`/a/${'x' as never}`, all, BASE)).toThrow(/id:/);
    expect(() => buildRequest('PUT', '/a', all, BASE)).toThrow(/limit/);
    expect(() => buildRequest('PUT', '/a', { ...all, query: { limit: 1 } }, BASE)).toThrow(/name/);
  });
});

describe('input that cannot be sent is a typed error naming the field, with nothing sent', () => {
  const deep = () => {
    let value: Record<string, unknown> = {};
    const root = value;
    for (let i = 0; i < 10_000; i++) {
      const next = {};
      value.a = next;
      value = next;
    }
    return root;
  };
  const cycle = () => {
    const value: Record<string, unknown> = { a: 1 };
    value.self = value;
    return value;
  };

  it.each<[string, () => unknown, string, RegExp]>([
    ['a BigInt', () => ({ total: 10n }), 'custom_metadata.total', /BigInt/],
    ['a cycle', cycle, 'custom_metadata.self', /cycle/],
    ['10 000 levels of nesting', deep, 'custom_metadata.a.a.a', /nested deeper than 64/],
    ['a lone surrogate', () => ({ note: 'a\uD800b' }), 'custom_metadata.note', /surrogate/],
    ['Infinity', () => ({ n: Number.POSITIVE_INFINITY }), 'custom_metadata.n', /Infinity cannot be sent/],
  ])('%s in custom_metadata', async (_, metadata, path, message) => {
    const state = countingEndpoint(server, 'get', '/merchant_api/v1/orders', () => HttpResponse.json([]));
    const error = (await testClient()
      .orders.create({ ...orderCreateParamsFixture, custom_metadata: metadata() as Record<string, unknown> })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues[0]?.path.startsWith(path)).toBe(true);
    expect(error.issues[0]?.message).toMatch(message);
    expect(state.calls).toBe(0);
  });

  it('a lone surrogate in a query value rejects the PagePromise (never throws), naming the parameter', async () => {
    let pending: unknown;
    expect(() => {
      pending = testClient().skus.list({ merchant_sku_ids: ['ok', 'bad\uDC00'] });
    }).not.toThrow();
    const error = (await (pending as Promise<unknown>).catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues[0]).toEqual({
      path: 'merchant_sku_ids',
      message: 'contains a lone UTF-16 surrogate, which cannot be sent in a URL',
    });
  });

  it.each(['transfer-encoding', 'Upgrade', 'keep-alive', 'expect', 'connection', 'host'])(
    'a request header %s is refused before sending',
    async (name) => {
      const error = (await testClient()
        .warehouses.list(undefined, { headers: { [name]: 'x' } })
        .catch((e: unknown) => e)) as RequestValidationError;
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error.issues[0]?.path).toBe(`options.headers.${name}`);
    },
  );
});
