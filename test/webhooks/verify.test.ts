/**
 * verifyWebhook: OpenSSL vectors, body and header forms, secret rotation,
 * and every rejection reason.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/core/errors.js';
import {
  createWebhookHandler,
  createWebhookHeaders,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  verifyWebhook,
  type WebhookBody,
  type WebhookHeaders,
} from '../../src/webhooks/index.js';
import {
  EMPTY_OBJECT_BODY,
  EMPTY_OBJECT_SIGNATURE,
  EVENT_ID,
  KNOWN_ANSWERS,
  ROTATED_TOKEN,
  SHIPMENT_BODY,
  SHIPMENT_SIGNATURE,
  SHIPMENT_SIGNATURE_ROTATED,
  shipment,
  TOKEN,
  UTF8_BODY,
  UTF8_BODY_BYTES,
  UTF8_SIGNATURE,
} from './fixtures.js';
import { rejection, signatureMatches } from './helpers.js';

const encoder = new TextEncoder();

/** The headers of a delivery of SHIPMENT_BODY signed with TOKEN. */
const headers = (overrides: Record<string, string | undefined> = {}): Record<string, string> => {
  const all: Record<string, string | undefined> = {
    'content-type': 'application/json',
    [SIGNATURE_HEADER]: SHIPMENT_SIGNATURE,
    [EVENT_ID_HEADER]: EVENT_ID,
    ...overrides,
  };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(all)) if (v !== undefined) out[k] = v;
  return out;
};

describe('known-answer vectors (OpenSSL)', () => {
  it('keeps the UTF-8 fixture byte-exact', () => {
    expect(encoder.encode(UTF8_BODY).byteLength).toBe(UTF8_BODY_BYTES);
  });

  it.each(KNOWN_ANSWERS)(
    '%s: its signature is accepted, and not under another token',
    async (_name, body, secret, expected) => {
      expect(await signatureMatches({ body, secret, signature: expected })).toBe(true);
      expect(await signatureMatches({ body, secret: `${secret}x`, signature: expected })).toBe(false);
    },
  );

  it('verifies the UTF-8 shipment end to end', async () => {
    const event = await verifyWebhook({
      body: UTF8_BODY,
      headers: { [SIGNATURE_HEADER]: UTF8_SIGNATURE, [EVENT_ID_HEADER]: 'e-utf8' },
      secret: TOKEN,
    });
    expect(event.data.supplier_name).toBe('Müller & Søn — Café ☕ 東京');
    expect(event.data.status).toBe('restocked');
  });
});

