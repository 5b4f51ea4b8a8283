import type { ListOptions, PagePromise } from '../core/pagination.js';
import {
  type Shipment,
  type ShipmentListParams,
  ShipmentListParamsSchema,
  ShipmentSchema,
} from '../schemas/shipments.js';
import { APIResource } from './resource.js';

/** Outbound shipments of orders (`/merchant_api/v1/shipments`). */
export class Shipments extends APIResource {
  /** Lists shipments, newest first, with their items. `GET /merchant_api/v1/shipments`. */
  list(params?: ShipmentListParams, options?: ListOptions): PagePromise<Shipment> {
    return this._client._list(
      '/merchant_api/v1/shipments',
      ShipmentListParamsSchema,
      params,
      ShipmentSchema,
      options,
    );
  }
}
