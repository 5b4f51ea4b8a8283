/**
 * createWebhookHandler, its Fetch face (`handler.fetch`) and what both faces share: the answers,
 * routing by version 1 status, deduplication (release on failure, a failing store), rotation, the
 * body limit, the option checks, and no secret in any answer.
 */
import { inspect } from 'node:util';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createWebhookHandler,
  createWebhookHeaders,
  InMemoryWebhookDeduplicator,
  type RestockingShipmentStatusUpdatedEvent,
  type RestockingShipmentV1,
  type WebhookErrorContext,
  type WebhookHandlerOptions,
  WebhookVerificationError,
} from '../../src/index.js';
import { RESTOCKING_SHIPMENT_V1_STATUSES } from '../../src/schemas/index.js';
import { EMPTY_OBJECT_BODY, ROTATED_TOKEN, SHIPMENT_BODY, shipment, TOKEN } from './fixtures.js';
import { delivery, quiet, read, settle, WEBHOOK_URL } from './helpers.js';

/** Every version 1 status, from the schema (the handler keeps its own list: this proves them equal). */
const STATUSES = RESTOCKING_SHIPMENT_V1_STATUSES;

/** A delivery of a shipment with `status`. */
const statusDelivery = (status: string, eventId = `evt-${status}`) =>
  delivery(JSON.stringify(shipment({ status })), { eventId });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createWebhookHandler: answers', () => {
  it('200 { received: true } after the handler of the status succeeds, with the typed shipment and event', async () => {
    const seen: [RestockingShipmentV1, RestockingShipmentStatusUpdatedEvent][] = [];
    const handler = createWebhookHandler({
      secret: TOKEN,
      on: {
        arrived: async (s, event) => {
          await settle(1);
          seen.push([s, event]);
        },
      },
    });
    const answer = await read(await handler.fetch(await delivery()));
    expect(answer).toEqual({ status: 200, type: 'application/json', json: { received: true } });
    expect(seen).toHaveLength(1);
    const [s, event] = seen[0]!;
    expect(s).toMatchObject({ id: 42, status: 'arrived' });
    expect(event).toMatchObject({
      id: 'evt-1',
      status: 'arrived',
      type: 'restocking_shipment.status_updated',
      data: s,
    });
  });

  it.each(STATUSES)('routes %s to its own handler only', async (status) => {
    const calls: string[] = [];
    const on = Object.fromEntries(STATUSES.map((s) => [s, () => void calls.push(s)]));
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, on, onEvent });
    expect((await handler.fetch(await statusDelivery(status))).status).toBe(200);
    expect(calls).toEqual([status]);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('hands a status without a handler, and an unknown future status, to onEvent', async () => {
    const onEvent = vi.fn();
    const restocked = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, on: { restocked }, onEvent });
    expect((await handler.fetch(await statusDelivery('lost_at_sea'))).status).toBe(200);
    expect((await handler.fetch(await statusDelivery('shipped'))).status).toBe(200);
    expect(onEvent.mock.calls.map(([s, e]) => [s.status, e.id])).toEqual([
      ['lost_at_sea', 'evt-lost_at_sea'],
      ['shipped', 'evt-shipped'],
    ]);
    expect(restocked).not.toHaveBeenCalled();
  });

  it('acknowledges a status nobody handles (no onEvent) without calling anything', async () => {
    const restocked = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, on: { restocked } });
    expect(await read(await handler.fetch(await statusDelivery('cancelled')))).toMatchObject({
      status: 200,
      json: { received: true },
    });
    expect(restocked).not.toHaveBeenCalled();
  });

  it('400 with the reason and a message when verification fails, without calling a handler', async () => {
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, onEvent, ...quiet });
    const good = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: 'e' });
    const cases: [string, Request][] = [
      [
        'signature_mismatch',
        new Request(WEBHOOK_URL, { method: 'POST', body: SHIPMENT_BODY.replace('42', '43'), headers: good }),
      ],
      [
        'missing_signature',
        new Request(WEBHOOK_URL, {
          method: 'POST',
          body: SHIPMENT_BODY,
          headers: { 'x-service-event-id': 'e' },
        }),
      ],
      [
        'malformed_signature',
        new Request(WEBHOOK_URL, {
          method: 'POST',
          body: SHIPMENT_BODY,
          headers: { ...good, 'x-service-signature': 'zz' },
        }),
      ],
      [
        'missing_event_id',
        new Request(WEBHOOK_URL, {
          method: 'POST',
          body: SHIPMENT_BODY,
          headers: { 'x-service-signature': good['x-service-signature']! },
        }),
      ],
      ['invalid_payload', await delivery(EMPTY_OBJECT_BODY)],
      ['invalid_payload', await delivery('not json')],
    ];
    for (const [reason, request] of cases) {
      const answer = await read(await handler.fetch(request));
      expect(answer.status, reason).toBe(400);
      expect(answer.type).toBe('application/json');
      expect(answer.json.error).toBe(reason);
      expect(answer.json.message).toEqual(expect.any(String));
    }
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('405 with Allow: POST for another method, without reading the body', async () => {
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, onEvent });
    for (const method of ['GET', 'PUT', 'DELETE', 'HEAD']) {
      const response = await handler.fetch(new Request(WEBHOOK_URL, { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      if (method !== 'HEAD')
        expect(((await response.json()) as { error: string }).error).toBe('method_not_allowed');
    }
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('500 { error: "handler_failed" } when the handler throws, never its message', async () => {
    const errors: [unknown, WebhookErrorContext][] = [];
    const handler = createWebhookHandler({
      secret: TOKEN,
      on: {
        arrived: () => {
          throw new Error('db password is hunter2');
        },
      },
      onError: (error, context) => void errors.push([error, context]),
    });
    const response = await handler.fetch(await delivery());
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ error: 'handler_failed' });
    expect(text).not.toContain('hunter2');
    expect(errors).toEqual([
      [
        expect.objectContaining({ message: 'db password is hunter2' }),
        { stage: 'handler', responseStatus: 500, eventId: 'evt-1', shipmentStatus: 'arrived' },
      ],
    ]);
  });

  it('reports to console.error by default for 5xx answers only', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const handler = createWebhookHandler({
      secret: TOKEN,
      onEvent: () => Promise.reject(new Error('boom')),
    });
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN });
    const tampered = new Request(WEBHOOK_URL, {
      method: 'POST',
      body: SHIPMENT_BODY.replace('42', '1'),
      headers,
    });
    expect((await handler.fetch(tampered)).status).toBe(400);
    expect(error).not.toHaveBeenCalled();
    expect((await handler.fetch(await delivery())).status).toBe(500);
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]![0])).toContain('webhook call failed at handler (event evt-1');
  });

  it('an onError that throws or rejects does not change the answer', async () => {
    for (const onError of [
      () => {
        throw new Error('logger down');
      },
      () => Promise.reject(new Error('logger down')),
    ]) {
      const handler = createWebhookHandler({
        secret: TOKEN,
        onEvent: () => {
          throw new Error('x');
        },
        onError,
      });
      expect(await read(await handler.fetch(await delivery()))).toMatchObject({
        status: 500,
        json: { error: 'handler_failed' },
      });
    }
  });

  it('is usable detached: const { fetch } = handler, or handler.fetch as a callback', async () => {
    const onEvent = vi.fn();
    const { fetch: receive } = createWebhookHandler({ secret: TOKEN, onEvent });
    expect((await receive(await delivery(SHIPMENT_BODY, { eventId: 'a' }))).status).toBe(200);
    const handler = createWebhookHandler({ secret: TOKEN, onEvent });
    const requests = [await delivery(SHIPMENT_BODY, { eventId: 'b' })];
    const responses = await Promise.all(requests.map(handler.fetch));
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(onEvent).toHaveBeenCalledTimes(2);
  });

  it('accepts deliveries signed with any of the rotated tokens', async () => {
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ secret: [TOKEN, ROTATED_TOKEN], onEvent, ...quiet });
    expect(
      (await handler.fetch(await delivery(SHIPMENT_BODY, { eventId: 'r1', secret: TOKEN }))).status,
    ).toBe(200);
    expect(
      (await handler.fetch(await delivery(SHIPMENT_BODY, { eventId: 'r2', secret: ROTATED_TOKEN }))).status,
    ).toBe(200);
    expect(
      (await handler.fetch(await delivery(SHIPMENT_BODY, { eventId: 'r3', secret: 'another-token' }))).status,
    ).toBe(400);
    expect(onEvent.mock.calls.map(([, e]) => e.id)).toEqual(['r1', 'r2']);
  });

  it('uses the header names given', async () => {
    const onEvent = vi.fn();
    const handler = createWebhookHandler({
      secret: TOKEN,
      signatureHeader: 'X-Sig',
      eventIdHeader: 'X-Id',
      onEvent,
    });
    const headers = await createWebhookHeaders({
      body: SHIPMENT_BODY,
      secret: TOKEN,
      signatureHeader: 'x-sig',
      eventIdHeader: 'x-id',
      eventId: 'custom',
    });
    expect(
      (await handler.fetch(new Request(WEBHOOK_URL, { method: 'POST', body: SHIPMENT_BODY, headers })))
        .status,
    ).toBe(200);
    expect(onEvent.mock.calls[0]![1].id).toBe('custom');
  });
});

