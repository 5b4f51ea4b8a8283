import type { APIPromise } from '../core/api-promise.js';
import type { ListOptions, ListParams, PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/transport.js';
import { encodeQuery, type Id, pathId } from '../core/url.js';
import { validateRequest } from '../core/validation.js';
import {
  type Order,
  type OrderCreateParams,
  OrderCreateParamsSchema,
  type OrderListParams,
  OrderListParamsSchema,
  type OrderRetrieveParams,
  OrderRetrieveParamsSchema,
  OrderSchema,
  type OrderUpdateParams,
  OrderUpdateParamsSchema,
} from '../schemas/orders.js';
import { APIResource } from './resource.js';

const ORDERS = '/merchant_api/v1/orders';

/** `include: ['batches']` is sent comma-joined: `include=batches`. */
function withInclude(params: Record<string, unknown>): ListParams {
  const { include, ...rest } = params;
  const query = rest as ListParams;
  return Array.isArray(include) && include.length > 0 ? { ...query, include: include.join(',') } : query;
}

/** Orders submitted for fulfillment (`/merchant_api/v1/orders`). */
export class Orders extends APIResource {
  /**
   * Lists orders, newest first. `GET /merchant_api/v1/orders`.
   * Filters: `created_at: { gte, gt, lte, lt }`; `include: ['batches']` adds SKU batches to items.
   */
  list(params?: OrderListParams, options?: ListOptions): PagePromise<Order> {
    return this._client._list(ORDERS, OrderListParamsSchema, params, OrderSchema, options, withInclude);
  }

  /** Retrieves one order. `GET /merchant_api/v1/orders/{id}`; `include: ['batches']` adds SKU batches. */
  retrieve(id: Id, params?: OrderRetrieveParams, options?: RequestOptions): APIPromise<Order> {
    return this._client._request(() => {
      const path = `${ORDERS}/${pathId(id)}`;
      const query =
        params === undefined
          ? undefined
          : encodeQuery(withInclude(validateRequest(OrderRetrieveParamsSchema, params, `GET ${path}`)));
      return { method: 'GET', path, query, options };
    }, OrderSchema);
  }

  /**
   * Submits an order. `POST /merchant_api/v1/orders` (201). Validated before sending: required
   * fields, a name on the address, `sku_id` or `merchant_sku_id` on each item, unique
   * `merchant_item_id`s, and the COD rule (`payment_method` containing `COD` needs
   * `total_price_in_cents > 0`). Never retried after it may have reached the server (no duplicate
   * orders): only a 429 or a refused connection is retried.
   */
  create(body: OrderCreateParams, options?: RequestOptions): APIPromise<Order> {
    return this._client._request(
      () => ({
        method: 'POST',
        path: ORDERS,
        body: validateRequest(OrderCreateParamsSchema, body, `POST ${ORDERS}`),
        options,
      }),
      OrderSchema,
    );
  }

  /**
   * Updates an order. `PATCH /merchant_api/v1/orders/{id}`. Items are matched by
   * `merchant_item_id`; every other field is optional.
   */
  update(id: Id, body: OrderUpdateParams, options?: RequestOptions): APIPromise<Order> {
    return this._client._request(() => {
      const path = `${ORDERS}/${pathId(id)}`;
      return {
        method: 'PATCH',
        path,
        body: validateRequest(OrderUpdateParamsSchema, body, `PATCH ${path}`),
        options,
      };
    }, OrderSchema);
  }

  /**
   * Cancels an order: it becomes `unfulfillable`. `PUT /merchant_api/v1/orders/{id}/cancel`.
   * The API documents no response body: resolves with the order when one is sent, else `undefined`.
   */
  cancel(id: Id, options?: RequestOptions): APIPromise<Order | undefined> {
    return this._client._request(
      () => ({ method: 'PUT', path: `${ORDERS}/${pathId(id)}/cancel`, options }),
      OrderSchema,
      true,
    );
  }
}
