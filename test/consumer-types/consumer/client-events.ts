/** The client's events (`client.on` / `once` / `off`) and the `loggerStyle` option. */
import { expectTypeOf } from 'expect-type';
import {
  type ClientEventName,
  type ClientEvents,
  type ClientOptions,
  FulfillmentClient,
  type FulfillmentError,
} from 'merchant-fulfillment';

type ClientEventListener<E extends ClientEventName> = (event: ClientEvents[E]) => unknown;
type LoggerStyle = Exclude<NonNullable<ClientOptions['loggerStyle']>, 'auto'>;
type RequestErrorEvent = ClientEvents['error'];
type RequestEvent = ClientEvents['request'];
type ResponseEvent = ClientEvents['response'];
type RetryEvent = ClientEvents['retry'];
type RetryReason = ClientEvents['retry']['reason'];

export const client = new FulfillmentClient({
  apiToken: 'token',
  baseUrl: 'https://fulfillment.example.com',
  loggerStyle: 'object-first',
});
new FulfillmentClient({ loggerStyle: 'auto' });
new FulfillmentClient({ loggerStyle: 'message-first' });
expectTypeOf<LoggerStyle>().toEqualTypeOf<'object-first' | 'message-first'>();
// @ts-expect-error: 'json' is not a logger style
new FulfillmentClient({ loggerStyle: 'json' });

expectTypeOf<ClientEventName>().toEqualTypeOf<'request' | 'response' | 'retry' | 'error'>();
expectTypeOf<ClientEvents['retry']>().toEqualTypeOf<RetryEvent>();

// Each listener gets its event's payload; `on`, `once` and `off` chain.
const chained = client
  .on('retry', (e) => {
    expectTypeOf(e).toEqualTypeOf<RetryEvent>();
    expectTypeOf(e.delayMs).toEqualTypeOf<number>();
    expectTypeOf(e.reason).toEqualTypeOf<RetryReason>();
    expectTypeOf(e.status).toEqualTypeOf<number | undefined>();
    expectTypeOf(e.error).toEqualTypeOf<FulfillmentError>();
    return e.delayMs;
  })
  .on('request', (e) => {
    expectTypeOf(e).toEqualTypeOf<RequestEvent>();
    expectTypeOf(e.attempt).toEqualTypeOf<number>();
  })
  .on('response', (e) => {
    expectTypeOf(e).toEqualTypeOf<ResponseEvent>();
    expectTypeOf(e.status).toEqualTypeOf<number>();
  })
  .on('error', async (e) => {
    expectTypeOf(e).toEqualTypeOf<RequestErrorEvent>();
    expectTypeOf(e.errorName).toEqualTypeOf<string>();
  });
expectTypeOf(chained).toEqualTypeOf<FulfillmentClient>();

const onRetry: ClientEventListener<'retry'> = (e) => console.log(e.attempt, e.delayMs);
client.on('retry', onRetry).off('retry', onRetry);

// Unknown event names and mismatched listeners are refused (see also
// negative/client-event-unknown-name.ts for the message).
// @ts-expect-error: 'retrying' is not an event of the client
client.on('retrying', () => {});
// @ts-expect-error: a retry listener is not a response listener
client.off('response', onRetry);
// @ts-expect-error: a request event has no delayMs
client.on('request', (e) => e.delayMs);