describe('createWebhookHandler: the body', () => {
  it('413 for a declared length over maxBodyBytes, before reading anything', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, maxBodyBytes: 100, onError });
    const answer = await read(await handler.fetch(await delivery()));
    expect(answer).toMatchObject({ status: 413, json: { error: 'body_too_large' } });
    expect(String(answer.json.message)).toContain("'maxBodyBytes'");
    expect(onError).toHaveBeenCalledWith(expect.any(WebhookVerificationError), {
      stage: 'body',
      responseStatus: 413,
    });
  });

  it('413 for a streamed body past maxBodyBytes, and stops pulling the stream', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled++;
          if (pulled > 10_000) controller.close();
          else controller.enqueue(new Uint8Array(1024));
        },
      },
      { highWaterMark: 0 },
    );
    const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN });
    const request = new Request(WEBHOOK_URL, {
      method: 'POST',
      body: stream,
      headers,
      duplex: 'half',
    } as RequestInit);
    const handler = createWebhookHandler({ secret: TOKEN, maxBodyBytes: 4096, ...quiet });
    expect((await handler.fetch(request)).status).toBe(413);
    await settle();
    expect(pulled).toBeLessThan(20);
  });

  it('a body of exactly maxBodyBytes is accepted', async () => {
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, maxBodyBytes: SHIPMENT_BODY.length, onEvent });
    expect((await handler.fetch(await delivery())).status).toBe(200);
    expect(onEvent).toHaveBeenCalledOnce();
  });

  it('500 { error: "parsed_body" } when the body was already read; onError gets the fix', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, onError });
    const request = await delivery();
    await request.json();
    const answer = await read(await handler.fetch(request));
    expect(answer).toEqual({ status: 500, type: 'application/json', json: { error: 'parsed_body' } });
    expect(String(onError.mock.calls[0]![0].message)).toContain('c.req.raw');
    expect(onError.mock.calls[0]![1]).toEqual({ stage: 'configuration', responseStatus: 500 });
  });

  it('500 { error: "parsed_body" } for a body locked by a reader but not read, never a rejection', async () => {
    const onError = vi.fn();
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, onError, onEvent });
    const request = await delivery();
    request.body!.getReader(); // a middleware peeked with a reader
    expect(request.bodyUsed).toBe(false);
    const answer = await read(await handler.fetch(request));
    expect(answer).toEqual({ status: 500, type: 'application/json', json: { error: 'parsed_body' } });
    expect(onEvent).not.toHaveBeenCalled();
    expect(onError.mock.calls[0]![1]).toEqual({ stage: 'configuration', responseStatus: 500 });
  });
});

