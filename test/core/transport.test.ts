import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import type { HttpMethod, RequestParts } from '../../src/core/request.js';
import { optionalBody } from '../../src/core/response.js';
import {
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  type ClientOptions,
  ConflictError,
  FulfillmentClient,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { BASE, recordingLogger, TOKEN, testClient, useMsw } from '../helpers/msw.js';

const server = useMsw();
const Any = z.unknown();

/** Serves `responses` in order (the last one repeats) at METHOD path, counting attempts. */
function sequence(
  method: 'get' | 'post' | 'put' | 'patch' | 'delete',
  path: string,
  responses: (() => Response)[],
) {
  const state = { attempts: 0, bodies: [] as string[] };
  server.use(
    http[method](`${BASE}${path}`, async ({ request }) => {
      state.bodies.push(await request.text());
      const make = responses[Math.min(state.attempts, responses.length - 1)]!;
      state.attempts++;
      return make();
    }),
  );
  return state;
}

const json = (status: number, body: Record<string, unknown>, headers?: Record<string, string>) => () =>
  HttpResponse.json(body, { status, headers: headers ?? {} });
const ok = json(200, { ok: true });

function send({ method, path, ...init }: RequestParts & { method: HttpMethod; path: string }, options = {}) {
  return testClient(options).request(method, path, { ...init, response: Any });
}

describe('what an error says of the request', () => {
  it('method, URL and the attempt that failed', async () => {
    sequence('get', '/merchant_api/v1/skus', [json(500, { errors: ['x'] })]);
    const error = (await send({ method: 'GET', path: '/merchant_api/v1/skus' }).catch(
      (e: unknown) => e,
    )) as APIError;
    expect([error.method, error.url, error.attempt]).toEqual(['GET', `${BASE}/merchant_api/v1/skus`, 3]);
  });
  it('a long query is shortened in the message (the parameters counted), kept whole in url', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `SKU-${String(i).padStart(8, '0')}`);
    const query = ids.map((id) => `merchant_sku_ids[]=${id}`).join('&');
    const path = '/merchant_api/v1/skus';
    sequence('get', path, [json(404, { errors: ['x'] })]);
    const notFound = (await send({ method: 'GET', path, query: { merchant_sku_ids: ids } }).catch(
      (e: unknown) => e,
    )) as APIError;
    expect(notFound.url).toBe(`${BASE}${path}?${query}`);
    const shown = ids.slice(0, 3).map((id) => `merchant_sku_ids[]=${id}`);
    expect(notFound.message).toBe(`404 GET ${path}?${shown.join('&')}… (100 parameters): x`);
    server.use(http.get(`${BASE}${path}`, () => HttpResponse.error()));
    const failed = (await send(
      { method: 'GET', path, query: { merchant_sku_ids: ids } },
      { maxRetries: 0 },
    ).catch((e: unknown) => e)) as APIError;
    expect(failed.url).toBe(`${BASE}${path}?${query}`);
    expect(failed.message).toMatch(`${BASE}${path}?${shown.join('&')}… (100 parameters)`);
    expect(failed.message.length).toBeLessThan(300);
  });

  it('a short query is shown as it is', async () => {
    sequence('get', '/merchant_api/v1/skus', [json(404, { errors: ['x'] })]);
    const error = (await send({
      method: 'GET',
      path: '/merchant_api/v1/skus',
      query: { merchant_sku_ids: ['A', 'B'] },
    }).catch((e: unknown) => e)) as APIError;
    expect(error.message).toBe('404 GET /merchant_api/v1/skus?merchant_sku_ids[]=A&merchant_sku_ids[]=B: x');
  });
});

