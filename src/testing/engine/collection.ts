/**
 * A collection of records kept sorted by creation time, with id lookup, `created_at` ranges and
 * newest-first pages in O(log n + page size).
 */

/** What a stored record needs: an id and its creation time in ms. */
export interface Timestamped {
  readonly id: number;
  readonly createdMs: number;
}

/** Bounds of a `created_at[gte|gt|lte|lt]` filter, in ms; absent bounds are open. */
export interface CreatedRange {
  gte?: number;
  gt?: number;
  lte?: number;
  lt?: number;
}

/** A page of a collection and the figures of its pagination block. */
export interface PageOf<T> {
  items: T[];
  page: number;
  limit: number;
  itemCount: number;
  pageCount: number;
}

/** Orders records by creation time, then id (ascending). */
function before(a: Timestamped, b: Timestamped): boolean {
  return a.createdMs < b.createdMs || (a.createdMs === b.createdMs && a.id < b.id);
}

/** Whether `createdMs` lies in `range`. */
export function inRange(createdMs: number, range: CreatedRange): boolean {
  return (
    (range.gte === undefined || createdMs >= range.gte) &&
    (range.gt === undefined || createdMs > range.gt) &&
    (range.lte === undefined || createdMs <= range.lte) &&
    (range.lt === undefined || createdMs < range.lt)
  );
}

/**
 * The page `page` (1-based) of `count` items, newest first, where `at(i)` gives the i-th newest.
 * Reads only the items of the page.
 */
export function pageOf<T>(count: number, at: (index: number) => T, page: number, limit: number): PageOf<T> {
  const items: T[] = [];
  const start = (page - 1) * limit;
  const end = Math.min(start + limit, count);
  for (let i = start; i < end; i++) items.push(at(i));
  return { items, page, limit, itemCount: count, pageCount: Math.ceil(count / limit) };
}

/** The page `page` (1-based) of the list `all`, in its order. */
export function pageOfList<T>(all: readonly T[], page: number, limit: number): PageOf<T> {
  return pageOf(all.length, (i) => all[i]!, page, limit);
}

/** A page as the API and the control routes answer it: `{ data, pagination }`, each item seen through `view`. */
export function pageBody<T, V>(p: PageOf<T>, view: (item: T) => V) {
  return {
    data: p.items.map(view),
    pagination: {
      current_page: p.page,
      page_count: p.pageCount,
      item_count: p.itemCount,
      items_per_page: p.limit,
    },
  };
}

/** Records of one resource: ids from 1 up, kept in creation order. */
export class Collection<T extends Timestamped> {
  /** Ascending by (createdMs, id); the newest is last. */
  readonly #sorted: T[] = [];
  readonly #byId = new Map<number, T>();
  #lastId = 0;

  /** The id the next record gets (and reserves it). */
  nextId(): number {
    this.#lastId += 1;
    return this.#lastId;
  }

  /** The last id handed out by {@link nextId} (0 before the first). */
  get lastId(): number {
    return this.#lastId;
  }

  /**
   * Sets the last id handed out (restoring saved state): the next record gets `lastId + 1`. Throws
   * a `RangeError` below the highest id stored.
   */
  restoreLastId(lastId: number): void {
    for (const id of this.#byId.keys()) {
      if (id > lastId) throw new RangeError(`the last id ${lastId} is below the stored id ${id}`);
    }
    this.#lastId = lastId;
  }

  /** Adds a record in its place (binary search; appending the newest, the usual case, moves nothing). */
  insert(record: T): void {
    this.#byId.set(record.id, record);
    const at = this.#firstIndex((r) => !before(r, record));
    this.#sorted.splice(at, 0, record);
  }

  /** The record with this id. */
  get(id: number): T | undefined {
    return this.#byId.get(id);
  }

  /** Every record, oldest first (the live array: do not modify). */
  all(): readonly T[] {
    return this.#sorted;
  }

  /** A page of the records created in `range`, newest first (ties: highest id first). */
  page(range: CreatedRange, page: number, limit: number): PageOf<T> {
    const sorted = this.#sorted;
    const lo = this.#firstIndex(
      ({ createdMs: ms }) =>
        (range.gte === undefined || ms >= range.gte) && (range.gt === undefined || ms > range.gt),
    );
    const hi = this.#firstIndex(
      ({ createdMs: ms }) =>
        (range.lte !== undefined && ms > range.lte) || (range.lt !== undefined && ms >= range.lt),
    );
    const count = Math.max(0, hi - lo);
    return pageOf(count, (i) => sorted[hi - 1 - i]!, page, limit);
  }

  /** Index of the first record that satisfies `predicate` (monotonic: false…false true…true). */
  #firstIndex(predicate: (record: T) => boolean): number {
    let lo = 0;
    let hi = this.#sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (predicate(this.#sorted[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