describe('createWebhookHandler: duplicates', () => {
  it('acknowledges a repeated event id with 200 { duplicate: true } without calling the handler again', async () => {
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, onEvent });
    expect(await read(await handler.fetch(await delivery()))).toMatchObject({ json: { received: true } });
    expect(await read(await handler.fetch(await delivery()))).toMatchObject({
      status: 200,
      json: { received: true, duplicate: true },
    });
    expect((await handler.fetch(await delivery(SHIPMENT_BODY, { eventId: 'evt-2' }))).status).toBe(200);
    expect(onEvent.mock.calls.map(([, e]) => e.id)).toEqual(['evt-1', 'evt-2']);
  });

  it('a failed event is released: the retry is handled and then acknowledged as a duplicate', async () => {
    const deduplicator = new InMemoryWebhookDeduplicator();
    const release = vi.spyOn(deduplicator, 'release');
    const complete = vi.spyOn(deduplicator, 'complete');
    let fail = true;
    const handled: string[] = [];
    const handler = createWebhookHandler({
      secret: TOKEN,
      deduplicator,
      on: {
        arrived: (_s, event) => {
          if (fail) throw new Error('temporary');
          handled.push(event.id);
        },
      },
      ...quiet,
    });
    expect((await handler.fetch(await delivery())).status).toBe(500);
    expect(release).toHaveBeenCalledWith('evt-1', expect.any(String));
    expect(complete).not.toHaveBeenCalled();
    fail = false;
    expect(await read(await handler.fetch(await delivery()))).toMatchObject({ json: { received: true } });
    expect(await read(await handler.fetch(await delivery()))).toMatchObject({ json: { duplicate: true } });
    expect(handled).toEqual(['evt-1']);
    expect(complete).toHaveBeenCalledOnce();
  });

  it('a release that throws is reported; the answer stays 500 handler_failed', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({
      secret: TOKEN,
      deduplicator: {
        claim: async () => 'new',
        complete: () => {},
        release: () => {
          throw new Error('redis down');
        },
      },
      onEvent: () => {
        throw new Error('x');
      },
      onError,
    });
    expect(await read(await handler.fetch(await delivery()))).toMatchObject({
      status: 500,
      json: { error: 'handler_failed' },
    });
    expect(onError.mock.calls.map(([, c]) => c.stage)).toEqual(['handler', 'deduplicator']);
  });

  it('deduplicator: false handles every delivery', async () => {
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ secret: TOKEN, deduplicator: false, onEvent });
    for (let i = 0; i < 3; i++) expect((await handler.fetch(await delivery())).status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(3);
  });
});

