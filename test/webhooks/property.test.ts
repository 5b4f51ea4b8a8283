import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signWebhook, type WebhookBody, WebhookVerificationError } from '../../src/webhooks/index.js';
import { signatureMatches } from './helpers.js';

const encoder = new TextEncoder();
const RUNS = { numRuns: 1000 } as const;

/** Random bodies in every accepted form, with their bytes. */
const body = fc.oneof(
  fc.uint8Array({ maxLength: 512 }).map((bytes) => ({ body: bytes as WebhookBody, bytes })),
  fc
    .string({ unit: 'grapheme', maxLength: 200 })
    .map((text) => ({ body: text as WebhookBody, bytes: encoder.encode(text) })),
  fc.uint8Array({ maxLength: 512 }).map((bytes) => ({ body: bytes.slice().buffer as WebhookBody, bytes })),
  fc.uint8Array({ maxLength: 512 }).map((bytes) => ({ body: Buffer.from(bytes) as WebhookBody, bytes })),
);
/** Random tokens (non-empty, any Unicode). */
const token = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 64 });

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
const bytesToHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** `false`, or a `malformed_signature` error: both reject the delivery. */
async function rejected(check: Promise<boolean>): Promise<boolean> {
  try {
    return !(await check);
  } catch (err) {
    return err instanceof WebhookVerificationError && err.reason === 'malformed_signature';
  }
}

describe('signature properties (fast-check)', () => {
  it('a correct signature verifies, in lower- and upper-case hex, under any body form', async () => {
    await fc.assert(
      fc.asyncProperty(body, token, async ({ body, bytes }, secret) => {
        const signature = await signWebhook({ body: bytes, secret });
        expect(signature).toMatch(/^[0-9a-f]{64}$/);
        expect(await signatureMatches({ body, secret, signature })).toBe(true);
        expect(await signatureMatches({ body, secret, signature: signature.toUpperCase() })).toBe(true);
      }),
      RUNS,
    );
  });

  it('any single-byte change to the body is rejected', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 512 }),
        token,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (bytes, secret, at, delta) => {
          const signature = await signWebhook({ body: bytes, secret });
          const tampered = bytes.slice();
          const i = at % tampered.length;
          tampered[i] = (tampered[i]! + delta) % 256;
          expect(await signatureMatches({ body: tampered, secret, signature })).toBe(false);
        },
      ),
      RUNS,
    );
  });

  it('any single-byte change to the signature is rejected', async () => {
    await fc.assert(
      fc.asyncProperty(
        body,
        token,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async ({ body, bytes }, secret, at, delta) => {
          const raw = hexToBytes(await signWebhook({ body: bytes, secret }));
          const i = at % raw.length;
          raw[i] = (raw[i]! + delta) % 256;
          expect(await signatureMatches({ body, secret, signature: bytesToHex(raw) })).toBe(false);
        },
      ),
      RUNS,
    );
  });

  it('any single-character change to the hex signature is rejected (mismatch or malformed)', async () => {
    await fc.assert(
      fc.asyncProperty(
        body,
        token,
        fc.nat(),
        fc.integer({ min: 0x20, max: 0x7e }),
        async ({ body, bytes }, secret, at, code) => {
          const signature = await signWebhook({ body: bytes, secret });
          const i = at % signature.length;
          const replacement = String.fromCharCode(code);
          // Changing only the case of a hex digit keeps the same signature: not a change.
          fc.pre(replacement.toLowerCase() !== signature[i]);
          const tampered = signature.slice(0, i) + replacement + signature.slice(i + 1);
          expect(await rejected(signatureMatches({ body, secret, signature: tampered }))).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('a signature made with another token is rejected', async () => {
    await fc.assert(
      fc.asyncProperty(body, token, token, async ({ body, bytes }, secret, other) => {
        fc.pre(secret !== other);
        const signature = await signWebhook({ body: bytes, secret: other });
        expect(await signatureMatches({ body, secret, signature })).toBe(false);
        expect(await signatureMatches({ body, secret: [secret, other], signature })).toBe(true);
      }),
      RUNS,
    );
  });
});
