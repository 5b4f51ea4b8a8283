/**
 * Property-based tests of everything that turns caller input into a request: request validators,
 * query and path encoding, body serialization. Whatever the input, the outcome is a request ready
 * to send or a `RequestValidationError` — never another error, never a throw from a list method.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRequest, path } from '../../src/core/request.js';
import { encodeQuery } from '../../src/core/url.js';
import { FulfillmentClient, RequestValidationError } from '../../src/index.js';

const RUNS = { numRuns: 300 };
const isRVE = (error: unknown) => error instanceof RequestValidationError;

function outcome(fn: () => unknown): 'ok' | 'invalid' {
  try {
    fn();
    return 'ok';
  } catch (error) {
    if (isRVE(error)) return 'invalid';
    throw error;
  }
}

/** Strings with lone surrogates, controls and astral characters mixed in. */
const hostileString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('\uD800', 'a\uDC00b', '\u0000', '../..', '%zz', '&=?#', '🙂'),
);
const scalar = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.date({ noInvalidDate: true }),
);

describe('query encoding', () => {
  it('encodes any parameters or refuses them by name; what it encodes decodes back', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          hostileString,
          fc.oneof(
            scalar,
            fc.array(scalar, { maxLength: 3 }),
            fc.dictionary(hostileString, scalar, { maxKeys: 3 }),
          ),
          { maxKeys: 4 },
        ),
        (params) => {
          let query: string;
          try {
            query = encodeQuery(params as never);
          } catch (error) {
            expect(isRVE(error)).toBe(true);
            const named = (error as RequestValidationError).issues[0]?.path ?? '';
            expect(Object.keys(params).some((key) => named === key || named.startsWith(`${key}.`))).toBe(
              true,
            );
            return;
          }
          // Every part decodes (no malformed escape, no raw separator leaked from a key or value)
          // back to exactly the parameters given, in order; null and undefined are left out.
          const expected: string[] = [];
          const text = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));
          for (const [key, value] of Object.entries(params)) {
            if (value === undefined || value === null) continue;
            if (Array.isArray(value)) for (const item of value) expected.push(`${key}[]=${text(item)}`);
            else if (typeof value === 'object' && !(value instanceof Date)) {
              for (const [sub, v] of Object.entries(value)) {
                if (v !== undefined && v !== null) expected.push(`${key}[${sub}]=${text(v)}`);
              }
            } else expected.push(`${key}=${text(value)}`);
          }
          const decoded = (query ? query.split('&') : []).map((part) => {
            const match = /^([^[\]=&]*)(?:\[([^[\]=&]*)\])?=([^=&]*)$/.exec(part);
            expect(match, part).not.toBeNull();
            const [, name, sub, value] = match!;
            const bracket = sub === undefined ? '' : `[${decodeURIComponent(sub)}]`;
            return `${decodeURIComponent(name!)}${bracket}=${decodeURIComponent(value!)}`;
          });
          expect(decoded).toEqual(expected);
        },
      ),
      RUNS,
    );
  });
});

describe('path ids', () => {
  it('accept exactly the positive safe integers (or strings of their digits)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.integer(), fc.string({ maxLength: 20 })), (id) => {
        const result = outcome(() => path`/merchant_api/v1/orders/${id as number}`.resolve());
        const n = typeof id === 'string' && /^\d{1,16}$/.test(id) ? Number(id) : id;
        const valid = typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
        expect(result).toBe(valid ? 'ok' : 'invalid');
        if (valid) {
          expect(path`/x/${id as number}`.resolve()).toBe(`/x/${n}`);
        }
      }),
      RUNS,
    );
  });
});

describe('body serialization', () => {
  it('sends what JSON can carry as given, refuses the rest by path', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: false, withSet: false, maxDepth: 4 }), (value) => {
        let spec: ReturnType<typeof buildRequest> | undefined;
        try {
          spec = buildRequest(
            'POST',
            '/x',
            { body: { value }, response: () => 0 },
            'https://fulfillment.test',
          );
        } catch (error) {
          expect(isRVE(error)).toBe(true);
          expect((error as RequestValidationError).issues[0]?.path.startsWith('value')).toBe(true);
          return;
        }
        expect(spec.bodyText).toBe(JSON.stringify({ value }));
      }),
      RUNS,
    );
  });
});