describe('createWebhookHandler: option checks at creation', () => {
  const fn = () => {};
  const cases: [name: string, options: unknown, option: string][] = [
    ['on.received (the version 2 name)', { secret: TOKEN, on: { received: fn } }, "'on.received'"],
    ['an unknown status key', { secret: TOKEN, on: { shiped: fn } }, "'on.shiped'"],
    ['a non-function handler', { secret: TOKEN, on: { restocked: 'yes' } }, "'on.restocked'"],
    ['on not an object', { secret: TOKEN, on: [fn] }, "'on'"],
    ['onEvent not a function', { secret: TOKEN, onEvent: {} }, "'onEvent'"],
    ['onError not a function', { secret: TOKEN, onError: 1 }, "'onError'"],
    ['a deduplicator without claim', { secret: TOKEN, deduplicator: {} }, "'deduplicator'"],
    [
      'a deduplicator with a bad release',
      { secret: TOKEN, deduplicator: { claim: fn, complete: fn, release: 1 } },
      "'deduplicator'",
    ],
    ['deduplicator: true', { secret: TOKEN, deduplicator: true }, "'deduplicator'"],
    ['maxBodyBytes 0', { secret: TOKEN, maxBodyBytes: 0 }, "'maxBodyBytes'"],
    ['a bad header name', { secret: TOKEN, signatureHeader: 'x sig' }, "'signatureHeader'"],
    ['an unknown option', { secret: TOKEN, secrets: [TOKEN] }, '"secrets"'],
    ['an unknown option, the closest named', { secret: TOKEN, onevent: fn }, "did you mean 'onEvent'?"],
    [
      'an unknown status key, the closest named',
      { secret: TOKEN, on: { shiped: fn } },
      "did you mean 'shipped'?",
    ],
    ['no options object', null, 'createWebhookHandler'],
  ];

  it.each(cases)('%s: invalid_options naming the option, never the secret', (_name, options, option) => {
    let caught: unknown;
    try {
      createWebhookHandler(options as WebhookHandlerOptions);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WebhookVerificationError);
    const error = caught as WebhookVerificationError;
    expect(error.reason).toBe('invalid_options');
    expect(error.message).toContain(option);
    expect(`${error.message}${error.stack}${inspect(error)}`).not.toContain(TOKEN);
  });

  it('on.received points to on.delivered and explains the version 1 view', () => {
    expect(() =>
      createWebhookHandler({ secret: TOKEN, on: { received: fn } } as WebhookHandlerOptions),
    ).toThrow(/did you mean 'delivered'\?\): the webhook carries the version 1 view/);
  });

  it.each([
    ['no secret', {}],
    ['an empty secret', { secret: '' }],
    ['a non-string token', { secret: [TOKEN, 42] }],
  ])('%s: missing_secret naming the option', (_name, options) => {
    let caught: unknown;
    try {
      createWebhookHandler(options as WebhookHandlerOptions);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ reason: 'missing_secret', message: expect.stringContaining("'secret'") });
    expect(String((caught as Error).message)).not.toContain(TOKEN);
  });

  it('accepts undefined handlers and options left undefined', () => {
    expect(() =>
      createWebhookHandler({
        secret: TOKEN,
        on: { restocked: undefined },
        onEvent: undefined,
        onError: undefined,
        deduplicator: undefined,
        maxBodyBytes: undefined,
      }),
    ).not.toThrow();
  });

  it('keeps its own copy of the secrets and never shows them in util.inspect', async () => {
    const secrets = [TOKEN];
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ secret: secrets, onEvent });
    secrets[0] = 'changed';
    expect((await handler.fetch(await delivery())).status).toBe(200);
    expect(inspect(handler, { depth: 10, showHidden: true })).not.toContain(TOKEN);
  });
});

