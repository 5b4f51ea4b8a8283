/**
 * Route matching for any table of routes: path segments under a prefix (`:id` matches a positive
 * integer), one handler per method, `HEAD` answered by `GET`, and the 404 / 405 outcomes. Used by
 * the API's table (`domain/routes.ts`) and the control routes (`faces/control.ts`). A path no route
 * answers is told of (`notFoundHint`) without showing a segment that could be a secret (a token
 * pasted as an id): only the table's own segments and record ids are shown, anything else by its
 * length.
 */
import type { JsonValue } from './json.js';
import type { MockResult } from './result.js';
import { describeText, describeValue } from './validation.js';

/** What an API route's handler gets: the state of the request's epoch and the parsed request. */
export interface RouteContext<S> {
  state: S;
  /** The mock's clock, read once for the request. */
  now: Date;
  query: URLSearchParams;
  /** The parsed JSON body (`undefined` when empty). */
  body: JsonValue | undefined;
  /** The `{id}` of the path (0 when the route has none). */
  id: number;
}

/** An API route's handler over a state of type `S`. */
export type RouteHandler<S> = (ctx: RouteContext<S>) => MockResult;

/** A route of a table: its path segments (`:id` matches a positive integer) and its handlers. */
export interface RouteOf<H> {
  /** Segments after the table's prefix. */
  segments: readonly string[];
  methods: Readonly<Record<string, H>>;
}

/** No route of a table answers a path: what a hint may say of it, never a segment that could be a secret. */
export interface NotFound {
  kind: 'not_found';
  /**
   * The path as a hint may show it: the segments of the table's routes (and of its prefix) and
   * record ids as they are, any other segment by its length (`<a string of 11 characters>`), at
   * most {@link SHOWN_SEGMENTS} segments.
   */
  shown: string;
  /**
   * When the path is a route's but for its `{id}` segment, which is not a record id: the route
   * (`/merchant_api/v1/orders/{id}`) and the segment described (`a string of 11 characters`,
   * digits as they are).
   */
  badId?: { route: string; got: string };
}

/** The result of matching a request against a table. */
export type MatchOf<H> =
  | { kind: 'found'; handler: H; id: number }
  | NotFound
  | { kind: 'wrong_method'; allow: string[] };

/** The most segments a hint shows of a path no route answers. */
const SHOWN_SEGMENTS = 12;

const ID = /^[1-9]\d{0,15}$/;

/**
 * Whether `text` is a record id as a path (or key) writes it: digits of an integer >= 1 that is
 * safe (a larger one would be rounded, and a 404 would name another id).
 */
export function isIdText(text: string): boolean {
  return ID.test(text) && Number.isSafeInteger(Number(text));
}

/**
 * Finds the handler of `method` on `path` in `routes` (paths under `prefix`). `HEAD` is answered
 * by the `GET` handler wherever there is one (the faces send no body), and listed in `allow`.
 */
export function matchPath<H>(
  routes: readonly RouteOf<H>[],
  prefix: string,
  method: string,
  path: string,
): MatchOf<H> {
  if (!path.startsWith(prefix)) return notFound(routes, prefix, path, undefined);
  const segments = path.slice(prefix.length).split('/');
  if (segments[segments.length - 1] === '') segments.pop(); // a trailing slash
  for (const route of routes) {
    if (route.segments.length !== segments.length) continue;
    let id = 0;
    const matches = route.segments.every((expected, i) => {
      const actual = segments[i]!;
      if (expected !== ':id') return expected === actual;
      id = Number(actual);
      return isIdText(actual);
    });
    if (!matches) continue;
    const handler = route.methods[method] ?? (method === 'HEAD' ? route.methods.GET : undefined);
    if (handler) return { kind: 'found', handler, id };
    const allow = Object.keys(route.methods);
    if (allow.includes('GET')) allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD');
    return { kind: 'wrong_method', allow };
  }
  // Nothing matched: only now, the first route the path would match but for its id, for the hint.
  let badId: NotFound['badId'];
  for (const route of routes) {
    if (route.segments.length !== segments.length) continue;
    badId = idMiss(route.segments, segments, prefix);
    if (badId !== undefined) break;
  }
  return notFound(routes, prefix, path, badId);
}

/**
 * When `actual` (the path's segments under `prefix`) are those of a route (`expected`) but for an
 * `{id}` that is no record id: the route and the segment described (digits as they are, other text
 * by its length).
 */
function idMiss(expected: readonly string[], actual: readonly string[], prefix: string): NotFound['badId'] {
  const bad = expected.findIndex((segment, i) => segment === ':id' && !isIdText(actual[i]!));
  if (bad < 0 || !expected.every((segment, i) => segment === ':id' || segment === actual[i])) {
    return undefined;
  }
  const raw = actual[bad]!;
  return {
    route: `${prefix}${expected.map((segment) => (segment === ':id' ? '{id}' : segment)).join('/')}`,
    got: describeText(raw),
  };
}

/** The segments a hint may show, per route table and prefix (built once, on the first 404). */
const KNOWN = new WeakMap<readonly RouteOf<unknown>[], Map<string, ReadonlySet<string>>>();

/** The segments of `prefix` and of the routes of `routes` (not `:id`): never a caller's secret. */
function knownSegments(routes: readonly RouteOf<unknown>[], prefix: string): ReadonlySet<string> {
  let byPrefix = KNOWN.get(routes);
  if (byPrefix === undefined) {
    byPrefix = new Map();
    KNOWN.set(routes, byPrefix);
  }
  let known = byPrefix.get(prefix);
  if (known === undefined) {
    const segments = new Set(prefix.split('/'));
    for (const route of routes) for (const segment of route.segments) segments.add(segment);
    segments.delete(':id');
    known = segments;
    byPrefix.set(prefix, known);
  }
  return known;
}

/** What a hint may say of `path`, which no route of `routes` (under `prefix`) answers. */
function notFound<H>(
  routes: readonly RouteOf<H>[],
  prefix: string,
  path: string,
  badId: NotFound['badId'],
): NotFound {
  const known = knownSegments(routes, prefix);
  const segments = path.split('/');
  const parts = segments
    .slice(0, SHOWN_SEGMENTS + 1)
    .map((segment) => (known.has(segment) || isIdText(segment) ? segment : `<${describeValue(segment)}>`));
  const shown =
    segments.length > parts.length
      ? `${parts.join('/')}/... (${segments.length - 1} segments in all)`
      : parts.join('/');
  return badId === undefined ? { kind: 'not_found', shown } : { kind: 'not_found', shown, badId };
}

/**
 * The mock-only `x-mock-hint` of a request no route answers (`what`: `API`, `control`): the
 * parameter and what is wrong with it (`GET /merchant_api/v1/orders/{id}: {id} must be an integer
 * >= 1, got a string of 11 characters`), or the path as {@link NotFound.shown} gives it (`no API
 * route GET /merchant_api/v1/<a string of 4 characters>`). Never a segment that could be a secret.
 */
export function notFoundHint(what: string, method: string, miss: NotFound): string {
  if (miss.badId) return `${method} ${miss.badId.route}: {id} must be an integer >= 1, got ${miss.badId.got}`;
  return `no ${what} route ${method} ${miss.shown}`;
}
