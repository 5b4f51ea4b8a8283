/**
 * No secret in any output: the token, credential headers and every `defaultHeaders` value never
 * appear in an error (message, stack, String, JSON, util.inspect with hidden fields at any depth,
 * any cause) or a log line — whatever fails, and even when the server echoes them back.
 */
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSecretHeader, Redactor } from '../../src/core/redact.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  BulkUpsertError,
  FulfillmentClient,
  type FulfillmentError,
  ResponseValidationError,
} from '../../src/index.js';
import { recordingLogger } from '../helpers/msw.js';

const BASE = 'https://fulfillment.test';
const secret = fc.stringMatching(/^[A-Za-z0-9_]{8,32}$/);

type Scenario = (secrets: { token: string; key: string; shop: string; perRequest: string }) => {
  fetch: typeof globalThis.fetch;
  run: (client: FulfillmentClient, perRequest: string) => Promise<unknown>;
  expected: abstract new (...args: never[]) => FulfillmentError;
};

const echo = (s: Record<string, string>) => Object.values(s).join(' ');

const scenarios: Record<string, Scenario> = {
  timeout: () => ({
    fetch: (input) =>
      new Promise((_, reject) => {
        const signal = (input as Request).signal;
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
    run: (client, token) =>
      client.warehouses.list(undefined, { timeout: 20, headers: { 'x-request-token': token } }),
    expected: APITimeoutError,
  }),
  'connection error carrying the request': (s) => ({
    fetch: async (input) => {
      const cause = Object.assign(new Error(`connect ECONNRESET (${echo(s)})`), {
        code: 'ECONNRESET',
        request: input,
        headers: Object.fromEntries((input as Request).headers),
      });
      throw new TypeError('fetch failed', { cause });
    },
    run: (client, token) => client.warehouses.list(undefined, { headers: { 'x-request-token': token } }),
    expected: APIConnectionError,
  }),
  'error answer echoing every secret': (s) => ({
    fetch: async () =>
      Response.json(
        { errors: [`denied: ${echo(s)}`], detail: { nested: [echo(s)] } },
        {
          status: 403,
          headers: {
            'x-echo': echo(s),
            'set-cookie': `session=${s.token}`,
            'www-authenticate': `Bearer realm="${s.key}"`,
          },
        },
      ),
    run: (client, perRequest) =>
      client.orders.retrieve(1, undefined, { headers: { 'x-request-token': perRequest } }),
    expected: APIError,
  }),
  '2xx answer echoing secrets in a wrong shape': (s) => ({
    fetch: async () => Response.json({ id: echo(s) }),
    run: (client, token) => client.orders.retrieve(1, undefined, { headers: { 'x-request-token': token } }),
    expected: ResponseValidationError,
  }),
  'non-JSON 2xx answer echoing secrets': (s) => ({
    fetch: async () => new Response(`<html>${echo(s)}</html>`, { status: 200 }),
    run: (client, token) => client.returns.retrieve(1, { headers: { 'x-request-token': token } }),
    expected: ResponseValidationError,
  }),
  'bulk upsert stopped by an echoing answer': (s) => ({
    fetch: async () => Response.json({ errors: [echo(s)] }, { status: 422 }),
    run: (client, token) =>
      client.skus.bulkUpsert([{ name: 'A', merchant_sku_id: 'A' }], {
        headers: { 'x-request-token': token },
      }),
    expected: BulkUpsertError,
  }),
};

/** Every way an error can be shown. */
function outputs(error: unknown): string[] {
  const e = error as Error;
  let json = '';
  try {
    json = JSON.stringify(error) ?? '';
  } catch {}
  return [
    e.message,
    String(e.stack),
    String(error),
    json,
    inspect(error, { showHidden: true, depth: Number.POSITIVE_INFINITY }),
  ];
}

describe('secrets never appear in an error or a log line (property-based)', () => {
  for (const [name, scenario] of Object.entries(scenarios)) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(secret, secret, secret, secret, async (token, key, shop, perRequest) => {
          const secrets = { token, key, shop, perRequest };
          const { fetch, run, expected } = scenario(secrets);
          const { lines, logger } = recordingLogger();
          const client = new FulfillmentClient({
            apiToken: token,
            baseUrl: BASE,
            defaultHeaders: { 'x-gateway-key': key, 'x-shop': shop },
            fetch,
            logger,
            logLevel: 'debug',
            maxRetries: 0,
          });
          const error = await run(client, perRequest).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(expected);
          const shown = [...outputs(error), inspect(lines, { depth: Number.POSITIVE_INFINITY })].join('\n');
          for (const value of Object.values(secrets)) expect(shown).not.toContain(value);
        }),
        { numRuns: 25 },
      );
    });
  }
});

describe('Redactor', () => {
  it('masks credential headers by name and the client default headers by name', () => {
    const redactor = new Redactor(['tok_123456'], ['x-shop']);
    expect(
      redactor.headers({
        authorization: 'Bearer tok_123456',
        'x-shop': 's',
        'x-gateway-key': 'k',
        accept: 'a',
      }),
    ).toEqual({ authorization: '***', 'x-shop': '***', 'x-gateway-key': '***', accept: 'a' });
    expect(
      ['Cookie', 'Set-Cookie', 'X-Api-Key', 'x-refresh-token', 'x-client-secret'].every(isSecretHeader),
    ).toBe(true);
    expect(['accept', 'x-keyboard', 'content-type'].some(isSecretHeader)).toBe(false);
  });

  it('summarises a cause chain: names, messages without secrets, codes; no request or response', () => {
    const redactor = new Redactor(['tok_123456']);
    const inner = Object.assign(new Error('socket tok_123456 hang up'), { code: 'ECONNRESET', request: {} });
    const summary = redactor.cause(new TypeError('fetch failed', { cause: inner }));
    expect(summary?.name).toBe('TypeError');
    expect((summary?.cause as { code?: string }).code).toBe('ECONNRESET');
    expect((summary?.cause as Error).message).toBe('socket *** hang up');
    expect(inspect(summary, { showHidden: true, depth: 10 })).not.toContain('request');
  });
});
