/**
 * Restocking shipments (inbound goods), by API version: `v1` and `v2`.
 */

import { lazySchema } from '../core/lazy.js';
import type { RequestOptions } from '../core/options.js';
import type { RequestSurface } from '../core/pagination.js';
import { path } from '../core/request.js';
import type { APIPromise } from '../core/response.js';
import type { Id } from '../core/url.js';
import type {
  RestockingShipmentV1,
  RestockingShipmentV1CreateParams,
  RestockingShipmentV1UpdateParams,
  RestockingShipmentV2,
  RestockingShipmentV2CreateParams,
  RestockingShipmentV2ReplaceParams,
} from '../schemas/restocking-shipments.js';
import { APIResource } from './resource.js';

/** The schemas of this namespace, imported by its first request. */
const schemas = () => import('../schemas/restocking-shipments.js');
const V1Create = /* @__PURE__ */ lazySchema(schemas, 'RestockingShipmentV1CreateParamsSchema');
const V1Update = /* @__PURE__ */ lazySchema(schemas, 'RestockingShipmentV1UpdateParamsSchema');
const V1Shipment = /* @__PURE__ */ lazySchema(schemas, 'RestockingShipmentV1Schema');
const V2Create = /* @__PURE__ */ lazySchema(schemas, 'RestockingShipmentV2CreateParamsSchema');
const V2Replace = /* @__PURE__ */ lazySchema(schemas, 'RestockingShipmentV2ReplaceParamsSchema');
const V2Shipment = /* @__PURE__ */ lazySchema(schemas, 'RestockingShipmentV2Schema');

const V1 = '/merchant_api/v1/restocking_shipments';
const V2 = '/merchant_api/v2/restocking_shipments';
const v1 = (id: Id) => path`/merchant_api/v1/restocking_shipments/${id}`;
const v2 = (id: Id) => path`/merchant_api/v2/restocking_shipments/${id}`;

/** Restocking shipments, version 1 (`/merchant_api/v1/restocking_shipments`). */
export class RestockingShipmentsV1 extends APIResource {
  /**
   * Announces a restocking shipment. `POST /merchant_api/v1/restocking_shipments`.
   * A shipment created through the API starts with status `shipped`.
   */
  create(body: RestockingShipmentV1CreateParams, options?: RequestOptions): APIPromise<RestockingShipmentV1> {
    return this._client.post(V1, { body, bodySchema: V1Create, options, response: V1Shipment });
  }

  /**
   * Updates a restocking shipment. `PUT /merchant_api/v1/restocking_shipments/{id}`; allowed only
   * while its status is `created` or `shipped` (else the API answers 422).
   *
   * Omitted top-level properties keep their value, but `restocking_shipment_items` REPLACES the
   * whole item list, and on this API omitting it removes every item. The SDK therefore requires
   * `restocking_shipment_items` and refuses a body without it (`RequestValidationError`, nothing
   * sent): pass the full list you want to keep, or `[]` to clear it on purpose.
   */
  update(
    id: Id,
    body: RestockingShipmentV1UpdateParams,
    options?: RequestOptions,
  ): APIPromise<RestockingShipmentV1> {
    return this._client.put(v1(id), { body, bodySchema: V1Update, options, response: V1Shipment });
  }

  /** Retrieves one restocking shipment. `GET /merchant_api/v1/restocking_shipments/{id}`. */
  retrieve(id: Id, options?: RequestOptions): APIPromise<RestockingShipmentV1> {
    return this._client.get(v1(id), { options, response: V1Shipment });
  }
}

/** Restocking shipments, version 2 (`/merchant_api/v2/restocking_shipments`). */
export class RestockingShipmentsV2 extends APIResource {
  /**
   * Announces a restocking shipment. `POST /merchant_api/v2/restocking_shipments`.
   * `delivery_option`, `estimated_arrival_date`, `warehouse_id` and `restocking_shipment_items`
   * are required. A shipment created through the API starts with status `shipped`.
   */
  create(body: RestockingShipmentV2CreateParams, options?: RequestOptions): APIPromise<RestockingShipmentV2> {
    return this._client.post(V2, { body, bodySchema: V2Create, options, response: V2Shipment });
  }

  /**
   * Replaces a restocking shipment. `PUT /merchant_api/v2/restocking_shipments/{id}` replaces the
   * ENTIRE resource: send every field, as for `create`. Allowed only while its status is `created`
   * or `shipped`.
   */
  replace(
    id: Id,
    body: RestockingShipmentV2ReplaceParams,
    options?: RequestOptions,
  ): APIPromise<RestockingShipmentV2> {
    return this._client.put(v2(id), { body, bodySchema: V2Replace, options, response: V2Shipment });
  }

  /** Retrieves one restocking shipment. `GET /merchant_api/v2/restocking_shipments/{id}`. */
  retrieve(id: Id, options?: RequestOptions): APIPromise<RestockingShipmentV2> {
    return this._client.get(v2(id), { options, response: V2Shipment });
  }
}

/** Restocking shipments (inbound goods), by API version. */
export class RestockingShipments {
  /** Version 1: `create`, `update` (PUT, keeps omitted fields, replaces items), `retrieve`. */
  readonly v1: RestockingShipmentsV1;
  /** Version 2: `create`, `replace` (PUT replaces the whole resource), `retrieve`. */
  readonly v2: RestockingShipmentsV2;

  constructor(client: RequestSurface) {
    this.v1 = new RestockingShipmentsV1(client);
    this.v2 = new RestockingShipmentsV2(client);
  }
}
