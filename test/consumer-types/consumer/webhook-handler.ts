/**
 * `createWebhookHandler`: each status handler gets the shipment with its `status` narrowed, the
 * handler's two faces, the options and what `onError` is told.
 */
import { expectTypeOf } from 'expect-type';
import {
  createWebhookHandler,
  InMemoryWebhookDeduplicator,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  type RestockingShipmentStatusUpdatedEvent,
  type RestockingShipmentV1,
  type WebhookErrorContext,
  type WebhookHandler,
  type WebhookHandlerOptions,
  type WebhookStatusHandlers,
} from 'merchant-fulfillment';

/** What the handler of status `S` receives: the shipment and the event, their `status` narrowed. */
type Shipment<S extends string> = RestockingShipmentV1 & { status: S };
type StatusEvent<S extends string> = RestockingShipmentStatusUpdatedEvent & { status: S; data: Shipment<S> };

expectTypeOf(createWebhookHandler).parameters.toEqualTypeOf<[options: WebhookHandlerOptions]>();
expectTypeOf(createWebhookHandler).returns.toEqualTypeOf<WebhookHandler>();

export const handler = createWebhookHandler({
  secret: ['old-token', 'new-token'],
  on: {
    // Version 2's `received` arrives as version 1's `delivered`: the status is narrowed to it.
    delivered: (shipment, event) => {
      expectTypeOf(shipment.status).toEqualTypeOf<'delivered'>();
      expectTypeOf(shipment).toEqualTypeOf<Shipment<'delivered'>>();
      expectTypeOf(shipment).toExtend<RestockingShipmentV1>();
      expectTypeOf(event).toEqualTypeOf<StatusEvent<'delivered'>>();
      expectTypeOf(event.data.status).toEqualTypeOf<'delivered'>();
      expectTypeOf(event.id).toEqualTypeOf<string>();
      return shipment.id;
    },
    restocked: async (shipment) => {
      expectTypeOf(shipment.status).toEqualTypeOf<'restocked'>();
      expectTypeOf(shipment.restocking_shipment_items).toEqualTypeOf<
        RestockingShipmentV1['restocking_shipment_items']
      >();
    },
    on_hold: (shipment) => {
      expectTypeOf(shipment.status).toEqualTypeOf<'on_hold'>();
    },
    cancelled: undefined,
  },
  onEvent: (shipment, event) => {
    expectTypeOf(shipment).toEqualTypeOf<RestockingShipmentV1>();
    expectTypeOf(event).toExtend<RestockingShipmentStatusUpdatedEvent>();
    expectTypeOf(event.status).toEqualTypeOf<RestockingShipmentV1['status']>();
  },
  onError: (error, context) => {
    expectTypeOf(error).toBeUnknown();
    expectTypeOf(context).toEqualTypeOf<WebhookErrorContext>();
    expectTypeOf(context.stage).toEqualTypeOf<
      'body' | 'configuration' | 'verification' | 'deduplicator' | 'handler'
    >();
    expectTypeOf(context.responseStatus).toEqualTypeOf<number | null>();
  },
  deduplicator: new InMemoryWebhookDeduplicator({ maxEntries: 10_000 }),
  maxBodyBytes: 64 * 1024,
  signatureHeader: 'x-service-signature',
  eventIdHeader: 'x-service-event-id',
});
createWebhookHandler({ secret: 'token', deduplicator: false });
// @ts-expect-error: the one-phase seen and forget are not a deduplicator
createWebhookHandler({ secret: 'token', deduplicator: { seen: async () => false, forget: () => {} } });
// Two phases, each step under the delivery attempt's token.
createWebhookHandler({
  secret: 'token',
  deduplicator: {
    claim: async (id: string, token: string) => (id === token ? 'done' : 'new'),
    complete: async (_id: string, _token: string) => {},
    release: async (_id: string, _token: string) => {},
  },
});

// The two faces are plain functions, fit to be passed detached.
expectTypeOf(handler.fetch).toEqualTypeOf<(request: Request) => Promise<Response>>();
expectTypeOf(handler.node).toEqualTypeOf<
  (req: NodeWebhookRequest, res: NodeWebhookResponse) => Promise<void>
>();
export const POST: (request: Request) => Promise<Response> = handler.fetch;

expectTypeOf<WebhookStatusHandlers['delivered']>().toEqualTypeOf<
  ((shipment: Shipment<'delivered'>, event: StatusEvent<'delivered'>) => unknown) | undefined
>();
expectTypeOf<NonNullable<WebhookHandlerOptions['onEvent']>>().parameters.toEqualTypeOf<
  [
    shipment: RestockingShipmentV1,
    event: RestockingShipmentStatusUpdatedEvent & { status: RestockingShipmentV1['status'] },
  ]
>();

// The handlers are keyed by version 1 status: version 2's `received` is `delivered` here (see also
// negative/webhook-handler-on-received.ts for the message).
createWebhookHandler({
  secret: 'token',
  // @ts-expect-error: 'received' is not a version 1 status
  on: { received: () => {} },
});
// @ts-expect-error: the `delivered` handler's shipment is a delivered one, not a restocked one
createWebhookHandler({ secret: 'token', on: { delivered: (s: Shipment<'restocked'>) => s } });
// @ts-expect-error: 'secret' is required
createWebhookHandler({ on: {} });
