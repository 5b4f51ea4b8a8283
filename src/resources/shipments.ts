/**
 * Outbound shipments of orders (`/merchant_api/v1/shipments`).
 */
import { lazySchema } from '../core/lazy.js';
import type { ListOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import type { Shipment, ShipmentListParams } from '../schemas/shipments.js';
import { APIResource } from './resource.js';

/** The schemas of this namespace, imported by its first request. */
const schemas = () => import('../schemas/shipments.js');
const ListQuery = /* @__PURE__ */ lazySchema(schemas, 'ShipmentListParamsSchema');
const Item = /* @__PURE__ */ lazySchema(schemas, 'ShipmentSchema');
const SHIPMENTS = '/merchant_api/v1/shipments';

/** Outbound shipments of orders (`/merchant_api/v1/shipments`). */
export class Shipments extends APIResource {
  /** Lists shipments, newest first, with their items. `GET /merchant_api/v1/shipments`. */
  list(params?: ShipmentListParams, options?: ListOptions): PagePromise<Shipment> {
    return this._client.getAPIList(SHIPMENTS, Item, { query: params, querySchema: ListQuery, options });
  }
}
