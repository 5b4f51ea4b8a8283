/**
 * The HMAC key cache and Web Crypto lookup under signing and verification (src/webhooks/crypto.ts),
 * observed through the public functions.
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

describe('HMAC key cache (Web Crypto path)', () => {
  beforeEach(() => preferWebCrypto(true));
  afterEach(() => {
    vi.restoreAllMocks();
    preferWebCrypto(false);
  });

  it('imports a secret once across verifications', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const secret = `cache-once-${Math.random()}`;
    const body = JSON.stringify(shipment({ id: 1, status: 'shipped' }));
    const h = await createWebhookHeaders({ body, secret });
    for (let i = 0; i < 5; i++) await verifyWebhook({ body, headers: h, secret });
    expect(importKey).toHaveBeenCalledTimes(1);
  });

  it('does not cache a failed import', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey').mockRejectedValueOnce(new Error('boom'));
    const secret = `cache-fail-${Math.random()}`;
    await expect(signWebhook({ body: 'x', secret })).rejects.toThrow('boom');
    expect(await signWebhook({ body: 'x', secret })).toMatch(/^[0-9a-f]{64}$/);
    expect(importKey).toHaveBeenCalledTimes(2);
  });

  it('says so when the runtime has no Web Crypto', async () => {
    vi.stubGlobal('crypto', undefined);
    try {
      await expect(signWebhook({ body: 'x', secret: TOKEN })).rejects.toThrow(/Web Crypto .* not available/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('is bounded: the least recently used secret is imported again after 16 others', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const prefix = `cache-lru-${Math.random()}`;
    await signWebhook({ body: 'x', secret: `${prefix}-first` });
    for (let i = 0; i < 15; i++) await signWebhook({ body: 'x', secret: `${prefix}-${i}` });
    await signWebhook({ body: 'x', secret: `${prefix}-first` }); // still cached (16 entries)
    expect(importKey).toHaveBeenCalledTimes(16);
    for (let i = 15; i < 31; i++) await signWebhook({ body: 'x', secret: `${prefix}-${i}` });
    await signWebhook({ body: 'x', secret: `${prefix}-first` }); // evicted by 16 newer ones
    expect(importKey).toHaveBeenCalledTimes(33);
  });

  it('keeps the most recently used secrets, not the first imported', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const prefix = `cache-recency-${Math.random()}`;
    await signWebhook({ body: 'x', secret: `${prefix}-first` });
    for (let i = 0; i < 15; i++) await signWebhook({ body: 'x', secret: `${prefix}-${i}` });
    await signWebhook({ body: 'x', secret: `${prefix}-first` }); // a hit: now the most recently used
    await signWebhook({ body: 'x', secret: `${prefix}-15` }); // evicts -0, the least recently used
    expect(importKey).toHaveBeenCalledTimes(17);
    await signWebhook({ body: 'x', secret: `${prefix}-first` });
    expect(importKey).toHaveBeenCalledTimes(17);
    await signWebhook({ body: 'x', secret: `${prefix}-0` });
    expect(importKey).toHaveBeenCalledTimes(18);
  });
});
