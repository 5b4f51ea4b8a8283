import * as z from 'zod';
import { APIPromise } from '../core/api-promise.js';
import {
  type BulkUpsertChunk,
  BulkUpsertError,
  type BulkUpsertResult,
  RequestValidationError,
} from '../core/errors.js';
import type { ListOptions, PagePromise } from '../core/pagination.js';
import { parseBody, type RequestOptions } from '../core/transport.js';
import { encodeQuery, type Id, pathId } from '../core/url.js';
import { compiled, type ValidationMode, validateRequest } from '../core/validation.js';
import { withStrictEnums } from '../schemas/common.js';
import {
  type Sku,
  type SkuBulkUpsertItem,
  SkuBulkUpsertItemSchema,
  type SkuCreateParams,
  SkuCreateParamsSchema,
  type SkuListParams,
  SkuListParamsSchema,
  SkuSchema,
  type SkuUpdateParams,
  SkuUpdateParamsSchema,
} from '../schemas/skus.js';
import { APIResource } from './resource.js';

const SKUS = '/merchant_api/v1/skus';
/** Most SKUs the API takes in one bulk upsert request. */
export const BULK_UPSERT_MAX = 100;

/** Options of {@link Skus.bulkUpsert}: request options plus batching. */
export interface BulkUpsertOptions extends RequestOptions {
  /** Requests in flight at once. Default 2. */
  concurrency?: number | undefined;
  /** SKUs per request, 1 to 100. Default 100. */
  chunkSize?: number | undefined;
}

/** A list of SKUs in any of the shapes the API may use: a bare array, `{ data }` or `{ skus }`. */
const SkuListBodySchema = z.union([
  z.array(SkuSchema),
  z.looseObject({ data: z.array(SkuSchema) }).transform((v) => v.data),
  z.looseObject({ skus: z.array(SkuSchema) }).transform((v) => v.skus),
]);
const BulkItemsSchema = z.array(SkuBulkUpsertItemSchema);

/**
 * The SKUs in a bulk upsert response, checked as `validateResponses` says, or `undefined` when the
 * body is not a list of SKUs (the raw body stays in the chunk: the endpoint documents none).
 */
function parseBulkBody(body: unknown, mode: ValidationMode): Sku[] | undefined {
  if (body === undefined) return undefined;
  if (mode === 'off') {
    const record = body as { data?: unknown; skus?: unknown } | null;
    const list = Array.isArray(body) ? body : (record?.data ?? record?.skus);
    return Array.isArray(list) ? (list as Sku[]) : undefined;
  }
  const fast = compiled(SkuListBodySchema);
  const result = mode === 'strict' ? withStrictEnums(() => fast.safeParse(body)) : fast.safeParse(body);
  return result.success ? result.data : undefined;
}

/** The SKU catalogue and its inventory (`/merchant_api/v1/skus`). */
export class Skus extends APIResource {
  /**
   * Lists SKUs, newest first, with their inventory. `GET /merchant_api/v1/skus`.
   * Filters: `merchant_sku_ids` (`merchant_sku_ids[]=…`), `created_at: { gte, gt, lte, lt }`.
   */
  list(params?: SkuListParams, options?: ListOptions): PagePromise<Sku> {
    return this._client._list(SKUS, SkuListParamsSchema, params, SkuSchema, options);
  }

  /** Creates a SKU. `POST /merchant_api/v1/skus`. `name` and `merchant_sku_id` are required. */
  create(body: SkuCreateParams, options?: RequestOptions): APIPromise<Sku> {
    return this._client._request(
      () => ({
        method: 'POST',
        path: SKUS,
        body: validateRequest(SkuCreateParamsSchema, body, `POST ${SKUS}`),
        options,
      }),
      SkuSchema,
    );
  }

  /**
   * Updates a SKU. `PATCH /merchant_api/v1/skus/{id}`. Omitted properties keep their value;
   * `batch_tracking_enabled: null` leaves it unchanged. Reactivates a deleted SKU.
   */
  update(id: Id, body: SkuUpdateParams, options?: RequestOptions): APIPromise<Sku> {
    return this.#write('PATCH', id, body, options);
  }

  /**
   * Updates a SKU with PUT. `PUT /merchant_api/v1/skus/{id}`. On this API PUT behaves exactly like
   * PATCH: omitted properties KEEP their value (it is not a replacement), and a `null`
   * `batch_tracking_enabled` leaves it unchanged. Reactivates a deleted SKU.
   */
  put(id: Id, body: SkuUpdateParams, options?: RequestOptions): APIPromise<Sku> {
    return this.#write('PUT', id, body, options);
  }

