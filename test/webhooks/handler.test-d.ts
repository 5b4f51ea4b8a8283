/**
 * The types of createWebhookHandler: handlers keyed by version 1 status with the status narrowed,
 * the version 2 name refused, and both faces fitting the frameworks' own request and response types.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request as ExpressRequest, Response as ExpressResponse, RequestHandler } from 'express';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from 'hono';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createWebhookHandler,
  InMemoryWebhookDeduplicator,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  type RestockingShipmentStatusUpdatedEvent,
  type RestockingShipmentV1,
  type RestockingShipmentV1Status,
  type WebhookDeduplicator,
  type WebhookHandler,
  type WebhookStatusHandlers,
} from '../../src/index.js';
import type { RESTOCKING_SHIPMENT_V1_STATUSES } from '../../src/schemas/restocking-shipment-records.js';

declare const handler: WebhookHandler;

describe('createWebhookHandler types', () => {
  it('has one handler key per version 1 status, no more, no less', () => {
    expectTypeOf<keyof WebhookStatusHandlers>().toEqualTypeOf<RestockingShipmentV1Status>();
    expectTypeOf<keyof WebhookStatusHandlers>().toEqualTypeOf<
      (typeof RESTOCKING_SHIPMENT_V1_STATUSES)[number]
    >();
  });

  it('narrows the status of the shipment and of the event for each handler', () => {
    createWebhookHandler({
      secret: 'token',
      on: {
        delivered: (shipment, event) => {
          expectTypeOf(shipment.status).toEqualTypeOf<'delivered'>();
          expectTypeOf(event.data.status).toEqualTypeOf<'delivered'>();
          expectTypeOf(event.status).toEqualTypeOf<'delivered'>();
          expectTypeOf(event.id).toBeString();
          expectTypeOf(shipment).toExtend<RestockingShipmentV1>();
        },
        restocked: async (shipment) => {
          expectTypeOf(shipment.status).toEqualTypeOf<'restocked'>();
          expectTypeOf(shipment.restocking_shipment_items).toBeArray();
        },
      },
      onEvent: (shipment, event) => {
        expectTypeOf(shipment).toEqualTypeOf<RestockingShipmentV1>();
        expectTypeOf(event).toExtend<RestockingShipmentStatusUpdatedEvent>();
        expectTypeOf(event.status).toEqualTypeOf<RestockingShipmentV1['status']>();
      },
    });
  });

  it('refuses the version 2 name and unknown options', () => {
    createWebhookHandler({
      secret: 'token',
      on: {
        // @ts-expect-error: the webhook carries the version 1 view: `received` is `delivered`
        received: () => {},
      },
    });
    // @ts-expect-error: a handler of `restocked` does not get another status
    createWebhookHandler({ secret: 'token', on: { restocked: (s: { status: 'shipped' }) => s } });
    // @ts-expect-error: `secret` is required
    createWebhookHandler({ on: {} });
    // @ts-expect-error: `true` is not a deduplicator
    createWebhookHandler({ secret: 'token', deduplicator: true });
    createWebhookHandler({ secret: ['old', 'new'], deduplicator: false, maxBodyBytes: 2048 });
  });

  it('takes a two-phase deduplicator (claim, complete, release), and no other', () => {
    createWebhookHandler({
      secret: 'token',
      deduplicator: {
        claim: async (_id: string, _token: string) => 'new',
        complete: (_id: string, _token: string) => {},
        release: (_id: string, _token: string) => {},
      },
    });
    createWebhookHandler({ secret: 'token', deduplicator: new InMemoryWebhookDeduplicator() });
    expectTypeOf(new InMemoryWebhookDeduplicator().claim('id', 'token')).resolves.toEqualTypeOf<
      'new' | 'in_progress' | 'done'
    >();
    expectTypeOf<Awaited<ReturnType<WebhookDeduplicator['claim']>>>().toEqualTypeOf<
      'new' | 'in_progress' | 'done'
    >();
    createWebhookHandler({
      secret: 'token',
      // @ts-expect-error: claim answers 'new', 'in_progress' or 'done', not a Redis reply
      deduplicator: { claim: async () => 'OK', complete: () => {}, release: () => {} },
    });
    // @ts-expect-error: the one-phase seen and forget are not a deduplicator
    createWebhookHandler({ secret: 'token', deduplicator: { seen: () => false, forget: () => {} } });
    // @ts-expect-error: duplicateWaitMs is gone: a concurrent duplicate is answered 409 at once
    createWebhookHandler({ secret: 'token', duplicateWaitMs: 2000 });
  });

  it('offers a Fetch face for Next.js, Hono and workers', () => {
    expectTypeOf(handler.fetch).toEqualTypeOf<(request: Request) => Promise<Response>>();
    const POST: (request: Request) => Promise<Response> = handler.fetch;
    const honoRoute = (c: Context) => handler.fetch(c.req.raw);
    expectTypeOf(honoRoute).returns.resolves.toEqualTypeOf<Response>();
    void POST;
  });

  it('offers a Node face that takes node:http, Express and Fastify objects', () => {
    expectTypeOf<IncomingMessage>().toExtend<NodeWebhookRequest>();
    expectTypeOf<ServerResponse>().toExtend<NodeWebhookResponse>();
    expectTypeOf<ExpressRequest>().toExtend<NodeWebhookRequest>();
    expectTypeOf<ExpressResponse>().toExtend<NodeWebhookResponse>();
    expectTypeOf<FastifyRequest>().toExtend<NodeWebhookRequest>();
    expectTypeOf<FastifyReply['raw']>().toExtend<NodeWebhookResponse>();
    const route: RequestHandler = handler.node;
    void route;
    expectTypeOf(handler.node).returns.resolves.toBeVoid();
  });
});
