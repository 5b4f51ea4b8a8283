/**
 * The request surface: what a resource method calls to reach the API. `FulfillmentClient`
 * implements it; resources depend on this interface only, never on the client itself.
 */
import type { APIPromise } from './api-promise.js';
import type { SchemaLike } from './lazy.js';
import type { ListOptions } from './options.js';
import type { PagePromise } from './pagination.js';
import type { RequestParts, RequestPath } from './request.js';
import type { ResponseParsers, ResponseSpec } from './response.js';
import type { ValidationMode } from './validation.js';

/**
 * A request as `client.get/post/put/patch/delete(path, init)` take it, for an endpoint the SDK has
 * no method for (and as every resource method declares its own): `query`, `body`, `options`, and
 * `response`, how the 2xx body becomes the result.
 */
export interface ClientRequestInit<T> extends RequestParts {
  /** How the 2xx body becomes the result: a schema (checked in the client's mode) or a parser. */
  response: ResponseSpec<T>;
}

/** A list request as a resource method declares it: path, query and options. @inline */
export interface ClientListInit extends Omit<RequestParts, 'body' | 'bodySchema' | 'idempotent'> {
  options?: ListOptions | undefined;
}

/**
 * Every way to call the API. Each method builds the request in one place (path ids, query and body
 * validated, options checked), sends it through the transport, and reads the answer. Input problems
 * reject the returned promise; nothing is sent then.
 */
export interface RequestSurface {
  /** The service root every path is appended to. */
  readonly baseUrl: string;
  /** How responses are checked. */
  readonly validateResponses: ValidationMode;
  /** The client's response checks, for bodies read outside `get`/`post`/…. @internal */
  readonly _responses: ResponseParsers;
  get<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T>;
  post<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T>;
  put<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T>;
  patch<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T>;
  delete<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T>;
  /** A list: `await` for the first page, `for await` for every item; next pages come through `get`. */
  getAPIList<T>(path: RequestPath, item: SchemaLike<T>, init?: ClientListInit): PagePromise<T>;
}
