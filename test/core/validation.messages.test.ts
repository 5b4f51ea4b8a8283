/**
 * zod's own messages without a global zod locale: `zod/mini` installs none and the SDK sets none, so
 * the English messages travel with each parse (its parse context), on the plain schema (webhooks)
 * and the compiled one (the client) alike. The app's own zod configuration still comes first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { RequestValidationError, ResponseValidationError } from '../../src/core/errors.js';
import { compiled, parseResponse, validateRequest } from '../../src/core/validation.js';
import { FulfillmentClient } from '../../src/index.js';
import { OrderSchema } from '../../src/schemas/orders.js';
import { SkuCreateParamsSchema } from '../../src/schemas/skus.js';
import { WarehouseSchema } from '../../src/schemas/warehouses.js';
import { createWebhookHeaders, verifyWebhook } from '../../src/webhooks/index.js';
import { orderFixture } from '../fixtures/orders.js';

const MISSING_ID = { path: 'id', message: 'Invalid input: expected number, received undefined' };
const UNKNOWN_KEY = { path: '', message: 'Unrecognized key: "colour"' };
const validSku = { name: 'T-shirt', merchant_sku_id: 'TS-1' };

function requestIssues(schema: z.core.$ZodType, value: unknown) {
  try {
    validateRequest(schema, value);
  } catch (error) {
    if (error instanceof RequestValidationError) return error.issues;
    throw error;
  }
  throw new Error('expected a RequestValidationError');
}

function responseIssues(schema: z.core.$ZodType, body: unknown) {
  try {
    parseResponse(schema, body, 'lenient');
  } catch (error) {
    if (error instanceof ResponseValidationError) return error.issues;
    throw error;
  }
  throw new Error('expected a ResponseValidationError');
}

let saved: Pick<z.core.$ZodConfig, 'localeError' | 'customError'>;
beforeEach(() => {
  const { localeError, customError } = z.config();
  saved = { localeError, customError };
  // As in an app that loads only the SDK: no locale, no custom map (classic zod would set English).
  z.config({ localeError: undefined, customError: undefined });
});
afterEach(() => {
  z.config(saved);
});

describe('messages without a global zod locale', () => {
  it('a request is reported in English, compiled or not', () => {
    const bad = { ...validSku, colour: 'red' };
    expect(requestIssues(SkuCreateParamsSchema, bad)).toEqual([UNKNOWN_KEY]);
    expect(requestIssues(compiled(SkuCreateParamsSchema), bad)).toEqual([UNKNOWN_KEY]);
    expect(z.config().localeError).toBeUndefined();
  });

  it('a response is reported in English, compiled or not', () => {
    expect(responseIssues(WarehouseSchema, { name: 'Berlin' })).toEqual([MISSING_ID]);
    expect(responseIssues(compiled(WarehouseSchema), { name: 'Berlin' })).toEqual([MISSING_ID]);
    const order = { ...orderFixture, items: [{ ...orderFixture.items[0], quantity: 'two' }] };
    const expected = [
      { path: 'items[0].quantity', message: 'Invalid input: expected number, received string' },
    ];
    expect(responseIssues(OrderSchema, order)).toEqual(expected);
    expect(responseIssues(compiled(OrderSchema), order)).toEqual(expected);
  });

  it('the client reports a bad request and a bad response in English', async () => {
    const client = new FulfillmentClient({
      apiToken: 'tok_messages',
      baseUrl: 'https://fulfillment.test',
      logLevel: 'off',
      maxRetries: 0,
      fetch: async () =>
        new Response(JSON.stringify([{ name: 'Berlin' }]), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    });
    const sent = await client.skus
      .create({ ...validSku, colour: 'red' } as typeof validSku)
      .catch((e: unknown) => e);
    expect(sent).toBeInstanceOf(RequestValidationError);
    expect((sent as RequestValidationError).issues).toEqual([UNKNOWN_KEY]);
    const read = await client.warehouses.list().catch((e: unknown) => e);
    expect(read).toBeInstanceOf(ResponseValidationError);
    expect((read as ResponseValidationError).issues).toEqual([{ ...MISSING_ID, path: '[0].id' }]);
  });

  it('a webhook payload is reported in English', async () => {
    const body = JSON.stringify({ id: 'seven' });
    const error = await verifyWebhook({
      body,
      headers: await createWebhookHeaders({ body, secret: 'tok_messages' }),
      secret: 'tok_messages',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('id: Invalid input: expected number, received string');
  });

  it("the app's zod configuration comes first; the SDK's own messages stay", () => {
    z.config({ localeError: (issue) => `locale: ${issue.code}` });
    expect(responseIssues(compiled(WarehouseSchema), {})).toEqual([
      { path: 'id', message: 'locale: invalid_type' },
    ]);
    z.config({ customError: (issue) => (issue.code === 'unrecognized_keys' ? 'custom' : undefined) });
    expect(requestIssues(compiled(SkuCreateParamsSchema), { ...validSku, colour: 1 })).toEqual([
      { path: '', message: 'custom' },
    ]);
    expect(requestIssues(SkuCreateParamsSchema, { ...validSku, hs_code: 5 })).toEqual([
      { path: 'hs_code', message: 'expected string' },
    ]);
  });

  it('no module of the SDK configures zod globally (its messages travel with each parse)', () => {
    const root = new URL('../../src/', import.meta.url);
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const code = readFileSync(new URL(file, root), 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
      expect(code.join('\n'), file).not.toMatch(/\bconfig\(\s*[^)\s]/);
    }
  });
});

describe('an unknown field of a request', () => {
  it('is followed by the known field it most likely meant, at any depth', () => {
    const schema = z.strictObject({
      shipping_address: z.optional(z.strictObject({ postal_code: z.string() })),
      items: z.array(z.strictObject({ quantity: z.number() })),
    });
    const error = (() => {
      try {
        validateRequest(schema, { shiping_address: {}, items: [{ quantiy: 1, quantity: 1 }] });
      } catch (e) {
        return e as { issues: { path: string; message: string }[] };
      }
    })();
    expect(error?.issues).toEqual([
      { path: 'items[0]', message: 'Unrecognized key: "quantiy" (did you mean "quantity"?)' },
      { path: '', message: 'Unrecognized key: "shiping_address" (did you mean "shipping_address"?)' },
    ]);
  });

  it('without a close known field keeps the plain message', () => {
    expect(() => validateRequest(z.strictObject({ name: z.string() }), { name: 'a', colour: 'red' })).toThrow(
      /Unrecognized key: "colour"$/,
    );
  });
});