describe('retries', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries GET on %i up to maxRetries', async (status) => {
    const state = sequence('get', '/merchant_api/v1/skus', [json(status, { errors: ['x'] })]);
    await expect(send({ method: 'GET', path: '/merchant_api/v1/skus' })).rejects.toBeInstanceOf(APIError);
    expect(state.attempts).toBe(3);
  });

  it('succeeds after transient failures', async () => {
    const state = sequence('get', '/merchant_api/v1/skus', [json(503, {}), json(502, {}), ok]);
    await expect(send({ method: 'GET', path: '/merchant_api/v1/skus' })).resolves.toEqual({ ok: true });
    expect(state.attempts).toBe(3);
  });

  it.each([400, 401, 403, 404, 409, 422])('does not retry %i', async (status) => {
    const state = sequence('get', '/merchant_api/v1/skus', [json(status, { errors: ['no'] })]);
    await expect(send({ method: 'GET', path: '/merchant_api/v1/skus' })).rejects.toBeInstanceOf(APIError);
    expect(state.attempts).toBe(1);
  });

  it.each(['put', 'patch', 'delete'] as const)('retries %s (idempotent)', async (method) => {
    const state = sequence(method, '/merchant_api/v1/skus/1', [json(500, {}), ok]);
    await send({ method: method.toUpperCase() as 'PUT', path: '/merchant_api/v1/skus/1', body: { a: 1 } });
    expect(state.attempts).toBe(2);
    expect(state.bodies).toEqual(['{"a":1}', '{"a":1}']);
  });

  it('retries an idempotent POST (bulk upsert) on 5xx', async () => {
    const state = sequence('post', '/merchant_api/v1/skus/bulk_upsert', [json(500, {}), ok]);
    await send({ method: 'POST', path: '/merchant_api/v1/skus/bulk_upsert', body: {}, idempotent: true });
    expect(state.attempts).toBe(2);
  });

  it.each([408, 500, 502, 503, 504])(
    'never repeats POST /orders after %i (no duplicate orders)',
    async (status) => {
      const state = sequence('post', '/merchant_api/v1/orders', [json(status, {}), ok]);
      await expect(
        send({ method: 'POST', path: '/merchant_api/v1/orders', body: {} }),
      ).rejects.toBeInstanceOf(APIError);
      expect(state.attempts).toBe(1);
    },
  );

  it('retries POST /orders on 429 (the request never reached the order logic)', async () => {
    const state = sequence('post', '/merchant_api/v1/orders', [json(429, {}, { 'retry-after': '0.01' }), ok]);
    await send({ method: 'POST', path: '/merchant_api/v1/orders', body: {} });
    expect(state.attempts).toBe(2);
  });

  it('honours maxRetries from the client and per request', async () => {
    const a = sequence('get', '/merchant_api/v1/a', [json(500, {})]);
    await expect(send({ method: 'GET', path: '/merchant_api/v1/a' }, { maxRetries: 0 })).rejects.toThrow();
    expect(a.attempts).toBe(1);
    const b = sequence('get', '/merchant_api/v1/b', [json(500, {})]);
    await expect(
      send({ method: 'GET', path: '/merchant_api/v1/b', options: { maxRetries: 4 } }, { maxRetries: 0 }),
    ).rejects.toThrow();
    expect(b.attempts).toBe(5);
  });

  it('logs each retry at info', async () => {
    sequence('get', '/merchant_api/v1/skus', [json(503, { errors: ['busy'] }), ok]);
    const { lines, logger } = recordingLogger();
    await send({ method: 'GET', path: '/merchant_api/v1/skus' }, { logLevel: 'info', logger });
    expect(lines.map((l) => l.message)).toEqual([
      expect.stringMatching(/^\[merchant-fulfillment\] Retrying GET .*skus in \d+ ms \(retry 1 of 2\): 503/),
    ]);
  });
});

