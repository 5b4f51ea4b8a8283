/**
 * Request schemas of the SDK's own helpers (not of an API body), kept out of the public
 * `merchant-fulfillment/schemas` entry.
 */
import * as z from 'zod/mini';
import { dateTimeInput } from './common.js';

const NON_EMPTY = 'expected a non-empty string';
/** The code looked up. */
const code = z.string({ error: NON_EMPTY }).check(z.minLength(1, { error: NON_EMPTY }));

/** `skus.retrieveByMerchantSkuId(merchantSkuId)`: the code looked up with the list filter. */
export const SkuLookupSchema = z.strictObject({ merchantSkuId: code });

/** `orders.findByMerchantOrderId(merchantOrderId, options)`: the code and the scan's bounds. */
export const OrderLookupSchema = z.strictObject({
  merchantOrderId: code,
  createdAfter: z.optional(dateTimeInput()),
  createdBefore: z.optional(dateTimeInput()),
});
