/**
 * The bulk upsert of SKUs (`POST /merchant_api/v1/skus/bulk_upsert`): splitting into requests of at
 * most 100, sending them a few at a time, and what a run did — its result, or the
 * `BulkUpsertError` of a run that stopped part-way.
 */

import type * as z from 'zod/mini';
import { FulfillmentError, RequestValidationError } from '../core/errors.js';
import { LazySchema, lazySchema, loadValidation, validation } from '../core/lazy.js';
import { checkOptionsObject, type RequestOptions } from '../core/options.js';
import { parseBody, type ResponseParsers } from '../core/response.js';
import type { RequestSurface } from '../core/surface.js';
import type { SkuBulkUpsertItem } from '../schemas/skus.js';
import type { Sku } from '../schemas/types/skus.js';

const BULK_UPSERT = '/merchant_api/v1/skus/bulk_upsert';
/** Most SKUs the API takes in one bulk upsert request. */
export const BULK_UPSERT_MAX = 100;
const schemas = () => import('../schemas/skus.js');
const SkuListBodySchema = /* @__PURE__ */ lazySchema(schemas, 'SkuListBodySchema');
const SkuListParamsSchema = /* @__PURE__ */ lazySchema(schemas, 'SkuListParamsSchema');
const SkuBulkUpsertItemSchema = /* @__PURE__ */ lazySchema(schemas, 'SkuBulkUpsertItemSchema');
const SKUS = '/merchant_api/v1/skus';
/** Every item of a run, checked before the first request is sent. */
const BulkItemsSchema = /* @__PURE__ */ new LazySchema(async () => {
  const [{ SkuBulkUpsertItemSchema }, { arrayOf }] = await Promise.all([schemas(), loadValidation()]);
  return arrayOf(SkuBulkUpsertItemSchema);
});

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
   * SKU; with `merge: true` each request is preceded by one `GET /skus?merchant_sku_ids[]=…` of its
   * items (so twice the requests), and an item's omitted fields are filled from the SKU the API
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
  /** `written`: the API accepted it; `failed`: it answered with an error; `skipped`: not sent after a failure. */
  status: 'written' | 'failed' | 'skipped';
  /** The error, for a failed request. */
  error?: unknown;
  /** The response body as received (parsed JSON, or `undefined` when empty). */
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
  static override readonly brand: string = 'BulkUpsertError';
  /** Every request with its item range and outcome. */
  readonly chunks: readonly BulkUpsertChunk[];
  /** Indices of the items the API accepted. */
  readonly written: readonly number[];
  /** Indices of the items whose request failed. */
  readonly failed: readonly number[];
  /** Indices of the items not sent because an earlier request failed. */
  readonly skipped: readonly number[];
  /** The error of the first failed request. */
  override readonly cause: unknown;
  /** The partial result (SKUs returned by the written requests). */
  readonly result: BulkUpsertResult;
  readonly #items: readonly SkuBulkUpsertItem[];

  constructor(result: BulkUpsertResult, total: number, items: readonly SkuBulkUpsertItem[] = []) {
    const indices = (status: BulkUpsertChunk['status']) =>
      result.chunks
        .filter((c) => c.status === status)
        .flatMap((c) => Array.from({ length: c.end - c.start }, (_, i) => c.start + i));
    const written = indices('written');
    const failed = indices('failed');
    const skipped = indices('skipped');
    const first = result.chunks.find((c) => c.status === 'failed');
    const reason = first?.error instanceof Error ? first.error.message : String(first?.error);
    const range = (list: number[]) =>
      list.length === 0 ? 'none' : `${list.length} (items ${describeRanges(list)})`;
    super(
      `Bulk upsert stopped: written ${range(written)} of ${total}; failed ${range(failed)}; not sent ${range(skipped)}. First failure: ${reason}`,
      { cause: first?.error },
    );
    this.cause = first?.error;
    this.chunks = result.chunks;
    this.result = result;
    this.written = written;
    this.failed = failed;
    this.skipped = skipped;
    this.#items = items;
  }

  /**
   * The items that were not written (failed, then not sent), in order: pass them to `bulkUpsert`
   * again to finish the run. An upsert may be repeated safely.
   */
  remaining(): SkuBulkUpsertItem[] {
    return [...this.failed, ...this.skipped]
      .sort((a, b) => a - b)
      .flatMap((i) => {
        const item = this.#items[i];
        return item === undefined ? [] : [item];
      });
  }
}

/**
 * `merge` mode: the items with each field they omit taken from the SKU the API holds under the
 * same `merchant_sku_id` (one list request for the whole slice). A held value is used only when
 * it is set and is a valid value of the field in a request.
 */
async function mergeWithExisting(
  client: RequestSurface,
  slice: readonly Record<string, unknown>[],
  options: RequestOptions,
): Promise<Record<string, unknown>[]> {
  const codes = slice.map((item) => item.merchant_sku_id).filter((c): c is string => typeof c === 'string');
  const [held, itemSchema] = await Promise.all([
    client.get(SKUS, {
      query: { merchant_sku_ids: codes, limit: BULK_UPSERT_MAX },
      querySchema: SkuListParamsSchema,
      options,
      response: SkuListBodySchema,
    }),
    SkuBulkUpsertItemSchema.load(),
  ]);
  const byCode = new Map(
    (held ?? []).map((sku) => [sku.merchant_sku_id, sku as unknown as Record<string, unknown>]),
  );
  const fields: Record<string, z.core.$ZodType> = (itemSchema as unknown as z.ZodMiniObject).shape;
  const { accepts } = validation();
  return slice.map((item) => {
    const existing = byCode.get(item.merchant_sku_id as string);
    if (!existing) return item;
    const merged = { ...item };
    for (const [field, schema] of Object.entries(fields)) {
      if (merged[field] !== undefined) continue;
      const value = existing[field];
      if (value === undefined || value === null) continue;
      if (accepts(schema, value)) merged[field] = value;
      // A decimal the API sends as a string (`weight_in_kg: "0.3"`) where a request takes a number.
      else if (typeof value === 'string' && value.trim() !== '' && accepts(schema, Number(value))) {
        merged[field] = Number(value);
      }
    }
    return merged;
  });
}

