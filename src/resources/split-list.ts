/**
 * List filters of any size: a `merchant_sku_ids` filter too long for one URL is sent as several
 * requests, each URL within {@link MAX_URL_LENGTH}, read one after the other.
 */

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
/** The longest page parameter a later page of a split request adds. */
const PAGE_PARAMETER = '&page=999999999';

export function splitQuery<Q extends object>(url: string, query: Q | undefined, key: keyof Q & string): Q[] {
  const values = (query as Record<string, unknown> | undefined)?.[key];
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string' && isWellFormed(v))) {
    return [query as Q];
  }
  const { [key]: _, ...rest } = query as Record<string, QueryValue>;
  // `?`, the `&` before the list, and room for the `&page=N` of the request's later pages.
  const fixed = url.length + 2 + encodedLength(rest) + PAGE_PARAMETER.length;
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
