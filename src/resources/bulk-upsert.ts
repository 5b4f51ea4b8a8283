/**
 * The bulk upsert of SKUs (`POST /merchant_api/v1/skus/bulk_upsert`): splitting into requests of at
 * most 100, sending them a few at a time, and what a run did — its result, or the
 * `BulkUpsertError` of a run that stopped part-way.
 */

import type * as z from 'zod/mini';
import { APIError, FulfillmentError } from '../core/errors.js';
import { lazySchema, loadValidation, schemaOf, validation } from '../core/lazy.js';
import type { RequestOptions } from '../core/options.js';
import type { RequestSurface } from '../core/pagination.js';
import { contextOf, parseBody, type RawResponse, type ResponseParsers } from '../core/response.js';
import { splitQuery } from '../core/url.js';
import type { Sku, SkuBulkUpsertItem } from '../schemas/skus.js';
import { callback, checkOwnOptions, integer, type OptionRule } from './resource.js';

const BULK_UPSERT = '/merchant_api/v1/skus/bulk_upsert';
/** Most SKUs the API takes in one bulk upsert request. */
const BULK_UPSERT_MAX = 100;
const schemas = () => import('../schemas/skus.js');
const ListBody = /* @__PURE__ */ lazySchema(schemas, 'SkuListBodySchema');
const ListQuery = /* @__PURE__ */ lazySchema(schemas, 'SkuListParamsSchema');
const Item = /* @__PURE__ */ lazySchema(schemas, 'SkuBulkUpsertItemSchema');
const ItemsSchema = /* @__PURE__ */ lazySchema(
  () => import('../schemas/lookups.js'),
  'SkuBulkUpsertListSchema',
);
const SKUS = '/merchant_api/v1/skus';
const OPTION_RULES: Record<string, OptionRule> = /* @__PURE__ */ (() => ({
  concurrency: integer(1),
  chunkSize: integer(1, BULK_UPSERT_MAX),
  onProgress: callback,
  merge: [(v) => typeof v === 'boolean', 'expected a boolean'],
}))();
/** Options of `skus.bulkUpsert`: request options plus batching. */
export interface BulkUpsertOptions extends RequestOptions {
  /** Requests in flight at once. Default 2. */
  concurrency?: number | undefined;
  /** SKUs per request, 1 to 100. Default 100. */
  chunkSize?: number | undefined;
  /** Called after each request with the run so far. */
  onProgress?: ((progress: Readonly<BulkUpsertProgress>) => void) | undefined;
  /**
   * Keep what an item leaves out. The API sets every field an item omits to `null` on an existing
   * SKU; with `merge: true` each request is preceded by a `GET /skus?merchant_sku_ids[]=…` of its
   * items (so twice the requests; more when long codes need several URLs), and an item's omitted fields are filled from the SKU the API
   * holds. Default `false`.
   */
  merge?: boolean | undefined;
}

/** A bulk upsert so far, given to `onProgress` after each request. */
export interface BulkUpsertProgress {
  /** Requests finished (written or failed) of `requests`. */
  done: number;
  requests: number;
  /** SKUs written so far, of `total`. */
  written: number;
  total: number;
  /** Requests that failed so far (the run stops starting new ones after the first). */
  failed: number;
}

/** One request of a bulk upsert: which items it carried and how it ended. */
export interface BulkUpsertChunk {
  /** Index (in the list you passed) of the first item of this request. */
  start: number;
  /** Index after the last item of this request. */
  end: number;
  /** `written`: accepted; `failed`: an error (or `"success": false`) came back; `skipped`: not sent. */
  status: 'written' | 'failed' | 'skipped';
  /** The error, for a failed request. */
  error?: unknown;
  /** A written request's body as received (JSON without `__proto__` keys, or text; `undefined` if empty). */
  body?: unknown;
}

/** What a bulk upsert did. */
export interface BulkUpsertResult {
  /** SKUs the API returned, in request order; `undefined` when the API answered without a list of SKUs. */
  skus: Sku[] | undefined;
  /** Number of SKUs written. */
  written: number;
  /** One entry per request. */
  chunks: BulkUpsertChunk[];
}

/**
 * A bulk upsert stopped part-way: some requests were written, one or more failed, the rest were not
 * sent. `written`, `failed` and `skipped` list the indices (in the list you passed) of each group.
 */
export class BulkUpsertError extends FulfillmentError {
  static override readonly name: string = 'BulkUpsertError';
  /** Every request with its item range and outcome. */
  readonly chunks: readonly BulkUpsertChunk[];
  /** Indices of the items the API accepted. */
  readonly written: readonly number[] = [];
  /** Indices of the items whose request failed. */
  readonly failed: readonly number[] = [];
  /** Indices of the items not sent because an earlier request failed. */
  readonly skipped: readonly number[] = [];
  /** The error of the first failed request. */
  override readonly cause: unknown;
  /** The partial result (SKUs returned by the written requests). */
  readonly result: BulkUpsertResult;
  readonly #items: readonly SkuBulkUpsertItem[];

  constructor(result: BulkUpsertResult, items: readonly SkuBulkUpsertItem[]) {
    const first = result.chunks.find((c) => c.status === 'failed');
    const reason = first?.error instanceof Error ? first.error.message : String(first?.error);
    const count = (status: BulkUpsertChunk['status']) =>
      result.chunks.reduce((n, c) => n + (c.status === status ? c.end - c.start : 0), 0);
    super(
      `Bulk upsert stopped: ${count('written')} of ${items.length} SKUs written, ${count('failed')} failed, ${count('skipped')} not sent. First failure: ${reason}`,
      { cause: first?.error },
    );
    for (const c of result.chunks) for (let i = c.start; i < c.end; i++) (this[c.status] as number[]).push(i);
    this.chunks = result.chunks;
    this.result = result;
    this.cause = first?.error;
    this.#items = items;
  }

