/**
 * Outbound shipments of orders (`/merchant_api/v1/shipments`).
 */
import type { ListOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { type ShipmentListParams, ShipmentListParamsSchema, ShipmentSchema } from '../schemas/shipments.js';
import type { Shipment } from '../schemas/types/shipments.js';
import { APIResource } from './resource.js';

/** Outbound shipments of orders (`/merchant_api/v1/shipments`). */
export class Shipments extends APIResource {
  /** Lists shipments, newest first, with their items. `GET /merchant_api/v1/shipments`. */
  list(params?: ShipmentListParams, options?: ListOptions): PagePromise<Shipment> {
    return this._client.getAPIList('/merchant_api/v1/shipments', ShipmentSchema, {
      query: params,
      querySchema: ShipmentListParamsSchema,
      options,
    });
  }
}
