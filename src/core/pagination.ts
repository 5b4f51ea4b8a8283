/**
 * Pagination: `Page` and `PagePromise`. One paginator follows whichever style the server answers
 * with — page numbers (`current_page` / `page_count`), a cursor (`next_page_url`) or a bare JSON
 * array — holds one page at a time, and refuses to loop. Also the request surface resources call
 * (`RequestSurface`): every next page is fetched through it.
 */

import { isObject } from './describe.js';
import { PaginationError, RequestValidationError } from './errors.js';
import { type SchemaLike, schemaOf, validation } from './lazy.js';
import type { ListOptions, QueryParams, RequestParts, RequestPath } from './request.js';
import {
  APIPromise,
  type RawResponse,
  type ResponseParsers,
  type ResponseSpec,
  readJson,
  withoutProto,
} from './response.js';
import { leavesOrigin } from './url.js';

/**
 * Pagination block of a list envelope, as the server sent it. Both styles seen on this API:
 * page numbers (version 1) and a cursor (version 2). Every field may be absent or `null`, and
 * unknown keys are kept. (`PaginationSchema` in the schemas describes the same block; a type test
 * keeps the two equal.)
 */
export interface Pagination {
  /** 1-based number of this page (page-number style). */
  current_page?: number | null | undefined;
  /** Number of pages (page-number style). */
  page_count?: number | null | undefined;
  /** Number of items over all pages (page-number style). */
  item_count?: number | null | undefined;
  /** Page size (page-number style). */
  items_per_page?: number | null | undefined;
  /** URL of the first page (cursor style). */
  first_page_url?: string | null | undefined;
  /** URL of the next page, `null` on the last page (cursor style). */
  next_page_url?: string | null | undefined;
  /** Page size (cursor style). */
  limit?: number | null | undefined;
  [key: string]: unknown;
}

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
  /** The client's response checks, for bodies read outside `get`/`post`/…. @internal */
  readonly _responses: ResponseParsers;
  /** The origin of `baseUrl`, worked out once per client: cursors may not leave it. @internal */
  readonly _origin: string;
  get<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T>;
  post<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T>;
  put<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T>;
  patch<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T>;
  delete<T>(path: RequestPath, init: ClientRequestInit<T>): APIPromise<T>;
  /** A list: `await` for the first page, `for await` for every item; next pages come through `get`. */
  getAPIList<T>(path: RequestPath, item: SchemaLike<T>, init?: ClientListInit): PagePromise<T>;
}

/** The client as pagination sees it: `get`, its response checks and its origin. */
type PageClient = Pick<RequestSurface, 'get' | '_responses' | '_origin'>;

/** What is needed to ask for a page. @internal */
export interface PageRequest {
  /** Path below the service root, or a cursor URL. */
  path: string;
  params: QueryParams | undefined;
  options: ListOptions | undefined;
  /** The requests that follow this one's last page: a filter too long for one URL (`splitQuery`). */
  rest?: { path: string; queries: readonly QueryParams[] } | undefined;
  /** The first page of one of those requests: the loop checks start again. */
  restart?: boolean | undefined;
}

/** What a list carries from page to page to spot a loop (at most {@link MAX_CURSORS} cursors). */
interface Trail {
  pageNumber: number;
  pagesFetched: number;
  /** Size and first and last ids of the previous page, to spot a page sent twice. */
  signature: string | undefined;
  /** The cursors followed last (at most {@link MAX_CURSORS}), oldest first. */
  cursors: Set<string>;
}

/** Default page size of the API when no `limit` is sent. */
const DEFAULT_PAGE_SIZE = 20;
const DEFAULT_MAX_PAGES = 10_000;
/**
 * How many of the cursors followed last a list remembers to spot a loop, whatever `maxPages` is:
 * memory stays bounded on a list of any length, and a loop longer than this ends at `maxPages`.
 */
export const MAX_CURSORS = 1_000;

const idOf = (item: unknown): string => (isObject(item) && 'id' in item ? String(item.id) : '');
const numberOr = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** How a page fetches the next: a function, or why there is none (`null`: the last page). */
type NextPage<T> = ((options?: ListOptions) => Promise<Page<T>>) | PaginationError | null;

/** One page of a collection. */
export class Page<T> {
  /** The items of this page. */
  readonly data: T[];
  /** The pagination block as the server sent it, or `null` (bare array, or none sent). */
  readonly pagination: Pagination | null;
  /** The response this page came from (body already read). */
  readonly response: Response;
  readonly #next: NextPage<T>;

  /** @internal */
  constructor(data: T[], pagination: Pagination | null, response: Response, next: NextPage<T>) {
    this.data = data;
    this.pagination = pagination;
    this.response = response;
    this.#next = next;
  }

  /** Whether another page follows. */
  hasNextPage(): boolean {
    return this.#next !== null;
  }

  /**
   * Fetches the next page; rejects with `PaginationError` when there is none or it would loop, and
   * with a `RequestValidationError` (nothing sent) when `options` is given but is not an object.
   */
  getNextPage(options?: ListOptions): Promise<Page<T>> {
    const next = this.#next;
    return typeof next === 'function'
      ? next(options)
      : Promise.reject(next ?? new PaginationError('There is no next page.'));
  }
}

/**
 * Builds a page from a response, applying the loop defences, and works out how the next one is
 * fetched: a cursor (`next_page_url`, relative to the page it came from) is followed until it is
 * `null`; page numbers until `page_count`; a bare array while pages are full; then the requests of
 * the rest of a split filter. A body that is not a page is a `ResponseValidationError` without the
 * client's secrets, as for every other response. @internal
 */
