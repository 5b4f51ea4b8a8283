// @expect-error /SkuSchema/
/** Schema values come from `merchant-fulfillment/schemas` only: the main entry exports no schema. */
import { SkuSchema } from 'merchant-fulfillment';

export const schema = SkuSchema;
