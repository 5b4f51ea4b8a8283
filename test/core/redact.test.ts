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
  PaginationError,
  RedirectError,
  ResponseTooLargeError,
  ResponseValidationError,
} from '../../src/index.js';
import { recordingLogger } from '../helpers/msw.js';

const BASE = 'https://fulfillment.test';
const secret = fc.stringMatching(/^[A-Za-z0-9_]{8,32}$/);

type Scenario = (
  secrets: { token: string; key: string; shop: string; perRequest: string },
  status: number,
) => {
  fetch: typeof globalThis.fetch;
  run: (client: FulfillmentClient, perRequest: string) => Promise<unknown>;
  expected: abstract new (...args: never[]) => FulfillmentError;
};

const echo = (s: Record<string, string>) => Object.values(s).join(' ');
/** Every error status the API may answer (each gives its own `APIError` subclass). */
const statuses = fc.constantFrom(400, 401, 403, 404, 408, 409, 418, 422, 429, 500, 502, 503, 504);

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
  'error answer (any status) echoing every secret': (s, status) => ({
    fetch: async () =>
      Response.json(
        { errors: [`denied: ${echo(s)}`], detail: { nested: [echo(s)] } },
        {
          status,
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
  'redirect to another origin with secrets in its location': (s) => ({
    fetch: async () =>
      new Response('moved', {
        status: 302,
        headers: { location: `https://elsewhere.test/${echo(s)}?k=${s.key}` },
      }),
    run: (client, token) => client.warehouses.list(undefined, { headers: { 'x-request-token': token } }),
    expected: RedirectError,
  }),
  'body over maxResponseBytes echoing secrets': (s) => ({
    fetch: async () => new Response(`[${JSON.stringify(echo(s)).repeat(5000)}]`, { status: 200 }),
    run: (client, token) => client.warehouses.list(undefined, { headers: { 'x-request-token': token } }),
    expected: ResponseTooLargeError,
  }),
  'cursors echoing secrets (not a URL, then a repeat)': (s) => ({
    fetch: async (input) => {
      const repeat = new URL((input as Request).url).searchParams.has('c');
      const next = repeat ? `/merchant_api/v1/warehouses?c=${s.token}` : `http://[${echo(s)}`;
      return Response.json({ data: [{ id: repeat ? 2 : 1 }], pagination: { next_page_url: next } });
    },
    run: (client, token) =>
      client.warehouses.list(undefined, { headers: { 'x-request-token': token } }).toArray({ max: 5 }),
    expected: PaginationError,
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
        fc.asyncProperty(
          secret,
          secret,
          secret,
          secret,
          statuses,
          async (token, key, shop, perRequest, status) => {
            const secrets = { token, key, shop, perRequest };
            const { fetch, run, expected } = scenario(secrets, status);
            const { lines, logger } = recordingLogger();
            const client = new FulfillmentClient({
              apiToken: token,
              baseUrl: BASE,
              defaultHeaders: { 'x-gateway-key': key, 'x-shop': shop },
              fetch,
              logger,
              logLevel: 'debug',
              maxRetries: 0,
              maxResponseBytes: 64 * 1024,
            });
            const error = await run(client, perRequest).then(
              () => undefined,
              (e: unknown) => e,
            );
            expect(error).toBeInstanceOf(expected);
            const shown = [...outputs(error), inspect(lines, { depth: Number.POSITIVE_INFINITY })].join('\n');
            for (const value of Object.values(secrets)) expect(shown).not.toContain(value);
          },
        ),
        { numRuns: 25 },
      );
    });
  }
});

describe('Redactor', () => {
  it('masks credential headers by name and the client default headers by name', () => {
    const redactor = new Redactor(['tok_123456'], ['x-shop']);
    const headers = new Headers({
      authorization: 'Bearer tok_123456',
      'X-Shop': 's',
      'x-gateway-key': 'k',
      accept: 'a',
    });
    expect(Object.fromEntries(redactor.responseHeaders(headers))).toEqual({
      accept: 'a',
      authorization: '***',
      'x-gateway-key': '***',
      'x-shop': '***',
    });
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
    expect((summary!.cause as { code?: string }).code).toBe('ECONNRESET');
    expect((summary!.cause as Error).message).toBe('socket *** hang up');
    expect(inspect(summary, { showHidden: true, depth: 10 })).not.toContain('request');
  });
});
