/**
 * The HTTP server face (`faces/server.ts`): `api.listen()` on a real socket.
 */
import { type ClientRequest, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, test } from 'vitest';
import { createMockApi } from '../../../src/testing/index.js';
import { ADDRESS, mockRequest, TOKEN } from '../helpers.js';

const json = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };

/** One request over a raw socket: the method and request target exactly as given. */
function raw(url: string, method: string, target: string, headers: Record<string, string> = json) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = httpRequest({ hostname, port, method, path: target, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP server face', () => {
  test('a cors option that is neither a string nor a list is refused naming it', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    await expect(api.listen({ cors: true as never })).rejects.toThrow(
      /^listen: cors must be a string or a list of strings$/,
    );
  });

  test('the method and path as sent: TRACE is a 405, a path with .. is not resolved before routing', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    const server = await api.listen();
    try {
      const trace = await raw(server.url, 'TRACE', '/merchant_api/v1/skus');
      expect(trace.status).toBe(405);
      expect(trace.headers.allow).toContain('GET');
      for (const target of ['/merchant_api/v1/x/../skus', '/merchant_api/v1/%2e%2e/v1/skus']) {
        const dotted = await raw(server.url, 'GET', target);
        expect([target, dotted.status]).toEqual([target, 404]);
      }
      expect((await raw(server.url, 'GET', '/merchant_api/v1/skus?limit=1')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  test('speaks the API to plain fetch on 127.0.0.1, on a free port', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    const server = await api.listen({ port: 0, host: '127.0.0.1' });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.port).toBeGreaterThan(0);
      const sku = await mockRequest(server.url, 'POST', '/merchant_api/v1/skus', {
        name: 'A',
        merchant_sku_id: 'A',
      });
      expect(sku.status).toBe(201);
      expect(sku.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const order = await mockRequest(server.url, 'POST', '/merchant_api/v1/orders', {
        merchant_order_id: 'O-1',
        shipping_address: ADDRESS,
        items: [{ merchant_item_id: 'i', merchant_sku_id: 'A', quantity: 1 }],
      });
      expect(order.status).toBe(201);
      const bad = await mockRequest(server.url, 'POST', '/merchant_api/v1/orders', '{');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ success: false, errors: ['bad request'] });
      const missing = await mockRequest(server.url, 'GET', '/elsewhere');
      expect(missing.status).toBe(404);
      expect(api.state.orders).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  test('close() ends keep-alive connections and pending delays, so nothing keeps the process alive', async () => {
    const api = createMockApi({ tokens: [TOKEN], latency: 5_000 });
    const server = await api.listen();
    const handlesBefore = process.getActiveResourcesInfo().length;
    // A request that waits on the 5 s latency, on a keep-alive connection.
    const pending = new Promise<string>((resolve) => {
      const req = httpRequest(
        `${server.url}/merchant_api/v1/warehouses`,
        { headers: json, agent: false },
        (res) => {
          res.resume();
          res.on('end', () => resolve(`status ${res.statusCode}`));
        },
      );
      req.on('error', (error) => resolve(`error ${error.message}`));
      req.end();
    });
    for (let i = 0; i < 50 && api.state.requests.length === 0; i++)
      await new Promise((r) => setTimeout(r, 2));
    const started = performance.now();
    await server.close();
    expect(await pending).toMatch(/^error/);
    expect(performance.now() - started).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 10));
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(handlesBefore);
  });

  test('a 401 carries WWW-Authenticate: Bearer', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    const server = await api.listen();
    try {
      for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Basic ${TOKEN}` }]) {
        const answer = await fetch(`${server.url}/merchant_api/v1/warehouses`, { headers });
        expect(answer.status).toBe(401);
        expect(answer.headers.get('www-authenticate')).toBe('Bearer');
        expect(await answer.json()).toEqual({ success: false, errors: ['authentication required'] });
      }
      const viaFetch = await mockRequest(api, 'GET', '/merchant_api/v1/warehouses', undefined, null);
      expect(viaFetch.headers.get('www-authenticate')).toBe('Bearer');
      api.injectFault({ path: '/merchant_api/v1/orders', status: 401, times: 1 });
      const fault = await mockRequest(server.url, 'GET', '/merchant_api/v1/orders');
      expect(fault.headers.get('www-authenticate')).toBe('Bearer');
    } finally {
      await server.close();
    }
  });

  test('HEAD works wherever GET does: same status and headers, no body', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    const server = await api.listen();
    const head = (path: string, headers: Record<string, string> = json) =>
      raw(server.url, 'HEAD', path, headers);
    try {
      await mockRequest(server.url, 'POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' });
      for (const path of [
        '/merchant_api/v1/skus',
        '/merchant_api/v1/warehouses?page=2',
        '/merchant_api/v1/orders/1',
        '/merchant_api/v1/nope',
      ]) {
        const get = await fetch(`${server.url}${path}`, { headers: json });
        const getBody = await get.text();
        const answer = await head(path);
        expect(answer.status, path).toBe(get.status);
        expect(answer.body, path).toBe('');
        expect(answer.headers['content-length'], path).toBe(String(Buffer.byteLength(getBody)));
        expect(answer.headers['content-type'], path).toBe(get.headers.get('content-type'));
        expect(answer.headers['x-rate-limit-max'], path).toBe('100');
      }
      const unauthorized = await head('/merchant_api/v1/skus', {});
      expect(unauthorized).toMatchObject({ status: 401, body: '' });
      expect(unauthorized.headers['www-authenticate']).toBe('Bearer');
      const postOnly = await head('/merchant_api/v1/skus/bulk_upsert');
      expect(postOnly.status).toBe(405);
      expect(postOnly.headers.allow).toBe('POST');
      const viaFetch = await api.fetch(`${api.baseUrl}/merchant_api/v1/skus`, {
        method: 'HEAD',
        headers: json,
      });
      expect(viaFetch.status).toBe(200);
      expect(await viaFetch.text()).toBe('');
      expect(api.state.requests.filter((r) => r.method === 'HEAD')).toHaveLength(7);
    } finally {
      await server.close();
    }
  });

  test('a request body over 10 MiB is answered 413 without being read', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    const server = await api.listen();
    const post = (write: (req: ClientRequest) => void, headers: Record<string, string | number>) =>
      new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
        const req = httpRequest(
          `${server.url}/merchant_api/v1/skus`,
          { method: 'POST', headers: { ...json, ...headers }, agent: false },
          (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => {
              body += chunk.toString();
            });
            res.on('end', () => {
              resolve({ status: res.statusCode!, body, connection: res.headers.connection });
              req.destroy();
            });
          },
        );
        req.on('error', reject);
        write(req);
      });
    try {
      // Declared too large: answered at once (the body is never sent).
      const declared = await post((req) => req.flushHeaders(), { 'content-length': 10 * 1024 * 1024 + 1 });
      expect(declared.status).toBe(413);
      expect(JSON.parse(declared.body)).toEqual({
        success: false,
        errors: ['request body too large (over 10485760 bytes)'],
      });
      expect(declared.connection).toBe('close');
      // Chunked, growing past the cap: answered once the cap is crossed.
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const streamed = await post(
        (req) => {
          for (let i = 0; i < 11; i++) req.write(chunk);
        },
        { 'transfer-encoding': 'chunked' },
      );
      expect(streamed.status).toBe(413);
      // Exactly at the cap is fine (and then the body is checked as usual).
      const atCap = Buffer.alloc(10 * 1024 * 1024, 0x20);
      atCap.write('{"name":"Big","merchant_sku_id":"BIG"}', 0);
      const ok = await fetch(`${server.url}/merchant_api/v1/skus`, {
        method: 'POST',
        headers: json,
        body: atCap,
      });
      expect(ok.status).toBe(201);
      expect(api.state.skus).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  test('close() is idempotent', async () => {
    const server = await createMockApi().listen();
    await Promise.all([server.close(), server.close()]);
    await server.close();
  });

  test('listen() rejects a bad port and a port in use', async () => {
    const api = createMockApi();
    await expect(api.listen({ port: -1 })).rejects.toThrow(/port/);
    const first = await api.listen();
    try {
      await expect(api.listen({ port: first.port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });

  test('one state behind both faces', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    const server = await api.listen();
    try {
      await mockRequest(server.url, 'POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' });
      const viaFetch = await mockRequest(api, 'GET', '/merchant_api/v1/skus');
      expect(viaFetch.body.data[0]!.merchant_sku_id).toBe('A');
    } finally {
      await server.close();
    }
  });
});
