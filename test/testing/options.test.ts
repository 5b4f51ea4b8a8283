/**
 * The options of `createMockApi` (`options.ts`): checks, defaults, and their effect.
 */
import { describe, expect, test } from 'vitest';
import {
  createMockApi,
  DEFAULT_BASE_URL,
  type MockApiOptions,
  type MockFault,
  type MockWarehouse,
} from '../../src/testing/index.js';
import { mockRequest, TOKEN, testApi } from './helpers.js';

/** The error `createMockApi(options)` throws (the test fails when it does not throw). */
function refusal(options: unknown): Error {
  try {
    createMockApi(options as MockApiOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return error as Error;
  }
  throw new Error(`createMockApi accepted ${String(options)}`);
}

/** Checks that every `[options, message]` pair is refused with a `TypeError` whose message matches. */
function expectRefusals(cases: readonly (readonly [unknown, RegExp])[]): void {
  for (const [options, message] of cases) {
    expect(refusal(options).message, String(message)).toMatch(message);
  }
}

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
    expect(() => createMockApi({ warehouses: [{ id: 1 }, { id: 1 }] })).toThrow(
      /warehouse id 1 appears twice/,
    );
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
        /^createMockApi: latency: must be at most 2147483647 ms/,
      );
      expect(() => createMockApi({ webhookRetry: { timeoutMs: ms } })).toThrow(
        // An integer past 2^53 is refused as an integer first.
        /^createMockApi: webhookRetry.timeoutMs: (must be at most 2147483647 ms|Too big: expected int)/,
      );
      expect(() => createMockApi({ webhookRetry: { initialDelayMs: ms } })).toThrow(
        /^createMockApi: webhookRetry.initialDelayMs: must be at most 2147483647 ms/,
      );
    }
    expect(() =>
      createMockApi({ latency: 2 ** 31 - 1, webhookRetry: { timeoutMs: 2 ** 31 - 1 } }),
    ).not.toThrow();
  });

  test('options of the wrong type throw a TypeError naming the field (never a token)', () => {
    for (const [options, message] of [
      [null, /^createMockApi: Invalid input: expected object, received null$/],
      ['x', /^createMockApi: Invalid input: expected object, received string$/],
      [{ tokens: 'abc' }, /^createMockApi: tokens: Invalid input: expected array, received string$/],
      [{ tokens: [] }, /^createMockApi: tokens: must hold at least one token$/],
      [
        { tokens: ['a\0b'] },
        /^createMockApi: tokens\[0\]: must be visible ASCII characters \(no white space or control characters\)$/,
      ],
      [{ tokens: ['tok\u0100en'] }, /^createMockApi: tokens\[0\]: must be visible ASCII/],
      [{ tokens: ['ok', 'has space'] }, /^createMockApi: tokens\[1\]: must be visible ASCII/],
      [
        { blockedCountries: [1] },
        /^createMockApi: blockedCountries\[0\]: Invalid input: expected string, received number$/,
      ],
      [{ blockedCountries: 'DE' }, /^createMockApi: blockedCountries: Invalid input: expected array/],
      [{ latency: '5' }, /^createMockApi: latency: Invalid input: expected number, received string$/],
      [{ latency: -1 }, /^createMockApi: latency: Too small: expected number to be >=0$/],
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

  test('warehouses: an array of objects, unique integer ids, string names, copied as JSON writes them', () => {
    expectRefusals([
      [
        { warehouses: 'Berlin' },
        /^createMockApi: warehouses: Invalid input: expected array, received string$/,
      ],
      [
        { warehouses: { id: 1 } },
        /^createMockApi: warehouses: Invalid input: expected array, received object$/,
      ],
      [{ warehouses: null }, /^createMockApi: warehouses: Invalid input: expected array, received null$/],
      [{ warehouses: [] }, /^createMockApi: warehouses: must hold at least one warehouse$/],
      [
        { warehouses: [5] },
        /^createMockApi: warehouses\[0\]: Invalid input: expected object, received number$/,
      ],
      [
        { warehouses: [{ id: 1 }, [2]] },
        /^createMockApi: warehouses\[1\]: Invalid input: expected object, received array$/,
      ],
      [
        { warehouses: [{ id: 1 }, { id: 0 }] },
        /^createMockApi: warehouses\[1\]\.id: Too small: expected number to be >=1$/,
      ],
      [
        { warehouses: [{ id: '1' }] },
        /^createMockApi: warehouses\[0\]\.id: Invalid input: expected number, received string$/,
      ],
      [
        { warehouses: [{ name: 'Berlin' }] },
        /^createMockApi: warehouses\[0\]\.id: Invalid input: expected number, received undefined$/,
      ],
      [{ warehouses: [{ id: 2 ** 53 + 2 }] }, /^createMockApi: warehouses\[0\]\.id: Too big/],
      [
        { warehouses: [{ id: 1 }, { id: 2 }, { id: 1 }] },
        /^createMockApi: warehouses\[2\]\.id: warehouse id 1 appears twice$/,
      ],
      [
        { warehouses: [{ id: 1, name: 5 }] },
        /^createMockApi: warehouses\[0\]\.name: Invalid input: expected string, received number$/,
      ],
      [
        { warehouses: [{ id: 1, capacity: 10n }] },
        /^createMockApi: warehouses: cannot be written as JSON \(Do not know how to serialize a BigInt\)$/,
      ],
    ]);
    const loop: Record<string, unknown> = { id: 1, address: { city: 'Berlin' } };
    (loop.address as Record<string, unknown>).warehouse = loop;
    expect(refusal({ warehouses: [loop] }).message).toMatch(
      /^createMockApi: warehouses: cannot be written as JSON \(Converting circular structure/,
    );
  });

  test('warehouses: shared values, undefined fields and null-prototype objects are accepted, and copied as JSON', async () => {
    const address = { line1: 'Kai 1', city: 'Hamburg', postal_code: '20457', country_code: 'DE' };
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { id: 3, name: 'Bare' });
    const warehouses = [
      // biome-ignore lint/suspicious/noSparseArray: a hole, as JSON writes it (null)
      { id: 1, name: 'North', address, note: undefined, docks: [1, undefined, , 4], opened: new Date(0) },
      { id: 2, name: 'South', address },
      bare,
    ];
    const api = testApi({ warehouses: warehouses as MockWarehouse[] });
    address.city = 'changed';
    const answer = await mockRequest(api, 'GET', '/merchant_api/v1/warehouses');
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((w: { name: string }) => w.name)).toEqual(['North', 'South', 'Bare']);
    expect(answer.body.data[1].address.city).toBe('Hamburg');
    expect(answer.body.data[0]).not.toHaveProperty('note');
    expect(answer.body.data[0].docks).toEqual([1, null, null, 4]);
    expect(answer.body.data[0].opened).toBe('1970-01-01T00:00:00.000Z');
  });

  test('webhooks: an array of absolute http: or https: URLs, never shown with their credentials', () => {
    const url = 'https://shop.example/hooks';
    expectRefusals([
      [{ webhooks: url }, /^createMockApi: webhooks: Invalid input: expected array, received string$/],
      [{ webhooks: null }, /^createMockApi: webhooks: Invalid input: expected array, received null$/],
      [
        { webhooks: [url, 42] },
        /^createMockApi: webhooks\[1\]: Invalid input: expected string, received number$/,
      ],
      [
        { webhooks: ['/relative'] },
        /^createMockApi: webhooks\[0\]: must be an absolute http: or https: URL$/,
      ],
      [
        { webhooks: [url, 'ftp://files.example/hooks'] },
        /^createMockApi: webhooks\[1\]: must be an absolute http: or https: URL$/,
      ],
      [
        { webhooks: ['AC0123456789abcdef:SECRET'] },
        /^createMockApi: webhooks\[0\]: must be an absolute http: or https: URL$/,
      ],
    ]);
    for (const hook of [
      'ftp://user:SECRET@files.example/',
      'https://user:SECRET@shop example/',
      'mailto:SECRET',
    ]) {
      const error = refusal({ webhooks: [hook] });
      expect(error.message).toMatch(/^createMockApi: webhooks\[0\]: must be an absolute http: or https: URL/);
      expect(error.message).not.toContain('SECRET');
    }
    const withCredentials = refusal({ webhooks: [url, 'https://user:SECRET@shop.example/hooks'] });
    expect(withCredentials.message).toBe(
      'createMockApi: webhooks[1]: must not carry credentials (user:password@)',
    );
    expect(() => createMockApi({ webhooks: ['http://127.0.0.1:9/hooks', url] })).not.toThrow();
  });

  test('now, webhookFetch, onRequest and onChange must be functions when given', () => {
    for (const name of ['now', 'webhookFetch', 'onRequest', 'onChange']) {
      expectRefusals([
        [{ [name]: 'x' }, new RegExp(`^createMockApi: ${name}: Invalid input: expected function$`)],
        [{ [name]: {} }, new RegExp(`^createMockApi: ${name}: Invalid input: expected function$`)],
        [{ [name]: null }, new RegExp(`^createMockApi: ${name}: Invalid input: expected function$`)],
      ]);
      expect(() => createMockApi({ [name]: undefined })).not.toThrow();
    }
  });

  test('rateLimit and webhookRetry must be plain objects with known fields', () => {
    expectRefusals([
      [{ rateLimit: 5 }, /^createMockApi: rateLimit: Invalid input: expected object, received number$/],
      [
        { rateLimit: [100, 1000] },
        /^createMockApi: rateLimit: Invalid input: expected object, received array$/,
      ],
      [{ rateLimit: null }, /^createMockApi: rateLimit: Invalid input: expected object, received null$/],
      [
        { webhookRetry: 'x' },
        /^createMockApi: webhookRetry: Invalid input: expected object, received string$/,
      ],
      [
        { webhookRetry: true },
        /^createMockApi: webhookRetry: Invalid input: expected object, received boolean$/,
      ],
      // Both fields of a rate limit are required.
      [
        { rateLimit: {} },
        /^createMockApi: rateLimit\.requests: Invalid input: expected number, received undefined$/,
      ],
      [
        { rateLimit: { requests: 5 } },
        /^createMockApi: rateLimit\.perMs: Invalid input: expected number, received undefined$/,
      ],
      [
        { rateLimit: { requests: 5, perMs: 1000, burst: 2 } },
        /^createMockApi: rateLimit: Unrecognized key: "burst"$/,
      ],
      [
        { webhookRetry: { attempt: 3 } },
        /^createMockApi: webhookRetry: Unrecognized key: "attempt" \(did you mean "attempts"\?\)$/,
      ],
    ]);
    expect(() =>
      createMockApi({
        rateLimit: { requests: 5, perMs: 1000 },
        webhookRetry: { attempts: undefined } as never,
      }),
    ).not.toThrow();
  });

  test('faults must be an array of valid faults, a bad one named by its index', () => {
    expectRefusals([
      [
        { faults: { path: '/merchant_api/v1/orders' } },
        /^createMockApi: faults: Invalid input: expected array, received object$/,
      ],
      [{ faults: 'x' }, /^createMockApi: faults: Invalid input: expected array, received string$/],
      [{ faults: null }, /^createMockApi: faults: Invalid input: expected array, received null$/],
    ]);
    expect(() => createMockApi({ faults: [{ path: 5 as never }] })).toThrow(
      /^createMockApi: faults\[0\]\.path: must be a string or a RegExp$/,
    );
    expect(() =>
      createMockApi({ faults: [{ path: '/merchant_api/v1/orders' }, { path: '/x', status: 99 }] }),
    ).toThrow(/^createMockApi: faults\[1\]\.status: Too small: expected number to be >=200$/);
    expect(() => createMockApi({ faults: [{ path: '/merchant_api/v1/orders', times: 1 }] })).not.toThrow();
  });

  test('a fault changed after createMockApi changes nothing, not even on reset', async () => {
    const fault: MockFault = { path: '/merchant_api/v1/warehouses', status: 503 };
    const api = createMockApi({ faults: [fault] });
    fault.status = 418;
    api.reset();
    api.reset();
    const answer = await api.fetch(`${api.baseUrl}/merchant_api/v1/warehouses`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    expect(answer.status).toBe(503);
    await api.close();
  });

  test('baseUrl: an absolute http: or https: URL, never shown', () => {
    expectRefusals([
      [
        { baseUrl: Symbol('url') },
        /^createMockApi: baseUrl: Invalid input: expected string, received symbol$/,
      ],
      [{ baseUrl: 42 }, /^createMockApi: baseUrl: Invalid input: expected string, received number$/],
      [{ baseUrl: null }, /^createMockApi: baseUrl: Invalid input: expected string, received null$/],
      [{ baseUrl: 'not a url' }, /^createMockApi: baseUrl: must be an absolute http: or https: URL$/],
      [
        { baseUrl: 'ftp://files.example' },
        /^createMockApi: baseUrl: must be an absolute http: or https: URL$/,
      ],
    ]);
    for (const baseUrl of [
      'tok_SECRET',
      'https://user:SECRET@api example/',
      'ftp://user:SECRET@files.example/',
    ]) {
      const error = refusal({ baseUrl });
      expect(error.message).toBe('createMockApi: baseUrl: must be an absolute http: or https: URL');
      expect(error.message).not.toContain('SECRET');
    }
    // Credentials, query and fragment of a good one are dropped.
    expect(createMockApi({ baseUrl: 'http://user:SECRET@api.example/v1/?q=1#f' }).baseUrl).toBe(
      'http://api.example/v1',
    );
  });

  test('integer options show a bad value by its type, never its text', () => {
    expectRefusals([
      [{ pageSize: 0 }, /^createMockApi: pageSize: Too small: expected number to be >=1$/],
      [{ pageSize: '5' }, /^createMockApi: pageSize: Invalid input: expected number, received string$/],
      [
        { pageSize: Symbol('5') },
        /^createMockApi: pageSize: Invalid input: expected number, received symbol$/,
      ],
      [{ pageSize: 5n }, /^createMockApi: pageSize: Invalid input: expected number, received bigint$/],
      [{ pageSize: 2.5 }, /^createMockApi: pageSize: Invalid input: expected int, received number$/],
      [{ merchantId: null }, /^createMockApi: merchantId: Invalid input: expected number, received null$/],
      [{ merchantId: [7] }, /^createMockApi: merchantId: Invalid input: expected number, received array$/],
      [
        { rateLimit: { requests: '10', perMs: 1000 } },
        /^createMockApi: rateLimit\.requests: Invalid input: expected number, received string$/,
      ],
      [
        { rateLimit: { requests: 10, perMs: 0.5 } },
        /^createMockApi: rateLimit\.perMs: Invalid input: expected int, received number$/,
      ],
      [
        { webhookRetry: { attempts: {} } },
        /^createMockApi: webhookRetry\.attempts: Invalid input: expected number, received object$/,
      ],
      [
        { webhookRetry: { timeoutMs: 0 } },
        /^createMockApi: webhookRetry\.timeoutMs: Too small: expected number to be >=1$/,
      ],
    ]);
    const error = refusal({ merchantId: 'tok_SECRET' });
    expect(error.message).toBe('createMockApi: merchantId: Invalid input: expected number, received string');
  });

  test('unknown options are refused, with the closest known one; undefined ones are ignored', () => {
    expectRefusals([
      [
        { webhook: ['https://shop.example/hooks'] },
        /^createMockApi: Unrecognized key: "webhook" \(did you mean "webhooks"\?\)$/,
      ],
      [
        { rate_limit: { requests: 1, perMs: 1 } },
        /^createMockApi: Unrecognized key: "rate_limit" \(did you mean "rateLimit"\?\)$/,
      ],
      [{ PageSize: 5 }, /^createMockApi: Unrecognized key: "PageSize" \(did you mean "pageSize"\?\)$/],
      [{ colour: 'red' }, /^createMockApi: Unrecognized key: "colour"$/],
    ]);
    const error = refusal({ token: 'tok_SECRET' });
    expect(error.message).toBe('createMockApi: Unrecognized key: "token" (did you mean "tokens"?)');
    expect(error.message).not.toContain('SECRET');
    expect(() => createMockApi({ webhook: undefined, token: undefined } as MockApiOptions)).not.toThrow();
    // Every option of MockApiOptions is known (those createMockApi itself reads included).
    expect(() =>
      createMockApi({
        baseUrl: 'https://fulfillment.test',
        tokens: [TOKEN],
        warehouses: [{ id: 1 }],
        blockedCountries: ['CH'],
        pageSize: 5,
        latency: 0,
        faults: [],
        webhooks: [],
        webhookRetry: {},
        now: () => new Date(),
        rateLimit: { requests: 5, perMs: 1000 },
        merchantId: 2,
        webhookFetch: fetch,
        seed: {},
        onRequest: () => {},
        onChange: () => {},
      }),
    ).not.toThrow();
    expect(() => createMockApi({ initialState: createMockApi().exportState() })).not.toThrow();
  });
});
