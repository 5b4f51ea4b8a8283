/**
 * The one place where a request is built from what a resource method declares: the path (ids
 * checked), the query (validated, then encoded), the body (validated, then checked for what JSON
 * cannot carry) and the request options (checked). Whatever is wrong becomes one
 * `RequestValidationError` before anything is sent.
 */
import { closest, describe, isObject } from './describe.js';
import { RequestValidationError, type ValidationIssue } from './errors.js';
import { MAX_TIMER_MS } from './headers.js';
import { LazySchema, OptionalBody, type SchemaLike, schemaOf, validation } from './lazy.js';
import { encodeQuery, type Id, isWellFormed, pathId, pathIssue, type QueryValue } from './url.js';
import type * as Validation from './validation.js';

/** HTTP methods the API uses. @inline */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Query parameters as they are encoded (see `encodeQuery`). @inline */
export type QueryParams = { readonly [key: string]: QueryValue };

/** Per-request options: the last argument of every resource method. Never sent to the API. */
export interface RequestOptions {
  /** Aborts the request, including any retry wait (rejects with `APIUserAbortError`). */
  signal?: AbortSignal | undefined;
  /** Milliseconds per attempt; overrides the client's `timeout`. */
  timeout?: number | undefined;
  /** Extra attempts after the first; overrides the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Extra headers for this request (a value of `undefined` removes a default header). */
  headers?: Record<string, string | undefined> | undefined;
}

/** Options of list methods: the request options plus pagination controls. */
export interface ListOptions extends RequestOptions {
  /** Most pages one iteration may fetch before failing with `PaginationError`. Default 10 000. */
  maxPages?: number | undefined;
}

/**
 * A path with ids in it, written with the {@link path} tag. The ids are checked when the request is
 * built, so a bad id rejects the method's promise (nothing is sent) instead of throwing.
 */
export interface PathTemplate {
  /** The path with every id checked and encoded (`RequestValidationError` on a bad one). */
  resolve(): string;
}

/** Tags a path whose interpolations are ids: `` path`/merchant_api/v1/orders/${id}/cancel` ``. */
export const path = (strings: TemplateStringsArray, ...ids: Id[]): PathTemplate => new Template(strings, ids);

/** A path with its ids, resolved when the request is built (a method, no closure per call). */
class Template implements PathTemplate {
  constructor(
    private readonly strings: readonly string[],
    private readonly ids: readonly unknown[],
  ) {}

  resolve(): string {
    let out = this.strings[0]!;
    for (let i = 0; i < this.ids.length; i++) out += pathId(this.ids[i]) + this.strings[i + 1]!;
    return out;
  }
}

/** A path as resource methods give it: a constant, or a template with ids. @inline */
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
  /** The body as sent (`JSON.stringify` of the validated body), or `undefined` without a body. */
  bodyText?: string | undefined;
  /** See {@link RequestParts.idempotent}. */
  idempotent?: boolean | undefined;
  options?: RequestOptions | ListOptions | undefined;
}

/**
 * Builds a request from its declaration: checks `response` (a schema or a parser), the path (below the service root, or an absolute
 * URL on `origin`, the origin of the client's base URL) and its ids, validates and encodes the
 * query, validates the body, checks the request options. Throws `RequestValidationError` naming
 * the field; nothing is sent then. `v` is the validation module the client's `prepare` gave.
 */
