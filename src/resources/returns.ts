/**
 * Returns sent back by customers (`/merchant_api/v1/returns`).
 */

import { lazySchema } from '../core/lazy.js';
import type { ListOptions, RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { path } from '../core/request.js';
import type { APIPromise } from '../core/response.js';
import type { Id } from '../core/url.js';
import type { Return, ReturnListParams } from '../schemas/returns.js';
import { APIResource } from './resource.js';

/** The schemas of this namespace, imported by its first request. */
const schemas = () => import('../schemas/returns.js');
const ListQuery = /* @__PURE__ */ lazySchema(schemas, 'ReturnListParamsSchema');
const Item = /* @__PURE__ */ lazySchema(schemas, 'ReturnSchema');
const RETURNS = '/merchant_api/v1/returns';

/** Returns sent back by customers (`/merchant_api/v1/returns`). */
export class Returns extends APIResource {
  /** Lists returns, newest first. `GET /merchant_api/v1/returns`. */
  list(params?: ReturnListParams, options?: ListOptions): PagePromise<Return> {
    return this._client.getAPIList(RETURNS, Item, { query: params, querySchema: ListQuery, options });
  }

  /** Retrieves one return. `GET /merchant_api/v1/returns/{id}`. */
  retrieve(id: Id, options?: RequestOptions): APIPromise<Return> {
    return this._client.get(path`/merchant_api/v1/returns/${id}`, { options, response: Item });
  }
}
