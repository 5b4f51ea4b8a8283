// @expect-error /'"retrying"' is not assignable to parameter of type 'keyof ClientEvents'|'"retrying"' is not assignable to parameter of type '"request" \| "response" \| "retry" \| "error"'/
/** `client.on` knows the client's events only: a misspelled name is a type error. */
import { FulfillmentClient } from 'merchant-fulfillment';

const client = new FulfillmentClient({ apiToken: 'token', baseUrl: 'https://fulfillment.example.com' });

client.on('retrying', (event) => console.log(event));
