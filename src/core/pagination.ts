/**
 * Pagination: `Page` and `PagePromise`. One paginator follows whichever style the server answers
 * with — page numbers (`current_page` / `page_count`), a cursor (`next_page_url`) or a bare JSON
 * array — holds one page at a time, and refuses to loop. Also the request surface resources call
 * (`RequestSurface`): every next page is fetched through it.
 */

import { isObject } from './describe.js';
import { APIUserAbortError, PaginationError, RequestValidationError } from './errors.js';
import { type SchemaLike, schemaOf, validation } from './lazy.js';
import type { Redactor } from './redact.js';
import type { ListOptions, QueryParams, RequestParts, RequestPath } from './request.js';
import {
  APIPromise,
  type RawResponse,
  type ResponseParsers,
  type ResponseSpec,
  readJson,
  withoutProto,
} from './response.js';
import { originOf } from './url.js';
import type { ValidationMode } from './validation.js';

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

/** The client as pagination sees it: its origin (cursors may not leave it), its response checks, `get`. */
type PageClient = Pick<RequestSurface, 'get' | '_responses'> & {
  /** The origin (scheme, host and port) of the client's base URL, worked out once per client. @internal */
  readonly _origin: string;
};

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

/** How the next page is found, carried from page to page (bounded: at most {@link MAX_CURSORS} cursors). */
interface Trail {
  pageNumber: number;
  pagesFetched: number;
  /** Ids of the previous page's first and last items, to spot a repeated page. */
  signature: string | undefined;
  /** The cursors followed last (at most {@link MAX_CURSORS}), oldest first. */
  cursors: Set<string>;
}

/** Where a page came from: what it needs to work out and fetch the next one. */
interface PageSource<T> {
  client: PageClient;
  request: PageRequest;
  item: SchemaLike<T>;
  trail: Trail;
  /** The page's URL (a relative cursor is relative to it) and its request's secrets (not its body). */
  url: string;
  redactor: Redactor;
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

/** The size and the first and last ids of a page, to spot a page sent twice. */
function signatureOf(data: readonly unknown[]): string | undefined {
  const first = idOf(data[0]);
  const last = idOf(data[data.length - 1]);
  return first || last ? `${data.length}:${first}:${last}` : undefined;
}

/** One page of a collection. */
export class Page<T> {
  /** The items of this page. */
  readonly data: T[];
  /** The pagination block as the server sent it, or `null` (bare array, or none sent). */
  readonly pagination: Pagination | null;
  /** The response this page came from (body already read). */
  readonly response: Response;
  readonly #from: PageSource<T>;
  #next: PageRequest | PaginationError | null | undefined;

  /** @internal */
  constructor(from: PageSource<T>, data: T[], pagination: Pagination | null, response: Response) {
    this.#from = from;
    this.data = data;
    this.pagination = pagination;
    this.response = response;
  }

  /** Whether another page follows. */
  hasNextPage(): boolean {
    return this.#nextRequest() !== null;
  }

  /**
   * Fetches the next page; rejects with `PaginationError` when there is none or it would loop, and
   * with a `RequestValidationError` (nothing sent) when `options` is given but is not an object.
   */
  getNextPage(options?: ListOptions): Promise<Page<T>> {
    const next = this.#nextRequest();
    if (next === null) return Promise.reject(new PaginationError('There is no next page.'));
    if (next instanceof PaginationError) return Promise.reject(next);
    const from = this.#from.trail;
    // A following request of a split filter: its pages count towards maxPages, its loop checks restart.
    const trail = next.restart ? { ...from, pageNumber: 0, signature: undefined } : from;
    const maxPages = this.#from.request.options?.maxPages ?? DEFAULT_MAX_PAGES;
    if (trail.pagesFetched >= maxPages) {
      const message = `Stopped after ${trail.pagesFetched} pages (maxPages is ${maxPages}); more pages were announced.`;
      return Promise.reject(new PaginationError(message));
    }
    // Options that are not an object reach the request's own check, which refuses them.
    const merged = isObject(options) ? { ...next.options, ...options } : options;
    const request = options === undefined ? next : { ...next, options: merged as ListOptions };
    const { client, item } = this.#from;
    const response = (raw: RawResponse) => buildPage(client, request, item, raw, trail);
    return client.get(request.path, { query: request.params, options: request.options, response });
  }

  /** The next page's request; a `PaginationError` when one is announced but unsafe to follow. */
  #nextRequest(): PageRequest | PaginationError | null {
    if (this.#next === undefined) {
      const { rest, options } = this.#from.request;
      const next = this.#computeNext();
      const [params, ...queries] = rest?.queries ?? [];
      this.#next =
        next !== null
          ? next instanceof PaginationError
            ? next
            : { ...next, rest }
          : params && rest
            ? { path: rest.path, params, options, rest: { path: rest.path, queries }, restart: true }
            : null;
    }
    return this.#next;
  }

