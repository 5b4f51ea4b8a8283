/**
 * handler.fetch never rejects once given a Request, whatever state the Request is in: every outcome
 * is an answer (property-style over methods, bodies and what a middleware did to them).
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createWebhookHandler, createWebhookHeaders } from '../../src/index.js';
import { SHIPMENT_BODY, TOKEN } from './fixtures.js';
import { WEBHOOK_URL } from './helpers.js';

const encoder = new TextEncoder();

/** Bodies: the signed one as a string, as a stream of chunks, a stream that errors, a stream of non-bytes. */
const BODY_KINDS = ['string', 'chunks', 'erroring', 'throwing_pull', 'non_bytes', 'none'] as const;
/** What happened to the request before the handler got it. */
const STATES = [
  'untouched',
  'read',
  'locked',
  'locked_partly_read',
  'cancelled',
  'headers_throw',
  'body_getter_throws',
] as const;

function bodyOf(kind: (typeof BODY_KINDS)[number]): RequestInit['body'] {
  switch (kind) {
    case 'string':
      return SHIPMENT_BODY;
    case 'chunks': {
      const bytes = encoder.encode(SHIPMENT_BODY);
      return new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, 10));
          controller.enqueue(bytes.subarray(10));
          controller.close();
        },
      });
    }
    case 'erroring':
      return new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode('{"id":'));
          controller.error(new Error('connection reset'));
        },
      });
    case 'throwing_pull':
      return new ReadableStream<Uint8Array>({
        pull() {
          throw new Error('pull failed');
        },
      });
    case 'non_bytes':
      return new ReadableStream<unknown>({
        start(controller) {
          controller.enqueue('a string chunk');
          controller.enqueue({ not: 'bytes' });
          controller.close();
        },
      }) as ReadableStream<Uint8Array>;
    case 'none':
      return null;
  }
}

async function oddRequest(
  method: string,
  kind: (typeof BODY_KINDS)[number],
  state: (typeof STATES)[number],
): Promise<Request> {
  const headers = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: 'evt-odd' });
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const body = hasBody ? bodyOf(kind) : null;
  const request = new Request(WEBHOOK_URL, {
    method,
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  switch (state) {
    case 'untouched':
      return request;
    case 'read':
      await request.arrayBuffer().catch(() => {});
      return request;
    case 'locked':
      request.body?.getReader();
      return request;
    case 'locked_partly_read': {
      const reader = request.body?.getReader();
      await reader?.read().catch(() => {});
      return request;
    }
    case 'cancelled':
      await request.body?.cancel().catch(() => {});
      return request;
    case 'headers_throw':
      return Object.defineProperty(request, 'headers', {
        get() {
          throw new Error('headers getter');
        },
      });
    case 'body_getter_throws':
      return Object.defineProperty(request, 'body', {
        get() {
          throw new Error('body getter');
        },
      });
  }
}

describe('handler.fetch never rejects for odd Request states (property)', () => {
  it('answers every combination of method, body and state with a JSON Response', async () => {
    const onEvent = vi.fn();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'GET', 'PUT', 'HEAD', 'DELETE', 'PATCH'),
        fc.constantFrom(...BODY_KINDS),
        fc.constantFrom(...STATES),
        fc.boolean(),
        async (method, kind, state, withDeduplicator) => {
          const handler = createWebhookHandler({
            secret: TOKEN,
            onEvent,
            onError: () => {},
            ...(withDeduplicator ? {} : { deduplicator: false }),
          });
          const request = await oddRequest(method, kind, state);
          const response = await handler.fetch(request); // a rejection fails the property
          expect(response).toBeInstanceOf(Response);
          expect(response.headers.get('content-type')).toBe('application/json');
          if (method !== 'POST') expect(response.status).toBe(405);
          else if (
            kind !== 'none' &&
            (state === 'read' || state === 'locked' || state === 'locked_partly_read')
          ) {
            expect(response.status).toBe(500);
            expect(await response.json()).toEqual({ error: 'parsed_body' });
          } else if (state === 'untouched' && (kind === 'string' || kind === 'chunks')) {
            expect(response.status).toBe(200);
          } else expect([400, 413, 500]).toContain(response.status);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a body locked by a reader is answered parsed_body (it used to reject from getReader())', async () => {
    const handler = createWebhookHandler({ secret: TOKEN, onError: () => {} });
    for (const state of ['locked', 'locked_partly_read'] as const) {
      const response = await handler.fetch(await oddRequest('POST', 'string', state));
      expect([response.status, await response.json()]).toEqual([500, { error: 'parsed_body' }]);
    }
  });
});
