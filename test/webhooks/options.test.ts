/**
 * The checks of the options (reason `invalid_options`, `missing_secret` for a secret of the wrong
 * type) and the body size limit (`maxBodyBytes`, reason `body_too_large`, refused before hashing).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preferWebCrypto } from '../../src/webhooks/crypto.js';
import {
  createWebhookHeaders,
  DEFAULT_MAX_BODY_BYTES,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  signWebhook,
  verifyWebhook,
  verifyWebhookSignature,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { EVENT_ID, SHIPMENT_BODY, SHIPMENT_SIGNATURE, shipment, TOKEN } from './fixtures.js';
import { rejection } from './helpers.js';

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
    'the options themselves: %j, for all four functions',
    async (options) => {
      for (const [fn, name] of [
        [verifyWebhook, 'verifyWebhook'],
        [verifyWebhookSignature, 'verifyWebhookSignature'],
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

  it('verifyWebhookSignature headers: a non-object is refused, absent is a missing signature', async () => {
    await rejection(verifyWebhookSignature({ body: 'x', secret: TOKEN, headers: any(7) }), 'invalid_options');
    await rejection(
      verifyWebhookSignature({ body: 'x', secret: TOKEN, headers: any(null) }),
      'missing_signature',
    );
  });

  it('headers whose reading throws, with the error as cause', async () => {
    const boom = new Error('boom');
    const throwing = {
      get() {
        throw boom;
      },
    };
    const err = await rejection(verifyWebhook({ ...valid, headers: any(throwing) }), 'invalid_options');
    expect(err.message).toMatch(/'headers' could not be read/);
    expect(err.cause).toBe(boom);
    const getter = Object.defineProperty({}, SIGNATURE_HEADER, {
      enumerable: true,
      get() {
        throw boom;
      },
    });
    await rejection(verifyWebhook({ ...valid, headers: getter }), 'invalid_options');
  });

  it('a Map or a Headers-like get returning a non-string is an absent header', async () => {
    await rejection(
      verifyWebhook({ ...valid, headers: any(new Map([[SIGNATURE_HEADER, 42]])) }),
      'missing_signature',
    );
  });

  it.each([
    ['a number', 42, /must be a header name \(a string\), got number/],
    ['a symbol', Symbol('x'), /got symbol/],
    ['an object', {}, /got an object/],
    ['empty', '', /must be a valid HTTP header name.*got a string of length 0\.$/],
    [
      'a space (described by its length, never echoed)',
      'x sig',
      /valid HTTP header name.*got a string of length 5\.$/,
    ],
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
    const err = await rejection(
      verifyWebhookSignature({ body: 'x', secret: TOKEN, headers, signatureHeader: any(value) }),
      'invalid_options',
    );
    expect(err.message).toMatch(/^Webhook option 'signatureHeader' /);
  });

  it('null header names mean the default, as before', async () => {
    const event = await verifyWebhook({ ...valid, signatureHeader: any(null), eventIdHeader: any(null) });
    expect(event.id).toBe(EVENT_ID);
  });

  it.each([42, {}, true])('verifyWebhookSignature signature: %j', async (value) => {
    const err = await rejection(
      verifyWebhookSignature({ body: 'x', secret: TOKEN, signature: any(value) }),
      'invalid_options',
    );
    expect(err.message).toMatch(/^Webhook option 'signature' must be the hex signature/);
  });

  it.each([42, {}, '', ' evt', 'evt ', 'a\r\nx-injected: 1', 'a\u0000b', 'évt-☕'])(
    'createWebhookHeaders eventId: %j',
    async (value) => {
      const err = await rejection(
        createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: any(value) }),
        'invalid_options',
      );
      expect(err.message).toMatch(/^Webhook option 'eventId' must be/);
    },
  );

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1000', 1000n, {}])(
    'maxBodyBytes: %s',
    async (value) => {
      for (const check of [
        verifyWebhook({ ...valid, maxBodyBytes: any(value) }),
        verifyWebhookSignature({
          body: 'x',
          secret: TOKEN,
          signature: SHIPMENT_SIGNATURE,
          maxBodyBytes: any(value),
        }),
      ]) {
        const err = await rejection(check, 'invalid_options');
        expect(err.message).toMatch(/^Webhook option 'maxBodyBytes' must be a positive integer/);
      }
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
      verifyWebhookSignature({ body: 'x', signature: SHIPMENT_SIGNATURE, secret: any(secret) }),
      signWebhook({ body: 'x', secret: any(secret) }),
      createWebhookHeaders({ body: 'x', secret: any(secret) }),
    ]) {
      const err = await rejection(check, 'missing_secret');
      expect(err.message).toMatch(/option 'secret' must be a string or an array of strings/);
      expect(err.message).not.toMatch(/123456789|987654321|sk_live/);
    }
  });

  it.each([null, ''])('%j names the option', async (secret) => {
    const err = await rejection(signWebhook({ body: 'x', secret: any(secret) }), 'missing_secret');
    expect(err.message).toContain("(option 'secret')");
  });
});

describe('body_too_large (maxBodyBytes)', () => {
  // The spies below watch Web Crypto: run this part on that path.
  beforeEach(() => preferWebCrypto(true));
  afterEach(() => preferWebCrypto(false));

  /** Spies on every Web Crypto and encoding step a verification goes through. */
  function spies() {
    return {
      verify: vi.spyOn(crypto.subtle, 'verify'),
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
    expect(spy.verify).not.toHaveBeenCalled();
    expect(spy.sign).not.toHaveBeenCalled();
    expect(spy.importKey).not.toHaveBeenCalled();
    expect(spy.encode).not.toHaveBeenCalled();

    await rejection(
      verifyWebhookSignature({
        body: input,
        secret: TOKEN,
        signature: SHIPMENT_SIGNATURE,
        maxBodyBytes: size - 1,
      }),
      'body_too_large',
    );
    expect(spy.verify).not.toHaveBeenCalled();
  });

  it('a body of exactly the limit is hashed and verifies (the spies do see hashing)', async () => {
    const spy = spies();
    const event = await verifyWebhook({ ...valid, maxBodyBytes: size });
    expect(event.id).toBe(EVENT_ID);
    expect(spy.verify).toHaveBeenCalledTimes(1);
    expect(spy.encode).toHaveBeenCalledWith(SHIPMENT_BODY);
  });

  it('counts a string in UTF-8 bytes, not in characters', async () => {
    const body = 'é☕😀'; // 2 + 3 + 4 bytes, 4 UTF-16 code units
    expect(
      await verifyWebhookSignature({ body, secret: TOKEN, signature: SHIPMENT_SIGNATURE, maxBodyBytes: 9 }),
    ).toBe(false);
    const err = await rejection(
      verifyWebhookSignature({ body, secret: TOKEN, signature: SHIPMENT_SIGNATURE, maxBodyBytes: 8 }),
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
    expect(spy.verify).not.toHaveBeenCalled();
    expect(
      await verifyWebhookSignature({
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

describe('options that cannot be read: invalid_options naming the option, never the raw error', () => {
  const SECRETLY = 'sk_never_shown_';
  /** A getter that throws an error quoting a would-be secret. */
  const throwing = (key: string) =>
    Object.defineProperty({ ...valid, signature: SHIPMENT_SIGNATURE }, key, {
      enumerable: true,
      get() {
        throw new Error(`${SECRETLY}${key}`);
      },
    });
  const trap = () => {
    throw new Error(`${SECRETLY}trap`);
  };
  const proxy = new Proxy({}, { get: trap, ownKeys: trap, has: trap, getPrototypeOf: trap });
  const revoked = (() => {
    const { proxy: p, revoke } = Proxy.revocable({}, {});
    revoke();
    return p;
  })();
  const FUNCTIONS = [
    [
      'verifyWebhook',
      verifyWebhook,
      ['body', 'headers', 'secret', 'signatureHeader', 'eventIdHeader', 'maxBodyBytes'],
    ],
    [
      'verifyWebhookSignature',
      verifyWebhookSignature,
      ['body', 'secret', 'signature', 'headers', 'signatureHeader', 'maxBodyBytes'],
    ],
    ['signWebhook', signWebhook, ['body', 'secret']],
    [
      'createWebhookHeaders',
      createWebhookHeaders,
      ['body', 'secret', 'eventId', 'signatureHeader', 'eventIdHeader'],
    ],
  ] as const;

  function expectClean(err: WebhookVerificationError) {
    expect(err.cause).toBeUndefined();
    expect(err.message).not.toContain(SECRETLY);
    expect(String(err.stack)).not.toContain(SECRETLY);
  }

  it.each(FUNCTIONS)('%s: a throwing getter on each option', async (_name, fn, keys) => {
    for (const key of keys) {
      const err = await rejection((fn as (o: unknown) => Promise<unknown>)(throwing(key)), 'invalid_options');
      expect(err.message).toMatch(new RegExp(`^Webhook option '${key}' could not be read`));
      expectClean(err);
    }
  });

  it.each(FUNCTIONS)('%s: a Proxy or a revoked Proxy as the options', async (_name, fn) => {
    for (const options of [proxy, revoked]) {
      const err = await rejection((fn as (o: unknown) => Promise<unknown>)(options), 'invalid_options');
      expect(err.message).toMatch(/^Webhook option '\w+' could not be read/);
      expectClean(err);
    }
  });

  it('a body or a secret that throws when inspected (a Proxy, a revoked Proxy, a throwing array element)', async () => {
    const element = Object.defineProperty([TOKEN], 0, { get: trap });
    for (const [options, option] of [
      [{ ...valid, body: proxy }, 'body'],
      [{ ...valid, body: revoked }, 'body'],
      [{ ...valid, secret: element }, 'secret'],
      [{ ...valid, secret: new Proxy([TOKEN], { get: trap }) }, 'secret'],
      [{ ...valid, headers: revoked }, 'headers'],
      [{ ...valid, maxBodyBytes: revoked }, 'maxBodyBytes'],
    ] as const) {
      const err = await rejection(verifyWebhook(any(options)), 'invalid_options');
      expect(err.message).toContain(`'${option}'`);
      expectClean(err);
    }
    const err = await rejection(signWebhook({ body: any(proxy), secret: TOKEN }), 'invalid_options');
    expect(err.message).toContain("'body'");
  });

  it('reads each option once', async () => {
    let reads = 0;
    const options = Object.defineProperty({ ...valid }, 'secret', {
      enumerable: true,
      get() {
        reads++;
        return TOKEN;
      },
    });
    await verifyWebhook(options);
    expect(reads).toBe(1);
  });
});

describe('header names that collide: invalid_options naming both options', () => {
  it('verifyWebhook refuses a signature header named as the event-id header', async () => {
    const err = await rejection(
      verifyWebhook({ ...valid, signatureHeader: 'X-Same', eventIdHeader: 'x-same' }),
      'invalid_options',
    );
    expect(err.message).toContain("'eventIdHeader'");
    expect(err.message).toContain("'signatureHeader'");
    // The default of one and the same name given to the other collide too.
    await rejection(verifyWebhook({ ...valid, signatureHeader: EVENT_ID_HEADER }), 'invalid_options');
    await rejection(verifyWebhook({ ...valid, eventIdHeader: 'X-Service-Signature' }), 'invalid_options');
  });
});
