/**
 * Request schemas of the SDK's own helpers (not of an API body), kept out of the public
 * `merchant-fulfillment/schemas` entry.
 */
import * as z from 'zod/mini';
import { dateTimeInput } from './common.js';

/** `skus.retrieveByMerchantSkuId(merchantSkuId)`: the code looked up with the list filter. */
export const SkuLookupSchema = z.strictObject({
  merchantSkuId: z
    .string({ error: 'expected a non-empty string' })
    .check(z.minLength(1, { error: 'expected a non-empty string' })),
});

/** `orders.findByMerchantOrderId(merchantOrderId, options)`: the code and the scan's bounds. */
export const OrderLookupSchema = z.strictObject({
  merchantOrderId: z
    .string({ error: 'expected a non-empty string' })
    .check(z.minLength(1, { error: 'expected a non-empty string' })),
  createdAfter: z.optional(dateTimeInput()),
  createdBefore: z.optional(dateTimeInput()),
});
