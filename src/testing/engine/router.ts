/**
 * Route matching for any table of routes: path segments under a prefix (`:id` matches a positive
 * integer), one handler per method, `HEAD` answered by `GET`, and the 404 / 405 outcomes. Used by
 * the API's table (`domain/routes.ts`) and the control routes (`faces/control.ts`).
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

/** The result of matching a request against a table. */
export type MatchOf<H> =
  | { kind: 'found'; handler: H; id: number }
  | { kind: 'not_found' }
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
 * by the `GET` handler wherever there is one (the faces send no body), and listed in `allow`.
 */
export function matchPath<H>(
  routes: readonly RouteOf<H>[],
  prefix: string,
  method: string,
  path: string,
): MatchOf<H> {
  if (!path.startsWith(prefix)) return { kind: 'not_found' };
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
  return { kind: 'not_found' };
}
