/**
 * Path ids and query strings, encoded the way the API reads them.
 */
import { describe } from './describe.js';
import { RedirectError, RequestValidationError, type ValidationIssue } from './errors.js';
import { publicUrl, type Redactor } from './redact.js';

/** Whether a string is well-formed UTF-16 (no lone surrogate), so it can be encoded as UTF-8. */
export const isWellFormed = (text: string): boolean =>
  (text as unknown as { isWellFormed(): boolean }).isWellFormed();

const issue = (message: string): ValidationIssue => ({ path: 'path', message });

/**
 * Why the API token may not be sent to `url`, or `undefined` when it may: it must be on `origin`
 * (scheme, host and port of the client's base URL, worked out once per client), without
 * credentials. Request paths, redirects and cursors are all held to it. `shown`: the URL's origin
 * as the message names it.
 */
export function leavesOrigin(url: URL, origin: string, shown = originOf(url)): string | undefined {
  if (url.origin !== origin)
    return `it leads to ${shown}, not the configured origin ${origin}; the API token must not leave it`;
  return url.username || url.password ? 'it carries credentials (user@)' : undefined;
}

/**
 * What is wrong with a request path: it must be a path below the service root
 * (`/merchant_api/v1/skus`), or an absolute URL that {@link leavesOrigin} accepts. `undefined`
 * when it is fine. The message names the origins only, never the rest of the URL.
 */
export function pathIssue(path: unknown, origin: string): ValidationIssue | undefined {
  if (typeof path !== 'string') return issue(`expected a string starting with '/', got ${describe(path)}`);
  // Appended to the base URL, a path that starts with '/' ends its host part: whatever follows is
  // parsed as path, query or fragment of the same origin.
  if (path.startsWith('/')) return undefined;
  if (!/^https?:\/\//i.test(path)) {
    return issue(`must start with '/' (a path below the service root) or be an absolute URL on ${origin}`);
  }
  const why = URL.canParse(path) ? leavesOrigin(new URL(path), origin) : 'is not a valid URL';
  return why ? issue(why) : undefined;
}

/**
 * A URL's origin as messages show it: `https://host:port`, or, for a scheme without an origin
 * (`file:`, `data:`, `javascript:`, whose `origin` is `'null'`), the scheme by name.
 */
function originOf(url: URL): string {
  return url.origin === 'null' ? `a ${url.protocol} URL` : url.origin;
}

/** Most same-origin redirects one attempt follows. */
const MAX_REDIRECTS = 5;

/**
 * Where a redirect may be followed to: the same origin (scheme, host and port), for a `GET`
 * (nothing is re-sent), within {@link MAX_REDIRECTS}. Anything else is a `RedirectError` naming
 * the target origin (or scheme), and nothing is sent there.
 */
export function redirectTarget(
  response: Response,
  from: string,
  { method, hops, origin }: { method: string; hops: number; origin: string },
  redactor: Redactor,
): string {
  const location = response.type === 'opaqueredirect' ? null : response.headers.get('location');
  const headers = redactor.responseHeaders(response.headers);
  const init = { status: response.status, body: '', headers, method, url: publicUrl(from, redactor) };
  if (location === null)
    throw new RedirectError(init, undefined, 'the runtime does not expose where it leads');
  if (!URL.canParse(location, from)) throw new RedirectError(init, undefined, 'its Location is not a URL');
  const target = new URL(location, from);
  // The target's origin as errors show it: a server may put a secret in a host name.
  const shown = redactor.text(originOf(target));
  const why = leavesOrigin(target, origin, shown);
  if (why) throw new RedirectError(init, shown, why);
  if (method !== 'GET')
    throw new RedirectError(init, shown, `a ${method} is not repeated at another address`);
  if (hops >= MAX_REDIRECTS) throw new RedirectError(init, shown, `more than ${MAX_REDIRECTS} redirects`);
  return target.href;
}

/** A value the query encoder understands. @inline */
export type QueryScalar = string | number | boolean | Date;
/** A query parameter: a scalar, a list (`key[]=…`), or a record of scalars (`key[sub]=…`). @inline */
export type QueryValue =
  | QueryScalar
  | null
  | undefined
  | readonly QueryScalar[]
  | { readonly [key: string]: QueryScalar | null | undefined };