  #computeNext(): PageRequest | PaginationError | null {
    const p = this.pagination;
    const request = this.#from.request;
    // Cursor style: follow next_page_url until it is null (an empty page with a cursor continues).
    if (p && 'next_page_url' in p && !('current_page' in p && numberOr(p.current_page) !== undefined)) {
      const next = p.next_page_url;
      if (typeof next !== 'string' || next === '') return null;
      const { redactor, client } = this.#from;
      let url: URL;
      try {
        // A relative cursor is relative to the page it came from.
        url = new URL(next, this.#from.url);
      } catch {
        return new PaginationError(
          `The server sent a next_page_url that is not a URL: ${JSON.stringify(redactor.text(next))}`,
        );
      }
      if (url.username || url.password) {
        return new PaginationError(
          `Refusing to follow a next_page_url with credentials in it (${url.protocol}//…@${url.host}): the API token must not be sent along.`,
        );
      }
      if (url.origin !== client._origin) {
        return new PaginationError(
          `Refusing to follow next_page_url to ${originOf(url)}: it is not the configured origin ${client._origin}, and the API token must not leave it.`,
        );
      }
      if (this.#from.trail.cursors.has(url.href)) {
        return new PaginationError(
          `The server sent a cursor it had sent before (${redactor.text(next)}); stopping to avoid a loop.`,
        );
      }
      return { path: url.href, params: undefined, options: request.options };
    }
    if (this.data.length === 0) return null;
    // Page-number style.
    const current = numberOr(p?.current_page);
    const count = numberOr(p?.page_count);
    let page = current === undefined ? undefined : current + 1;
    if (current !== undefined && count !== undefined && current >= count) return null;
    // A bare array (or an envelope without usable pagination): continue while pages are full.
    if (page === undefined) {
      if (this.data.length < (numberOr(request.params?.limit) ?? DEFAULT_PAGE_SIZE)) return null;
      page = this.#from.trail.pageNumber + 1;
    }
    return { path: request.path, params: { ...request.params, page }, options: request.options };
  }
}

/**
 * Builds a page from a response, applying the loop defences. A body that is not a page is a
 * `ResponseValidationError` without the client's secrets, as for every other response. @internal
 */
function buildPage<T>(
  client: PageClient,
  request: PageRequest,
  item: SchemaLike<T>,
  raw: RawResponse,
  previous: Trail | undefined,
): Page<T> {
  let data: T[];
  let pagination: Pagination | null = null;
  try {
    const body = readJson(raw, false);
    let items = body; // not a collection: the schema reports it with the body kept
    if (isObject(body) && Array.isArray(body.data)) {
      items = body.data;
      if (isObject(body.pagination)) pagination = withoutProto(body.pagination) as Pagination;
    }
    data = client._responses.parse(validation().arrayOf(schemaOf(item)), items, raw) as T[];
  } catch (error) {
    throw client._responses.clean(error, raw);
  }
  const requested = numberOr(request.params?.page) ?? 1;
  const trail: Trail = previous
    ? { ...previous, pagesFetched: previous.pagesFetched + 1 }
    : { pageNumber: requested, pagesFetched: 1, signature: undefined, cursors: new Set() };
  const current = numberOr(pagination?.current_page);
  const signature = signatureOf(data);
  if (previous) {
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
  trail.pageNumber = current ?? requested;
  trail.signature = signature;
  if (request.params === undefined && /^https?:/i.test(request.path)) {
    // A followed cursor is remembered; the oldest beyond MAX_CURSORS is forgotten.
    trail.cursors.add(request.path);
    if (trail.cursors.size > MAX_CURSORS) trail.cursors.delete(trail.cursors.values().next().value!);
  }
  const { url, redactor, response } = raw;
  return new Page({ client, request, item, trail, url, redactor }, data, pagination, response);
}

/**
 * What list methods return. `await` it for the first `Page`; `for await` it for every item of every
 * page, fetched lazily; `.pages()` for pages; `.toArray({ max })` to collect a bounded number.
 */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  readonly #request: PageRequest;

  /** Built by the client's `getAPIList`, which sends the first request (`raw`) as it sends every request. @internal */
  constructor(client: PageClient, raw: Promise<RawResponse>, request: PageRequest, item: SchemaLike<T>) {
    super(raw, (r) => buildPage(client, request, item, r, undefined));
    this.#request = request;
  }

  /** Every page, starting with the first, fetched as the loop asks. */
  pages(): AsyncGenerator<Page<T>, void, undefined> {
    return this.#pages(() => true);
  }

  /** Pages in order; with `prefetch: 1` the next one is fetched early when `wantsMore(page)` says it will be needed. */
  async *#pages(wantsMore: (page: Page<T>) => boolean): AsyncGenerator<Page<T>, void, undefined> {
    const prefetch = this.#request.options?.prefetch === 1;
    let page: Page<T> = await this;
    let ahead: { promise: Promise<Page<T>>; controller: AbortController } | undefined;
    try {
      for (;;) {
        if (prefetch && page.hasNextPage() && wantsMore(page)) {
          const controller = new AbortController();
          const user = this.#request.options?.signal;
          const signal = user ? AbortSignal.any([user, controller.signal]) : controller.signal;
          const promise = page.getNextPage({ signal });
          promise.catch(() => {}); // handled when awaited; ignored if the loop stops first
          ahead = { promise, controller };
        }
        yield page;
        if (ahead) {
          const next = ahead.promise;
          ahead = undefined;
          page = await next;
        } else if (page.hasNextPage()) {
          page = await page.getNextPage();
        } else {
          break;
        }
      }
    } finally {
      if (ahead) ahead.controller.abort(new APIUserAbortError('Pagination stopped; prefetch cancelled.'));
    }
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
    if (max === 0) return out;
    // Prefetch only a page that `max` will need.
    for await (const page of this.#pages((p) => out.length + p.data.length < max)) {
      for (const item of page.data) {
        out.push(item);
        if (out.length >= max) return out;
      }
    }
    return out;
  }
}