function buildPage<T>(
  client: PageClient,
  request: PageRequest,
  item: SchemaLike<T>,
  raw: RawResponse,
  previous: Trail | undefined,
): Page<T> {
  let data: T[];
  let p: Pagination | null = null;
  try {
    const body = readJson(raw, false);
    let items = body; // not a collection: the schema reports it with the body kept
    if (isObject(body) && Array.isArray(body.data)) {
      items = body.data;
      if (isObject(body.pagination)) p = withoutProto(body.pagination) as Pagination;
    }
    data = client._responses.parse(validation().arrayOf(schemaOf(item)), items) as T[];
  } catch (error) {
    throw client._responses.clean(error, raw);
  }
  const current = numberOr(p?.current_page);
  const ids = `${idOf(data[0])}:${idOf(data.at(-1))}`;
  const signature = ids === ':' ? undefined : `${data.length}:${ids}`;
  // The first page of a request of a split filter starts the loop checks again.
  if (previous && !request.restart) {
    if (current !== undefined && current <= previous.pageNumber) {
      throw new PaginationError(
        `The server answered page ${current} after page ${previous.pageNumber}; stopping to avoid a loop.`,
      );
    }
    if (signature !== undefined && signature === previous.signature) {
      throw new PaginationError(
        'The server sent the same items as the previous page; stopping to avoid a loop.',
      );
    }
  }
  const { path, params, options, rest } = request;
  const cursors = previous?.cursors ?? new Set<string>();
  if (params === undefined && /^https?:/i.test(path)) {
    // A followed cursor is remembered; the oldest beyond MAX_CURSORS is forgotten.
    cursors.add(path);
    if (cursors.size > MAX_CURSORS) cursors.delete(cursors.values().next().value!);
  }
  const pageNumber = current ?? numberOr(params?.page) ?? 1;
  const trail: Trail = { pageNumber, pagesFetched: (previous?.pagesFetched ?? 0) + 1, signature, cursors };
  let next: PageRequest | PaginationError | null = null;
  const cursor = p?.next_page_url;
  if (p && 'next_page_url' in p && current === undefined) {
    if (typeof cursor === 'string' && cursor !== '') {
      const url = URL.canParse(cursor, raw.url) ? new URL(cursor, raw.url) : undefined;
      const why = !url
        ? 'it is not a URL'
        : (leavesOrigin(url, client._origin) ??
          (cursors.has(url.href) ? 'the server sent this cursor before (a loop)' : undefined));
      next = why
        ? new PaginationError(`Refusing to follow next_page_url: ${why}.`)
        : { path: url!.href, params: undefined, options, rest };
    }
  } else if (
    data.length > 0 &&
    (current === undefined
      ? data.length >= (numberOr(params?.limit) ?? DEFAULT_PAGE_SIZE)
      : current < (numberOr(p?.page_count) ?? Number.POSITIVE_INFINITY))
  ) {
    next = { path, params: { ...params, page: pageNumber + 1 }, options, rest };
  }
  const [first, ...queries] = rest?.queries ?? [];
  if (next === null && first && rest)
    next = { path: rest.path, params: first, options, rest: { path: rest.path, queries }, restart: true };
  if (!next || next instanceof PaginationError) return new Page(data, p, raw.response, next);
  const following = next;
  // The next page, its request's options merged with the caller's, within maxPages.
  return new Page(data, p, raw.response, (more?: ListOptions) => {
    const maxPages = following.options?.maxPages ?? DEFAULT_MAX_PAGES;
    if (trail.pagesFetched >= maxPages) {
      const message = `Stopped after ${trail.pagesFetched} pages (maxPages is ${maxPages}); more pages were announced.`;
      return Promise.reject(new PaginationError(message));
    }
    // Options that are not an object reach the request's own check, which refuses them.
    const merged = isObject(more) ? { ...following.options, ...more } : (more as ListOptions);
    const request = more === undefined ? following : { ...following, options: merged };
    const response = (r: RawResponse) => buildPage(client, request, item, r, trail);
    return client.get(request.path, { query: request.params, options: request.options, response });
  });
}

/**
 * What list methods return. `await` it for the first `Page`; `for await` it for every item of every
 * page, fetched lazily; `.pages()` for pages; `.toArray({ max })` to collect a bounded number.
 */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  /** Built by the client's `getAPIList`, which sends the first request (`raw`) as it sends every request. @internal */
  constructor(client: PageClient, raw: Promise<RawResponse>, request: PageRequest, item: SchemaLike<T>) {
    super(raw, (r) => buildPage(client, request, item, r, undefined));
  }

  /** Every page, starting with the first, each fetched when the loop asks for it. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> | undefined = await this;
    for (; page; page = page.hasNextPage() ? await page.getNextPage() : undefined) yield page;
  }

  /** Every item of every page, in order. Breaking out of the loop stops fetching. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /**
   * Collects at most `max` items, fetching no page beyond what `max` needs. A bad `max` rejects
   * with a `RequestValidationError`.
   */
  async toArray(options: { max: number }): Promise<T[]> {
    const max = options?.max;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 0) {
      const message = 'toArray needs a bound: pass { max } as an integer >= 0';
      throw new RequestValidationError([{ path: 'max', message }], 'toArray');
    }
    const out: T[] = [];
    if (max > 0) for await (const item of this) if (out.push(item) >= max) break;
    return out;
  }
}