export function buildRequest(
  method: HttpMethod,
  requestPath: RequestPath,
  init: RequestParts & { response: unknown },
  origin: string,
  v: typeof Validation = validation(),
): RequestSpec {
  const badResponse = RESPONSE(init?.response, 'response') as string | undefined;
  if (badResponse) refuse([{ path: 'response', message: badResponse }], method);
  const path = ((requestPath as Partial<PathTemplate> | undefined)?.resolve?.() ?? requestPath) as string;
  const badPath = pathIssue(path, origin);
  if (badPath) refuse([badPath], method);
  const context = `${method} ${path}`;
  const { query, querySchema, toQuery, bodySchema } = init;
  let params: QueryParams | undefined;
  if (query !== undefined) {
    if (!isObject(query)) refuse([NOT_A_QUERY], context);
    for (const key in REQUEST_OPTIONS) if (Object.hasOwn(query, key)) refuse(misplaced(query), context);
    const valid = querySchema ? v.validateRequest(v.compiled(schemaOf(querySchema)), query, context) : query;
    params = toQuery ? toQuery(valid as Record<string, unknown>) : (valid as QueryParams);
  }
  // A declared body is validated even when missing: `create(undefined)` is refused, not sent empty.
  const body = bodySchema
    ? v.validateRequest(v.compiled(schemaOf(bodySchema)), init.body, context)
    : init.body;
  const badBody = body === undefined ? undefined : jsonIssue(body);
  if (badBody) refuse([badBody], context);
  const { options } = init;
  const badOptions = requestOptionIssues(options);
  if (badOptions.length > 0) refuse(badOptions, context);
  return {
    method,
    path,
    params,
    query: params && encodeQuery(params),
    bodyText: body === undefined ? undefined : JSON.stringify(body),
    idempotent: init.idempotent,
    options,
  };
}

/** The request options put among the query parameters, each an issue. */
function misplaced(query: object): ValidationIssue[] {
  const message = 'is a request option, not a query parameter: pass it in the last argument';
  return Object.keys(query)
    .filter((key) => Object.hasOwn(REQUEST_OPTIONS, key))
    .map((key) => ({ path: key, message }));
}

/** Refuses the request: nothing is sent. */
function refuse(issues: ValidationIssue[], where: string): never {
  throw new RequestValidationError(issues, where);
}

const NOT_A_QUERY = { path: 'params', message: 'expected an object of query parameters' };

/** Deepest nesting of objects and arrays a request body may have. */
export const MAX_JSON_DEPTH = 64;

/**
 * The first value of `body` that cannot be sent as JSON, by path: a `bigint`, a function or symbol
 * inside an array, a cycle, a nesting deeper than {@link MAX_JSON_DEPTH}, a number that is not
 * finite, an invalid `Date` (which `JSON.stringify` would send as `null`), or a lone UTF-16
 * surrogate. `undefined` when the body is sendable.
 */
function jsonIssue(value: unknown, path = '', ancestors: object[] = []): ValidationIssue | undefined {
  const fail = (message: string) => ({ path: path || 'body', message });
  if (typeof value === 'bigint') return fail('a BigInt cannot be sent as JSON');
  if (typeof value === 'number' && !Number.isFinite(value)) return fail(`${value} cannot be sent as JSON`);
  if (typeof value === 'string' && !isWellFormed(value)) return fail('contains a lone UTF-16 surrogate');
  if (value instanceof Date && Number.isNaN(value.getTime())) return fail('an invalid Date cannot be sent');
  // What has a `toJSON` (a valid Date, …) is sent as that gives it.
  if (typeof value !== 'object' || value === null || typeof Object(value).toJSON === 'function') return;
  if (ancestors.includes(value)) return fail('refers to itself (a cycle)');
  if (ancestors.length >= MAX_JSON_DEPTH) return fail(`is nested deeper than ${MAX_JSON_DEPTH} levels`);
  ancestors.push(value);
  for (const [key, child] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (!isWellFormed(key)) return fail('has a key with a lone UTF-16 surrogate');
    const dropped = Array.isArray(value) && (typeof child === 'function' || typeof child === 'symbol');
    const issue = dropped
      ? { path: at, message: `a ${typeof child} cannot be sent as JSON` }
      : jsonIssue(child, at, ancestors);
    if (issue) return issue;
  }
  ancestors.pop();
}

/** The check of one option: what is wrong with `value` (never `undefined`), found at `path`. */
export type Rule = (value: unknown, path: string) => string | ValidationIssue[] | undefined;

/** A number from `min` (or `above` it) up to `max`, in `unit`; an integer when `integer`. */
export const inRange =
  (min: number, max: number, unit = '', { integer = false, above = false } = {}): Rule =>
  (v) =>
    typeof v === 'number' && (above ? v > min : v >= min) && v <= max && (!integer || Number.isInteger(v))
      ? undefined
      : `expected ${integer ? 'an integer' : 'a number'} ${above ? 'more than' : 'from'} ${min} up to ${max}${unit}, got ${typeof v === 'number' ? v : describe(v)}`;