/** `[0, 1, 2, 5]` → `0–2, 5`. */
function describeRanges(indices: number[]): string {
  const ranges: string[] = [];
  let start = indices[0]!;
  let prev = start;
  for (const index of [...indices.slice(1), Number.NaN]) {
    if (index === prev + 1) {
      prev = index;
      continue;
    }
    ranges.push(start === prev ? `${start}` : `${start}–${prev}`);
    start = index;
    prev = index;
  }
  return ranges.join(', ');
}

/**
 * The SKUs in a bulk upsert response, checked as `validateResponses` says, or `undefined` when the
 * body is not a list of SKUs (the raw body stays in the chunk: the endpoint documents none).
 */
function parseBulkBody(body: unknown, responses: ResponseParsers): Sku[] | undefined {
  if (body === undefined) return undefined;
  if (responses.mode === 'off') {
    const record = body as { data?: unknown; skus?: unknown } | null;
    const list = Array.isArray(body) ? body : (record?.data ?? record?.skus);
    return Array.isArray(list) ? (list as Sku[]) : undefined;
  }
  try {
    return responses.parse(SkuListBodySchema, body);
  } catch {
    return undefined;
  }
}

function invalid(path: string, message: string): RequestValidationError {
  return new RequestValidationError([{ path, message }], `POST ${BULK_UPSERT}`);
}

/** The raw body of a chunk's answer: parsed JSON, the text, or `undefined` when empty. */
const chunkBody = (raw: { text: string }): unknown =>
  raw.text.trim() === '' ? undefined : parseBody(raw.text);

/** Runs a bulk upsert through `client`: see `Skus.bulkUpsert`. */
export async function bulkUpsert(
  client: RequestSurface,
  skus: readonly SkuBulkUpsertItem[],
  options: BulkUpsertOptions = {},
): Promise<BulkUpsertResult> {
  if (!Array.isArray(skus)) throw invalid('skus', 'expected an array of SKUs');
  if (skus.length === 0)
    throw invalid('skus', 'expected at least 1 SKU (the API requires 1 to 100 per request)');
  checkOptionsObject(options, `POST ${BULK_UPSERT}`);
  const {
    concurrency = 2,
    chunkSize = BULK_UPSERT_MAX,
    onProgress,
    merge = false,
    ...requestOptions
  } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw invalid('concurrency', 'expected an integer >= 1');
  if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > BULK_UPSERT_MAX) {
    throw invalid('chunkSize', `expected an integer from 1 to ${BULK_UPSERT_MAX}`);
  }
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw invalid('onProgress', 'expected a function');
  if (typeof merge !== 'boolean') throw invalid('merge', 'expected a boolean');
  const [itemsSchema] = await Promise.all([
    BulkItemsSchema.load(),
    SkuListBodySchema.load(),
    loadValidation(),
  ]);
  const items = validation().validateRequest(
    validation().compiled(itemsSchema),
    skus,
    `POST ${BULK_UPSERT}`,
    'skus',
  );
  // One call writes each SKU once: a code twice would let the later item silently win.
  const firstIndex = new Map<string, number>();
  const duplicates: { path: string; message: string }[] = [];
  items.forEach((item: unknown, index: number) => {
    const code = (item as { merchant_sku_id?: unknown }).merchant_sku_id;
    if (typeof code !== 'string') return;
    const first = firstIndex.get(code);
    if (first === undefined) firstIndex.set(code, index);
    else
      duplicates.push({
        path: `skus[${index}].merchant_sku_id`,
        message: `duplicate (same as skus[${first}])`,
      });
  });
  if (duplicates.length > 0) throw new RequestValidationError(duplicates, `POST ${BULK_UPSERT}`);

  const chunks: BulkUpsertChunk[] = [];
  for (let start = 0; start < items.length; start += chunkSize) {
    chunks.push({ start, end: Math.min(start + chunkSize, items.length), status: 'skipped' });
  }
  const parsed: (Sku[] | undefined)[] = new Array(chunks.length);
  const progress: BulkUpsertProgress = {
    done: 0,
    requests: chunks.length,
    written: 0,
    total: items.length,
    failed: 0,
  };
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < chunks.length) {
      const index = next++;
      const chunk = chunks[index]!;
      try {
        const slice = items.slice(chunk.start, chunk.end) as Record<string, unknown>[];
        chunk.body = await client.post(BULK_UPSERT, {
          body: { skus: merge ? await mergeWithExisting(client, slice, requestOptions) : slice },
          idempotent: true, // an upsert may be repeated safely
          options: requestOptions,
          response: chunkBody,
        });
        chunk.status = 'written';
        parsed[index] = parseBulkBody(chunk.body, client._responses);
      } catch (error) {
        chunk.status = 'failed';
        chunk.error = error;
        failed = true;
      }
      progress.done++;
      if (chunk.status === 'written') progress.written += chunk.end - chunk.start;
      else progress.failed++;
      onProgress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));

  const written = chunks.reduce((n, c) => (c.status === 'written' ? n + c.end - c.start : n), 0);
  const bodies = parsed.filter((p): p is Sku[] => p !== undefined);
  const result: BulkUpsertResult = { skus: bodies.length > 0 ? bodies.flat() : undefined, written, chunks };
  if (failed) throw new BulkUpsertError(result, skus.length, skus);
  return result;
}
