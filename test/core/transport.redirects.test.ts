/**
 * Redirects, decided by the SDK against real servers on 127.0.0.1: a same-origin GET is followed
 * (at most 5 hops); anything that would leave the configured origin, or re-send a body, is a
 * `RedirectError` naming the target origin, and nothing is sent there.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { BulkUpsertError, FulfillmentClient, RedirectError } from '../../src/index.js';
import { startServer } from '../helpers/http-server.js';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function server(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const srv = await startServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res);
    });
  });
  stops.push(srv.close);
  return { ...srv, seen };
}

const redirect = (res: ServerResponse, status: number, location: string) => {
  res.writeHead(status, { location, 'content-type': 'text/plain' });
  res.end('moved');
};
const client = (baseUrl: string) =>
  new FulfillmentClient({
    apiToken: 'tok_secret_redirects',
    baseUrl,
    defaultHeaders: { 'x-gateway-key': 'gw_secret_value' },
    logLevel: 'off',
    retryDelay: { initialMs: 1, maxMs: 2 },
  });

describe('redirects', () => {
  it('follows a same-origin redirect of a GET', async () => {
    const api = await server((req, res) => {
      if (req.url === '/merchant_api/v1/warehouses') return redirect(res, 302, '/moved/warehouses');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ id: 7 }]));
    });
    const page = await client(api.url).warehouses.list();
    expect(page.data.map((w) => w.id)).toEqual([7]);
    expect(api.seen.map((r) => r.url)).toEqual(['/merchant_api/v1/warehouses', '/moved/warehouses']);
    expect(api.seen[1]?.headers.authorization).toBe('Bearer tok_secret_redirects');
  });

  it.each([301, 302, 303, 307, 308])(
    'refuses a %i to another origin, sending nothing there',
    async (status) => {
      const foreign = await server((_req, res) => res.end('[]'));
      const api = await server((_req, res) => redirect(res, status, `${foreign.url}/steal`));
      const error = await client(api.url)
        .warehouses.list()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedirectError);
      expect((error as RedirectError).target).toBe(foreign.url);
      expect((error as Error).message).toContain(`it leads to ${foreign.url}`);
      expect(foreign.seen).toHaveLength(0);
      expect(api.seen).toHaveLength(1); // not retried
    },
  );

  it('never re-posts an order after a 307, not even to the same origin', async () => {
    const foreign = await server((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const api = await server((req, res) =>
      redirect(res, 307, req.url?.includes('same') ? '/x' : `${foreign.url}/merchant_api/v1/orders`),
    );
    const order = {
      merchant_order_id: 'A-1',
      shipping_address: {
        full_name: 'Ada Lovelace',
        last_name: 'Lovelace',
        line1: 'x',
        city: 'y',
        postal_code: '1',
        country_code: 'DE',
      },
      items: [{ merchant_item_id: '1', sku_id: 1, quantity: 1, price_per_unit_in_cents: 1 }],
    };
    const error = await client(api.url)
      .orders.create(order)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(foreign.seen).toHaveLength(0);
    expect(api.seen).toHaveLength(1);
  });

  it('refuses a same-origin redirect of a POST (the body is not re-sent)', async () => {
    const api = await server((req, res) => {
      if (req.url === '/merchant_api/v1/skus/bulk_upsert')
        return redirect(res, 308, '/elsewhere/bulk_upsert');
      res.end('[]');
    });
    const error = await client(api.url)
      .skus.bulkUpsert([{ name: 'A', merchant_sku_id: 'A' }])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BulkUpsertError);
    expect((error as BulkUpsertError).cause).toBeInstanceOf(RedirectError);
    expect(((error as BulkUpsertError).cause as Error).message).toContain('a POST is not repeated');
    expect(api.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /merchant_api/v1/skus/bulk_upsert']);
  });

  it('stops a redirect loop after 5 hops, without retrying it', async () => {
    const api = await server((_req, res) => redirect(res, 302, '/merchant_api/v1/warehouses'));
    const error = await client(api.url)
      .warehouses.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as Error).message).toContain('more than 5 redirects');
    expect(api.seen).toHaveLength(6);
  });

  it.each(['file:///etc/passwd', 'data:text/plain,x', 'javascript:alert(1)'])(
    'refuses a redirect to %s, naming its scheme',
    async (location) => {
      const api = await server((_req, res) => redirect(res, 302, location));
      const error = await client(api.url)
        .warehouses.list()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedirectError);
      const scheme = `a ${location.split(':')[0]}: URL`;
      expect((error as RedirectError).target).toBe(scheme);
      expect((error as Error).message).toContain(`it leads to ${scheme}, not the configured origin`);
      expect((error as Error).message).not.toContain('null');
    },
  );

  it('refuses a scheme change on the same host', async () => {
    const api = await server((req, res) =>
      redirect(res, 301, `https://${req.headers.host}/merchant_api/v1/warehouses`),
    );
    const error = await client(api.url)
      .warehouses.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).target?.startsWith('https://127.0.0.1')).toBe(true);
  });
});