/** A value `test` accepts, described as `what`; the value itself is never repeated (it may be a secret). */
export const is =
  (what: string, test: (value: unknown) => boolean): Rule =>
  (v) =>
    test(v) ? undefined : `expected ${what}, got ${describe(v)}`;

/** One of `allowed`. */
export const oneOf = (...allowed: readonly string[]): Rule =>
  is(`one of ${allowed.map((a) => `'${a}'`).join(', ')}`, (v) => allowed.includes(v as string));

/**
 * Issues with an object of options against `rules`: not an object; each key `rules` does not
 * know (with the closest known name); each value its rule refuses; each key of `required` missing
 * (its message). A key left `undefined` is an option not given. Messages never repeat a value.
 */
export function optionIssues(
  options: unknown,
  rules: Readonly<Record<string, Rule>>,
  path: string,
  what: string,
  required: Readonly<Record<string, string>> = {},
): ValidationIssue[] {
  if (!isObject(options)) return [{ path: path || 'options', message: `expected an object of ${what}` }];
  const issues: ValidationIssue[] = [];
  for (const key of new Set([...Object.keys(options), ...Object.keys(required)])) {
    const [at, value, known] = [path ? `${path}.${key}` : key, options[key], Object.hasOwn(rules, key)];
    const near = known ? undefined : closest(key, Object.keys(rules));
    const found =
      value === undefined
        ? Object.hasOwn(required, key) && required[key]
        : known
          ? rules[key]!(value, at)
          : `is not one of the ${what}${near ? ` (did you mean '${near}'?)` : ''}`;
    if (typeof found === 'string') issues.push({ path: at, message: found });
    else if (found) issues.push(...found);
  }
  return issues;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII, spaces and tabs inside, and obs-text; no control characters (CR, LF, NUL, …).
const HEADER_VALUE = /^[\t\x20-\x7E\x80-\xFF]*$/;
/** Headers the runtime manages: `fetch` refuses some with an untyped error and drops others. */
const CONNECTION_HEADER =
  /^(connection|content-length|expect|host|keep-alive|proxy-connection|te|trailer|transfer-encoding|upgrade)$/i;

/** A headers record (`undefined` values remove a header); the values are never repeated. */
export const headersRule: Rule = (headers, path) => {
  if (!isObject(headers) || headers instanceof Headers)
    return `expected an object of header names to string values, got ${describe(headers)}`;
  return Object.entries(headers).flatMap(([name, value]) => {
    const at = HEADER_NAME.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
    if (!HEADER_NAME.test(name)) return [{ path: at, message: 'is not a valid header name' }];
    if (CONNECTION_HEADER.test(name))
      return [{ path: at, message: 'is a connection-level header the runtime sets itself' }];
    const ok = value === undefined || (typeof value === 'string' && HEADER_VALUE.test(value));
    return ok ? [] : [{ path: at, message: 'expected a string without control characters (not shown)' }];
  });
};

/** What `response` may be: how the 2xx body becomes the result. */
const RESPONSE = /* @__PURE__ */ is(
  'a zod schema or a parser function',
  (r) =>
    typeof r === 'function' ||
    r instanceof LazySchema ||
    r instanceof OptionalBody ||
    typeof Object(r)._zod === 'object',
);

/** The request options (the last argument of every method; never query parameters). */
const REQUEST_OPTIONS: Readonly<Record<string, Rule>> = /* @__PURE__ */ (() => ({
  signal: is('an AbortSignal', (v) => v instanceof AbortSignal),
  timeout: inRange(0, MAX_TIMER_MS, ' ms', { above: true }),
  maxRetries: inRange(0, 100, '', { integer: true }),
  headers: headersRule,
  maxPages: inRange(1, Number.MAX_SAFE_INTEGER, '', { integer: true }),
}))();

/** Issues with the per-request options every method takes (and the list options, when given). */
export const requestOptionIssues = (options: unknown): ValidationIssue[] =>
  options === undefined ? [] : optionIssues(options, REQUEST_OPTIONS, 'options', 'request options');
