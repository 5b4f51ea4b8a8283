/**
 * A collection of records kept sorted by creation time, with id lookup, `created_at` ranges and
 * newest-first pages.
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

/** Whether `createdMs` lies in `range`. */
export function inRange(
  ms: number,
  { gte = -Infinity, gt = -Infinity, lte = Infinity, lt = Infinity }: CreatedRange,
) {
  return ms >= gte && ms > gt && ms <= lte && ms < lt;
}

/** The page `page` (1-based) of the list `all`, in its order. */
export function pageOfList<T>(all: readonly T[], page: number, limit: number): PageOf<T> {
  const items = all.slice((page - 1) * limit, page * limit);
  return { items, page, limit, itemCount: all.length, pageCount: Math.ceil(all.length / limit) };
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
    return ++this.#lastId;
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

  /** Adds a record in its place (appending the newest, the usual case, moves nothing). */
  insert(record: T): void {
    this.#byId.set(record.id, record);
    const { createdMs: ms, id } = record;
    const at = this.#sorted.findLastIndex((r) => r.createdMs < ms || (r.createdMs === ms && r.id < id));
    this.#sorted.splice(at + 1, 0, record);
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
    return pageOfList(this.#sorted.filter((r) => inRange(r.createdMs, range)).reverse(), page, limit);
  }
}
