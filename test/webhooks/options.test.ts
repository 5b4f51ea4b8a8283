/**
 * The checks of the options (reason `invalid_options`, `missing_secret` for a secret of the wrong
 * type) and the body size limit (`maxBodyBytes`, reason `body_too_large`, refused before hashing).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preferWebCrypto } from '../../src/webhooks/crypto.js';
import {
  createWebhookHeaders,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/webhooks/types.js';
import { EVENT_ID, SHIPMENT_BODY, SHIPMENT_SIGNATURE, shipment, TOKEN } from './fixtures.js';
import { rejection, signatureMatches } from './helpers.js';

const encoder = new TextEncoder();
const headers = { [SIGNATURE_HEADER]: SHIPMENT_SIGNATURE, [EVENT_ID_HEADER]: EVENT_ID };
const valid = { body: SHIPMENT_BODY, headers, secret: TOKEN };
// biome-ignore lint/suspicious/noExplicitAny: deliberately wrong inputs
const any = (value: unknown): any => value;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('invalid_options', () => {
  it.each([null, undefined, 42, 'body', [valid], true])(
    'the options themselves: %j, for all three functions',
    async (options) => {
      for (const [fn, name] of [
        [verifyWebhook, 'verifyWebhook'],
        [signWebhook, 'signWebhook'],
        [createWebhookHeaders, 'createWebhookHeaders'],
      ] as const) {
        const err = await rejection((fn as (o: unknown) => Promise<unknown>)(options), 'invalid_options');
        expect(err.message).toContain(`${name} takes one options object`);
      }
    },
  );

  it.each([null, undefined, 42, 'x-service-signature: abc', [['x-service-signature', SHIPMENT_SIGNATURE]]])(
    'verifyWebhook headers: %j',
    async (value) => {
      const err = await rejection(verifyWebhook({ ...valid, headers: any(value) }), 'invalid_options');
      expect(err.message).toMatch(/^Webhook option 'headers' must be the request headers/);
    },
  );

  it('a Map or a Headers-like get returning a non-string is an absent header', async () => {
    await rejection(
      verifyWebhook({ ...valid, headers: any(new Map([[SIGNATURE_HEADER, 42]])) }),
      'missing_signature',
    );
  });

  it.each([
    ['a number', 42, /must be a valid HTTP header name.*got 42\.$/],
    ['a symbol', Symbol('x'), /got symbol/],
    ['an object', {}, /got an object/],
    ['empty', '', /must be a valid HTTP header name.*got string\.$/],
    ['a space (described by its type, never echoed)', 'x sig', /valid HTTP header name.*got string\.$/],
    ['a colon', 'x-sig:', /valid HTTP header name/],
    ['non-ASCII', 'x-sïg', /valid HTTP header name/],
  ])('header names: %s, for every function that takes one', async (_name, value, message) => {
    for (const option of ['signatureHeader', 'eventIdHeader'] as const) {
      const err = await rejection(verifyWebhook({ ...valid, [option]: any(value) }), 'invalid_options');
      expect(err.message).toMatch(new RegExp(`^Webhook option '${option}' `));
      expect(err.message).toMatch(message);
      await rejection(
        createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, [option]: any(value) }),
        'invalid_options',
      );
    }
    // A Headers object would throw a TypeError on an invalid name: it is refused before.
    await rejection(
      verifyWebhook({ ...valid, headers: new Headers(headers), signatureHeader: any(value) }),
      'invalid_options',
    );
  });

  it('null header names mean the default, as before', async () => {
    const event = await verifyWebhook({ ...valid, signatureHeader: any(null), eventIdHeader: any(null) });
    expect(event.id).toBe(EVENT_ID);
  });

  it.each([42, {}, true, []])('createWebhookHeaders eventId: %j', async (value) => {
    const err = await rejection(
      createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: any(value) }),
      'invalid_options',
    );
    expect(err.message).toMatch(/^Webhook option 'eventId' must be/);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1000', 1000n, {}])(
    'maxBodyBytes: %s',
    async (value) => {
      const err = await rejection(verifyWebhook({ ...valid, maxBodyBytes: any(value) }), 'invalid_options');
      expect(err.message).toMatch(/^Webhook option 'maxBodyBytes' must be a positive integer/);
    },
  );
});

describe('secrets of the wrong type: missing_secret, naming the option, never the value', () => {
  it.each([
    ['a number', 123456789],
    ['an object', { token: 'sk_live_object_secret' }],
    ['an array with a number', ['sk_live_first_secret', 987654321]],
    ['an array with an object', ['sk_live_first_secret', { t: 'sk_live_nested' }]],
    ['a boolean', true],
  ])('%s', async (_name, secret) => {
    for (const check of [
      verifyWebhook({ ...valid, secret: any(secret) }),
      signWebhook({ body: 'x', secret: any(secret) }),
      createWebhookHeaders({ body: 'x', secret: any(secret) }),
    ]) {
      const err = await rejection(check, 'missing_secret');
      expect(err.message).toMatch(/option 'secret' must be the API token/);
      expect(err.message).not.toMatch(/123456789|987654321|sk_live/);
    }
  });

  it.each([null, ''])('%j names the option', async (secret) => {
    const err = await rejection(signWebhook({ body: 'x', secret: any(secret) }), 'missing_secret');
    expect(err.message).toContain("option 'secret'");
  });
});

describe('body_too_large (maxBodyBytes)', () => {
  // The spies below watch Web Crypto: run this part on that path.
  beforeEach(() => preferWebCrypto(true));
  afterEach(() => preferWebCrypto(false));

  /** Spies on every Web Crypto and encoding step a verification goes through. */
  function spies() {
    return {
      sign: vi.spyOn(crypto.subtle, 'sign'),
      importKey: vi.spyOn(crypto.subtle, 'importKey'),
      encode: vi.spyOn(TextEncoder.prototype, 'encode'),
    };
  }
  const size = encoder.encode(SHIPMENT_BODY).byteLength;

  it.each([
    ['a string', () => SHIPMENT_BODY],
    ['a Uint8Array', () => encoder.encode(SHIPMENT_BODY)],
    ['an ArrayBuffer', () => encoder.encode(SHIPMENT_BODY).buffer],
    ['a Buffer', () => Buffer.from(SHIPMENT_BODY)],
  ])('%s one byte over the limit is refused before hashing (and before encoding)', async (_name, body) => {
    const input = body();
    const spy = spies();
    const err = await rejection(
      verifyWebhook({ ...valid, body: input, secret: `${TOKEN}-fresh`, maxBodyBytes: size - 1 }),
      'body_too_large',
    );
    expect(err.message).toBe(
      `Webhook body is ${size} bytes, over the limit of ${size - 1} bytes (option 'maxBodyBytes'): ` +
        'refused before checking its signature.',
    );
    expect(spy.sign).not.toHaveBeenCalled();
    expect(spy.importKey).not.toHaveBeenCalled();
    expect(spy.encode).not.toHaveBeenCalled();
  });

  it('a body of exactly the limit is hashed and verifies (the spies do see hashing)', async () => {
    const spy = spies();
    const event = await verifyWebhook({ ...valid, maxBodyBytes: size });
    expect(event.id).toBe(EVENT_ID);
    expect(spy.sign).toHaveBeenCalledTimes(1);
    expect(spy.encode).toHaveBeenCalledWith(SHIPMENT_BODY);
  });

  it('counts a string in UTF-8 bytes, not in characters', async () => {
    const body = 'é☕😀'; // 2 + 3 + 4 bytes, 4 UTF-16 code units
    expect(
      await signatureMatches({ body, secret: TOKEN, signature: SHIPMENT_SIGNATURE, maxBodyBytes: 9 }),
    ).toBe(false);
    const err = await rejection(
      signatureMatches({ body, secret: TOKEN, signature: SHIPMENT_SIGNATURE, maxBodyBytes: 8 }),
      'body_too_large',
    );
    expect(err.message).toMatch(/is 9 bytes, over the limit of 8 bytes/);
  });

  it('is checked after the body type and before the secret and the headers', async () => {
    await rejection(verifyWebhook({ ...valid, body: any({}), maxBodyBytes: 1 }), 'parsed_body');
    await rejection(
      verifyWebhook({ body: SHIPMENT_BODY, headers: {}, secret: any(undefined), maxBodyBytes: 1 }),
      'body_too_large',
    );
  });

  it('the default is 1 MiB: a 4 000-item shipment verifies, 1 MiB + 1 byte does not', async () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(1_048_576);
    const items = Array.from({ length: 4000 }, (_, i) => ({
      id: 100_000 + i,
      sku_id: 200_000 + i,
      announced_quantity: 1000,
      arrived_quantity: null,
      inventory_batches: [],
    }));
    const big = JSON.stringify(shipment({ restocking_shipment_items: items }));
    expect(big.length).toBeGreaterThan(200_000);
    const h = await createWebhookHeaders({ body: big, secret: TOKEN, eventId: 'big' });
    const event = await verifyWebhook({ body: big, headers: h, secret: TOKEN });
    expect(event.data.restocking_shipment_items).toHaveLength(4000);

    const spy = spies();
    const over = new Uint8Array(DEFAULT_MAX_BODY_BYTES + 1);
    const err = await rejection(verifyWebhook({ ...valid, body: over }), 'body_too_large');
    expect(err.message).toMatch(/is 1048577 bytes, over the limit of 1048576 bytes/);
    expect(spy.sign).not.toHaveBeenCalled();
    expect(
      await signatureMatches({
        body: over,
        secret: TOKEN,
        signature: SHIPMENT_SIGNATURE,
        maxBodyBytes: 2_000_000,
      }),
    ).toBe(false);
  });

  it('is a WebhookVerificationError whose reason is body_too_large', async () => {
    const err = await verifyWebhook({ ...valid, maxBodyBytes: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookVerificationError);
    expect((err as WebhookVerificationError).reason).toBe('body_too_large');
  });
});
