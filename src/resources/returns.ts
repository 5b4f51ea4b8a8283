import type { APIPromise } from '../core/api-promise.js';
import type { ListOptions, PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/transport.js';
import { type Id, pathId } from '../core/url.js';
import {
  type Return,
  type ReturnListParams,
  ReturnListParamsSchema,
  ReturnSchema,
} from '../schemas/returns.js';
import { APIResource } from './resource.js';

const RETURNS = '/merchant_api/v1/returns';

/** Returns sent back by customers (`/merchant_api/v1/returns`). */
export class Returns extends APIResource {
  /** Lists returns, newest first. `GET /merchant_api/v1/returns`. */
  list(params?: ReturnListParams, options?: ListOptions): PagePromise<Return> {
    return this._client._list(RETURNS, ReturnListParamsSchema, params, ReturnSchema, options);
  }

  /** Retrieves one return. `GET /merchant_api/v1/returns/{id}`. */
  retrieve(id: Id, options?: RequestOptions): APIPromise<Return> {
    return this._client._request(
      () => ({ method: 'GET', path: `${RETURNS}/${pathId(id)}`, options }),
      ReturnSchema,
    );
  }
}
