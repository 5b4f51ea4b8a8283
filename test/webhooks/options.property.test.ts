/**
 * Arbitrary inputs (fast-check): for arbitrary values of every option, verifyWebhook,
 * signWebhook and createWebhookHeaders return a promise that resolves with
 * a well-formed result or rejects with a WebhookVerificationError — never another error, never a
 * synchronous throw — and no secret ever shows in the error's message, stack or inspection.
 */
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from '../../src/webhooks/crypto.js';
import {
  createWebhookHeaders,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from '../../src/webhooks/index.js';
import { SHIPMENT_BODY } from './fixtures.js';
import { signatureMatches } from './helpers.js';

/** Property cases run per target (reported in the issue). */
const RUNS = {
  verifyWebhook: 300,
  signWebhook: 200,
  createWebhookHeaders: 200,
  bodyLimit: 200,
} as const;

/** Every secret the properties use starts with this, so a leak is found whatever the rest is. */
const CANARY = 'sk_canary_';
const TOKEN = `${CANARY}valid`;
const encoder = new TextEncoder();

const REASONS: readonly WebhookVerificationReason[] = [
  'invalid_options',
  'body_too_large',
  'parsed_body',
  'invalid_body',
  'missing_secret',
  'missing_signature',
  'empty_signature',
  'malformed_signature',
  'signature_mismatch',
  'missing_event_id',
  'invalid_payload',
];

/** A marker: keep the valid value of this option. */
const KEEP = Symbol('keep');
/** A marker: leave this option out of the object. */
const OMIT = Symbol('omit');

const canarySecret = fc.string({ maxLength: 24 }).map((s) => `${CANARY}${s}`);

const secret = fc.oneof(
  canarySecret,
  fc.array(fc.oneof(canarySecret, fc.constant(''), fc.anything()), { maxLength: 4 }),
  fc.constantFrom('', null, undefined, 0, 42, true, [], [''], {}),
  fc.anything(),
);
const body = fc.oneof(
  fc.constant(SHIPMENT_BODY),
  fc.string({ maxLength: 64 }),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.uint8Array({ maxLength: 64 }),
  fc.uint8Array({ maxLength: 64 }).map((b) => b.slice().buffer),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
  fc.uint8Array({ maxLength: 64 }).map((b) => new DataView(b.slice().buffer)),
  fc.uint8Array({ maxLength: 64 }).map((b) => new Uint16Array(b.slice(0, b.length & ~1).buffer)),
  fc.constantFrom(null, undefined, 0, true, {}, [], new Map(), new Date(0)),
  fc.anything(),
);
const headerNameValue = fc.oneof(
  fc.constantFrom(SIGNATURE_HEADER, EVENT_ID_HEADER, 'X-Service-Signature', 'x-other', '', ' ', 'bad name'),
  fc.string({ maxLength: 20 }),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
  fc.anything(),
);
const signatureValue = fc.oneof(
  fc.stringMatching(/^[0-9a-fA-F]{64}$/),
  fc.string({ maxLength: 70 }),
  fc.anything(),
);
const headerValue = fc.oneof(fc.string({ maxLength: 70 }), signatureValue, fc.array(signatureValue));
const headerRecord = fc.dictionary(
  fc.oneof(fc.constantFrom(SIGNATURE_HEADER, EVENT_ID_HEADER, 'X-SERVICE-SIGNATURE'), fc.string()),
  fc.oneof(headerValue, fc.anything()),
  { maxKeys: 5 },
);
const headers = fc.oneof(
  headerRecord,
  fc
    .dictionary(
      fc.constantFrom(SIGNATURE_HEADER, EVENT_ID_HEADER, 'x-a'),
      fc.stringMatching(/^[\x21-\x7e]{0,70}$/),
    )
    .map((r) => new Headers(r)),
  fc.constantFrom(null, undefined, 0, 'x', [], new Map([[SIGNATURE_HEADER, 1]])),
  fc.anything(),
);
const maxBodyBytes = fc.oneof(
  fc.integer({ min: -2, max: 400 }),
  fc.constantFrom(0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1000', null),
  fc.double(),
  fc.anything(),
);

/** Each option: kept valid, left out, or replaced by an arbitrary value. */
const option = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof(
    { arbitrary: fc.constant(KEEP), weight: 12 },
    { arbitrary: fc.constant(OMIT), weight: 2 },
    { arbitrary: arb, weight: 6 },
  );

/** Valid options with some of them replaced; sometimes not an options object at all. */
function optionsArb(
  valid: () => Record<string, unknown>,
  arbs: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<unknown> {
  const overrides = fc.record(Object.fromEntries(Object.entries(arbs).map(([k, a]) => [k, option(a)])));
  return fc.oneof(
    {
      arbitrary: overrides.map((o) => {
        const out: Record<string, unknown> = valid();
        for (const [k, v] of Object.entries(o)) {
          if (v === OMIT) delete out[k];
          else if (v !== KEEP) out[k] = v;
        }
        return out;
      }),
      weight: 18,
    },
    { arbitrary: fc.oneof(fc.constantFrom(null, undefined, 0, '', [], true), fc.anything()), weight: 1 },
  );
}

let validHeaders: Record<string, string>;
async function signedHeaders(): Promise<Record<string, string>> {
  validHeaders ??= await createWebhookHeaders({ body: SHIPMENT_BODY, secret: TOKEN, eventId: 'evt-1' });
  return validHeaders;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Calls `fn` and settles it; a synchronous throw or a non-promise fails the property. */
async function settle(fn: () => unknown): Promise<Outcome> {
  let result: unknown;
  try {
    result = fn();
  } catch (error) {
    throw new Error(`threw synchronously: ${String(error)}`);
  }
  expect(result).toBeInstanceOf(Promise);
  return (result as Promise<unknown>).then(
    (value) => ({ ok: true, value }) as const,
    (error: unknown) => ({ ok: false, error }) as const,
  );
}

/** A typed error with a known reason, and no secret in anything it shows. */
function expectTypedAndClean(error: unknown): void {
  if (!(error instanceof WebhookVerificationError)) {
    throw new Error(`rejected with ${inspect(error)} instead of a WebhookVerificationError`);
  }
  expect(REASONS).toContain(error.reason);
  expect(error.message.length).toBeGreaterThan(0);
  for (const text of [
    error.message,
    String(error.stack),
    inspect(error, { showHidden: true, depth: Infinity }),
  ]) {
    expect(text).not.toContain(CANARY);
  }
}

describe('arbitrary options (fast-check)', () => {
  it(`verifyWebhook: an event or a typed rejection, no secret shown (${RUNS.verifyWebhook} runs)`, async () => {
    const sig = await signedHeaders();
    let resolved = 0;
    const reasons = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        optionsArb(() => ({ body: SHIPMENT_BODY, headers: { ...sig }, secret: TOKEN }), {
          body,
          headers,
          secret,
          signatureHeader: headerNameValue,
          eventIdHeader: headerNameValue,
          maxBodyBytes,
        }),
        async (options) => {
          const outcome = await settle(() => verifyWebhook(options as never));
          if (outcome.ok) {
            resolved++;
            // The id is whatever the event-id header holds (a header name option may point elsewhere).
            expect(outcome.value).toMatchObject({
              type: 'restocking_shipment.status_updated',
              id: expect.stringMatching(/\S/),
              data: { id: 42 },
            });
          } else {
            expectTypedAndClean(outcome.error);
            reasons.add((outcome.error as WebhookVerificationError).reason);
          }
        },
      ),
      { numRuns: RUNS.verifyWebhook },
    );
    // The generator reaches both outcomes and most reasons (not an assertion on exact counts).
    expect(resolved).toBeGreaterThan(0);
    expect(reasons.size).toBeGreaterThanOrEqual(6);
  });

  it(`signWebhook: a hex signature or a typed rejection (${RUNS.signWebhook} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        optionsArb(() => ({ body: SHIPMENT_BODY, secret: TOKEN }), { body, secret }),
        async (options) => {
          const outcome = await settle(() => signWebhook(options as never));
          if (outcome.ok) expect(outcome.value).toMatch(/^[0-9a-f]{64}$/);
          else expectTypedAndClean(outcome.error);
        },
      ),
      { numRuns: RUNS.signWebhook },
    );
  });

  it(`createWebhookHeaders: headers fetch accepts, or a typed rejection (${RUNS.createWebhookHeaders} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        optionsArb(() => ({ body: SHIPMENT_BODY, secret: TOKEN }), {
          body,
          secret,
          // Any value but a string is refused; a string is sent as it is (valid header values here).
          eventId: fc.oneof(
            fc.stringMatching(/^[\x21-\x7e]{1,40}$/),
            fc.uuid(),
            fc.anything().filter((v) => typeof v !== 'string'),
          ),
          signatureHeader: headerNameValue,
          eventIdHeader: headerNameValue,
        }),
        async (options) => {
          const outcome = await settle(() => createWebhookHeaders(options as never));
          if (outcome.ok) {
            const h = outcome.value as Record<string, string>;
            for (const v of Object.values(h)) expect(typeof v).toBe('string');
            expect(() => new Headers(h)).not.toThrow();
          } else {
            expectTypedAndClean(outcome.error);
          }
        },
      ),
      { numRuns: RUNS.createWebhookHeaders },
    );
  });
});

