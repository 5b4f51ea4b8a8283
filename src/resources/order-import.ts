/**
 * `orders.createMany`: an import of many orders through `orders.submit`, streamed from an array,
 * an iterable or an async iterable (a CSV read line by line never sits in memory whole), a few at
 * a time, with one result per input in input order. A failed order never stops the run.
 */
import { APIError, FulfillmentError, RequestValidationError, type ValidationIssue } from '../core/errors.js';
import type { Order, OrderCreateParams } from '../schemas/orders.js';
import {
  SUBMIT_RULES,
  type SubmitOptions,
  type SubmitOutcome,
  type SubmitTarget,
  submitOrder,
} from './order-submit.js';
import { callback, checkOwnOptions, integer } from './resource.js';

/** How one order of an import ended. */
export type ImportOutcome = SubmitOutcome | 'invalid' | 'rejected' | 'failed';

/** One order of an import: `index` is its position in the source (from 0). */
export interface ImportResult {
  index: number;
  /** The body's `merchant_order_id`, when it has a string one. */
  merchant_order_id: string | undefined;
  /**
   * `'created'`, `'recovered'`, `'existing'`: see `orders.submit` (`order` is set). `'invalid'`:
   * refused before sending (`issues` says why). `'rejected'`: refused by the API (`error`, an
   * `APIError`). `'failed'`: no answer to trust after every attempt (`error`).
   */
  outcome: ImportOutcome;
  order?: Order;
  /** Where a recovered or existing order differs from the body (see `orders.submit`). */
  differences?: string[];
  /** Why an `'invalid'` body was refused, by field. */
  issues?: readonly ValidationIssue[];
  /**
   * The error of a `'rejected'` (an `APIError`), `'failed'` (e.g. an `APIConnectionError`) or
   * `'invalid'` (a `RequestValidationError`) order: always one of the SDK's errors.
   */
  error?: FulfillmentError;
}

/** Counts so far, given to `onProgress` after each order. */
export interface ImportProgress {
  done: number;
  created: number;
  recovered: number;
  existing: number;
  invalid: number;
  rejected: number;
  failed: number;
}

/** What `summary()` gives: the counts, and the results that did not end with an order. */
export interface ImportSummary extends ImportProgress {
  /** The `'invalid'`, `'rejected'` and `'failed'` results, in input order. */
  problems: ImportResult[];
}

/** Options of `orders.createMany`. */
export interface CreateManyOptions extends SubmitOptions {
  /** Orders in flight at once (each through the client's rate limiter). Default 4. */
  concurrency?: number | undefined;
  /** Called after each order with the counts so far. */
  onProgress?: ((progress: Readonly<ImportProgress>) => void) | undefined;
}

/** A source of order bodies. */
export type OrderSource = Iterable<OrderCreateParams> | AsyncIterable<OrderCreateParams>;

/**
 * A running import: `for await` it for each result in input order, then (or instead)
 * `await run.summary()` for the counts and the problems. Nothing is sent until it is iterated (or
 * `summary()` is called); its results can be iterated once.
 */
export class OrderImport implements AsyncIterable<ImportResult> {
  readonly #results: AsyncGenerator<ImportResult, void, undefined>;
  readonly #summary: ImportSummary;
  #consumed = false;
  /** The run `summary()` started, which every later call waits for. */
  #run: Promise<void> | undefined;

  /** @internal */
  constructor(results: AsyncGenerator<ImportResult, void, undefined>, summary: ImportSummary) {
    this.#results = results;
    this.#summary = summary;
  }

  [Symbol.asyncIterator](): AsyncGenerator<ImportResult, void, undefined> {
    if (this.#consumed) throw new TypeError('This import has already been iterated: call summary() instead.');
    this.#consumed = true;
    return this.#results;
  }

  /**
   * The counts and the results without an order. Runs the import to its end when it has not been
   * iterated (several calls share that one run); after a `for await` loop, sums up what that loop
   * went through (during the loop, or after a `break`: the results it has received so far).
   */
  async summary(): Promise<ImportSummary> {
    if (!this.#consumed)
      this.#run = (async () => {
        for await (const _ of this);
      })();
    await this.#run;
    return { ...this.#summary, problems: [...this.#summary.problems] };
  }
}

/** Runs `orders.createMany`: see `Orders.createMany`. */
export function createMany(
  orders: SubmitTarget,
  source: OrderSource,
  options: CreateManyOptions = {},
): OrderImport {
  const context = 'orders.createMany';
  checkOwnOptions(options, { ...SUBMIT_RULES, concurrency: integer(1), onProgress: callback }, context);
  const { concurrency = 4, onProgress, ...submitOptions } = options;
  const from = source as Partial<AsyncIterable<OrderCreateParams> & Iterable<OrderCreateParams>> | null;
  const iterator = from?.[Symbol.asyncIterator]?.() ?? from?.[Symbol.iterator]?.();
  if (!iterator) {
    const message = 'expected an array, an iterable or an async iterable of order bodies';
    throw new RequestValidationError([{ path: 'source', message }], context);
  }
  /** Submits one body; never throws: how it ended is the result. */
  const importOne = async (body: OrderCreateParams, index: number): Promise<ImportResult> => {
    const id = (body as { merchant_order_id?: unknown } | null | undefined)?.merchant_order_id;
    const merchant_order_id = typeof id === 'string' ? id : undefined;
    try {
      return { index, merchant_order_id, ...(await submitOrder(orders, body, submitOptions)) };
    } catch (thrown) {
      const error =
        thrown instanceof FulfillmentError ? thrown : new FulfillmentError(String(thrown), { cause: thrown });
      if (error instanceof RequestValidationError) {
        return { index, merchant_order_id, outcome: 'invalid', issues: error.issues, error };
      }
      // A refusal the API answered (4xx): not worth sending again. Anything else left it open.
      const outcome = error instanceof APIError && error.status < 500 ? 'rejected' : 'failed';
      return { index, merchant_order_id, outcome, error };
    }
  };

  const summary: ImportSummary = {
    done: 0,
    created: 0,
    recovered: 0,
    existing: 0,
    invalid: 0,
    rejected: 0,
    failed: 0,
    problems: [],
  };
  const run = async function* (): AsyncGenerator<ImportResult, void, undefined> {
    // At most `concurrency` orders in flight, kept in input order: results come out in order,
    // and no more than `concurrency` of them wait in memory.
    const inFlight: Promise<ImportResult>[] = [];
    let index = 0;
    let exhausted = false;
    try {
      for (;;) {
        while (!exhausted && inFlight.length < concurrency) {
          const next = await iterator.next();
          if (next.done) exhausted = true;
          else inFlight.push(importOne(next.value, index++));
        }
        const result = await inFlight.shift();
        if (!result) return;
        summary.done++;
        summary[result.outcome]++;
        if (!result.order) summary.problems.push(result);
        const { problems: _, ...progress } = summary;
        onProgress?.(progress);
        yield result;
      }
    } finally {
      // Stopped early (a `break`): let the orders in flight finish, and close the source.
      await Promise.allSettled(inFlight);
      if (!exhausted) await iterator.return?.();
    }
  };
  return new OrderImport(run(), summary);
}
