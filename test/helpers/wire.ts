import { HttpResponse, http } from 'msw';
import type { SetupServer } from 'msw/node';
import { BASE } from './msw.js';

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
