import { HttpResponse, http } from 'msw';
import type { SetupServer } from 'msw/node';
import { expect } from 'vitest';
import { BASE, TOKEN } from './msw.js';

/** What one request carried on the wire. */
export interface Captured {
  method: string;
  path: string;
  /** The raw query string, including `?` (empty when none). */
  search: string;
  headers: Headers;
  /** Parsed JSON body, or `undefined` when there was none. */
  body: unknown;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Answers METHOD path with `reply` (JSON, or a Response) and records every request. Any other
 * request fails the test (msw's onUnhandledFrame: 'error').
 */
export function capture(
  server: SetupServer,
  method: Method,
  path: string,
  reply: unknown | (() => Response),
  status = 200,
): Captured[] {
  const seen: Captured[] = [];
  server.use(
    http[method](`${BASE}${path}`, async ({ request }) => {
      const url = new URL(request.url);
      const text = await request.text();
      seen.push({
        method: request.method,
        path: url.pathname,
        search: url.search,
        headers: request.headers,
        body: text === '' ? undefined : JSON.parse(text),
      });
      return typeof reply === 'function'
        ? (reply as () => Response)()
        : HttpResponse.json(reply as never, { status });
    }),
  );
  return seen;
}

/** The parts of a request `expectWire` compares exactly. */
export type ExpectedWire = Partial<Pick<Captured, 'method' | 'path' | 'search' | 'body'>>;

const WIRE_KEYS = ['method', 'path', 'search', 'body'] as const;

/**
 * Asserts one captured request: each key given in `expected` (`method`, `path`, `search`, `body`)
 * is compared with `toEqual` (exact, not a subset; `body: undefined` asserts that no body was sent),
 * and the standard headers are always checked — `authorization: Bearer <TOKEN>`,
 * `accept: application/json`, a `user-agent` starting with `merchant-fulfillment/`, and
 * `content-type: application/json` exactly when a body was sent (absent otherwise).
 */
export function expectWire(captured: Captured | undefined, expected: ExpectedWire): void {
  expect(captured, 'no request was captured').toBeDefined();
  const request = captured!;
  for (const key of WIRE_KEYS) {
    if (Object.hasOwn(expected, key)) {
      expect(request[key], `request ${key}`).toEqual(expected[key]);
    }
  }
  const { headers } = request;
  expect(headers.get('authorization'), 'authorization header').toBe(`Bearer ${TOKEN}`);
  expect(headers.get('accept'), 'accept header').toBe('application/json');
  expect(headers.get('user-agent') ?? '', 'user-agent header').toMatch(/^merchant-fulfillment\/\S+/);
  if (request.body === undefined) {
    expect(headers.get('content-type'), 'content-type header on a request without a body').toBeNull();
  } else {
    expect(headers.get('content-type'), 'content-type header').toBe('application/json');
  }
}
