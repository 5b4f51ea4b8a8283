/**
 * Request schemas of the SDK's own helpers (not of an API body), kept out of the public
 * `merchant-fulfillment/schemas` entry.
 */
import * as z from 'zod/mini';

/** `skus.retrieveByMerchantSkuId(merchantSkuId)`: the code looked up with the list filter. */
export const SkuLookupSchema = z.strictObject({
  merchantSkuId: z
    .string({ error: 'expected a non-empty string' })
    .check(z.minLength(1, { error: 'expected a non-empty string' })),
});