describe('request validators through the client', () => {
  const client = new FulfillmentClient({
    apiToken: 'tok_property',
    baseUrl: 'http://127.0.0.1:1',
    logLevel: 'off',
    maxRetries: 0,
    // Nothing must be sent for invalid input; valid input reaches this fetch, which answers 400.
    fetch: async () => Response.json({ errors: ['bad request'] }, { status: 400 }),
  });
  const anyInput = fc.anything({ withBigInt: true, maxDepth: 3 });

  it.each([
    ['orders.create', (v: unknown) => client.orders.create(v as never)],
    ['orders.update', (v: unknown) => client.orders.update(1, v as never)],
    ['skus.create', (v: unknown) => client.skus.create(v as never)],
    ['skus.list', (v: unknown) => client.skus.list(v as never)],
    ['orders.list', (v: unknown) => client.orders.list(v as never)],
    ['restockingShipments.v2.create', (v: unknown) => client.restockingShipments.v2.create(v as never)],
    ['shipments.list', (v: unknown) => client.shipments.list(v as never)],
  ])('%s: any input gives a promise that rejects typed, never a throw', async (_, call) => {
    await fc.assert(
      fc.asyncProperty(anyInput, async (input) => {
        let promise: Promise<unknown>;
        expect(() => {
          promise = call(input);
        }).not.toThrow();
        const error = await promise!.then(
          () => undefined,
          (e: unknown) => e,
        );
        // Valid input reaches the server (which refuses it); invalid input is refused before sending.
        // Either way the promise rejects, typed.
        expect(error).toBeInstanceOf(Error);
        if (!isRVE(error)) expect((error as Error).name).toBe('BadRequestError');
      }),
      { numRuns: 150 },
    );
  });
});

describe('request paths: nothing ever leaves the configured origin', () => {
  const BASE_URL = 'https://api.fulfillment.test/prefix';
  const ORIGIN = 'https://api.fulfillment.test';
  /** Paths built to leave: other hosts, schemes, ports, credentials, missing slashes, odd spellings. */
  const pathLike = fc.oneof(
    hostileString,
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc
      .tuple(
        fc.constantFrom(
          '',
          '/',
          '//',
          'http://',
          'https://',
          'HTTPS://',
          'https:',
          '\\\\',
          ' ',
          '.',
          '@',
          ':444',
        ),
        fc.constantFrom(
          'api.fulfillment.test',
          'evil.example',
          'api.fulfillment.test.evil.example',
          'u:p@evil.example',
        ),
        fc.constantFrom('', '/', '/x', ':444/x', '@evil.example/x', '/../../x', '?q=1', '#f'),
      )
      .map(([a, b, c]) => a + b + c),
    fc.constantFrom(
      `${ORIGIN}/ok`,
      `${ORIGIN}:443/ok`,
      'https://u:p@api.fulfillment.test/x',
      '/merchant_api/v1/skus',
    ),
  );

  it('sends only to the base origin, without credentials; anything else is refused naming `path`', async () => {
    const sent: string[] = [];
    const client = new FulfillmentClient({
      apiToken: 'sk_path_canary_0123456789',
      baseUrl: BASE_URL,
      logLevel: 'off',
      maxRetries: 0,
      fetch: async (input, init) => {
        sent.push(new Request(input, init).url);
        return Response.json({});
      },
    });
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(pathLike, async (p) => {
        const before = sent.length;
        try {
          await client.get(p, { response: () => 'ok' });
        } catch (error) {
          expect(isRVE(error)).toBe(true);
          expect((error as RequestValidationError).issues[0]?.path).toBe('path');
          expect(sent.length).toBe(before);
          refused++;
          return;
        }
        expect(sent.length).toBe(before + 1);
        const url = new URL(sent.at(-1)!);
        expect(url.origin).toBe(ORIGIN);
        expect(url.username + url.password).toBe('');
      }),
      RUNS,
    );
    // Both sides were reached.
    expect(refused).toBeGreaterThan(RUNS.numRuns / 10);
    expect(sent.length).toBeGreaterThan(RUNS.numRuns / 10);
  });
});
