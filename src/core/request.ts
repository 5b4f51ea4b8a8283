/**
 * The one place where a request is built from what a resource method declares: the path (ids
 * checked), the query (validated, then encoded), the body (validated) and the request options
 * (checked). Whatever is wrong becomes one `RequestValidationError` before anything is sent.
 */
import { RequestValidationError } from './errors.js';
import { jsonIssue } from './json.js';
import { type SchemaLike, schemaOf, validation } from './lazy.js';
import { fast } from './lazy-compile.js';
import {
  type ListOptions,
  REQUEST_OPTION_KEYS,
  type RequestOptions,
  requestOptionIssues,
} from './options.js';
import { encodeQuery, type Id, pathId, pathIssue, type QueryValue } from './url.js';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Query parameters as they are encoded (see `encodeQuery`). */
export type QueryParams = { readonly [key: string]: QueryValue };

/**
 * A path with ids in it, written with the {@link path} tag. The ids are checked when the request is
 * built, so a bad id rejects the method's promise (nothing is sent) instead of throwing.
 */
export class PathTemplate {
  readonly #strings: readonly string[];
  readonly #ids: readonly unknown[];

  constructor(strings: readonly string[], ids: readonly unknown[]) {
    this.#strings = strings;
    this.#ids = ids;
  }

  /** The path with every id checked and encoded (`RequestValidationError` on a bad one). */
  resolve(): string {
    let out = this.#strings[0]!;
    for (let i = 0; i < this.#ids.length; i++) out += pathId(this.#ids[i]) + this.#strings[i + 1]!;
    return out;
  }
}

/** Tags a path whose interpolations are ids: `` path`/merchant_api/v1/orders/${id}/cancel` ``. */
export function path(strings: TemplateStringsArray, ...ids: Id[]): PathTemplate {
  return new PathTemplate(strings, ids);
}

/** A path as resource methods give it: a constant, or a template with ids. */
export type RequestPath = string | PathTemplate;

/** What a resource method declares about its request, besides method and path. */
export interface RequestParts {
  /** Query parameters as the caller passed them. */
  query?: object | undefined;
  /** Validates `query` (its output is what is sent); without it, `query` is sent as given. */
  querySchema?: SchemaLike | undefined;
  /** Reshapes the validated query before encoding (e.g. a list joined by commas). */
  toQuery?: ((valid: Record<string, unknown>) => QueryParams) | undefined;
  /** JSON body as the caller passed it. */
  body?: unknown;
  /** Validates `body` (its output is what is sent); without it, `body` is sent as given. */
  bodySchema?: SchemaLike | undefined;
  /**
   * Whether the request may be repeated safely. Defaults to true for every method but POST.
   * A non-idempotent request is retried only when it provably never reached the server's logic.
   */
  idempotent?: boolean | undefined;
  /** The caller's request options (list options for list methods). */
  options?: RequestOptions | ListOptions | undefined;
}

/** One API call, ready to send. */
export interface RequestSpec {
  method: HttpMethod;
  /** Path below the service root (`/merchant_api/v1/skus`), or an absolute URL on the same origin. */
  path: string;
  /** The validated query parameters (pagination continues from them). */
  params?: QueryParams | undefined;
  /** Encoded query string without `?` (see `encodeQuery`). */
  query?: string | undefined;
  /** JSON body (already validated). */
  body?: unknown;
  /** The body as sent: `JSON.stringify(body)`, or `undefined` without a body. */
  bodyText?: string | undefined;
  /** See {@link RequestParts.idempotent}. */
  idempotent?: boolean | undefined;
  options?: RequestOptions | ListOptions | undefined;
}

function misplacedOptions(query: object, context: string): void {
  if (query === null || typeof query !== 'object' || Array.isArray(query)) {
    throw new RequestValidationError(
      [{ path: 'params', message: 'expected an object of query parameters' }],
      context,
    );
  }
  const misplaced = Object.keys(query).filter((key) => REQUEST_OPTION_KEYS.has(key));
  if (misplaced.length > 0) {
    throw new RequestValidationError(
      misplaced.map((key) => ({
        path: key,
        message: 'is a request option, not a query parameter: pass it in the last argument',
      })),
      context,
    );
  }
}

/**
 * Builds a request from its declaration: checks the path (below the service root, or an absolute
 * URL on `origin`, the origin of the client's base URL) and its ids, validates and encodes the query, validates the body,
 * checks the request options. Throws `RequestValidationError` naming the field; nothing is sent
 * then. The options are used as given: the client passes the copy it took when the method was
 * called (`snapshotOptions`), so a later change to the caller's object changes nothing.
 */
export function buildRequest(
  method: HttpMethod,
  requestPath: RequestPath,
  init: RequestParts,
  origin: string,
): RequestSpec {
  const path = requestPath instanceof PathTemplate ? requestPath.resolve() : requestPath;
  const badPath = pathIssue(path, origin);
  if (badPath) throw new RequestValidationError([badPath], method);
  const context = `${method} ${path}`;
  let params: QueryParams | undefined;
  if (init.query !== undefined) {
    misplacedOptions(init.query, context);
    const valid = (
      init.querySchema
        ? validation().validateRequest(fast(schemaOf(init.querySchema)), init.query, context)
        : init.query
    ) as Record<string, unknown>;
    params = init.toQuery ? init.toQuery(valid) : (valid as QueryParams);
  }
  // A declared body is validated even when missing: `create(undefined)` is refused, not sent empty.
  const body = init.bodySchema
    ? validation().validateRequest(fast(schemaOf(init.bodySchema)), init.body, context)
    : init.body;
  let bodyText: string | undefined;
  if (body !== undefined) {
    const issue = jsonIssue(body);
    if (issue) throw new RequestValidationError([issue], context);
    bodyText = stringify(body, context);
  }
  const options = init.options;
  const problems = requestOptionIssues(options);
  if (problems.length > 0) throw new RequestValidationError(problems, context);
  return {
    method,
    path,
    params,
    query: params && encodeQuery(params),
    body,
    bodyText,
    idempotent: init.idempotent,
    options,
  };
}

/**
 * `JSON.stringify` of a body {@link jsonIssue} passed. A `toJSON` method runs only here: when it
 * throws, or returns what JSON cannot carry (a BigInt), the request is refused, naming the body.
 */
function stringify(body: unknown, context: string): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    const what = error instanceof Error ? error.name : typeof error;
    throw new RequestValidationError(
      [{ path: 'body', message: `cannot be sent as JSON: a toJSON method failed (${what})` }],
      context,
    );
  }
}
