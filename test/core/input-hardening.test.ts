/**
 * Realistic mistakes in a caller's input: a base URL that is really the token, a look-alike
 * AbortSignal, `Headers` instances, unknown request options, an invalid Date in a body. Each is a
 * typed error naming the field with nothing sent.
 */
import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { FulfillmentClient, FulfillmentError, RequestValidationError } from '../../src/index.js';
import { BASE, TOKEN, testClient, useMsw } from '../helpers/msw.js';

const server = useMsw();

/** Records every request that reaches the API; answers with an empty object. */
function recording() {
  const seen: Request[] = [];
  server.use(
    http.all(`${BASE}/*`, ({ request }) => {
      seen.push(request.clone());
      return HttpResponse.json({ id: 1, data: [], pagination: { current_page: 1, page_count: 1 } });
    }),
  );
  return seen;
}

async function rejection(promise: Promise<unknown>): Promise<RequestValidationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestValidationError);
  return error as RequestValidationError;
}

const construct = (options: unknown) => () =>
  new FulfillmentClient({ apiToken: TOKEN, baseUrl: BASE, logLevel: 'off', ...(options as object) });

describe('client options', () => {
  it('a base URL that cannot be read is refused without repeating it (it may be the token)', () => {
    for (const baseUrl of [10n, { a: 1 }, ['x']]) {
      expect(construct({ baseUrl }), String(typeof baseUrl)).toThrow(/baseUrl: expected a URL string, got /);
    }
    const secret = 'sk_live_token_0123456789';
    let error: unknown;
    try {
      construct({ baseUrl: secret })();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FulfillmentError);
    expect((error as Error).message).toMatch(/baseUrl: is not a valid URL \(a string of 24 characters/);
    expect(inspect(error, { depth: Number.POSITIVE_INFINITY })).not.toContain(secret);
  });

  it('refuses options that are not an object, and a retryDelay or rateLimit of the wrong type', () => {
    expect(() => new FulfillmentClient(null as never)).toThrow(
      /options: expected an object of client options/,
    );
    expect(() => new FulfillmentClient('x' as never)).toThrow(
      /options: expected an object of client options/,
    );
    for (const retryDelay of [5, 'fast', true, [], () => 1]) {
      expect(construct({ retryDelay })).toThrow(/retryDelay: expected an object of retry delays/);
    }
    for (const rateLimit of [5, 'fast', true, [], null]) {
      expect(construct({ rateLimit })).toThrow(/rateLimit: expected an object of rate limit options/);
    }
  });

  it('defaultHeaders and per-request headers given as a Headers instance are refused by name', async () => {
    expect(construct({ defaultHeaders: new Headers({ 'x-tenant': 'a' }) })).toThrow(
      /defaultHeaders: expected an object of header names to string values, got a Headers/,
    );
    const seen = recording();
    const error = await rejection(
      testClient().get('/merchant_api/v1/skus/1', {
        response: () => 1,
        options: { headers: new Headers({ 'x-request-id': 'r1' }) as never },
      }),
    );
    expect(error.issues[0]?.path).toBe('options.headers');
    expect(seen).toHaveLength(0);
  });
});

describe('per-request options', () => {
  it('a look-alike signal is refused naming options.signal; nothing is sent', async () => {
    const seen = recording();
    const client = testClient();
    const fake = { aborted: false, addEventListener() {}, removeEventListener() {} };
    const error = await rejection(client.skus.delete(1, { signal: fake as never }));
    expect(error.issues[0]).toMatchObject({
      path: 'options.signal',
      message: 'expected an AbortSignal, got an object',
    });
    await rejection(client.warehouses.list({}, { maxPages: 1, signal: fake as never }));
    expect(seen).toHaveLength(0);
  });

  it('an unknown option is refused by name; nothing is sent', async () => {
    const seen = recording();
    const client = testClient();
    const error = await rejection(client.skus.delete(1, { timout: 5 } as never));
    expect(error.issues[0]?.path).toBe('options.timout');
    expect(error.issues[0]?.message).toBe("is not one of the request options (did you mean 'timeout'?)");
    expect(seen).toHaveLength(0);
    // A key left undefined is an option not given.
    await client.get('/merchant_api/v1/skus/1', {
      response: () => 1,
      options: { extra: undefined } as never,
    });
    expect(seen).toHaveLength(1);
  });

  it('getNextPage with options that are not an object is refused; nothing is sent', async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/merchant_api/v1/warehouses`, () => {
        calls++;
        return HttpResponse.json({
          data: [{ id: 1, name: 'A' }],
          pagination: { current_page: 1, page_count: 2, item_count: 2, items_per_page: 1 },
        });
      }),
    );
    const page = await testClient().warehouses.list({ limit: 1 });
    for (const options of ['str', 5, null, []]) {
      const error = await rejection(page.getNextPage(options as never));
      expect(error.issues).toEqual([{ path: 'options', message: 'expected an object of request options' }]);
      expect(error.message).toBe(
        'Invalid request to GET /merchant_api/v1/warehouses: options: expected an object of request options',
      );
    }
    expect(calls).toBe(1); // the first page only
  });
});

describe('request bodies', () => {
  it('an invalid Date is refused naming the field', async () => {
    const seen = recording();
    const body = { shipped: new Date(Number.NaN) };
    const error = await rejection(
      testClient().post('/merchant_api/v1/skus', { body, response: z.looseObject({}) }),
    );
    expect(error.message).toMatch(/shipped: an invalid Date cannot be sent/);
    expect(seen).toHaveLength(0);
  });
});