describe('Retry-After', () => {
  async function waited(header: string, status = 429): Promise<number> {
    sequence('get', '/merchant_api/v1/skus', [json(status, {}, { 'retry-after': header }), ok]);
    const started = performance.now();
    await send({ method: 'GET', path: '/merchant_api/v1/skus' }, { retryDelay: { initialMs: 0, maxMs: 0 } });
    return performance.now() - started;
  }

  it('waits fractional seconds (0.2 s is ~200 ms, not rounded up to a second)', async () => {
    const ms = await waited('0.2');
    expect(ms).toBeGreaterThanOrEqual(190);
    expect(ms).toBeLessThan(800);
  });

  it('is honoured on 503 too', async () => {
    const ms = await waited('0.15', 503);
    expect(ms).toBeGreaterThanOrEqual(140);
    expect(ms).toBeLessThan(800);
  });

  it('fails at once with retryAfter when the ask exceeds maxRetryAfter', async () => {
    const state = sequence('get', '/merchant_api/v1/skus', [
      json(429, { errors: ['slow down'] }, { 'retry-after': '120' }),
    ]);
    const error = await send({ method: 'GET', path: '/merchant_api/v1/skus' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(120);
    expect(state.attempts).toBe(1);
  });

  it('respects a lower maxRetryAfter option', async () => {
    const state = sequence('get', '/merchant_api/v1/skus', [json(429, {}, { 'retry-after': '2' })]);
    await expect(
      send({ method: 'GET', path: '/merchant_api/v1/skus' }, { maxRetryAfter: 1 }),
    ).rejects.toBeInstanceOf(RateLimitError);
    expect(state.attempts).toBe(1);
  });

  it('an abort signal cuts a backoff wait short', async () => {
    sequence('get', '/merchant_api/v1/skus', [json(429, {}, { 'retry-after': '30' })]);
    const controller = new AbortController();
    const started = performance.now();
    const pending = send({
      method: 'GET',
      path: '/merchant_api/v1/skus',
      options: { signal: controller.signal },
    });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('an already-aborted signal sends nothing', async () => {
    const state = sequence('get', '/merchant_api/v1/skus', [ok]);
    await expect(
      send({ method: 'GET', path: '/merchant_api/v1/skus', options: { signal: AbortSignal.abort() } }),
    ).rejects.toBeInstanceOf(APIUserAbortError);
    expect(state.attempts).toBe(0);
  });
});

describe('error mapping', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
    [418, APIError],
  ])('maps %i to %o', async (status, Class) => {
    sequence('get', '/merchant_api/v1/skus', [json(status, { success: false, errors: ['a', 'b'] })]);
    const error = (await send({ method: 'GET', path: '/merchant_api/v1/skus' }, { maxRetries: 0 }).catch(
      (e: unknown) => e,
    )) as APIError;
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(APIError);
    expect(error.status).toBe(status);
    expect(error.errors).toEqual(['a', 'b']);
    expect(error.method).toBe('GET');
    expect(error.url).toBe(`${BASE}/merchant_api/v1/skus`);
    expect(error.body).toEqual({ success: false, errors: ['a', 'b'] });
    expect(error.headers.get('content-type')).toContain('application/json');
  });

  it('reads like the API: status, method, path and the messages', async () => {
    sequence('post', '/merchant_api/v1/orders', [
      json(422, { success: false, errors: ['Merchant order has already been taken'] }),
    ]);
    await expect(send({ method: 'POST', path: '/merchant_api/v1/orders', body: {} })).rejects.toThrow(
      '422 POST /merchant_api/v1/orders: Merchant order has already been taken',
    );
  });

  it.each([
    [{ error: 'nope' }, ['nope']],
    [{ message: 'gone' }, ['gone']],
    [{ errors: 'single' }, ['single']],
    [{ unexpected: true }, []],
  ])('takes messages from %o', async (body, errors) => {
    sequence('get', '/merchant_api/v1/skus', [json(400, body)]);
    const error = (await send({ method: 'GET', path: '/merchant_api/v1/skus' }).catch(
      (e: unknown) => e,
    )) as APIError;
    expect(error.errors).toEqual(errors);
  });

  it('types an HTML 502 from a proxy', async () => {
    sequence('get', '/merchant_api/v1/skus', [
      () =>
        new HttpResponse('<html><body><h1>502 Bad Gateway</h1></body></html>', {
          status: 502,
          headers: { 'content-type': 'text/html' },
        }),
    ]);
    const error = (await send({ method: 'GET', path: '/merchant_api/v1/skus' }, { maxRetries: 0 }).catch(
      (e: unknown) => e,
    )) as APIError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.body).toContain('502 Bad Gateway');
    expect(error.message).toBe('502 GET /merchant_api/v1/skus: 502 Bad Gateway');
  });

  it('types an empty 500', async () => {
    sequence('get', '/merchant_api/v1/skus', [() => new HttpResponse(null, { status: 500 })]);
    const error = (await send({ method: 'GET', path: '/merchant_api/v1/skus' }, { maxRetries: 0 }).catch(
      (e: unknown) => e,
    )) as APIError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.body).toBe('');
    expect(error.message).toBe('500 GET /merchant_api/v1/skus: no error details');
  });

  it('never carries the token', async () => {
    sequence('get', '/merchant_api/v1/skus', [json(401, { errors: ['authentication required'] })]);
    const error = await send({ method: 'GET', path: '/merchant_api/v1/skus' }).catch((e: unknown) => e);
    const { inspect } = await import('node:util');
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain('tok_test_secret_123');
  });

  it('a 2xx body that is not JSON is a ResponseValidationError keeping the text', async () => {
    sequence('get', '/merchant_api/v1/skus', [() => new HttpResponse('<html>oops</html>', { status: 200 })]);
    const error = (await send({ method: 'GET', path: '/merchant_api/v1/skus' }).catch(
      (e: unknown) => e,
    )) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.body).toBe('<html>oops</html>');
  });
});

