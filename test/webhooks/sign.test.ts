/**
 * signWebhook and createWebhookHeaders: OpenSSL vectors, refused inputs, the headers of a delivery.
 */
import { describe, expect, it } from 'vitest';
import {
  createWebhookHeaders,
  signWebhook,
  verifyWebhook,
  type WebhookBody,
} from '../../src/webhooks/index.js';
import { KNOWN_ANSWERS, SHIPMENT_BODY, SHIPMENT_SIGNATURE, TOKEN } from './fixtures.js';
import { rejection } from './helpers.js';

const encoder = new TextEncoder();

describe('known-answer vectors (OpenSSL)', () => {
  it.each(KNOWN_ANSWERS)(
    '%s: signWebhook matches, from a string and from bytes',
    async (_name, body, secret, expected) => {
      expect(await signWebhook({ body, secret })).toBe(expected);
      expect(await signWebhook({ body: encoder.encode(body), secret })).toBe(expected);
    },
  );
});

describe('signWebhook and createWebhookHeaders', () => {
  it('signs in lower-case hex', async () => {
    expect(await signWebhook({ body: SHIPMENT_BODY, secret: TOKEN })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses an object body with a hint to stringify it', async () => {
    const err = await rejection(
      signWebhook({ body: { id: 1 } as unknown as WebhookBody, secret: TOKEN }),
      'parsed_body',
    );
    expect(err.message).toMatch(/JSON\.stringify/);
    await rejection(signWebhook({ body: SHIPMENT_BODY, secret: '' }), 'missing_secret');
  });

  it('builds the headers the provider sends, with a random UUID by default', async () => {
    const h = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN });
    expect(h).toEqual({
      'content-type': 'application/json',
      'x-service-signature': SHIPMENT_SIGNATURE,
      'x-service-event-id': expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
    });
    const other = await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN });
    expect(other['x-service-event-id']).not.toBe(h['x-service-event-id']);
  });

  it('uses the given event id and header names', async () => {
    const h = await createWebhookHeaders({
      body: SHIPMENT_BODY,
      secret: TOKEN,
      eventId: 'evt-1',
      signatureHeader: 'X-Sig',
      eventIdHeader: 'X-Id',
    });
    expect(h).toEqual({ 'content-type': 'application/json', 'x-sig': SHIPMENT_SIGNATURE, 'x-id': 'evt-1' });
    const event = await verifyWebhook({
      body: SHIPMENT_BODY,
      headers: h,
      secret: TOKEN,
      signatureHeader: 'X-Sig',
      eventIdHeader: 'X-Id',
    });
    expect(event.id).toBe('evt-1');
  });

  it('round-trips through verifyWebhook with a Headers object', async () => {
    const h = new Headers(await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: 'rt' }));
    expect((await verifyWebhook({ body: SHIPMENT_BODY, headers: h, secret: TOKEN })).id).toBe('rt');
  });
});
