/**
 * The msw face: request handlers that pass every request under `${baseUrl}/merchant_api/` and
 * `${baseUrl}/__mock/` (the control routes) to the mock's core — and nothing else. The only module of the kit that loads `msw`, an optional peer dependency.
 *
 * `msw` is loaded once, when the kit is imported, with a dynamic `import('msw')` awaited at the top
 * level: `api.handlers` stays synchronous (as `setupServer(...api.handlers)` needs), the bare
 * specifier stays a dynamic import whatever the bundler does, and without `msw` installed the kit
 * still loads — only `api.handlers` throws, saying what to install.
 */
import type * as Msw from 'msw';

let msw: typeof Msw | undefined;
let loadError: unknown;
try {
  msw = await import('msw');
} catch (error) {
  loadError = error;
}

/**
 * msw handlers answering `${baseUrl}/merchant_api/*` and `${baseUrl}/__mock/*` with `handle`; a
 * dropped connection becomes a network error. Throws when `msw` could not be loaded.
 */
export function createMswHandlers(
  baseUrl: string,
  handle: (request: Request) => Promise<Response>,
): Msw.HttpHandler[] {
  if (!msw) {
    const reason = (loadError as Error)?.message ?? loadError;
    throw new Error(
      "api.handlers needs the optional peer dependency 'msw' (v2 or v3): install it with `npm install --save-dev msw`. " +
        `Without msw, use api.listen() (a real HTTP server) or api.fetch. (Loading msw failed: ${reason})`,
      { cause: loadError },
    );
  }
  // A dropped connection is `Response.error()`, which msw turns into a network error.
  const resolver: Msw.HttpResponseResolver = ({ request }) => handle(request);
  return [msw.http.all(`${baseUrl}/merchant_api/*`, resolver), msw.http.all(`${baseUrl}/__mock/*`, resolver)];
}
