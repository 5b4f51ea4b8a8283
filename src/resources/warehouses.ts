/**
 * The merchant's warehouses (`/merchant_api/v1/warehouses`).
 */
import { lazySchema } from '../core/lazy.js';
import type { ListOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import type { Warehouse, WarehouseListParams } from '../schemas/warehouses.js';
import { APIResource } from './resource.js';

/** The schemas of this namespace, imported by its first request. */
const schemas = () => import('../schemas/warehouses.js');
const ListQuery = /* @__PURE__ */ lazySchema(schemas, 'WarehouseListParamsSchema');
const Item = /* @__PURE__ */ lazySchema(schemas, 'WarehouseSchema');
const WAREHOUSES = '/merchant_api/v1/warehouses';

/** The merchant's warehouses (`/merchant_api/v1/warehouses`). */
export class Warehouses extends APIResource {
  /**
   * Lists the warehouses. `GET /merchant_api/v1/warehouses`.
   * Only `id` is documented; every other field is kept as sent.
   */
  list(params?: WarehouseListParams, options?: ListOptions): PagePromise<Warehouse> {
    return this._client.getAPIList(WAREHOUSES, Item, { query: params, querySchema: ListQuery, options });
  }
}