  #write(method: 'PATCH' | 'PUT', id: Id, body: SkuUpdateParams, options?: RequestOptions): APIPromise<Sku> {
    return this._client._request(() => {
      const path = `${SKUS}/${pathId(id)}`;
      return {
        method,
        path,
        body: validateRequest(SkuUpdateParamsSchema, body, `${method} ${path}`),
        options,
      };
    }, SkuSchema);
  }

  /**
   * Marks an active SKU deleted. `DELETE /merchant_api/v1/skus/{id}`. The API documents no response
   * body: resolves with the SKU when one is sent, else `undefined`.
   */
  delete(id: Id, options?: RequestOptions): APIPromise<Sku | undefined> {
    return this._client._request(
      () => ({ method: 'DELETE', path: `${SKUS}/${pathId(id)}`, options }),
      SkuSchema,
      true,
    );
  }

  /**
   * Finds the SKU with this merchant SKU code (`GET /merchant_api/v1/skus?merchant_sku_ids[]=…`).
   * Resolves with the SKU, or `null` when there is none.
   */
  retrieveByMerchantSkuId(merchantSkuId: string, options?: RequestOptions): APIPromise<Sku | null> {
    const parse = this._client._parser(SkuListBodySchema);
    const raw = this._client._send(() => {
      if (typeof merchantSkuId !== 'string' || merchantSkuId === '') {
        throw validateError('merchantSkuId', 'expected a non-empty string', `GET ${SKUS}`);
      }
      return {
        method: 'GET',
        path: SKUS,
        query: encodeQuery({ merchant_sku_ids: [merchantSkuId] }),
        options,
      };
    });
    // The filter is exact on the server; the match is checked again here all the same.
    return new APIPromise(raw, (r) => parse(r).find((sku) => sku.merchant_sku_id === merchantSkuId) ?? null);
  }

  /**
   * Creates or updates many SKUs. `POST /merchant_api/v1/skus/bulk_upsert`, split into requests of at
   * most 100 SKUs sent `concurrency` at a time (default 2), each retried as idempotent.
   *
   * Every item is validated first (only `name` and `merchant_sku_id` are required); if any is
   * invalid nothing is sent. For an EXISTING SKU the API sets every omitted field to `null`, except
   * `batch_tracking_enabled`, which keeps its value when omitted — send the full record.
   *
   * When a request fails, no further request is started and a {@link BulkUpsertError} says which
   * items were written, which failed and which were not sent.
   */
  async bulkUpsert(
    skus: readonly SkuBulkUpsertItem[],
    options: BulkUpsertOptions = {},
  ): Promise<BulkUpsertResult> {
    const context = `POST ${SKUS}/bulk_upsert`;
    if (!Array.isArray(skus)) throw validateError('skus', 'expected an array of SKUs', context);
    if (skus.length === 0)
      throw validateError('skus', 'expected at least 1 SKU (the API requires 1 to 100 per request)', context);
    const { concurrency = 2, chunkSize = BULK_UPSERT_MAX, ...requestOptions } = options;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw validateError('concurrency', 'expected an integer >= 1', context);
    }
    if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > BULK_UPSERT_MAX) {
      throw validateError('chunkSize', `expected an integer from 1 to ${BULK_UPSERT_MAX}`, context);
    }
    const items = validateRequest(BulkItemsSchema, skus, context, 'skus');

    const chunks: BulkUpsertChunk[] = [];
    for (let start = 0; start < items.length; start += chunkSize) {
      chunks.push({ start, end: Math.min(start + chunkSize, items.length), status: 'skipped' });
    }
    const parsed: (Sku[] | undefined)[] = new Array(chunks.length);
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (!failed && next < chunks.length) {
        const index = next++;
        const chunk = chunks[index]!;
        try {
          const raw = await this._client._send({
            method: 'POST',
            path: `${SKUS}/bulk_upsert`,
            body: { skus: items.slice(chunk.start, chunk.end) },
            idempotent: true,
            options: requestOptions,
          });
          const text = raw.text;
          chunk.body = text.trim() === '' ? undefined : parseBody(text);
          chunk.status = 'written';
          parsed[index] = parseBulkBody(chunk.body, this._client.validateResponses);
        } catch (error) {
          chunk.status = 'failed';
          chunk.error = error;
          failed = true;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));

    const written = chunks.reduce((n, c) => (c.status === 'written' ? n + c.end - c.start : n), 0);
    const bodies = parsed.filter((p): p is Sku[] => p !== undefined);
    const result: BulkUpsertResult = {
      skus: bodies.length > 0 ? bodies.flat() : undefined,
      written,
      chunks,
    };
    if (failed) throw new BulkUpsertError(result, skus.length);
    return result;
  }
}

function validateError(path: string, message: string, context: string) {
  return new RequestValidationError([{ path, message }], context);
}
