/**
 * CORS of the HTTP server face (`api.listen({ cors })`, `faces/cors.ts`): preflights answered for
 * allowed origins, `Access-Control-Allow-Origin` on every answer to them, nothing without the option.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { MockServer } from '../../../src/testing/index.js';
import { TOKEN, testApi } from '../helpers.js';

const APP = 'http://localhost:5173';
let servers: MockServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(cors?: string | readonly string[]): Promise<MockServer> {
  const server = await testApi().listen(cors === undefined ? {} : { cors });
  servers.push(server);
  return server;
}

function preflight(server: MockServer, origin: string, headers = 'authorization, content-type') {
  return fetch(`${server.url}/merchant_api/v1/orders`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
  });
}

function get(server: MockServer, origin?: string) {
  return fetch(`${server.url}/merchant_api/v1/warehouses`, {
    headers: { authorization: `Bearer ${TOKEN}`, ...(origin ? { origin } : {}) },
  });
}

describe('listen({ cors })', () => {
  test('answers the preflight of an allowed origin', async () => {
    const server = await serve([APP, 'https://tools.example']);
    const answer = await preflight(server, APP, 'Authorization, Content-Type, X-Trace');
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
    expect(answer.headers.get('access-control-allow-headers')?.split(', ')).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'x-trace']),
    );
    expect(answer.headers.get('access-control-max-age')).toBe('600');
    expect(answer.headers.get('vary')).toBe('Origin');
    expect(await answer.text()).toBe('');
  });

  test('adds the allow headers to every answer to an allowed origin, errors included', async () => {
    const server = await serve(APP);
    const ok = await get(server, APP);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP);
    expect(ok.headers.get('access-control-expose-headers')).toContain('x-rate-limit-used');
    expect(ok.headers.get('vary')).toBe('Origin');
    const unauthorized = await fetch(`${server.url}/merchant_api/v1/warehouses`, {
      headers: { origin: APP },
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(APP);
  });

  test('another origin gets no allow header, and its preflight is refused', async () => {
    const server = await serve(APP);
    const answer = await get(server, 'http://evil.example');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('vary')).toBe('Origin');
    const refused = await preflight(server, 'http://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  test("'*' allows any origin", async () => {
    const server = await serve('*');
    expect((await preflight(server, 'http://any.example')).headers.get('access-control-allow-origin')).toBe(
      '*',
    );
    expect((await get(server, 'http://any.example')).headers.get('access-control-allow-origin')).toBe('*');
  });

  test('without the option: no CORS headers, and OPTIONS is an ordinary request', async () => {
    const server = await serve();
    const answer = await get(server, APP);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('vary')).toBeNull();
    const options = await preflight(server, APP);
    expect(options.status).toBe(401);
    expect(options.headers.get('access-control-allow-origin')).toBeNull();
  });

  test.each([
    ['localhost:5173', 'a string of 14 characters'],
    ['http://localhost:5173/app', 'a string of 25 characters'],
    [['*', 'ftp//x'], 'a string of 6 characters'],
    // An origin with credentials: described by its length, never shown.
    ['http://user:pw-secret@localhost:5173', 'a string of 36 characters'],
  ])('a bad origin %j is refused by listen(), described, not shown', async (cors, described) => {
    const error = await testApi()
      .listen({ cors })
      .catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /^listen: cors must be '\*' or origins such as 'http:\/\/localhost:5173' /,
    );
    expect((error as Error).message.endsWith(`, got ${described}`)).toBe(true);
    expect((error as Error).message).not.toContain('pw-secret');
  });
});
