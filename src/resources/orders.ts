/**
 * Orders submitted for fulfillment (`/merchant_api/v1/orders`).
 */
import type { APIPromise } from '../core/api-promise.js';
import { lazySchema } from '../core/lazy.js';
import type { ListOptions, RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { path, type QueryParams } from '../core/request.js';
import { optionalBody } from '../core/response.js';
import type { Id } from '../core/url.js';
import type {
  OrderCreateParams,
  OrderListParams,
  OrderRetrieveParams,
  OrderUpdateParams,
} from '../schemas/orders.js';
import type { Order } from '../schemas/types/orders.js';
import { APIResource } from './resource.js';

/** The schemas of this namespace, imported by its first request. */
const schemas = () => import('../schemas/orders.js');
const OrderCreateParamsSchema = /* @__PURE__ */ lazySchema(schemas, 'OrderCreateParamsSchema');
const OrderListParamsSchema = /* @__PURE__ */ lazySchema(schemas, 'OrderListParamsSchema');
const OrderRetrieveParamsSchema = /* @__PURE__ */ lazySchema(schemas, 'OrderRetrieveParamsSchema');
const OrderSchema = /* @__PURE__ */ lazySchema(schemas, 'OrderSchema');
const OrderUpdateParamsSchema = /* @__PURE__ */ lazySchema(schemas, 'OrderUpdateParamsSchema');

const ORDERS = '/merchant_api/v1/orders';
const OptionalOrder = /* @__PURE__ */ optionalBody(OrderSchema);

/** `include: ['batches']` is sent comma-joined: `include=batches`. */
function withInclude(params: Record<string, unknown>): QueryParams {
  const { include, ...rest } = params;
  const query = rest as QueryParams;
  return Array.isArray(include) && include.length > 0 ? { ...query, include: include.join(',') } : query;
}

/** Orders submitted for fulfillment (`/merchant_api/v1/orders`). */
export class Orders extends APIResource {
  /**
   * Lists orders, newest first. `GET /merchant_api/v1/orders`.
   * Filters: `created_at: { gte, gt, lte, lt }`; `include: ['batches']` adds SKU batches to items.
   */
  list(params?: OrderListParams, options?: ListOptions): PagePromise<Order> {
    return this._client.getAPIList(ORDERS, OrderSchema, {
      query: params,
      querySchema: OrderListParamsSchema,
      toQuery: withInclude,
      options,
    });
  }

  /** Retrieves one order. `GET /merchant_api/v1/orders/{id}`; `include: ['batches']` adds SKU batches. */
  retrieve(id: Id, params?: OrderRetrieveParams, options?: RequestOptions): APIPromise<Order> {
    return this._client.get(path`/merchant_api/v1/orders/${id}`, {
      query: params,
      querySchema: OrderRetrieveParamsSchema,
      toQuery: withInclude,
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
    return this._client.post(ORDERS, {
      body,
      bodySchema: OrderCreateParamsSchema,
      options,
      response: OrderSchema,
    });
  }

  /**
   * Updates an order. `PATCH /merchant_api/v1/orders/{id}`. Items are matched by
   * `merchant_item_id`; every other field is optional.
   */
  update(id: Id, body: OrderUpdateParams, options?: RequestOptions): APIPromise<Order> {
    return this._client.patch(path`/merchant_api/v1/orders/${id}`, {
      body,
      bodySchema: OrderUpdateParamsSchema,
      options,
      response: OrderSchema,
    });
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