describe('verifyWebhook', () => {
  it('returns the event: id from the header, type, shipment, received signature', async () => {
    const event = await verifyWebhook({ body: SHIPMENT_BODY, headers: headers(), secret: TOKEN });
    expect(Object.keys(event).sort()).toEqual(['data', 'id', 'receivedSignature', 'type']);
    expect(event).toMatchObject({
      id: EVENT_ID,
      type: 'restocking_shipment.status_updated',
      data: JSON.parse(SHIPMENT_BODY),
      receivedSignature: SHIPMENT_SIGNATURE,
    });
    // What the body leaves out is filled as the type says: null until restocked, no batches yet.
    expect(event.data.restocking_shipment_items[0]).toMatchObject({
      arrived_quantity: null,
      inventory_batches: [],
    });
  });

  it('keeps unknown fields and unknown status values (lenient parsing)', async () => {
    const body = JSON.stringify(shipment({ id: 9, status: 'quarantined', new_field: { a: 1 } }));
    const event = await verifyWebhook({
      body,
      headers: await createWebhookHeaders({ body, secret: TOKEN, eventId: 'e-9' }),
      secret: TOKEN,
    });
    expect(event.data).toMatchObject({ id: 9, status: 'quarantined', new_field: { a: 1 } });
  });

  describe('body forms', () => {
    const bytes = encoder.encode(SHIPMENT_BODY);
    const forms: [string, () => WebhookBody][] = [
      ['string', () => SHIPMENT_BODY],
      ['Uint8Array', () => encoder.encode(SHIPMENT_BODY)],
      ['ArrayBuffer', () => bytes.slice().buffer],
      ['Buffer', () => Buffer.from(SHIPMENT_BODY, 'utf8')],
      [
        'Uint8Array view into a larger buffer',
        () => {
          const big = new Uint8Array(bytes.byteLength + 20);
          big.set(bytes, 10);
          return big.subarray(10, 10 + bytes.byteLength);
        },
      ],
      [
        'Buffer from the shared pool',
        () => Buffer.concat([Buffer.from(SHIPMENT_BODY.slice(0, 5)), Buffer.from(SHIPMENT_BODY.slice(5))]),
      ],
    ];
    it.each(forms)('%s', async (_name, body) => {
      const event = await verifyWebhook({ body: body(), headers: headers(), secret: TOKEN });
      expect(event.data.id).toBe(42);
    });
  });

  describe('header forms', () => {
    const forms: [string, () => WebhookHeaders][] = [
      ['Headers', () => new Headers(headers())],
      [
        'IncomingHttpHeaders with string[] values (first one used)',
        (): IncomingHttpHeaders => ({
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: [SHIPMENT_SIGNATURE, 'ff'.repeat(32)],
          [EVENT_ID_HEADER]: [EVENT_ID, 'other'],
          'x-other': undefined,
        }),
      ],
      [
        'plain record in mixed case',
        () => ({
          'Content-Type': 'application/json',
          'X-Service-Signature': SHIPMENT_SIGNATURE,
          'X-SERVICE-EVENT-ID': EVENT_ID,
        }),
      ],
      [
        'null-prototype record',
        () => Object.assign(Object.create(null) as Record<string, string>, headers()),
      ],
    ];
    it.each(forms)('%s', async (_name, h) => {
      const event = await verifyWebhook({ body: SHIPMENT_BODY, headers: h(), secret: TOKEN });
      expect(event.id).toBe(EVENT_ID);
      expect(event.receivedSignature).toBe(SHIPMENT_SIGNATURE);
    });
  });

  it('reads custom header names, case-insensitively', async () => {
    const h = { 'X-My-Sig': SHIPMENT_SIGNATURE, 'x-my-id': 'custom-1' };
    const event = await verifyWebhook({
      body: SHIPMENT_BODY,
      headers: h,
      secret: TOKEN,
      signatureHeader: 'x-my-sig',
      eventIdHeader: 'X-My-Id',
    });
    expect(event.id).toBe('custom-1');
    await rejection(verifyWebhook({ body: SHIPMENT_BODY, headers: h, secret: TOKEN }), 'missing_signature');
  });

  it('accepts upper-case hex and surrounding whitespace', async () => {
    const event = await verifyWebhook({
      body: SHIPMENT_BODY,
      headers: headers({ [SIGNATURE_HEADER]: ` ${SHIPMENT_SIGNATURE.toUpperCase()} ` }),
      secret: TOKEN,
    });
    expect(event.receivedSignature).toBe(SHIPMENT_SIGNATURE.toUpperCase());
  });

  describe('secret rotation', () => {
    it('tries every token: the second of three verifies', async () => {
      const event = await verifyWebhook({
        body: SHIPMENT_BODY,
        headers: headers({ [SIGNATURE_HEADER]: SHIPMENT_SIGNATURE_ROTATED }),
        secret: ['sk_older_revoked', ROTATED_TOKEN, TOKEN],
      });
      expect(event.id).toBe(EVENT_ID);
    });

    it.each([
      [[TOKEN, ROTATED_TOKEN, 'sk_third']],
      [[ROTATED_TOKEN, 'sk_third', TOKEN]],
      [['sk_third', TOKEN, ROTATED_TOKEN]],
    ])('order does not matter: %j', async (secret) => {
      for (const signature of [SHIPMENT_SIGNATURE, SHIPMENT_SIGNATURE_ROTATED]) {
        const h = headers({ [SIGNATURE_HEADER]: signature });
        await expect(verifyWebhook({ body: SHIPMENT_BODY, headers: h, secret })).resolves.toMatchObject({
          id: EVENT_ID,
        });
      }
    });

    it('rejects when no token matches, saying how many were tried', async () => {
      const err = await rejection(
        verifyWebhook({ body: SHIPMENT_BODY, headers: headers(), secret: ['a', 'b', 'c'] }),
        'signature_mismatch',
      );
      expect(err.message).toMatch(/any of the 3 given secrets/);
    });

    it('ignores empty strings in the list', async () => {
      const event = await verifyWebhook({ body: SHIPMENT_BODY, headers: headers(), secret: ['', TOKEN] });
      expect(event.id).toBe(EVENT_ID);
    });
  });

  describe('rejections', () => {
    it('parsed_body: a parsed object, with how to get the raw body', async () => {
      const parsed: unknown = JSON.parse(SHIPMENT_BODY);
      const err = await rejection(
        verifyWebhook({ body: parsed as WebhookBody, headers: headers(), secret: TOKEN }),
        'parsed_body',
      );
      expect(err.message).toContain("express.raw({ type: 'application/json' })");
      expect(err.message).toContain("parseAs: 'buffer'");
      expect(err.message).toContain('await req.arrayBuffer()');
      expect(err.message).toMatch(/Fastify/);
      expect(err.message).toMatch(/Hono, Next\.js/);
    });

    it('parsed_body: an array, or the empty object express.raw leaves for another content type', async () => {
      for (const body of [[1, 2], {}]) {
        await rejection(
          verifyWebhook({ body: body as unknown as WebhookBody, headers: headers(), secret: TOKEN }),
          'parsed_body',
        );
      }
    });

    it.each([
      ['undefined', undefined],
      ['null', null],
      ['a number', 42],
      ['a Map', new Map()],
      ['a Date', new Date()],
    ])('invalid_body: %s', async (_name, body) => {
      const err = await rejection(
        verifyWebhook({ body: body as unknown as WebhookBody, headers: headers(), secret: TOKEN }),
        'invalid_body',
      );
      expect(err.message).toMatch(/string, Uint8Array, Buffer or ArrayBuffer/);
    });

    it.each([
      ['empty string', ''],
      ['empty array', []],
      ['array of empty strings', ['', '']],
      ['undefined (unset env variable)', undefined],
    ])('missing_secret: %s', async (_name, secret) => {
      const err = await rejection(
        verifyWebhook({ body: SHIPMENT_BODY, headers: headers(), secret: secret as unknown as string }),
        'missing_secret',
      );
      expect(err.message).toMatch(/API token/);
    });

    it('missing_secret: a non-string in the list', async () => {
      await rejection(
        verifyWebhook({
          body: SHIPMENT_BODY,
          headers: headers(),
          secret: [TOKEN, 42] as unknown as string[],
        }),
        'missing_secret',
      );
    });

    it('missing_signature names the header', async () => {
      const err = await rejection(
        verifyWebhook({
          body: SHIPMENT_BODY,
          headers: headers({ [SIGNATURE_HEADER]: undefined }),
          secret: TOKEN,
        }),
        'missing_signature',
      );
      expect(err.message).toMatch(/'x-service-signature' is missing/);
    });

    it.each(['', '   '])('empty_signature: %j', async (value) => {
      const err = await rejection(
        verifyWebhook({
          body: SHIPMENT_BODY,
          headers: headers({ [SIGNATURE_HEADER]: value }),
          secret: TOKEN,
        }),
        'empty_signature',
      );
      expect(err.message).toMatch(/is empty/);
    });

    it.each([
      ['too short', SHIPMENT_SIGNATURE.slice(0, 62), /62 hex characters instead of 64/],
      ['too long', `${SHIPMENT_SIGNATURE}00`, /66 hex characters instead of 64/],
      ['non-hex', `${SHIPMENT_SIGNATURE.slice(0, 63)}g`, /other than hexadecimal/],
      ['sha256= prefix', `sha256=${SHIPMENT_SIGNATURE}`, /other than hexadecimal/],
      ['base64', 'gIxaMHZe9dUp/TneHQuDZnOa4AIsEk5EFTXqNNW54VA=', /other than hexadecimal/],
    ])('malformed_signature: %s', async (_name, value, message) => {
      const err = await rejection(
        verifyWebhook({
          body: SHIPMENT_BODY,
          headers: headers({ [SIGNATURE_HEADER]: value }),
          secret: TOKEN,
        }),
        'malformed_signature',
      );
      expect(err.message).toMatch(message);
    });

    it.each([
      ['absent', undefined],
      ['empty', ''],
    ])('missing_event_id: %s', async (_name, value) => {
      const err = await rejection(
        verifyWebhook({ body: SHIPMENT_BODY, headers: headers({ [EVENT_ID_HEADER]: value }), secret: TOKEN }),
        'missing_event_id',
      );
      expect(err.message).toMatch(/'x-service-event-id' is missing/);
    });

    it('signature_mismatch: wrong token, tampered body, re-serialized JSON', async () => {
      await rejection(
        verifyWebhook({ body: SHIPMENT_BODY, headers: headers(), secret: 'wrong' }),
        'signature_mismatch',
      );
      await rejection(
        verifyWebhook({
          body: SHIPMENT_BODY.replace('arrived', 'restocked'),
          headers: headers(),
          secret: TOKEN,
        }),
        'signature_mismatch',
      );
      const reserialized = JSON.stringify(JSON.parse(SHIPMENT_BODY), null, 2);
      const err = await rejection(
        verifyWebhook({ body: reserialized, headers: headers(), secret: TOKEN }),
        'signature_mismatch',
      );
      expect(err.message).toMatch(/raw request body/);
      expect(err.message).not.toContain(TOKEN);
    });

    it('invalid_payload: a correctly signed body that is not JSON, with the parse error as cause', async () => {
      const body = '{"id":42,';
      const err = await rejection(
        verifyWebhook({ body, headers: await createWebhookHeaders({ body, secret: TOKEN }), secret: TOKEN }),
        'invalid_payload',
      );
      expect(err.cause).toBeInstanceOf(SyntaxError);
    });

    it('invalid_payload: a correctly signed body that is not UTF-8', async () => {
      const body = new Uint8Array([0x7b, 0xff, 0x7d]);
      const err = await rejection(
        verifyWebhook({ body, headers: await createWebhookHeaders({ body, secret: TOKEN }), secret: TOKEN }),
        'invalid_payload',
      );
      expect(err.cause).toBeInstanceOf(TypeError);
    });

    it('invalid_payload: a correctly signed body that is not a shipment, with the validation error as cause', async () => {
      const err = await rejection(
        verifyWebhook({
          body: EMPTY_OBJECT_BODY,
          headers: { [SIGNATURE_HEADER]: EMPTY_OBJECT_SIGNATURE, [EVENT_ID_HEADER]: 'e' },
          secret: TOKEN,
        }),
        'invalid_payload',
      );
      expect(err.cause).toBeInstanceOf(ResponseValidationError);
      expect((err.cause as ResponseValidationError).body).toEqual({});
      expect(err.message).toMatch(/not a restocking shipment: id: .*; status: /);
    });

    it('checks the signature before the payload: an unsigned non-shipment is a mismatch', async () => {
      await rejection(
        verifyWebhook({ body: 'not json', headers: headers(), secret: TOKEN }),
        'signature_mismatch',
      );
    });
  });
});

