/** Client options: every default and every check lives in `resolveClientOptions`, tested here. */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type ClientOptions, resolveClientOptions } from '../../src/core/options.js';
import { requestOptionIssues } from '../../src/core/request.js';
import { FulfillmentClient, FulfillmentError } from '../../src/index.js';
import { BASE, testClient } from '../helpers/msw.js';

/** An environment that records which variables were read. */
function envOf(vars: Record<string, string> = {}) {
  const read: string[] = [];
  const env = (name: string) => {
    read.push(name);
    return vars[name];
  };
  return { env, read };
}

const resolve = (options: ClientOptions, vars: Record<string, string> = {}) =>
  resolveClientOptions(options, envOf(vars).env);

function failure(options: ClientOptions, vars: Record<string, string> = {}): FulfillmentError {
  try {
    resolve(options, vars);
  } catch (error) {
    expect(error).toBeInstanceOf(FulfillmentError);
    return error as FulfillmentError;
  }
  throw new Error('expected the options to be refused');
}

describe('resolveClientOptions', () => {
  it('applies every default', () => {
    const resolved = resolve({ apiToken: 't', baseUrl: `${BASE}/merchant_api/v1/` });
    expect({ ...resolved, logger: undefined }).toEqual({
      apiToken: 't',
      baseUrl: BASE,
      origin: BASE,
      timeout: 60_000,
      maxRetries: 2,
      maxRetryAfter: 60,
      initialRetryDelay: 500,
      maxRetryDelay: 8000,
      fetch: undefined,
      defaultHeaders: {},
      logLevel: 'info',
      logger: undefined,
      loggerStyle: 'message-first',
      validateResponses: 'lenient',
      maxResponseBytes: 33_554_432,
      rateLimit: false,
    });
    expect(resolved.logger).toBe(console);
  });

  it('reads a variable only when its option is not given', () => {
    const { env, read } = envOf({ FULFILLMENT_LOG: 'debug' });
    resolveClientOptions({ apiToken: 't', baseUrl: BASE, logLevel: 'off' }, env);
    expect(read).toEqual([]);
    const second = envOf({
      FULFILLMENT_API_TOKEN: 'e',
      FULFILLMENT_BASE_URL: BASE,
      FULFILLMENT_LOG: 'debug',
    });
    const resolved = resolveClientOptions({}, second.env);
    expect(second.read.sort()).toEqual(['FULFILLMENT_API_TOKEN', 'FULFILLMENT_BASE_URL', 'FULFILLMENT_LOG']);
    expect([resolved.apiToken, resolved.baseUrl, resolved.logLevel]).toEqual(['e', BASE, 'debug']);
  });

  it("works out the base URL's origin once, with the base URL: scheme, host and port, no path", () => {
    const resolved = resolve({
      apiToken: 't',
      baseUrl: 'HTTPS://API.Example.test:443/proxy/merchant_api/v2',
    });
    expect([resolved.baseUrl, resolved.origin]).toEqual([
      'https://api.example.test/proxy',
      'https://api.example.test',
    ]);
    expect(resolve({ apiToken: 't', baseUrl: 'http://127.0.0.1:8080/' }).origin).toBe(
      'http://127.0.0.1:8080',
    );
  });

  it('ignores an unknown FULFILLMENT_LOG value (the default level applies)', () => {
    expect(resolve({ apiToken: 't', baseUrl: BASE }, { FULFILLMENT_LOG: 'chatty' }).logLevel).toBe('info');
  });

  it.each<[string, ClientOptions, RegExp]>([
    [
      'a missing token',
      { baseUrl: BASE },
      /apiToken: missing: pass the option or set the FULFILLMENT_API_TOKEN/,
    ],
    [
      'a token with a space',
      { apiToken: 'a b', baseUrl: BASE },
      /apiToken: expected a string of visible ASCII characters without spaces or line breaks \(not shown\)/,
    ],
    // Not a string: the redactor masks strings only, so such a token would show in messages.
    ['a numeric token', { apiToken: 98765432101234 as never, baseUrl: BASE }, /apiToken: expected a string/],
    [
      'a token in an array',
      { apiToken: ['tok_abcdef'] as never, baseUrl: BASE },
      /apiToken: expected a string/,
    ],
    [
      'a token object with toString',
      { apiToken: { toString: () => 'tok_abcdef' } as never, baseUrl: BASE },
      /apiToken: expected a string/,
    ],
    ['a missing base URL', { apiToken: 't' }, /baseUrl: missing: .*FULFILLMENT_BASE_URL/],
    ['a base URL with a query', { apiToken: 't', baseUrl: `${BASE}?x=1` }, /query string or fragment/],
    [
      'timeout 0',
      { apiToken: 't', baseUrl: BASE, timeout: 0 },
      /timeout: expected a number more than 0 up to 2147483647 ms, got 0/,
    ],
    [
      'timeout 2^31',
      { apiToken: 't', baseUrl: BASE, timeout: 2 ** 31 },
      /timeout: expected a number more than 0 up to 2147483647 ms/,
    ],
    [
      'maxRetries -1',
      { apiToken: 't', baseUrl: BASE, maxRetries: -1 },
      /maxRetries: expected an integer from 0 up to 100, got -1/,
    ],
    [
      'maxRetryAfter 1e7',
      { apiToken: 't', baseUrl: BASE, maxRetryAfter: 1e7 },
      /maxRetryAfter: expected a number from 0 up to 2147483 s/,
    ],
    [
      'retryDelay.maxMs 2^31',
      { apiToken: 't', baseUrl: BASE, retryDelay: { maxMs: 2 ** 31 } },
      /retryDelay\.maxMs: .* up to 2147483647 ms/,
    ],
    [
      'rateLimit.perMs 2^31',
      { apiToken: 't', baseUrl: BASE, rateLimit: { requests: 1, perMs: 2 ** 31 } },
      /rateLimit\.perMs/,
    ],
    [
      'a hop-by-hop default header',
      { apiToken: 't', baseUrl: BASE, defaultHeaders: { 'Transfer-Encoding': 'chunked' } },
      /defaultHeaders\.Transfer-Encoding: is a connection-level header/,
    ],
    ['maxRetries 1.5', { apiToken: 't', baseUrl: BASE, maxRetries: 1.5 }, /maxRetries: expected an integer/],
    ['maxRetryAfter NaN', { apiToken: 't', baseUrl: BASE, maxRetryAfter: Number.NaN }, /maxRetryAfter/],
    [
      'retryDelay.initialMs -1',
      { apiToken: 't', baseUrl: BASE, retryDelay: { initialMs: -1 } },
      /retryDelay\.initialMs/,
    ],
    [
      'retryDelay.maxMs Infinity',
      { apiToken: 't', baseUrl: BASE, retryDelay: { maxMs: Infinity } },
      /retryDelay\.maxMs/,
    ],
    [
      'a fetch that is not a function',
      { apiToken: 't', baseUrl: BASE, fetch: 'x' as never },
      /fetch: expected a function, got string/,
    ],
    [
      'rateLimit.requests 0',
      { apiToken: 't', baseUrl: BASE, rateLimit: { requests: 0, perMs: 1 } },
      /rateLimit\.requests/,
    ],
    [
      'rateLimit.perMs 0',
      { apiToken: 't', baseUrl: BASE, rateLimit: { requests: 1, perMs: 0 } },
      /rateLimit\.perMs/,
    ],
    [
      'an unknown log level',
      { apiToken: 't', baseUrl: BASE, logLevel: 'loud' as never },
      /logLevel: expected one of 'off', 'error', 'warn', 'info', 'debug', got string/,
    ],
    [
      'an unknown mode',
      { apiToken: 't', baseUrl: BASE, validateResponses: 'maybe' as never },
      /validateResponses/,
    ],
    [
      "the 'strict' mode of earlier versions",
      { apiToken: 't', baseUrl: BASE, validateResponses: 'strict' as never },
      /validateResponses: expected one of 'lenient', 'off', got string/,
    ],
    [
      'an unknown option, the closest named',
      { apiToken: 't', baseUrl: BASE, timout: 5 } as never,
      /timout: is not one of the client options \(did you mean 'timeout'\?\)/,
    ],
    [
      'a rate limit without perMs',
      { apiToken: 't', baseUrl: BASE, rateLimit: { requests: 1 } as never },
      /rateLimit\.perMs: is required/,
    ],
    [
      'a rate limit store without its methods',
      { apiToken: 't', baseUrl: BASE, rateLimit: { requests: 1, perMs: 1, store: {} as never } },
      /rateLimit\.store: expected an object with acquire, release and pause methods/,
    ],
  ])('refuses %s, naming the option', (_, options, message) => {
    expect(failure(options).message).toMatch(message);
  });

  it('never echoes a token or a header value it refuses', () => {
    const error = failure({ apiToken: 'sk_live_SE\nCRET', baseUrl: BASE });
    expect(inspect(error, { showHidden: true, depth: Infinity })).not.toContain('SE\nCRET');
    const header = failure({ apiToken: 't', baseUrl: BASE, defaultHeaders: { 'x-api-key': 'k\n1' } });
    expect(header.message).toMatch(/defaultHeaders\.x-api-key/);
    expect(header.message).not.toContain('k\n1');
  });

  it('keeps a rate limit as given', () => {
    expect(
      resolve({ apiToken: 't', baseUrl: BASE, rateLimit: { requests: 5, perMs: 1000 } }).rateLimit,
    ).toEqual({
      requests: 5,
      perMs: 1000,
    });
  });
});

