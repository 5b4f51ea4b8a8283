/** Webhooks: `client.webhooks.verify`, `verifyWebhook`, `signWebhook`, `createWebhookHeaders`, the deduplicator. */
import { expectTypeOf } from 'expect-type';
import {
  createWebhookHeaders,
  type EVENT_ID_HEADER,
  InMemoryWebhookDeduplicator,
  type RestockingShipmentStatusUpdatedEvent,
  type RestockingShipmentV1,
  type SIGNATURE_HEADER,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookBody,
  type WebhookDeduplicator,
  type WebhookHeaders,
} from 'merchant-fulfillment';
import { client } from './client.js';

expectTypeOf(client.webhooks.verify).parameters.toEqualTypeOf<
  [
    body: WebhookBody,
    headers: WebhookHeaders,
    options?: Pick<VerifyWebhookOptions, 'signatureHeader' | 'eventIdHeader' | 'maxBodyBytes'> | undefined,
  ]
>();
expectTypeOf(client.webhooks.verify).returns.toEqualTypeOf<Promise<RestockingShipmentStatusUpdatedEvent>>();

expectTypeOf(verifyWebhook).parameters.toEqualTypeOf<[options: VerifyWebhookOptions]>();
expectTypeOf(verifyWebhook).returns.toEqualTypeOf<Promise<RestockingShipmentStatusUpdatedEvent>>();
expectTypeOf(signWebhook).parameters.toEqualTypeOf<[options: { body: WebhookBody; secret: string }]>();
expectTypeOf(signWebhook).returns.toEqualTypeOf<Promise<string>>();
expectTypeOf(createWebhookHeaders).parameters.toEqualTypeOf<
  [
    options: {
      body: WebhookBody;
      secret: string;
      eventId?: string;
      signatureHeader?: string;
      eventIdHeader?: string;
    },
  ]
>();
expectTypeOf(createWebhookHeaders).returns.toEqualTypeOf<Promise<Record<string, string>>>();
expectTypeOf(InMemoryWebhookDeduplicator).constructorParameters.toEqualTypeOf<
  [
    options?:
      | { maxEntries?: number; ttlMs?: number; inProgressTtlMs?: number; now?: () => number }
      | undefined,
  ]
>();
expectTypeOf<InMemoryWebhookDeduplicator>().toExtend<WebhookDeduplicator>();
// (`typeof`: passing the constant as a value would widen its literal type to string)
expectTypeOf<typeof SIGNATURE_HEADER>().toEqualTypeOf<'x-service-signature'>();
expectTypeOf<typeof EVENT_ID_HEADER>().toEqualTypeOf<'x-service-event-id'>();

export async function receive(rawBody: string, bytes: Uint8Array, headers: Headers): Promise<void> {
  // Headers in every usual form: Fetch `Headers`, Node's IncomingHttpHeaders, a plain record.
  const nodeHeaders: Record<string, string | string[] | undefined> = {
    'x-service-signature': 'ab',
    'x-forwarded-for': ['a', 'b'],
    cookie: undefined,
  };
  const event = await client.webhooks.verify(rawBody, headers);
  await client.webhooks.verify(bytes, nodeHeaders, { signatureHeader: 'x-signature' });
  await verifyWebhook({ body: bytes.buffer as ArrayBuffer, headers: nodeHeaders, secret: ['old', 'new'] });
  expectTypeOf(event.id).toEqualTypeOf<string>();
  expectTypeOf(event.type).toEqualTypeOf<'restocking_shipment.status_updated'>();
  expectTypeOf(event.data).toEqualTypeOf<RestockingShipmentV1>();
  expectTypeOf(event.data.status).toEqualTypeOf<RestockingShipmentV1['status']>();

  const signature = await signWebhook({ body: rawBody, secret: 'token' });
  expectTypeOf(signature).toEqualTypeOf<string>();
  const sent = await createWebhookHeaders({ body: rawBody, secret: 'token', eventId: 'evt-1' });
  expectTypeOf(sent).toEqualTypeOf<Record<string, string>>();

  const dedup = new InMemoryWebhookDeduplicator({ maxEntries: 1000, ttlMs: 60_000 });
  expectTypeOf(dedup.size).toEqualTypeOf<number>();
  const shared: WebhookDeduplicator = dedup;
  expectTypeOf(shared.claim('x', 'token')).toEqualTypeOf<Promise<'new' | 'in_progress' | 'done'>>();
  expectTypeOf(dedup.claim('x', crypto.randomUUID())).toEqualTypeOf<
    Promise<'new' | 'in_progress' | 'done'>
  >();
  expectTypeOf(dedup.release('x', 'token')).toEqualTypeOf<boolean>();
  // @ts-expect-error: a claim is made under the delivery attempt's token
  dedup.claim('x');

  // A parsed body is refused by the types as well as at run time.
  // @ts-expect-error: the body must be the raw string or bytes, not parsed JSON
  await verifyWebhook({ body: { id: 1 }, headers, secret: 'token' });
}
