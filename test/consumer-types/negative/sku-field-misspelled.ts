// @expect-error /'inventroy'/
// @hint /Did you mean 'inventory'\?/
/** A misspelled field of a response is a type error, not an `unknown` read. */
import { FulfillmentClient } from 'merchant-fulfillment';

const client = new FulfillmentClient({ apiToken: 'token', baseUrl: 'https://fulfillment.example.com' });

export async function stockOf(id: number): Promise<unknown> {
  const sku = await client.skus.create({ name: 'Mug', merchant_sku_id: `MUG-${id}` });
  return sku.inventroy;
}
