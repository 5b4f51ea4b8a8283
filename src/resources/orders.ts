/**
 * Orders submitted for fulfillment (`/merchant_api/v1/orders`).
 */

import { LookupLimitError } from '../core/errors.js';
import { lazySchema } from '../core/lazy.js';
import type { ListOptions, RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { path, type QueryParams } from '../core/request.js';
import type { APIPromise } from '../core/response.js';
import { optionalBody } from '../core/response.js';
import type { Id } from '../core/url.js';
import type {
  Order,
  OrderCreateParams,
  OrderListParams,
  OrderRetrieveParams,
  OrderUpdateParams,
} from '../schemas/orders.js';
import { type CreateManyOptions, createMany, type OrderImport, type OrderSource } from './order-import.js';
import { type SubmitOptions, type SubmitResult, submitOrder } from './order-submit.js';
import { APIResource, checkOwnOptions, integer } from './resource.js';

/** The schemas of this namespace, imported by its first request. */
const schemas = () => import('../schemas/orders.js');
const CreateBody = /* @__PURE__ */ lazySchema(schemas, 'OrderCreateParamsSchema');
const ListQuery = /* @__PURE__ */ lazySchema(schemas, 'OrderListParamsSchema');
const RetrieveQuery = /* @__PURE__ */ lazySchema(schemas, 'OrderRetrieveParamsSchema');
const OrderSchema = /* @__PURE__ */ lazySchema(schemas, 'OrderSchema');
const UpdateBody = /* @__PURE__ */ lazySchema(schemas, 'OrderUpdateParamsSchema');
const LookupQuery = /* @__PURE__ */ lazySchema(() => import('../schemas/lookups.js'), 'OrderLookupSchema');

const ORDERS = '/merchant_api/v1/orders';
const at = (id: Id) => path`/merchant_api/v1/orders/${id}`;
/** Pages of 100 orders `findByMerchantOrderId` reads when no `createdAfter` bounds the scan. */
const DEFAULT_LOOKUP_PAGES = 10;

/** Options of `orders.findByMerchantOrderId`: the scan's bounds and budget, and request options. */
export interface FindOrderOptions extends RequestOptions {
  /** Only orders created at or after this time are read (`created_at[gte]`). */
  createdAfter?: Date | string | undefined;
  /** Only orders created at or before this time are read (`created_at[lte]`). */
  createdBefore?: Date | string | undefined;
  /**
   * Most pages of 100 orders to read. Default: 10 (1,000 orders) without `createdAfter`; every
   * page of the window with it. When the budget ends the scan with pages left, the lookup fails
   * with `LookupLimitError` rather than answer `null`.
   */
  maxPages?: number | undefined;
}

const OptionalOrder = /* @__PURE__ */ optionalBody(OrderSchema);

/** Orders submitted for fulfillment (`/merchant_api/v1/orders`). */
export class Orders extends APIResource {
  /**
   * Lists orders, newest first. `GET /merchant_api/v1/orders`.
   * Filters: `created_at: { gte, gt, lte, lt }`; `include: ['batches']` adds SKU batches to items.
   */
  list(params?: OrderListParams, options?: ListOptions): PagePromise<Order> {
    return this._client.getAPIList(ORDERS, OrderSchema, { query: params, querySchema: ListQuery, options });
  }

  /**
   * Finds the order with this `merchant_order_id` (unique per sales channel, spec §2.2), or `null`.
   * The API has no such filter, so this reads `GET /merchant_api/v1/orders` newest first, 100 per
   * page, and stops at the match: one request per 100 orders newer than the one found.
   *
   * Bound the scan with `createdAfter` / `createdBefore` (sent as `created_at` filters): with
   * `createdAfter`, every page of the window is read; without it, at most `maxPages` pages
   * (default 10, the newest 1,000 orders). When that budget ends the scan with pages left, it
   * rejects with a {@link LookupLimitError}: the order may be older.
   */
  async findByMerchantOrderId(
    merchantOrderId: string,
    options: FindOrderOptions = {},
  ): Promise<Order | null> {
    checkOwnOptions(options, { maxPages: integer(1) }, 'orders.findByMerchantOrderId');
    const { createdAfter, createdBefore, maxPages, ...requestOptions } = options;
    const budget = maxPages ?? (createdAfter === undefined ? DEFAULT_LOOKUP_PAGES : Number.POSITIVE_INFINITY);
    let pages = 0;
    let items = 0;
    const list = this._client.getAPIList(ORDERS, OrderSchema, {
      query: { merchantOrderId, createdAfter, createdBefore } as QueryParams,
      querySchema: LookupQuery,
      options: requestOptions,
    });
    for await (const page of list.pages()) {
      pages++;
      items += page.data.length;
      const found = page.data.find((order) => order.merchant_order_id === merchantOrderId);
      if (found) return found;
      if (pages >= budget && page.hasNextPage()) {
        throw new LookupLimitError(
          `No order with merchant_order_id ${JSON.stringify(merchantOrderId)} among the ${items} newest ` +
            `orders${createdBefore === undefined ? '' : ' of the window'} (${pages} pages, the budget); ` +
            'older orders were not read. Pass createdAfter to bound the scan, or a larger maxPages.',
          { pages, items },
        );
      }
    }
    return null;
  }

  /** Retrieves one order. `GET /merchant_api/v1/orders/{id}`; `include: ['batches']` adds SKU batches. */
  retrieve(id: Id, params?: OrderRetrieveParams, options?: RequestOptions): APIPromise<Order> {
    return this._client.get(at(id), {
      query: params,
      querySchema: RetrieveQuery,
      options,
      response: OrderSchema,
    });
  }

  /**
   * Submits an order. `POST /merchant_api/v1/orders` (201). Validated before sending: required
   * fields, a name on the address, `sku_id` or `merchant_sku_id` on each item, unique
   * `merchant_item_id`s, and the COD rule (`payment_method` containing `COD` needs
   * `total_price_in_cents > 0`). Never retried after it may have reached the server (no duplicate
   * orders): only a 429 or a refused connection is retried.
   */
  create(body: OrderCreateParams, options?: RequestOptions): APIPromise<Order> {
    return this._client.post(ORDERS, { body, bodySchema: CreateBody, options, response: OrderSchema });
  }

  /**
   * Submits an order so that it is never lost and never doubled, although the API has no
   * idempotency key. Resolves with `{ order, outcome, differences }`:
   * - `'created'`: the API answered 201;
   * - `'recovered'`: a send failed without saying whether the order was stored (a timeout, a
   *   dropped connection, a 5xx), and it was found by its `merchant_order_id` among the orders
   *   created from `lookbackMs` (default 5 minutes, at most 30 days) before the first send;
   * - `'existing'`: the API refused it as already taken, and the order it holds was found.
   *
   * An ambiguous failure that finds nothing is followed by another send (at most `maxAttempts`,
   * default 3): that is safe, since the API refuses a second order with the same
   * `merchant_order_id`. Cost: one `POST` per send, plus one lookup (see
   * {@link findByMerchantOrderId}) per ambiguous failure or refusal as taken. Invalid bodies and
   * other refusals are thrown as by {@link create}; so is the last ambiguous failure.
   * `differences` names where a recovered or existing order differs from `body` (items, address).
   */
  submit(body: OrderCreateParams, options?: SubmitOptions): Promise<SubmitResult> {
    return submitOrder(this, body, options);
  }

  /**
   * Imports many orders through {@link submit}: `source` is an array, an iterable or an async
   * iterable of bodies (read as the import goes, so a 100,000-line file is never in memory whole),
   * sent `concurrency` at a time (default 4, each through the client's rate limiter). `for await`
   * the returned import for one result per input, in input order — `'created'`, `'recovered'`,
   * `'existing'`, `'invalid'` (refused before sending, with `issues`), `'rejected'` (refused by
   * the API) or `'failed'` (no answer to trust) — then, or instead, `await import.summary()` for
   * the counts and the problems. A failed order never stops the run; `onProgress` gets the counts after each
   * order. Running the same import again reports `'existing'` for every order already there.
   */
  createMany(source: OrderSource, options?: CreateManyOptions): OrderImport {
    return createMany(this, source, options);
  }

  /**
   * Updates an order. `PATCH /merchant_api/v1/orders/{id}`. Items are matched by
   * `merchant_item_id`; every other field is optional.
   */
  update(id: Id, body: OrderUpdateParams, options?: RequestOptions): APIPromise<Order> {
    return this._client.patch(at(id), { body, bodySchema: UpdateBody, options, response: OrderSchema });
  }

  /**
   * Cancels an order: it becomes `unfulfillable`. `PUT /merchant_api/v1/orders/{id}/cancel`.
   * Resolves with the order as it stands after the cancel. The API documents no response body:
   * when it answers without the order, the SDK reads it back with one `GET /orders/{id}` (same
   * options); if that read fails, the error says the cancel itself succeeded.
   */
  cancel(id: Id, options?: RequestOptions): APIPromise<Order> {
    return this._client
      .put(path`/merchant_api/v1/orders/${id}/cancel`, { options, response: OptionalOrder })
      ._then(
        (order) => order ?? this.retrieve(id, undefined, options),
        `PUT /merchant_api/v1/orders/${id}/cancel`,
      );
  }
}