describe('body size limit (fast-check)', () => {
  /** Strings with any UTF-16 code units, lone surrogates included. */
  const anyString = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((c) => String.fromCharCode(...c)),
  );

  it(`utf8Length equals TextEncoder's length, lone surrogates included (${RUNS.bodyLimit} runs)`, () => {
    fc.assert(
      fc.property(anyString, (s) => {
        expect(utf8Length(s)).toBe(encoder.encode(s).byteLength);
      }),
      { numRuns: RUNS.bodyLimit },
    );
  });

  it(`a body of exactly maxBodyBytes is checked, one byte more is body_too_large (${RUNS.bodyLimit} runs)`, async () => {
    const bodyAndBytes = fc.oneof(
      anyString
        .filter((s) => s.length > 0)
        .map((s) => ({ body: s as unknown, size: encoder.encode(s).byteLength })),
      fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => ({ body: b as unknown, size: b.byteLength })),
    );
    await fc.assert(
      fc.asyncProperty(bodyAndBytes, async ({ body, size }) => {
        const sig = 'ab'.repeat(32);
        expect(
          await signatureMatches({
            body: body as string,
            secret: TOKEN,
            signature: sig,
            maxBodyBytes: size,
          }),
        ).toBe(false);
        if (size > 1) {
          const outcome = await settle(() =>
            signatureMatches({
              body: body as string,
              secret: TOKEN,
              signature: sig,
              maxBodyBytes: size - 1,
            }),
          );
          expect(outcome.ok).toBe(false);
          const error = (outcome as { error: WebhookVerificationError }).error;
          expect(error).toBeInstanceOf(WebhookVerificationError);
          expect(error.reason).toBe('body_too_large');
          expect(error.message).toContain(`${size} bytes`);
          expect(error.message).toContain(`${size - 1} bytes`);
        }
      }),
      { numRuns: RUNS.bodyLimit },
    );
  });
});