describe('the base URL becomes the service root', () => {
  it.each([
    [' https://f.example.com/ ', 'https://f.example.com'],
    ['https://f.example.com//', 'https://f.example.com'],
    ['https://f.example.com/MERCHANT_API/V1', 'https://f.example.com'],
    ['https://f.example.com/proxy/merchant_api', 'https://f.example.com/proxy'],
  ])('%s → %s', (input, root) => {
    expect(resolveClientOptions({ apiToken: 'tok_abcdef', baseUrl: input }, () => undefined).baseUrl).toBe(
      root,
    );
  });
});

describe('requestOptionIssues', () => {
  it('accepts every valid option and undefined', () => {
    expect(requestOptionIssues(undefined)).toEqual([]);
    const signal = new AbortController().signal;
    expect(
      requestOptionIssues({
        signal,
        timeout: 5,
        maxRetries: 0,
        headers: { 'x-a': 'b' },
        maxPages: 1,
      }),
    ).toEqual([]);
  });

  it('names every bad option at once', () => {
    const issues = requestOptionIssues({ timeout: 2 ** 31, maxRetries: 0.5, maxPages: 0, prefetch: 1 });
    expect(issues.map((i) => i.path)).toEqual([
      'options.timeout',
      'options.maxRetries',
      'options.maxPages',
      'options.prefetch',
    ]);
    expect(issues[3]?.message).toBe('is not one of the request options');
    expect(requestOptionIssues(null)).toEqual([
      { path: 'options', message: 'expected an object of request options' },
    ]);
  });
});

describe('configuration that would break a header', () => {
  it('refuses a token with a line break without echoing it', () => {
    const secret = 'sk_live_SE\nCRET';
    const error = (() => {
      try {
        new FulfillmentClient({ apiToken: secret, baseUrl: BASE });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(FulfillmentError);
    expect((error as Error).message).toMatch(/apiToken: expected a string of visible ASCII/);
    expect(inspect(error)).not.toContain('SE');
  });

  it('refuses defaultHeaders a request could not carry, naming the header', () => {
    expect(() => testClient({ defaultHeaders: { 'x-shop': 'a\r\nb' } })).toThrow(/defaultHeaders\.x-shop/);
    expect(() => testClient({ defaultHeaders: { 'bad name': 'a' } })).toThrow(/not a valid header name/);
  });
});
