/**
 * Route matching for any table of routes: path segments under a prefix (`:id` matches a positive
 * integer), one handler per method, `HEAD` answered by `GET`, and the 404 / 405 outcomes. Used by
 * the API's table (`domain/routes.ts`) and the control routes (`faces/control.ts`). A path no route
 * answers is told of (`notFoundHint`) as it was sent.
 */
import type { JsonValue } from './json.js';
import type { MockResult } from './result.js';

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

/** No route of a table answers a path: what a hint says of it. */
export interface NotFound {
  kind: 'not_found';
  /** The path as sent. */
  shown: string;
  /**
   * When the path is a route's but for its `{id}` segment, which is not a record id: the route
   * (`/merchant_api/v1/orders/{id}`) and the segment quoted (`'abc'`).
   */
  badId?: { route: string; got: string };
}

/** The result of matching a request against a table. */
export type MatchOf<H> =
  | { kind: 'found'; handler: H; id: number }
  | NotFound
  | { kind: 'wrong_method'; allow: string[] };

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
 * by the `GET` handler wherever there is one (the faces send no body), and listed in `allow`. A
 * path no route answers notes the first route it would match but for its `{id}`, for the hint.
 */
export function matchPath<H>(
  routes: readonly RouteOf<H>[],
  prefix: string,
  method: string,
  path: string,
): MatchOf<H> {
  if (!path.startsWith(prefix)) return { kind: 'not_found', shown: path };
  const segments = path.slice(prefix.length).split('/');
  if (segments.at(-1) === '') segments.pop(); // a trailing slash
  let badId: NotFound['badId'];
  for (const route of routes) {
    const shape = route.segments;
    if (shape.length !== segments.length || !shape.every((s, i) => s === ':id' || s === segments[i]))
      continue;
    const raw = shape.includes(':id') ? segments[shape.indexOf(':id')]! : undefined;
    if (raw !== undefined && !isIdText(raw)) {
      badId ??= { route: `${prefix}${shape.join('/').replace(':id', '{id}')}`, got: `'${raw}'` };
      continue;
    }
    const handler = route.methods[method] ?? (method === 'HEAD' ? route.methods.GET : undefined);
    if (handler) return { kind: 'found', handler, id: raw === undefined ? 0 : Number(raw) };
    const allow = Object.keys(route.methods);
    if (allow.includes('GET')) allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD');
    return { kind: 'wrong_method', allow };
  }
  return badId ? { kind: 'not_found', shown: path, badId } : { kind: 'not_found', shown: path };
}

/**
 * The mock-only `x-mock-hint` of a request no route answers (`what`: `API`, `control`): the
 * parameter and what is wrong with it (`GET /merchant_api/v1/orders/{id}: {id} must be an integer
 * >= 1, got 'abc'`), or the path as sent (`no API route GET /merchant_api/v1/nope`).
 */
export function notFoundHint(what: string, method: string, miss: NotFound): string {
  if (miss.badId) return `${method} ${miss.badId.route}: {id} must be an integer >= 1, got ${miss.badId.got}`;
  return `no ${what} route ${method} ${miss.shown}`;
}