  /**
   * The items that were not written (failed, then not sent), in order: pass them to `bulkUpsert`
   * again to finish the run. An upsert may be repeated safely.
   */
  remaining(): SkuBulkUpsertItem[] {
    return this.chunks.flatMap((c) => (c.status === 'written' ? [] : this.#items.slice(c.start, c.end)));
  }
}

/**
 * `merge` mode: the items with each field they omit taken from the SKU the API holds under the
 * same `merchant_sku_id` (one list request for the whole slice). A held value is used only when
 * it is set and is a valid value of the field in a request.
 */
async function mergeWithExisting(
  client: RequestSurface,
  slice: readonly SkuBulkUpsertItem[],
  options: RequestOptions,
): Promise<Record<string, unknown>[]> {
  const query = { merchant_sku_ids: slice.map((item) => item.merchant_sku_id), limit: BULK_UPSERT_MAX };
  const lookups = splitQuery(client.baseUrl + SKUS, query).map((part) =>
    client.get(SKUS, { query: part, querySchema: ListQuery, options, response: ListBody }),
  );
  const held = (await Promise.all(lookups)).flatMap((list) => list ?? []);
  const byCode = new Map(held.map((sku) => [sku.merchant_sku_id, sku as Record<string, unknown>]));
  const { shape } = Item.schema as unknown as z.ZodMiniObject;
  const { accepts } = validation();
  return slice.map((item) => {
    const existing = byCode.get(item.merchant_sku_id);
    const merged: Record<string, unknown> = { ...item };
    for (const [field, schema] of Object.entries(shape)) {
      const value = existing?.[field];
      if (merged[field] !== undefined || value === undefined || value === null) continue;
      // A decimal the API sends as a string (`weight_in_kg: "0.3"`) where a request takes a number.
      if (accepts(schema, value)) merged[field] = value;
      else if (typeof value === 'string' && value.trim() !== '' && accepts(schema, Number(value))) {
        merged[field] = Number(value);
      }
    }
    return merged;
  });
}

/**
 * The SKUs in a bulk upsert response, checked as `validateResponses` says, or `undefined` when the
 * body is not a list of SKUs (the raw body stays in the chunk: the endpoint documents none).
 */
function parseBulkBody(body: unknown, responses: ResponseParsers): Sku[] | undefined {
  const envelope = body as { data?: unknown; skus?: unknown } | null | undefined;
  const list = Array.isArray(body) ? body : (envelope?.data ?? envelope?.skus);
  if (!Array.isArray(list)) return undefined;
  if (responses.mode === 'off') return list;
  try {
    return responses.parse(ListBody, body);
  } catch {
    return undefined;
  }
}

/**
 * A chunk's answer as received: parsed JSON (without `__proto__` keys), the text, or `undefined`
 * when empty. A 2xx carrying the API's error shape (`"success": false`) is an `APIError`.
 */
function chunkBody(raw: RawResponse): unknown {
  if (raw.text.trim() === '') return undefined;
  const body = parseBody(raw.text);
  if ((body as { success?: unknown } | null)?.success !== false) return body;
  throw APIError.from({
    ...contextOf(raw),
    body: raw.redactor?.value(body) ?? body,
    headers: raw.redactor?.responseHeaders(raw.response.headers) ?? raw.response.headers,
  });
}

/** Runs a bulk upsert through `client`: see `Skus.bulkUpsert`. */
export async function bulkUpsert(
  client: RequestSurface,
  skus: readonly SkuBulkUpsertItem[],
  options: BulkUpsertOptions = {},
): Promise<BulkUpsertResult> {
  const context = `POST ${BULK_UPSERT}`;
  checkOwnOptions(options, OPTION_RULES, context);
  const { concurrency = 2, chunkSize = BULK_UPSERT_MAX, onProgress, merge, ...requestOptions } = options;
  await Promise.all([ItemsSchema.load(), Item.load(), ListBody.load(), loadValidation()]);
  const { compiled, validateRequest } = validation();
  const items = validateRequest(
    compiled(schemaOf(ItemsSchema)),
    skus,
    context,
    'skus',
  ) as SkuBulkUpsertItem[];

  const chunks: BulkUpsertChunk[] = [];
  for (let start = 0; start < items.length; start += chunkSize) {
    chunks.push({ start, end: Math.min(start + chunkSize, items.length), status: 'skipped' });
  }
  const progress = { done: 0, requests: chunks.length, written: 0, total: items.length, failed: 0 };
  let next = 0;
  const worker = async () => {
    while (progress.failed === 0 && next < chunks.length) {
      const chunk = chunks[next++]!;
      const slice = items.slice(chunk.start, chunk.end);
      try {
        chunk.body = await client.post(BULK_UPSERT, {
          body: { skus: merge ? await mergeWithExisting(client, slice, requestOptions) : slice },
          idempotent: true, // an upsert may be repeated safely
          options: requestOptions,
          response: chunkBody,
        });
        chunk.status = 'written';
        progress.written += slice.length;
      } catch (error) {
        chunk.status = 'failed';
        chunk.error = error;
        progress.failed++;
      }
      progress.done++;
      onProgress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
  // Only a written chunk holds a body.
  const lists = chunks.map((c) => parseBulkBody(c.body, client._responses)).filter((l) => l !== undefined);
  const result = { skus: lists.length > 0 ? lists.flat() : undefined, written: progress.written, chunks };
  if (progress.failed > 0) throw new BulkUpsertError(result, skus);
  return result;
}
