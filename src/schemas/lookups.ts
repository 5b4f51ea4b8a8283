/**
 * Request schemas of the SDK's own helpers (not of an API body), kept out of the public
 * `merchant-fulfillment/schemas` entry.
 */
import * as z from 'zod/mini';
import { dateTimeInput, repeats } from './common.js';
import { SkuBulkUpsertItemSchema } from './skus.js';

const NON_EMPTY = 'expected a non-empty string';
/** The code looked up. */
const code = z.string({ error: NON_EMPTY }).check(z.minLength(1, { error: NON_EMPTY }));

/** `skus.retrieveByMerchantSkuId(merchantSkuId)`: the code looked up with the list filter. */
export const SkuLookupSchema = z.pipe(
  z.strictObject({ merchantSkuId: code }),
  z.transform(({ merchantSkuId }) => ({ merchant_sku_ids: [merchantSkuId] })),
);

/**
 * `orders.findByMerchantOrderId(merchantOrderId, options)`: the code and the scan's bounds, sent as
 * the list query: 100 per page, newest first, within the bounds given (if any).
 */
export const OrderLookupSchema = z.pipe(
  z.strictObject({
    merchantOrderId: code,
    createdAfter: z.optional(dateTimeInput()),
    createdBefore: z.optional(dateTimeInput()),
  }),
  z.transform(({ createdAfter: gte, createdBefore: lte }) => ({ limit: 100, created_at: { gte, lte } })),
);

/**
 * `skus.bulkUpsert(skus)`: the list, at least one item, each `merchant_sku_id` once (a code twice
 * would let the later item silently win). The SDK sends it in bodies of at most 100.
 */
export const SkuBulkUpsertListSchema = z
  .array(SkuBulkUpsertItemSchema, { error: 'expected an array of SKUs' })
  .check(
    z.minLength(1, { error: 'expected at least 1 SKU (the API requires 1 to 100 per request)' }),
    z.superRefine((list, ctx) => {
      for (const [index, first, input] of repeats(list, 'merchant_sku_id')) {
        const message = `duplicate (same as skus[${first}])`;
        ctx.addIssue({ code: 'custom', path: [index, 'merchant_sku_id'], message, input });
      }
    }),
  );
