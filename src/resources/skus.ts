/**
 * The SKU catalogue and its inventory (`/merchant_api/v1/skus`).
 */

import { FulfillmentError } from '../core/errors.js';
import { lazySchema } from '../core/lazy.js';
import type { ListOptions, RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { path } from '../core/request.js';
import type { APIPromise } from '../core/response.js';
import { optionalBody } from '../core/response.js';
import type { Id } from '../core/url.js';
import type {
  Sku,
  SkuBulkUpsertItem,
  SkuCreateParams,
  SkuListParams,
  SkuUpdateParams,
} from '../schemas/skus.js';
import { type BulkUpsertOptions, type BulkUpsertResult, bulkUpsert } from './bulk-upsert.js';
import { APIResource } from './resource.js';

/** The schemas of this namespace, imported by its first request. */
const schemas = () => import('../schemas/skus.js');
const CreateBody = /* @__PURE__ */ lazySchema(schemas, 'SkuCreateParamsSchema');
const ListBody = /* @__PURE__ */ lazySchema(schemas, 'SkuListBodySchema');
const ListQuery = /* @__PURE__ */ lazySchema(schemas, 'SkuListParamsSchema');
const SkuSchema = /* @__PURE__ */ lazySchema(schemas, 'SkuSchema');
const UpdateBody = /* @__PURE__ */ lazySchema(schemas, 'SkuUpdateParamsSchema');

const SKUS = '/merchant_api/v1/skus';
const at = (id: Id) => path`/merchant_api/v1/skus/${id}`;
/**
 * Most pages of 100 SKUs that `skus.delete` reads to find a SKU the API did not send back. Its
 * JSDoc quotes the number, since the constant is not exported to users: change both.
 */
export const READ_BACK_PAGES = 5;
const OptionalSku = /* @__PURE__ */ optionalBody(SkuSchema);
/** The lookup by merchant SKU code, sent as the list filter `merchant_sku_ids[]=…`. */
const LookupQuery = /* @__PURE__ */ lazySchema(() => import('../schemas/lookups.js'), 'SkuLookupSchema');

/** The SKU catalogue and its inventory (`/merchant_api/v1/skus`). */
export class Skus extends APIResource {
  /**
   * Lists SKUs, newest first, with their inventory. `GET /merchant_api/v1/skus`.
   * Filters: `merchant_sku_ids` (`merchant_sku_ids[]=…`), `created_at: { gte, gt, lte, lt }`.
   * `merchant_sku_ids` of any length: codes that would make the URL longer than
   * 4,096 characters are sent as several requests, one after the other, as the pages of one list
   * (`maxPages` counts them all): awaiting gives the first page of the first.
   */
  list(params?: SkuListParams, options?: ListOptions): PagePromise<Sku> {
    return this._client.getAPIList(SKUS, SkuSchema, { query: params, querySchema: ListQuery, options });
  }

  /** Creates a SKU. `POST /merchant_api/v1/skus`. `name` and `merchant_sku_id` are required. */
  create(body: SkuCreateParams, options?: RequestOptions): APIPromise<Sku> {
    return this._client.post(SKUS, { body, bodySchema: CreateBody, options, response: SkuSchema });
  }

  /**
   * Updates a SKU. `PATCH /merchant_api/v1/skus/{id}`. Omitted properties keep their value;
   * `batch_tracking_enabled: null` leaves it unchanged. Reactivates a deleted SKU.
   */
  update(id: Id, body: SkuUpdateParams, options?: RequestOptions): APIPromise<Sku> {
    return this._client.patch(at(id), { body, bodySchema: UpdateBody, options, response: SkuSchema });
  }

  /**
   * Updates a SKU with PUT. `PUT /merchant_api/v1/skus/{id}`. On this API PUT behaves exactly like
   * PATCH: omitted properties KEEP their value (it is not a replacement), and a `null`
   * `batch_tracking_enabled` leaves it unchanged. Reactivates a deleted SKU.
   */
  put(id: Id, body: SkuUpdateParams, options?: RequestOptions): APIPromise<Sku> {
    return this._client.put(at(id), { body, bodySchema: UpdateBody, options, response: SkuSchema });
  }

  /**
   * Marks an active SKU deleted. `DELETE /merchant_api/v1/skus/{id}`. Resolves with the SKU as it
   * stands after the delete (`status: 'deleted'`). The API documents no response body: when it
   * answers without the SKU, the SDK reads it back from the SKU list, newest first (the API has no
   * `GET /skus/{id}`): at most 5 requests of 100 SKUs. If that read fails or
   * does not find it, the error says the delete itself succeeded.
   */
  delete(id: Id, options?: RequestOptions): APIPromise<Sku> {
    return this._client
      .delete(at(id), { options, response: OptionalSku })
      ._then((sku) => sku ?? this.#readBack(Number(id), options), `DELETE /merchant_api/v1/skus/${id}`);
  }

  /** Finds a SKU by id in the newest {@link READ_BACK_PAGES} pages of the SKU list. */
  async #readBack(id: number, options: RequestOptions | undefined): Promise<Sku> {
    let read = 0;
    for await (const page of this.list({ limit: 100 }, options).pages()) {
      const sku = page.data.find((s) => s.id === id);
      if (sku) return sku;
      if (++read >= READ_BACK_PAGES) break;
    }
    throw new FulfillmentError(`SKU ${id} is not among the ${READ_BACK_PAGES * 100} newest SKUs.`);
  }

  /**
   * Finds the SKU with this merchant SKU code (`GET /merchant_api/v1/skus?merchant_sku_ids[]=…`).
   * Resolves with the SKU, or `null` when there is none.
   */
  retrieveByMerchantSkuId(merchantSkuId: string, options?: RequestOptions): APIPromise<Sku | null> {
    // The filter is exact on the server; the match is checked again here all the same.
    return this._client
      .get(SKUS, { query: { merchantSkuId }, querySchema: LookupQuery, options, response: ListBody })
      ._map((skus) => skus.find((sku) => sku.merchant_sku_id === merchantSkuId) ?? null);
  }

  /**
   * Creates or updates many SKUs. `POST /merchant_api/v1/skus/bulk_upsert`, split into requests of at
   * most 100 SKUs sent `concurrency` at a time (default 2), each retried as idempotent.
   *
   * Every item is validated first (only `name` and `merchant_sku_id` are required); if any is
   * invalid nothing is sent. For an EXISTING SKU the API sets every omitted field to `null`, except
   * `batch_tracking_enabled`, which keeps its value when omitted — send the full record, or pass
   * `merge: true` (omitted fields keep their values; one extra list request per upsert request).
   *
   * When a request fails, no further request is started and a {@link BulkUpsertError} says which
   * items were written, which failed and which were not sent.
   */
  bulkUpsert(skus: readonly SkuBulkUpsertItem[], options?: BulkUpsertOptions): Promise<BulkUpsertResult> {
    return bulkUpsert(this._client, skus, options);
  }
}
