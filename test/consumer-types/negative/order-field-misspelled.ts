// @expect-error /'stauts'/
// @hint /Did you mean 'status'\?/
/** A misspelled field of a response is a type error, not an `unknown` read. */
import { FulfillmentClient } from 'merchant-fulfillment';

const client = new FulfillmentClient({ apiToken: 'token', baseUrl: 'https://fulfillment.example.com' });

export async function statusOf(id: number): Promise<unknown> {
  const order = await client.orders.retrieve(id);
  return order.stauts;
}
