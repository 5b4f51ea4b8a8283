/**
 * List filters of any size: a `merchant_sku_ids` filter too long for one URL is sent as several
 * requests, each URL within {@link MAX_URL_LENGTH}, read one after the other.
 */

import { RequestValidationError } from '../core/errors.js';
import { type Page, PagePromise } from '../core/pagination.js';
import type { WithResponse } from '../core/response.js';
import { encodeQuery, isWellFormed, type QueryValue } from '../core/url.js';

/**
 * Longest URL (scheme, host, path and query) of a list request whose `merchant_sku_ids` filter the
 * SDK splits: 4,096 characters, well within what common servers, proxies and CDNs accept (8 KB for
 * the whole request line is a usual limit). A longer filter is sent as several requests, each
 * within the bound; only a single code longer than the bound exceeds it.
 */
export const MAX_URL_LENGTH = 4_096;

/** Length of a query as sent; 0 when it cannot be encoded (its request is refused before sending). */
function encodedLength(query: Record<string, QueryValue>): number {
  try {
    return encodeQuery(query).length;
  } catch {
    return 0;
  }
}

/**
 * `query` as one query per request, so that `url?query` stays within {@link MAX_URL_LENGTH}: its
 * list `key` split into groups, the other parameters in every one. A query whose list is not made
 * of well-formed strings is left whole: its one request is refused before anything is sent.
 */
export function splitQuery<Q extends object>(url: string, query: Q | undefined, key: keyof Q & string): Q[] {
  const values = (query as Record<string, unknown> | undefined)?.[key];
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string' && isWellFormed(v))) {
    return [query as Q];
  }
  const { [key]: _, ...rest } = query as Record<string, QueryValue>;
  const fixed = url.length + 2 + encodedLength(rest); // `?` and the `&` before the list
  const groups: string[][] = [];
  let length = Number.POSITIVE_INFINITY;
  for (const value of values as string[]) {
    const size = encodedLength({ [key]: [value] }) + 1; // and its `&`
    if (length + size > MAX_URL_LENGTH) {
      groups.push([]);
      length = fixed;
    }
    groups.at(-1)!.push(value);
    length += size;
  }
  return groups.length === 0 ? [query as Q] : groups.map((group) => ({ ...query, [key]: group }) as Q);
}

/**
 * A list sent as several requests (a filter split by {@link splitQuery}): awaiting it gives the
 * first request's first page; `pages()`, `for await` and `toArray({ max })` go through every
 * request's pages in order. The first request is sent at once, each next one when the previous
 * list ends; `maxPages` and `prefetch` apply to each request's pages.
 */
export class PagePromiseSequence<T> extends PagePromise<T> {
  readonly #first: PagePromise<T>;
  readonly #rest: readonly (() => PagePromise<T>)[];

  constructor(first: () => PagePromise<T>, rest: readonly (() => PagePromise<T>)[]) {
    // Every read goes to the lists below: the base's own request is never made nor read.
    super(
      undefined as never,
      new Promise(() => {}),
      { path: '', params: undefined, options: undefined },
      undefined as never,
    );
    this.#first = first();
    this.#rest = rest;
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass by design, as APIPromise.
  override then<R1 = Page<T>, R2 = never>(
    onfulfilled?: ((value: Page<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#first.then(onfulfilled, onrejected);
  }

  override catch<R = never>(
    onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null,
  ): Promise<Page<T> | R> {
    return this.#first.catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<Page<T>> {
    return this.#first.finally(onfinally);
  }

  override asResponse(): Promise<Response> {
    return this.#first.asResponse();
  }

  override withResponse(): Promise<WithResponse<Page<T>>> {
    return this.#first.withResponse();
  }

  override async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    yield* this.#first.pages();
    for (const next of this.#rest) yield* next().pages();
  }

  override async toArray(options: { max: number }): Promise<T[]> {
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