function scalar(value: QueryScalar, name: string): string {
  const text = value instanceof Date ? value.toISOString() : String(value);
  if (isWellFormed(text)) return encodeURIComponent(text);
  const message = 'contains a lone UTF-16 surrogate, which cannot be sent in a URL';
  throw new RequestValidationError([{ path: name, message }]);
}

/**
 * Encodes query parameters: `merchant_sku_ids: ['A', 'B']` → `merchant_sku_ids[]=A&merchant_sku_ids[]=B`,
 * `created_at: { gte: date }` → `created_at[gte]=<ISO 8601>`, `undefined` and `null` are left out.
 * Brackets are kept literal, as the API's own examples write them.
 */
export function encodeQuery(params: { readonly [key: string]: QueryValue } | undefined): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params ?? {})) {
    // Each value with what follows the name (`[]`, `[sub]` or nothing) and its path in messages.
    const values: [string, unknown, string][] = Array.isArray(value)
      ? value.map((item) => ['[]', item, key])
      : value && typeof value === 'object' && !(value instanceof Date)
        ? Object.entries(value).map(([sub, item]) => [
            `[${scalar(sub, `${key}.${sub}`)}]`,
            item,
            `${key}.${sub}`,
          ])
        : [['', value, key]];
    for (const [suffix, item, at] of values)
      if (item !== undefined && item !== null)
        parts.push(`${scalar(key, key)}${suffix}=${scalar(item as QueryScalar, at)}`);
  }
  return parts.join('&');
}

/**
 * Longest URL (scheme, host, path and query) the SDK sends for a list: 4,096 characters, well
 * within what common servers, proxies and CDNs accept (8 KB for a whole request line is usual).
 * A list filter longer than that is sent as several requests (see {@link splitQuery}).
 */
export const MAX_URL_LENGTH = 4_096;
/** Room for the `&page=N` a later page of a request adds. */
const PAGE_ROOM = '&page=999999999'.length;

/**
 * `params` as the queries of one or more requests to `url`, each within {@link MAX_URL_LENGTH}
 * with room for a later page: when the whole does not fit, its longest list parameter is split
 * into groups, the other parameters in every one. Only a single value longer than the bound
 * exceeds it. A value that cannot be encoded is a `RequestValidationError` (see `encodeQuery`).
 * `encoded`: the query of `params`, when the caller has it already.
 */
export function splitQuery<Q extends { readonly [key: string]: QueryValue }>(
  url: string,
  params: Q,
  encoded = encodeQuery(params),
): Q[] {
  const fixed = url.length + 1 + PAGE_ROOM;
  if (fixed + encoded.length <= MAX_URL_LENGTH) return [params];
  const length = (query: { readonly [key: string]: QueryValue }) => encodeQuery(query).length;
  const lists = Object.keys(params).filter((key) => Array.isArray(params[key]));
  const key = lists.sort((a, b) => length({ [b]: params[b] }) - length({ [a]: params[a] }))[0];
  if (key === undefined) return [params];
  const base = fixed + length({ ...params, [key]: undefined });
  const groups: QueryScalar[][] = [];
  let used = Number.POSITIVE_INFINITY;
  for (const value of params[key] as readonly QueryScalar[]) {
    const size = length({ [key]: [value] }) + 1; // and its `&`
    if (used + size > MAX_URL_LENGTH) {
      groups.push([]);
      used = base;
    }
    groups.at(-1)!.push(value);
    used += size;
  }
  return groups.length > 0 ? groups.map((group) => ({ ...params, [key]: group })) : [params];
}

/** An id accepted in a path: a positive safe integer, or a string of digits. */
export type Id = number | string;

/**
 * Checks a path id and returns it encoded for the URL. Accepts a positive safe integer or a string
 * of digits; anything else (`'../x'`, `-1`, `1.5`, `'1 OR 1'`) is a `RequestValidationError`.
 */
export function pathId(value: unknown, field = 'id'): string {
  const id = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  if (Number.isSafeInteger(id) && (id as number) > 0) return String(id);
  const shown =
    typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' ? value : describe(value);
  throw new RequestValidationError([
    { path: field, message: `expected a positive integer id, got ${shown}` },
  ]);
}