describe('APIPromise', () => {
  it('withResponse gives data, the Response and rate-limit figures', async () => {
    sequence('get', '/merchant_api/v1/skus', [
      json(200, { a: 1 }, { 'x-rate-limit-used': '7', 'x-rate-limit-max': '100' }),
    ]);
    const { data, response, rateLimit } = await send({
      method: 'GET',
      path: '/merchant_api/v1/skus',
    }).withResponse();
    expect(data).toEqual({ a: 1 });
    expect(response.status).toBe(200);
    expect(rateLimit).toEqual({ used: 7, max: 100 });
  });

  it('asResponse gives the unread Response', async () => {
    sequence('get', '/merchant_api/v1/skus', [json(200, { a: 1 })]);
    const response = await send({ method: 'GET', path: '/merchant_api/v1/skus' }).asResponse();
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ a: 1 });
  });

  it('awaiting twice and withResponse after await give the same parsed data', async () => {
    const state = sequence('get', '/merchant_api/v1/skus', [json(200, { a: 1 })]);
    const promise = send({ method: 'GET', path: '/merchant_api/v1/skus' });
    const first = await promise;
    expect(await promise).toBe(first);
    expect((await promise.withResponse()).data).toBe(first);
    expect(state.attempts).toBe(1);
  });

  it('works with catch and finally', async () => {
    sequence('get', '/merchant_api/v1/skus', [json(404, {})]);
    let finished = false;
    const caught = await send({ method: 'GET', path: '/merchant_api/v1/skus' })
      .finally(() => {
        finished = true;
      })
      .catch((e: unknown) => e);
    expect(caught).toBeInstanceOf(NotFoundError);
    expect(finished).toBe(true);
  });

  it('an empty body is undefined where allowed', async () => {
    sequence('delete', '/merchant_api/v1/skus/1', [() => new HttpResponse(null, { status: 204 })]);
    const client = testClient();
    const result = await client.delete('/merchant_api/v1/skus/1', { response: optionalBody(Any) });
    expect(result).toBeUndefined();
  });
});

describe('errors across module copies', () => {
  it('instanceof holds for a structurally branded error from another copy', async () => {
    const ours = new NotFoundError({
      status: 404,
      body: {},
      headers: new Headers(),
      method: 'GET',
      url: BASE,
    });
    const brands = Symbol.for('merchant-fulfillment.error.brands');
    const foreign = Object.create(Error.prototype);
    Object.defineProperty(foreign, brands, { value: ['NotFoundError', 'APIError', 'FulfillmentError'] });
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(foreign).toBeInstanceOf(APIError);
    expect(foreign).not.toBeInstanceOf(RateLimitError);
    expect(ours).toBeInstanceOf(Error);
    expect(ours.name).toBe('NotFoundError');
  });
});

