/**
 * The options of `createMockApi` (`options.ts`): checks, defaults, and their effect.
 */
import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import {
  createMockApi,
  DEFAULT_BASE_URL,
  type MockApiOptions,
  type MockFault,
  type MockWarehouse,
} from '../../src/testing/index.js';
import { resolveOptions } from '../../src/testing/options.js';
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

/** `{ a: { a: … } }`: `levels` objects nested in one another. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i += 1) value = { a: value };
  return value;
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

  test('warehouses: an array of plain objects, unique integer ids, string names, JSON fields only', () => {
    const fn = () => 1;
    expectRefusals([
      [
        { warehouses: 'Berlin' },
        /^createMockApi: warehouses must be an array of warehouses, got a string of 6 characters$/,
      ],
      [
        { warehouses: { id: 1 } },
        /^createMockApi: warehouses must be an array of warehouses, got an object$/,
      ],
      [{ warehouses: null }, /^createMockApi: warehouses must be an array of warehouses, got null$/],
      [{ warehouses: [5] }, /^createMockApi: warehouses\[0\] must be an object, got 5$/],
      [{ warehouses: [{ id: 1 }, [2]] }, /^createMockApi: warehouses\[1\] must be an object, got an array$/],
      [
        { warehouses: [{ id: 1 }, { id: 0 }] },
        /^createMockApi: warehouses\[1\]\.id: warehouse ids must be unique integers >= 1, got 0$/,
      ],
      [
        { warehouses: [{ id: '1' }] },
        /^createMockApi: warehouses\[0\]\.id: warehouse ids must be unique integers >= 1, got a string of 1 character$/,
      ],
      [
        { warehouses: [{ name: 'Berlin' }] },
        /^createMockApi: warehouses\[0\]\.id: warehouse ids must be unique integers >= 1, got undefined$/,
      ],
      [
        { warehouses: [{ id: 2 ** 53 + 2 }] },
        /^createMockApi: warehouses\[0\]\.id: warehouse ids must be unique integers >= 1, got 9007199254740994$/,
      ],
      [
        { warehouses: [{ id: 1 }, { id: 2 }, { id: 1 }] },
        /^createMockApi: warehouses\[2\]\.id: warehouse ids must be unique integers >= 1, got 1 again \(as warehouses\[0\]\.id\)$/,
      ],
      [
        { warehouses: [{ id: 1, name: 5 }] },
        /^createMockApi: warehouses\[0\]\.name must be a string, got 5$/,
      ],
      [
        { warehouses: [{ id: 1 }, { id: 2, notify: fn }] },
        /^createMockApi: warehouses\[1\]\.notify must be a JSON value \(null, a string, a boolean, a number, an array or an object\), got a function$/,
      ],
      [
        { warehouses: [{ id: 1, address: { city: Symbol('Berlin') } }] },
        /^createMockApi: warehouses\[0\]\.address\.city must be a JSON value .*, got a symbol$/,
      ],
      [
        { warehouses: [{ id: 1, capacity: 10n }] },
        /^createMockApi: warehouses\[0\]\.capacity must be a JSON value .*, got a bigint$/,
      ],
      [
        { warehouses: [{ id: 1, 'opening hours': [1, () => 2] }] },
        /^createMockApi: warehouses\[0\]\["opening hours"\]\[1\] must be a JSON value .*, got a function$/,
      ],
      [
        { warehouses: [{ id: 1, size: Number.NaN }] },
        /^createMockApi: warehouses\[0\]\.size must be a finite number, got NaN$/,
      ],
      [
        { warehouses: [{ id: 1, opened: new Date(0) }] },
        /^createMockApi: warehouses\[0\]\.opened must be a JSON value, got an object that is not a plain object$/,
      ],
      [
        { warehouses: [{ id: 1, docks: new Map() }] },
        /^createMockApi: warehouses\[0\]\.docks must be a JSON value, got an object that is not a plain object$/,
      ],
    ]);
    // A long key (a token pasted as a key?) is shown by its length.
    const pasted = refusal({ warehouses: [{ id: 1, tok_live_SECRET_0123456789abcdefghij: () => 1 }] });
    expect(pasted.message).toMatch(
      /^createMockApi: warehouses\[0\]\[<a key of 36 characters>\] must be a JSON value/,
    );
    expect(pasted.message).not.toContain('SECRET');
    // Never a raw DataCloneError.
    expect(() => createMockApi({ warehouses: [{ id: 1, notify: fn as never }] })).toThrow(TypeError);
  });

  test('warehouses: a cycle or a value nesting deeper than 32 levels is refused, naming the path', () => {
    const loop: Record<string, unknown> = { id: 1, address: { city: 'Berlin' } };
    (loop.address as Record<string, unknown>).warehouse = loop;
    const list: unknown[] = [];
    list.push(list);
    // The warehouse is level 1: 31 more levels are accepted, 32 are not.
    const deepest = `warehouses\\[0\\]${'\\.a'.repeat(32)}`;
    expectRefusals([
      [
        { warehouses: [loop] },
        /^createMockApi: warehouses\[0\]\.address\.warehouse holds itself \(a cycle\): it must be a JSON value$/,
      ],
      [
        { warehouses: [{ id: 1, list }] },
        /^createMockApi: warehouses\[0\]\.list\[0\] holds itself \(a cycle\)/,
      ],
      [
        { warehouses: [{ id: 1, a: nested(32) }] },
        new RegExp(`^createMockApi: ${deepest} nests deeper than 32 levels of arrays and objects$`),
      ],
      [
        { warehouses: [{ id: 1, a: nested(100_000) }] },
        new RegExp(`^createMockApi: ${deepest} nests deeper than 32 levels`),
      ],
    ]);
    expect(() => createMockApi({ warehouses: [{ id: 1, a: nested(31) as never }] })).not.toThrow();
  });

  test('warehouses: more than 100000 JSON values in all are refused (a shared value counts each time)', () => {
    // Each level holds the one below twice: 2^30 values once written out as JSON.
    let tree: unknown = {};
    for (let i = 0; i < 30; i += 1) tree = [tree, tree];
    const started = performance.now();
    expect(refusal({ warehouses: [{ id: 1, tree }] }).message).toMatch(
      /^createMockApi: warehouses\[0\]\.tree(\[[01]\])+ is one value too many: at most 100000 JSON values in all$/,
    );
    expect(performance.now() - started).toBeLessThan(1000);
    const big = Array.from({ length: 99_990 }, () => 0);
    expect(() => createMockApi({ warehouses: [{ id: 1, big }] })).not.toThrow();
    expect(
      refusal({
        warehouses: [
          { id: 1, big },
          { id: 2, big },
        ],
      }).message,
    ).toMatch(/^createMockApi: warehouses\[1\]\.big\[\d+\] is one value too many/);
  });

  test('warehouses: shared values, undefined fields and null-prototype objects are accepted, and copied', async () => {
    const address = { line1: 'Kai 1', city: 'Hamburg', postal_code: '20457', country_code: 'DE' };
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { id: 3, name: 'Bare' });
    const warehouses = [
      // biome-ignore lint/suspicious/noSparseArray: a hole, as JSON writes it (null)
      { id: 1, name: 'North', address, note: undefined, docks: [1, undefined, , 4] },
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
  });

  test('webhooks: an array of absolute http: or https: URLs, never shown with their credentials', () => {
    const url = 'https://shop.example/hooks';
    expectRefusals([
      [
        { webhooks: url },
        /^createMockApi: webhooks must be an array of URLs, got a string of 26 characters$/,
      ],
      [{ webhooks: null }, /^createMockApi: webhooks must be an array of URLs, got null$/],
      [
        { webhooks: [url, 42] },
        /^createMockApi: webhooks\[1\] must be an absolute http: or https: URL, got 42$/,
      ],
      [
        { webhooks: ['/relative'] },
        /^createMockApi: webhooks\[0\] must be an absolute http: or https: URL, got a string of 9 characters that is not one$/,
      ],
      [
        { webhooks: [url, 'ftp://files.example/hooks'] },
        /^createMockApi: webhooks\[1\] must be an absolute http: or https: URL, got a URL with scheme ftp:$/,
      ],
      [
        { webhooks: ['AC0123456789abcdef:SECRET'] },
        /^createMockApi: webhooks\[0\] must be an absolute http: or https: URL, got a URL with another scheme$/,
      ],
    ]);
    for (const hook of [
      'ftp://user:SECRET@files.example/',
      'https://user:SECRET@shop example/',
      'mailto:SECRET',
    ]) {
      const error = refusal({ webhooks: [hook] });
      expect(error.message).toMatch(/^createMockApi: webhooks\[0\] must be an absolute http: or https: URL/);
      expect(error.message).not.toContain('SECRET');
    }
    const withCredentials = refusal({ webhooks: [url, 'https://user:SECRET@shop.example/hooks'] });
    expect(withCredentials.message).toBe(
      'createMockApi: webhooks[1] must not carry credentials (user:password@)',
    );
    expect(() => createMockApi({ webhooks: ['http://127.0.0.1:9/hooks', url] })).not.toThrow();
  });

  test('now, webhookFetch, onRequest and onChange must be functions when given', () => {
    for (const name of ['now', 'webhookFetch', 'onRequest', 'onChange']) {
      expectRefusals([
        [
          { [name]: 'x' },
          new RegExp(`^createMockApi: ${name} must be a function, got a string of 1 character$`),
        ],
        [{ [name]: {} }, new RegExp(`^createMockApi: ${name} must be a function, got an object$`)],
        [{ [name]: null }, new RegExp(`^createMockApi: ${name} must be a function, got null$`)],
      ]);
      expect(() => createMockApi({ [name]: undefined })).not.toThrow();
    }
  });

  test('rateLimit and webhookRetry must be plain objects with known fields', () => {
    expectRefusals([
      [{ rateLimit: 5 }, /^createMockApi: rateLimit must be an object, got 5$/],
      [{ rateLimit: [100, 1000] }, /^createMockApi: rateLimit must be an object, got an array$/],
      [{ rateLimit: null }, /^createMockApi: rateLimit must be an object, got null$/],
      [{ webhookRetry: 'x' }, /^createMockApi: webhookRetry must be an object, got a string of 1 character$/],
      [{ webhookRetry: true }, /^createMockApi: webhookRetry must be an object, got true$/],
      // Both fields of a rate limit are required.
      [{ rateLimit: {} }, /^createMockApi: rateLimit\.requests must be an integer >= 1, got undefined$/],
      [
        { rateLimit: { requests: 5 } },
        /^createMockApi: rateLimit\.perMs must be an integer >= 1, got undefined$/,
      ],
      [
        { rateLimit: { requests: 5, perMs: 1000, burst: 2 } },
        /^createMockApi: unknown option "rateLimit\.burst" \(known: rateLimit\.requests, rateLimit\.perMs\)$/,
      ],
      [
        { webhookRetry: { attempt: 3 } },
        /^createMockApi: unknown option "webhookRetry\.attempt" \(did you mean "webhookRetry\.attempts"\?\)$/,
      ],
    ]);
    expect(() =>
      createMockApi({
        rateLimit: { requests: 5, perMs: 1000 },
        webhookRetry: { attempts: undefined } as never,
      }),
    ).not.toThrow();
  });

  test('faults must be an array of valid faults, a bad one named by its index', async () => {
    expectRefusals([
      [
        { faults: { path: '/merchant_api/v1/orders' } },
        /^createMockApi: faults must be an array of faults, got an object$/,
      ],
      [{ faults: 'x' }, /^createMockApi: faults must be an array of faults, got a string of 1 character$/],
      [{ faults: null }, /^createMockApi: faults must be an array of faults, got null$/],
    ]);
    expect(() => createMockApi({ faults: [{ path: 5 as never }] })).toThrow(/^Invalid fault: /);
    expect(() =>
      createMockApi({ faults: [{ path: '/merchant_api/v1/orders' }, { path: '/x', status: 99 }] }),
    ).toThrow(/^Invalid fault: faults\[1\]: status must be an integer from 200 to 599$/);
    const throwing = Object.defineProperty({ path: '/x' }, 'status', {
      enumerable: true,
      get() {
        throw new Error('SECRET');
      },
    });
    expect(() => createMockApi({ faults: [throwing as MockFault] })).toThrow(
      /^Invalid fault: faults\[0\]: status could not be read \(a getter or Proxy threw\)$/,
    );
    // What is checked is what is kept: a getter answering differently on a second read changes nothing.
    let reads = 0;
    const fickle = Object.defineProperty({ path: '/merchant_api/v1/warehouses' }, 'status', {
      enumerable: true,
      get: () => (++reads === 1 ? 503 : 42),
    });
    const api = createMockApi({ faults: [fickle as MockFault] });
    expect(reads).toBe(1);
    const answer = await api.fetch(`${api.baseUrl}/merchant_api/v1/warehouses`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    expect(answer.status).toBe(503);
    await api.close();
    expect(() => createMockApi({ faults: [{ path: '/merchant_api/v1/orders', times: 1 }] })).not.toThrow();
  });

  test('each fault is read once: changing it after createMockApi changes nothing, not even on reset', async () => {
    let reads = 0;
    const fault = { path: '/merchant_api/v1/warehouses', status: 503 } as MockFault;
    const counted = new Proxy(fault, {
      get(target, key) {
        reads++;
        return target[key as keyof MockFault];
      },
    });
    const api = createMockApi({ faults: [counted] });
    const afterCreate = reads;
    fault.status = 418;
    api.reset();
    api.reset();
    expect(reads).toBe(afterCreate);
    const answer = await api.fetch(`${api.baseUrl}/merchant_api/v1/warehouses`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    expect(answer.status).toBe(503);
    await api.close();
  });

  test('reset() adds the faults of the option as they were checked, without reading or checking them again', async () => {
    // A RegExp whose source is read through a getter: each check of the fault reads it.
    let reads = 0;
    let source = '^/merchant_api/v1/warehouses$';
    const path = Object.defineProperty(/placeholder/, 'source', {
      get: () => {
        reads += 1;
        return source;
      },
    });
    const api = createMockApi({ faults: [{ path, status: 503 }] });
    expect(reads).toBe(1);
    // Read again, the pattern would now match another path.
    source = '^/x$';
    api.reset();
    api.reset();
    expect(reads).toBe(1);
    expect(api.faults()).toEqual([
      {
        id: 1,
        method: null,
        path: null,
        pathPattern: '^\\/merchant_api\\/v1\\/warehouses$',
        hits: 0,
        remaining: null,
      },
    ]);
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
        /^createMockApi: baseUrl must be an absolute http: or https: URL, got a symbol$/,
      ],
      [{ baseUrl: 42 }, /^createMockApi: baseUrl must be an absolute http: or https: URL, got 42$/],
      [{ baseUrl: null }, /^createMockApi: baseUrl must be an absolute http: or https: URL, got null$/],
      [
        { baseUrl: 'not a url' },
        /^createMockApi: baseUrl must be an absolute http: or https: URL, got a string of 9 characters that is not one$/,
      ],
      [
        { baseUrl: 'ftp://files.example' },
        /^createMockApi: baseUrl must be an absolute http: or https: URL, got a URL with scheme ftp:$/,
      ],
    ]);
    for (const baseUrl of [
      'tok_SECRET',
      'https://user:SECRET@api example/',
      'ftp://user:SECRET@files.example/',
    ]) {
      const error = refusal({ baseUrl });
      expect(error.message).toMatch(/^createMockApi: baseUrl must be an absolute http: or https: URL, got /);
      expect(error.message).not.toContain('SECRET');
    }
    // Credentials, query and fragment of a good one are dropped.
    expect(createMockApi({ baseUrl: 'http://user:SECRET@api.example/v1/?q=1#f' }).baseUrl).toBe(
      'http://api.example/v1',
    );
  });

  test('integer options show a bad value by its kind, never its text', () => {
    expectRefusals([
      [{ pageSize: '5' }, /^createMockApi: pageSize must be an integer >= 1, got a string of 1 character$/],
      [{ pageSize: Symbol('5') }, /^createMockApi: pageSize must be an integer >= 1, got a symbol$/],
      [{ pageSize: 5n }, /^createMockApi: pageSize must be an integer >= 1, got a bigint$/],
      [{ pageSize: 2.5 }, /^createMockApi: pageSize must be an integer >= 1, got 2\.5$/],
      [{ merchantId: null }, /^createMockApi: merchantId must be an integer >= 1, got null$/],
      [{ merchantId: [7] }, /^createMockApi: merchantId must be an integer >= 1, got an array$/],
      [
        { rateLimit: { requests: '10', perMs: 1000 } },
        /^createMockApi: rateLimit\.requests must be an integer >= 1, got a string of 2 characters$/,
      ],
      [
        { rateLimit: { requests: 10, perMs: 0.5 } },
        /^createMockApi: rateLimit\.perMs must be an integer >= 1, got 0\.5$/,
      ],
      [
        { webhookRetry: { attempts: {} } },
        /^createMockApi: webhookRetry\.attempts must be an integer >= 1, got an object$/,
      ],
      [
        { webhookRetry: { timeoutMs: 0 } },
        /^createMockApi: webhookRetry\.timeoutMs must be an integer >= 1, got 0$/,
      ],
    ]);
    const error = refusal({ merchantId: 'tok_SECRET' });
    expect(error.message).toBe(
      'createMockApi: merchantId must be an integer >= 1, got a string of 10 characters',
    );
  });

  test('unknown options are refused, with the closest known one or the list; undefined ones are ignored', () => {
    expectRefusals([
      [
        { webhook: ['https://shop.example/hooks'] },
        /^createMockApi: unknown option "webhook" \(did you mean "webhooks"\?\)$/,
      ],
      [
        { rate_limit: { requests: 1, perMs: 1 } },
        /^createMockApi: unknown option "rate_limit" \(did you mean "rateLimit"\?\)$/,
      ],
      [{ PageSize: 5 }, /^createMockApi: unknown option "PageSize" \(did you mean "pageSize"\?\)$/],
      [
        { colour: 'red' },
        /^createMockApi: unknown option "colour" \(known: baseUrl, tokens, warehouses, blockedCountries, pageSize, latency, faults, webhooks, webhookRetry, now, rateLimit, merchantId, webhookFetch, initialState, seed, onRequest, onChange\)$/,
      ],
    ]);
    const pasted = refusal({ tok_live_SECRET_0123456789abcdefghij: 1 } as MockApiOptions);
    expect(pasted.message).toMatch(/^createMockApi: unknown option <a key of 36 characters> \(known: /);
    const error = refusal({ token: 'tok_SECRET' });
    expect(error.message).toBe('createMockApi: unknown option "token" (did you mean "tokens"?)');
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

  test('options whose getters or Proxy traps throw give a createMockApi: options TypeError, and each option is read once', () => {
    const secret = new Error('SECRET');
    const getter = Object.defineProperty({}, 'pageSize', {
      enumerable: true,
      get() {
        throw secret;
      },
    });
    const unknownGetter = Object.defineProperty({}, 'pagesize', {
      enumerable: true,
      get() {
        throw secret;
      },
    });
    const throwingGet = new Proxy(
      {},
      {
        get() {
          throw secret;
        },
      },
    );
    const throwingKeys = new Proxy(
      {},
      {
        ownKeys() {
          throw secret;
        },
      },
    );
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const throwingName = Object.defineProperty({ id: 1 }, 'name', {
      enumerable: true,
      get() {
        throw secret;
      },
    });
    for (const [options, message] of [
      [getter, /^createMockApi: options\.pageSize could not be read \(a getter or Proxy threw\)$/],
      [unknownGetter, /^createMockApi: options\.pagesize could not be read \(a getter or Proxy threw\)$/],
      [throwingGet, /^createMockApi: options\.baseUrl could not be read \(a getter or Proxy threw\)$/],
      [throwingKeys, /^createMockApi: options could not be read \(a getter or Proxy threw\)$/],
      [revoked.proxy, /^createMockApi: options could not be read \(a getter or Proxy threw\)$/],
      [{ warehouses: [throwingName] }, /^createMockApi: warehouses\[0\]\.name could not be read/],
    ] as const) {
      const error = refusal(options);
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain('SECRET');
      // What the trap threw is never kept: its message may hold a secret.
      expect(error.cause).toBeUndefined();
      expect(inspect(error, { depth: 10 })).not.toContain('SECRET');
    }
    // A working Proxy is read once per option, and what it first answered is what counts.
    const reads = new Map<PropertyKey, number>();
    let pageSizeReads = 0;
    const counting = new Proxy({ pageSize: 2, tokens: [TOKEN] } as Record<string, unknown>, {
      get(target, key) {
        reads.set(key, (reads.get(key) ?? 0) + 1);
        if (key === 'pageSize') pageSizeReads += 1;
        return pageSizeReads > 1 && key === 'pageSize' ? 'bad' : target[key as string];
      },
    });
    const config = resolveOptions(counting as MockApiOptions);
    expect(config.pageSize).toBe(2);
    expect(Math.max(...reads.values())).toBe(1);
    // createMockApi itself reads nothing more (seed, initialState and the listeners included).
    reads.clear();
    pageSizeReads = 0;
    const withListeners = new Proxy({ onRequest: () => {}, onChange: () => {} } as Record<string, unknown>, {
      get(target, key) {
        reads.set(key, (reads.get(key) ?? 0) + 1);
        return target[key as string];
      },
    });
    createMockApi(withListeners as MockApiOptions).close();
    expect(Math.max(...reads.values())).toBe(1);
    expect([...reads.keys()].sort()).toEqual(
      [
        'baseUrl',
        'tokens',
        'warehouses',
        'blockedCountries',
        'pageSize',
        'latency',
        'faults',
        'webhooks',
        'webhookRetry',
        'now',
        'rateLimit',
        'merchantId',
        'webhookFetch',
        'initialState',
        'seed',
        'onRequest',
        'onChange',
      ].sort(),
    );
  });
});
