/**
 * The two HMAC paths (node:crypto, Web Crypto) under signing and verification
 * (src/webhooks/crypto.ts), observed through the public functions.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preferWebCrypto } from '../../src/webhooks/crypto.js';
import { createWebhookHeaders, signWebhook, verifyWebhook } from '../../src/webhooks/index.js';
import { KNOWN_ANSWERS, shipment, TOKEN } from './fixtures.js';
import { signatureMatches } from './helpers.js';

describe('the two HMAC paths', () => {
  afterEach(() => preferWebCrypto(false));

  it.each(KNOWN_ANSWERS)(
    '%s: node:crypto and Web Crypto sign and verify alike',
    async (_name, body, secret, expected) => {
      for (const web of [false, true]) {
        preferWebCrypto(web);
        expect(await signWebhook({ body, secret })).toBe(expected);
        await expect(signatureMatches({ body, secret, signature: expected })).resolves.toBe(true);
        await expect(signatureMatches({ body, secret: `${secret}x`, signature: expected })).resolves.toBe(
          false,
        );
      }
    },
  );

  it('uses node:crypto where the runtime offers it, and no Web Crypto call then', async () => {
    const sign = vi.spyOn(crypto.subtle, 'sign');
    const body = JSON.stringify(shipment({ id: 1, status: 'shipped' }));
    const headers = await createWebhookHeaders({ body, secret: TOKEN, eventId: 'e-2' });
    await verifyWebhook({ body, headers, secret: TOKEN });
    expect(sign).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });

  it('a signature of the wrong length is malformed on either path (never compared)', async () => {
    for (const web of [false, true]) {
      preferWebCrypto(web);
      await expect(
        signatureMatches({ body: '{}', signature: 'ab'.repeat(31), secret: TOKEN }),
      ).rejects.toMatchObject({ reason: 'malformed_signature' });
    }
  });
});

describe('the Web Crypto path', () => {
  beforeEach(() => preferWebCrypto(true));
  afterEach(() => preferWebCrypto(false));

  it('says so when the runtime has no Web Crypto', async () => {
    vi.stubGlobal('crypto', undefined);
    try {
      await expect(signWebhook({ body: 'x', secret: TOKEN })).rejects.toThrow(/Web Crypto .* not available/);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