describe('invalid_payload with many issues: a bounded message and issue list', () => {
  const items = (n: number, item: string) => `[${Array(n).fill(item).join(',')}]`;
  const body = (list: string) =>
    `{"id":1,"merchant_id":1,"warehouse_id":1,"status":"s","restocking_shipment_items":${list}}`;
  async function refusal(text: string) {
    return rejection(
      verifyWebhook({
        body: text,
        headers: await createWebhookHeaders({ body: text, secret: TOKEN, eventId: 'e' }),
        secret: TOKEN,
      }),
      'invalid_payload',
    );
  }

  it('a 1 MiB body of 500 000 bad items: the first 10 issues named, the rest counted, 100 kept', async () => {
    const text = body(items(500_000, '0'));
    const err = await refusal(text);
    expect(err.message.length).toBeLessThan(1500);
    expect(err.message).toMatch(
      /^Webhook body is not a restocking shipment: restocking_shipment_items\[0\]: Invalid input: expected object, received number; /,
    );
    expect(err.message).toContain('restocking_shipment_items[9]:');
    expect(err.message).not.toContain('restocking_shipment_items[10]:');
    expect(err.message).toMatch(/; … and at least 91 more$/);
    const cause = err.cause as ResponseValidationError;
    expect(cause.issues).toHaveLength(100);
    expect(cause.issues[99]!.path).toBe('restocking_shipment_items[99]');
  });

  it('below the cap, every issue is kept and the message counts exactly those not named', async () => {
    const err = await refusal(body(items(12, '0')));
    expect((err.cause as ResponseValidationError).issues).toHaveLength(12);
    expect(err.message).toMatch(/restocking_shipment_items\[9\]: [^;]*; … and 2 more$/);
    const exactly = await refusal(body(items(100, '"x"')));
    expect((exactly.cause as ResponseValidationError).issues).toHaveLength(100);
    expect(exactly.message).toMatch(/; … and 90 more$/);
    const few = await refusal(body(items(3, 'null')));
    expect(few.message).not.toContain('more');
  });

  it("handler.fetch's 400 answer stays small", async () => {
    const text = body(items(200_000, '[]'));
    const handler = createWebhookHandler({ secret: TOKEN, onError: () => {} });
    const response = await handler.fetch(
      new Request('https://shop.example/hooks', {
        method: 'POST',
        body: text,
        headers: await createWebhookHeaders({ body: text, secret: TOKEN }),
      }),
    );
    expect(response.status).toBe(400);
    const answer = await response.text();
    expect(answer.length).toBeLessThan(1500);
    expect(JSON.parse(answer)).toMatchObject({ error: 'invalid_payload' });
  });
});
