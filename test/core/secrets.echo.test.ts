/**
 * A server that echoes the client's secrets back (in a list item, a text body, a body nested
 * deeper than the redactor walks, a redirect's URL or host, a next_page_url) never gets them into
 * an error: message, stack, fields, `util.inspect` at any depth or `JSON.stringify`. Real server on
 * 127.0.0.1.
 */
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { FulfillmentClient, FulfillmentError } from '../../src/index.js';
import { startServer } from '../helpers/http-server.js';

const TOKEN = 'sk_canary_0123456789abcdef';
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function api(routes: Record<string, (res: ServerResponse, base: string) => void>) {
  let base = '';
  const srv = await startServer((req, res) => {
    const route = routes[(req.url ?? '').split('?')[0]!];
    if (route) return route(res, base);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ errors: ['gone'] }));
  });
  base = srv.url;
  stops.push(srv.close);
  return new FulfillmentClient({ apiToken: TOKEN, baseUrl: base, logLevel: 'off', maxRetries: 0 });
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** Awaits the rejection and checks that the token shows nowhere in it. */
async function expectClean(promise: Promise<unknown>): Promise<FulfillmentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FulfillmentError);
  const views = [
    String(error),
    (error as Error).stack ?? '',
    inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    JSON.stringify(error),
  ];
  for (const view of views) expect(view).not.toContain(TOKEN);
  return error as FulfillmentError;
}

const nest = (depth: number, inner: unknown): unknown => (depth === 0 ? inner : [nest(depth - 1, inner)]);

describe('secrets echoed by the server stay out of errors', () => {
  it('a page whose item or text echoes the token', async () => {
    const client = await api({
      '/merchant_api/v1/warehouses': (res) => json(res, 200, { data: [{ id: `echo ${TOKEN}` }] }),
      '/merchant_api/v1/skus': (res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`oops ${TOKEN}`);
      },
    });
    const invalid = await expectClean(client.warehouses.list());
    expect(invalid.name).toBe('ResponseValidationError');
    const text = await expectClean(client.skus.list());
    expect(text.message).toMatch(/expected JSON, got "oops \*\*\*"/);
  });

  it('a 4xx body that nests the token deeper than the redactor walks', async () => {
    const client = await api({
      '/merchant_api/v1/warehouses': (res) => json(res, 422, { errors: nest(40, `echo ${TOKEN}`) }),
    });
    const error = await expectClean(client.warehouses.list());
    expect(inspect(error, { depth: Number.POSITIVE_INFINITY })).toContain('nested too deep');
  });

  it('a body nested deeper than JSON.stringify can write: still the typed error of its status', async () => {
    // 100,000 levels: JSON.parse reads it, JSON.stringify runs out of stack.
    const deep = `{"data":${'['.repeat(100_000)}"x"${']'.repeat(100_000)}}`;
    const send = (status: number) => (res: ServerResponse) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(deep);
    };
    const client = await api({
      '/merchant_api/v1/warehouses': send(200),
      '/merchant_api/v1/skus': send(500),
    });
    expect((await expectClean(client.warehouses.list())).name).toBe('ResponseValidationError');
    const failed = await expectClean(client.skus.list());
    expect(failed.name).toBe('InternalServerError');
  });

  it('a same-origin redirect or a next_page_url that carries the token in its query', async () => {
    const client = await api({
      '/merchant_api/v1/warehouses': (res) => {
        res.writeHead(302, { location: `/moved?access_token=${TOKEN}` });
        res.end();
      },
    });
    const redirected = await expectClean(client.warehouses.list());
    expect(redirected.message).toContain('access_token=***');
    const cursored = await api({
      '/merchant_api/v1/warehouses': (res, base) =>
        json(res, 200, {
          data: [{ id: 1, name: 'Berlin' }],
          pagination: { next_page_url: `${base}/merchant_api/v1/e404?session=${TOKEN}` },
        }),
    });
    const page = await cursored.warehouses.list();
    // The cursor is followed (to a path the server answers 404) and its URL is cleaned in the error.
    const next = await expectClean(page.getNextPage());
    expect(next.name).toBe('NotFoundError');
    expect(next.message).toContain('session=***');
  });

  it('a redirect to a host whose name carries the token', async () => {
    const client = await api({
      '/merchant_api/v1/warehouses': (res) => {
        res.writeHead(302, { location: `http://${TOKEN}.evil.test/` });
        res.end();
      },
    });
    const error = await expectClean(client.warehouses.list());
    expect(error.name).toBe('RedirectError');
  });
});