describe('createWebhookHandler: no secret in any answer (property)', () => {
  const CANARY = 'sk_canary_';
  const arbitraryRequest = fc.record({
    method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT'),
    body: fc.oneof(
      fc.constant(SHIPMENT_BODY),
      fc.string({ maxLength: 300 }),
      fc.constantFrom('{}', 'null', '[]', JSON.stringify(shipment({ status: CANARY }))),
    ),
    signWith: fc.oneof(
      fc.constant('valid'),
      fc.constant('other'),
      fc.constant('none'),
      fc.string({ maxLength: 70 }),
    ),
    eventId: fc.option(fc.stringMatching(/^[a-z0-9-]{1,20}$/), { nil: undefined }),
    handlerFails: fc.boolean(),
    limit: fc.constantFrom(undefined, 64, 100_000),
  });

  it('for arbitrary deliveries, neither the answer nor what onError gets quotes a token', async () => {
    const token = `${CANARY}${'x'.repeat(12)}`;
    await fc.assert(
      fc.asyncProperty(arbitraryRequest, async (r) => {
        const reported: unknown[] = [];
        const handler = createWebhookHandler({
          secret: [token, `${CANARY}rotated`],
          maxBodyBytes: r.limit,
          onEvent: () => {
            if (r.handlerFails) throw new Error(`failed with ${token}`);
          },
          onError: (error) => {
            if (error instanceof WebhookVerificationError) reported.push(error);
          },
        });
        const headers: Record<string, string> = {};
        if (r.signWith === 'valid' || r.signWith === 'other') {
          Object.assign(
            headers,
            await createWebhookHeaders({ body: r.body, secret: r.signWith === 'valid' ? token : 'other' }),
          );
        } else if (r.signWith !== 'none')
          headers['x-service-signature'] = r.signWith.replace(/[^\x21-\x7e]/g, '');
        if (r.eventId !== undefined) headers['x-service-event-id'] = r.eventId;
        const request = new Request(WEBHOOK_URL, {
          method: r.method,
          headers,
          ...(r.method === 'GET' ? {} : { body: r.body }),
        });
        const response = await handler.fetch(request);
        const text = await response.text();
        expect([200, 400, 405, 413, 500]).toContain(response.status);
        expect(response.headers.get('content-type')).toBe('application/json');
        expect(() => JSON.parse(text)).not.toThrow();
        expect(text).not.toContain(token);
        expect(text).not.toContain(`${CANARY}rotated`);
        for (const error of reported) expect(inspect(error)).not.toContain(token);
      }),
      { numRuns: 150 },
    );
  });
});
