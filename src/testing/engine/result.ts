/**
 * The core's transport-neutral request and result (each face converts its own requests to the
 * one and writes the other), their serialization, and the bodies of the common error answers.
 */

/** A request as the mock's core sees it (each face converts its own requests to this). */
export interface MockRequest {
  /** Upper-case method. */
  method: string;
  /** Path without query, starting with `/merchant_api/` for API routes. */
  path: string;
  /** Query string without the `?`. */
  search: string;
  /** The `Authorization` header, or `null`. */
  authorization: string | null;
  /** The raw body (`''` when none). */
  body: string;
}

/** What the core answers. `drop` means: no answer, close the connection. */
export interface MockResult {
  status: number;
  /** A JSON-serializable body. */
  body?: unknown;
  headers?: Record<string, string> | undefined;
  drop?: boolean | undefined;
}

/** The core as every face calls it. */
export type Dispatch = (request: MockRequest) => Promise<MockResult>;

/** A JSON answer. */
export function json(status: number, body: unknown, headers?: Record<string, string>): MockResult {
  return { status, body, headers };
}

/** An error answer in the provider's format: `{ success: false, errors: [...] }`. */
export function failure(status: number, ...errors: string[]): MockResult {
  return { status, body: { success: false, errors } };
}

/** The `500` of a request whose handling threw: `mock error: <message>`. */
export function mockError(error: unknown): MockResult {
  return failure(500, `mock error: ${error instanceof Error ? error.message : String(error)}`);
}

/** Whether a result has a body to send (told without serializing it): some statuses never do. */
const hasBody = (result: MockResult) =>
  result.body !== undefined && ![101, 103, 204, 205, 304].includes(result.status);

/** The response headers of a result (content type included when there is a body). */
export function resultHeaders(result: MockResult): Record<string, string> {
  const type = hasBody(result) ? { 'content-type': 'application/json; charset=utf-8' } : {};
  return { ...result.headers, ...type };
}

/** The serialized body of a result (`null` when it has none, or its status allows none). */
export function resultBody(result: MockResult): string | null {
  return hasBody(result) ? JSON.stringify(result.body) : null;
}