describe('retry timing (fake timers)', () => {
  const START = Date.parse('2025-06-02T08:00:00.000Z');
  const STEP_MS = 250;
  const MAX_STEPS = 400; // 100 s of fake time: far beyond any schedule below

  const jsonResponse = (status: number, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(status < 400 ? { ok: true } : { errors: ['busy'] }), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });

  /** A custom fetch answering with `reply(callNumber)` and recording the fake `Date.now()` of each call. */
  function scriptedFetch(reply: (call: number) => Response) {
    const calls: number[] = [];
    const fetch: typeof globalThis.fetch = async () => {
      calls.push(Date.now());
      return reply(calls.length);
    };
    return { calls, fetch };
  }

  function client(fetch: typeof globalThis.fetch, options: ClientOptions = {}) {
    // Not testClient(): that one shortens retryDelay; these tests need the real defaults.
    return new FulfillmentClient({ apiToken: TOKEN, baseUrl: BASE, fetch, logLevel: 'off', ...options });
  }

  const get = (c: FulfillmentClient) => c.get('/merchant_api/v1/skus', { response: Any });

  /** Advances fake time in steps until `promise` settles (bounded), and returns its outcome. */
  async function drive<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
    let outcome: { value?: T; error?: unknown } | undefined;
    promise.then(
      (value) => {
        outcome = { value };
      },
      (error: unknown) => {
        outcome = { error };
      },
    );
    for (let step = 0; step < MAX_STEPS && outcome === undefined; step++) {
      await vi.advanceTimersByTimeAsync(STEP_MS);
    }
    if (outcome === undefined) throw new Error(`the request did not settle within ${MAX_STEPS * STEP_MS} ms`);
    return outcome;
  }

  const gaps = (calls: number[]) => calls.slice(1).map((at, i) => at - calls[i]!);

  beforeAll(async () => {
    // The transport loads ky on the first request: load it with real timers, before any test fakes them.
    const { fetch } = scriptedFetch(() => jsonResponse(200));
    await get(client(fetch));
  });

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('the clock is fake', () => {
    expect(Date.now()).toBe(START);
  });

  it('ignores a Retry-After HTTP-date: the usual backoff applies', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { calls, fetch } = scriptedFetch((call) => {
      if (call > 1) return jsonResponse(200);
      return jsonResponse(429, { 'retry-after': new Date(Date.now() + 3000).toUTCString() });
    });
    const { error } = await drive(get(client(fetch)));
    expect(error).toBeUndefined();
    expect(gaps(calls)).toEqual([500]);
  });

  it.each([
    ['0.2', 200],
    ['3.2', 3200],
  ])('waits a fractional Retry-After of %s s as %i ms', async (header, expected) => {
    const { calls, fetch } = scriptedFetch((call) =>
      call === 1 ? jsonResponse(429, { 'retry-after': header }) : jsonResponse(200),
    );
    const { error } = await drive(get(client(fetch)));
    expect(error).toBeUndefined();
    expect(gaps(calls)).toEqual([expected]);
  });

  it.each([
    ['no jitter (Math.random() = 0)', 0, [500, 1000, 2000, 4000, 8000]],
    ['maximum jitter (Math.random() = 1: 25 % off)', 1, [375, 750, 1500, 3000, 6000]],
    ['half jitter (Math.random() = 0.5: 12.5 % off)', 0.5, [438, 875, 1750, 3500, 7000]],
  ])('backs off by default from 0.5 s, doubling, with %s', async (_label, random, expected) => {
    const randomSpy = vi.spyOn(Math, 'random').mockReturnValue(random);
    const { calls, fetch } = scriptedFetch(() => jsonResponse(503));
    const { error } = await drive(get(client(fetch, { maxRetries: 5 })));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(6);
    expect(gaps(calls)).toEqual(expected);
    expect(randomSpy).toHaveBeenCalledTimes(5);
  });

  it('caps the backoff at maxMs', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { calls, fetch } = scriptedFetch(() => jsonResponse(503));
    const c = client(fetch, { maxRetries: 7, retryDelay: { initialMs: 500, maxMs: 8000 } });
    const { error } = await drive(get(c));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(8);
    expect(gaps(calls)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('caps at a custom maxMs with jitter applied after the cap', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const { calls, fetch } = scriptedFetch(() => jsonResponse(502));
    const c = client(fetch, { maxRetries: 4, retryDelay: { initialMs: 400, maxMs: 1000 } });
    const { error } = await drive(get(c));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(gaps(calls)).toEqual([300, 600, 750, 750]);
  });
});

describe('the token stays secret in errors of every kind', () => {
  it('is absent from a connection error', async () => {
    const client = new FulfillmentClient({
      apiToken: TOKEN,
      baseUrl: BASE,
      logLevel: 'off',
      maxRetries: 0,
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    const error = await client.warehouses.list().catch((e: unknown) => e);
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(TOKEN);
  });
});
