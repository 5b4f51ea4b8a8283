/**
 * The contract of the HTTP server face (`api.listen()`): what it takes and the running server it
 * resolves with. Kept apart from `server.ts` so that the core can name these types without
 * reaching `node:http` (the server face is loaded only when `listen()` is called).
 */

/** Options of `api.listen`. */
export interface MockListenOptions {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Interface; default `127.0.0.1`. */
  host?: string;
  /**
   * Lets browser pages call the server: `'*'` (any origin) or the origins allowed, such as
   * `'http://localhost:5173'` (scheme, host and port). The server then answers preflight `OPTIONS`
   * requests (204, allowing the API's methods and the `authorization` and `content-type` headers)
   * and adds `Access-Control-Allow-Origin` (with `Vary: Origin`, exposing the rate-limit headers)
   * to every answer to an allowed origin. Default: no CORS headers at all.
   */
  cors?: string | readonly string[];
}

/** A running HTTP server of the mock. */
export interface MockServer {
  /**
   * Root URL, e.g. `http://127.0.0.1:4010` (API paths start with `/merchant_api/`, control routes
   * with `/__mock/`).
   */
  url: string;
  /** Port listened on. */
  port: number;
  /**
   * Stops the server: closes every connection, cancels pending response delays, and abandons the
   * mock's webhook deliveries in flight (their records stay, marked `abandoned`), so nothing keeps
   * the process alive. `api.close()` closes every server of the mock at once.
   */
  close(): Promise<void>;
}
