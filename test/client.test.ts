import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import pkg from '../package.json' with { type: 'json' };
import {
  FulfillmentClient,
  FulfillmentError,
  PaginationError,
  RedirectError,
  RequestValidationError,
  VERSION,
} from '../src/index.js';
import { BASE, recordingLogger, TOKEN, testClient, useMsw } from './helpers/msw.js';

const server = useMsw();

function captureWarehouses() {
  const seen: Request[] = [];
  server.use(
    http.get(`${BASE}/merchant_api/v1/warehouses`, ({ request }) => {
      seen.push(request.clone());
      return HttpResponse.json({
        data: [{ id: 1, name: 'Berlin' }],
        pagination: { current_page: 1, page_count: 1, item_count: 1, items_per_page: 20 },
      });
    }),
  );
  return seen;
}

describe('FulfillmentClient options', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('reads apiToken and baseUrl from the environment', async () => {
    vi.stubEnv('FULFILLMENT_API_TOKEN', 'env-token');
    vi.stubEnv('FULFILLMENT_BASE_URL', `${BASE}/`);
    const seen = captureWarehouses();
    const client = new FulfillmentClient({ logLevel: 'off' });
    expect(client.baseUrl).toBe(BASE);
    await client.warehouses.list();
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer env-token');
  });

  it('names the option and the variable when the token is missing', () => {
    vi.stubEnv('FULFILLMENT_API_TOKEN', '');
    expect(() => new FulfillmentClient({ baseUrl: BASE })).toThrow(FulfillmentError);
    expect(() => new FulfillmentClient({ baseUrl: BASE })).toThrow(/apiToken.*FULFILLMENT_API_TOKEN/);
  });

  it('names the option and the variable when the base URL is missing', () => {
    vi.stubEnv('FULFILLMENT_BASE_URL', '');
    expect(() => new FulfillmentClient({ apiToken: 't' })).toThrow(/baseUrl.*FULFILLMENT_BASE_URL/);
  });

  it.each([
    ['https://f.example.com', 'https://f.example.com'],
    ['https://f.example.com/', 'https://f.example.com'],
    ['https://f.example.com/merchant_api', 'https://f.example.com'],
    ['https://f.example.com/merchant_api/', 'https://f.example.com'],
    ['https://f.example.com/merchant_api/v1', 'https://f.example.com'],
    ['https://f.example.com/merchant_api/v2/', 'https://f.example.com'],
    ['https://f.example.com/proxy/merchant_api/v1', 'https://f.example.com/proxy'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
  ])('normalises base URL %s to the service root', (input, root) => {
    expect(new FulfillmentClient({ apiToken: 't', baseUrl: input }).baseUrl).toBe(root);
  });

  it('never doubles /merchant_api in request paths', async () => {
    const seen = captureWarehouses();
    await testClient({ baseUrl: `${BASE}/merchant_api/v1/` }).warehouses.list();
    expect(new URL(seen[0]!.url).pathname).toBe('/merchant_api/v1/warehouses');
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => new FulfillmentClient({ apiToken: 't', baseUrl: 'ftp://x' })).toThrow(/http or https/);
    expect(() => new FulfillmentClient({ apiToken: 't', baseUrl: 'not a url' })).toThrow(/not a valid URL/);
  });

  it('rejects bad numeric options and unknown log levels', () => {
    expect(() => testClient({ timeout: 0 })).toThrow(/timeout/);
    expect(() => testClient({ maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => testClient({ maxRetries: 1.5 })).toThrow(/maxRetries/);
    // @ts-expect-error: not a level
    expect(() => testClient({ logLevel: 'loud' })).toThrow(/logLevel/);
    // @ts-expect-error: not a mode
    expect(() => testClient({ validateResponses: 'maybe' })).toThrow(/validateResponses/);
  });

  it('sends the standard headers', async () => {
    const seen = captureWarehouses();
    await testClient().warehouses.list();
    const headers = seen[0]!.headers;
    expect(headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(headers.get('accept')).toBe('application/json');
    expect(headers.get('user-agent')).toBe(`merchant-fulfillment/${VERSION} node/${process.versions.node}`);
    expect(headers.get('content-type')).toBeNull();
  });

  it('keeps VERSION equal to package.json', () => {
    expect(VERSION).toBe(pkg.version);
  });

  it('merges defaultHeaders and per-request headers, never replacing Authorization', async () => {
    const seen = captureWarehouses();
    const client = testClient({
      defaultHeaders: { 'x-shop': 'a', 'x-drop': 'd', Authorization: 'Bearer nope' },
    });
    await client.warehouses.list(undefined, {
      headers: { 'x-shop': 'b', 'x-drop': undefined, 'x-trace': '1' },
    });
    const headers = seen[0]!.headers;
    expect(headers.get('x-shop')).toBe('b');
    expect(headers.get('x-drop')).toBeNull();
    expect(headers.get('x-trace')).toBe('1');
    expect(headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });

  it('uses a custom fetch', async () => {
    const calls: string[] = [];
    const client = testClient({
      fetch: async (input, init) => {
        const request = new Request(input, init);
        calls.push(`${request.method} ${request.url}`);
        return Response.json([{ id: 7 }]);
      },
    });
    const page = await client.warehouses.list();
    expect(calls).toEqual([`GET ${BASE}/merchant_api/v1/warehouses`]);
    expect(page.data[0]?.id).toBe(7);
  });

  it('never puts request options into the query string', async () => {
    const seen = captureWarehouses();
    const controller = new AbortController();
    await testClient().warehouses.list(
      { limit: 5 },
      { signal: controller.signal, timeout: 5000, maxRetries: 0, headers: { 'x-a': '1' }, maxPages: 3 },
    );
    expect(new URL(seen[0]!.url).search).toBe('?limit=5');
  });

  it('refuses request options passed as query parameters, sending nothing', async () => {
    const client = testClient(); // msw fails the test on any request
    // @ts-expect-error: maxPages belongs to the options argument
    await expect(client.skus.list({ maxPages: 2 })).rejects.toThrow(RequestValidationError);
    // @ts-expect-error: timeout belongs to the options argument
    await expect(client.orders.list({ timeout: 2 })).rejects.toThrow(/timeout: is a request option/);
    // Undocumented endpoints accept extra query parameters, but never a request option.
    await expect(client.warehouses.list({ maxPages: 1 })).rejects.toThrow(/maxPages: is a request option/);
  });
});

describe('secrets', () => {
  it('never shows the token in util.inspect or JSON.stringify', () => {
    const client = testClient();
    const shown = inspect(client, { depth: 10, showHidden: true });
    expect(shown).not.toContain(TOKEN);
    expect(shown).toContain('***');
    expect(JSON.stringify(client)).not.toContain(TOKEN);
    expect(inspect(client.warehouses, { depth: 10, showHidden: true })).not.toContain(TOKEN);
  });

  it('keeps the token out of debug logs and still logs method, URL and status', async () => {
    captureWarehouses();
    const { lines, logger } = recordingLogger();
    await testClient({ logLevel: 'debug', logger }).warehouses.list();
    const text = JSON.stringify(lines);
    expect(text).not.toContain(TOKEN);
    expect(
      lines.some((l) =>
        /→ GET https:\/\/fulfillment\.test\/merchant_api\/v1\/warehouses \(attempt 1\)/.test(l.message),
      ),
    ).toBe(true);
    expect(lines.some((l) => /← 200 GET .*warehouses \(attempt 1\)/.test(l.message))).toBe(true);
  });

  it('reads the log level from FULFILLMENT_LOG', async () => {
    vi.stubEnv('FULFILLMENT_LOG', 'debug');
    captureWarehouses();
    const { lines, logger } = recordingLogger();
    await new FulfillmentClient({ apiToken: TOKEN, baseUrl: BASE, logger }).warehouses.list();
    vi.unstubAllEnvs();
    expect(lines.filter((l) => l.level === 'debug').length).toBeGreaterThanOrEqual(2);
  });

  it('treats an environment that refuses to be read (Deno without --allow-env) as empty', () => {
    const env = process.env;
    const asked: string[] = [];
    const refusing = new Proxy(env, {
      get: (_target, name) => {
        asked.push(String(name));
        throw new Error(`Requires env access to "${String(name)}"`);
      },
    });
    Object.defineProperty(process, 'env', { value: refusing, configurable: true, writable: true });
    try {
      // The log level comes from the environment when not given: the read is refused, the default holds.
      const client = new FulfillmentClient({ apiToken: TOKEN, baseUrl: BASE });
      expect(client.toJSON()).toMatchObject({ logLevel: 'info' });
      expect(asked).toContain('FULFILLMENT_LOG');
      // A required option left to the environment is then missing, with the usual typed message.
      expect(() => new FulfillmentClient({ apiToken: TOKEN })).toThrow(/baseUrl: missing/);
      expect(asked).toContain('FULFILLMENT_BASE_URL');
    } finally {
      Object.defineProperty(process, 'env', { value: env, configurable: true, writable: true });
    }
  });

  it('logs nothing at level off, and nothing for a successful request by default', async () => {
    captureWarehouses();
    const off = recordingLogger();
    await testClient({ logLevel: 'off', logger: off.logger }).warehouses.list();
    expect(off.lines).toEqual([]);
    const def = recordingLogger();
    await new FulfillmentClient({ apiToken: TOKEN, baseUrl: BASE, logger: def.logger }).warehouses.list();
    expect(def.lines).toEqual([]);
  });
});

describe('the request surface', () => {
  it('every resource method goes through request(), with its method and path', async () => {
    server.use(http.all(`${BASE}/*`, () => HttpResponse.json({ errors: ['stop'] }, { status: 400 })));
    const client = testClient();
    const request = vi.spyOn(client, 'request');
    await Promise.allSettled([
      client.orders.retrieve(1),
      client.orders.cancel(2),
      client.skus.delete(3),
      client.skus.put(4, { name: 'x' }),
      client.restockingShipments.v2.retrieve(5),
      client.returns.retrieve(6),
      client.skus.retrieveByMerchantSkuId('A'),
    ]);
    expect(
      request.mock.calls.map(
        ([method, path]) => `${method} ${typeof path === 'string' ? path : path.resolve()}`,
      ),
    ).toEqual([
      'GET /merchant_api/v1/orders/1',
      'PUT /merchant_api/v1/orders/2/cancel',
      'DELETE /merchant_api/v1/skus/3',
      'PUT /merchant_api/v1/skus/4',
      'GET /merchant_api/v2/restocking_shipments/5',
      'GET /merchant_api/v1/returns/6',
      'GET /merchant_api/v1/skus',
    ]);
  });

  it('refuses a missing or mistyped `response` with a typed error naming it; nothing is sent', async () => {
    const sent: string[] = [];
    server.use(
      http.all(`${BASE}/*`, ({ request }) => {
        sent.push(request.url);
        return HttpResponse.json({});
      }),
    );
    const client = testClient();
    const cases: [Promise<unknown>, string, RegExp][] = [
      [client.get('/merchant_api/v1/skus', {} as never), 'response', /got undefined$/],
      [client.post('/merchant_api/v1/skus', { response: 42 } as never), 'response', /got number$/],
      [
        client.put('/merchant_api/v1/skus/1', { response: { parse: () => 1 } } as never),
        'response',
        /got an object$/,
      ],
      [client.delete('/merchant_api/v1/skus/1', { response: [] } as never), 'response', /got an array$/],
      [client.patch('/merchant_api/v1/skus/1', undefined as never), 'response', /got undefined$/],
    ];
    for (const [promise, path, message] of cases) {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RequestValidationError);
      const issue = (error as RequestValidationError).issues[0]!;
      expect(issue.path).toBe(path);
      expect(issue.message).toMatch(message);
    }
    // A parser function, a schema and a lazily loaded one are all accepted.
    await expect(client.get('/merchant_api/v1/skus', { response: () => 'parsed' })).resolves.toBe('parsed');
    await expect(client.get('/merchant_api/v1/skus', { response: z.object({}) })).resolves.toEqual({});
    expect(sent).toHaveLength(2);
  });

  it('a list starts with getAPIList and fetches every next page through get()', async () => {
    server.use(
      http.get(`${BASE}/merchant_api/v1/warehouses`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        return HttpResponse.json({ data: [{ id: page }], pagination: { current_page: page, page_count: 3 } });
      }),
    );
    const client = testClient();
    const list = vi.spyOn(client, 'getAPIList');
    const get = vi.spyOn(client, 'get');
    const ids: number[] = [];
    for await (const warehouse of client.warehouses.list()) ids.push(warehouse.id);
    expect(ids).toEqual([1, 2, 3]);
    expect(list).toHaveBeenCalledTimes(1);
    expect(get.mock.calls.map(([, init]) => init.query)).toEqual([{ page: 2 }, { page: 3 }]);
  });

  it('input problems reject the promise, never throw, and send nothing', async () => {
    const client = testClient();
    const pending = [
      client.orders.retrieve('../x'),
      client.orders.create(undefined as never),
      client.skus.list({ timeout: 5 } as never),
      client.skus.retrieveByMerchantSkuId(''),
    ];
    for (const promise of pending) await expect(promise).rejects.toBeInstanceOf(RequestValidationError);
  });
});

describe('two clients on different origins, used alternately', () => {
  const A = { baseUrl: 'https://a.fulfillment.test/svc', origin: 'https://a.fulfillment.test' };
  const B = { baseUrl: 'https://b.fulfillment.test:8443/api', origin: 'https://b.fulfillment.test:8443' };
  const WAREHOUSES = '/merchant_api/v1/warehouses';

  /**
   * A client whose fetch answers like its own server: the warehouses list redirects to `/moved`
   * on the same origin, whose page has a cursor to `next` (a full URL); `elsewhere` below the
   * service root redirects to `redirectTo`; every other path is an empty page.
   */
  function clientOn(site: typeof A, next: string, redirectTo: string) {
    const sent: string[] = [];
    const root = site.baseUrl.slice(site.origin.length);
    const client = new FulfillmentClient({
      apiToken: 'tok_two_origins_secret',
      baseUrl: site.baseUrl,
      logLevel: 'off',
      maxRetries: 0,
      fetch: async (input, init) => {
        const url = new URL(new Request(input, init).url);
        sent.push(url.href);
        if (url.pathname === `${root}${WAREHOUSES}`) {
          return new Response(null, { status: 302, headers: { location: '/moved' } });
        }
        if (url.pathname === `${root}/elsewhere`) {
          return new Response(null, { status: 302, headers: { location: redirectTo } });
        }
        if (url.pathname === '/moved') {
          return Response.json({ data: [{ id: 1 }], pagination: { next_page_url: next } });
        }
        return Response.json({ data: [], pagination: { next_page_url: null } });
      },
    });
    return { client, sent };
  }

  it('each is held to its own origin, and neither parses its base URL again', async () => {
    const a = clientOn(A, `${B.origin}/steal`, `${A.origin}/after-redirect`);
    const b = clientOn(B, `${B.origin}/next`, `${A.origin}/steal`);
    const NativeURL = globalThis.URL;
    const parsed: unknown[] = [];
    vi.stubGlobal(
      'URL',
      new Proxy(NativeURL, {
        construct(target, args, newTarget) {
          parsed.push(args[0]);
          return Reflect.construct(target, args, newTarget);
        },
      }),
    );
    try {
      for (let round = 0; round < 2; round++) {
        // Request paths: an absolute URL on the other client's origin, and a path without '/'.
        for (const [{ client }, own, other] of [
          [a, A, B],
          [b, B, A],
        ] as const) {
          const foreign = await client
            .get(`${other.origin}/merchant_api/v1/skus`, { response: () => 'sent' })
            .catch((e: unknown) => e);
          expect(foreign).toBeInstanceOf(RequestValidationError);
          expect((foreign as RequestValidationError).issues).toEqual([
            {
              path: 'path',
              message: `it leads to ${other.origin}, not the configured origin ${own.origin}; the API token must not leave it`,
            },
          ]);
          const relative = await client.get('skus', { response: () => 'sent' }).catch((e: unknown) => e);
          expect((relative as RequestValidationError).issues).toEqual([
            {
              path: 'path',
              message: `must start with '/' (a path below the service root) or be an absolute URL on ${own.origin}`,
            },
          ]);
          await expect(client.get(`${own.origin}/ok`, { response: () => 'sent' })).resolves.toBe('sent');
        }
        // Redirects: A's stays on A and is followed; B's leads to A and is refused.
        await expect(a.client.get('/elsewhere', { response: () => 'followed' })).resolves.toBe('followed');
        const redirect = await b.client
          .get('/elsewhere', { response: () => 'followed' })
          .catch((e: unknown) => e);
        expect(redirect).toBeInstanceOf(RedirectError);
        expect((redirect as Error).message).toContain(
          `it leads to ${A.origin}, not the configured origin ${B.origin}; the API token must not leave it`,
        );
        // Cursors: A's leads to B and is refused; B's stays on B and is followed.
        const pageA = await a.client.warehouses.list();
        const pageB = await b.client.warehouses.list();
        const refused = await pageA.getNextPage().catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(PaginationError);
        expect((refused as Error).message).toBe(
          `Refusing to follow next_page_url: it leads to ${B.origin}, not the configured origin ${A.origin}; the API token must not leave it.`,
        );
        expect((await pageB.getNextPage()).data).toEqual([]);
      }
    } finally {
      vi.unstubAllGlobals();
    }
    expect(globalThis.URL).toBe(NativeURL);
    // The base URLs were parsed once each, when the clients were built: never per request.
    expect(parsed.filter((input) => input === A.baseUrl || input === B.baseUrl)).toEqual([]);
    expect(a.sent.filter((url) => url.startsWith(B.origin))).toEqual([]);
    expect(b.sent.filter((url) => url.startsWith(A.origin))).toEqual([]);
  });
});
