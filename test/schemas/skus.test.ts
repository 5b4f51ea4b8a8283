import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { parseResponse, validateRequest } from '../../src/core/validation.js';
import { listEnvelopeSchema } from '../../src/schemas/envelope.js';
import {
  SkuBulkUpsertItemSchema,
  SkuBulkUpsertParamsSchema,
  SkuCreateParamsSchema,
  SkuInventoryBatchSchema,
  SkuListParamsSchema,
  SkuSchema,
  SkuUpdateParamsSchema,
} from '../../src/schemas/skus.js';
import {
  skuFixture,
  skuListPageFixture,
  skuMinimalFixture,
  skuMinimalParsed,
  skuWithNullsFixture,
} from '../fixtures/skus.js';
import { clone, parseKnown, requestIssues, responseIssues, strictIssues } from './helpers.js';

const SkuPageSchema = listEnvelopeSchema(SkuSchema);

describe('SkuSchema (response)', () => {
  it('parses a full SKU leniently, keeping unknown keys and unknown enum values', () => {
    const sku = parseResponse(SkuSchema, skuFixture, 'lenient');
    expect(sku.id).toBe(48213);
    expect(sku.customs_description).toBe('Kerosene');
    expect(sku.fulfilled_by).toBe('partner');
    expect(sku.inventory).toEqual({ reserved: 12, stocked: 230, total: 242 });
    expect(sku.inventory_per_warehouse?.[1]).toEqual({
      warehouse_id: 7,
      reserved: 2,
      stocked: 30,
      total: 32,
      zone: 'B',
    });
    expect(sku.inventory_batches?.[0]?.stocked_quantities).toEqual({ warehouse_id: 3, quantity: 120 });
    expect(sku.inventory_batches?.[1]?.stocked_quantities).toHaveLength(2);
  });

  it('normalises un_numbers into un_names and cost_in_cent into cost_in_cents, keeping the originals', () => {
    const sku = parseResponse(SkuSchema, skuFixture, 'lenient');
    expect(sku.un_names).toEqual(['UN1223']);
    expect(sku.un_numbers).toEqual(['UN1223']);
    expect(sku.cost_in_cents).toBe(349);
    expect(sku.cost_in_cent).toBe(349);
  });

  it('does not overwrite documented fields with the quirky ones', () => {
    const body = {
      ...skuMinimalFixture,
      un_names: ['UN1993'],
      un_numbers: ['UN1223'],
      cost_in_cents: 5,
      cost_in_cent: 9,
    };
    const sku = SkuSchema.parse(body);
    expect(sku.un_names).toEqual(['UN1993']);
    expect(sku.cost_in_cents).toBe(5);
  });

  it('fills un_names when it is null but un_numbers is set', () => {
    const sku = SkuSchema.parse({ ...skuMinimalFixture, un_names: null, un_numbers: ['UN1263'] });
    expect(sku.un_names).toEqual(['UN1263']);
  });

  it('fills every field that may have no value with null, and un_names with an empty list', () => {
    expect(SkuSchema.parse(skuMinimalFixture)).toEqual(skuMinimalParsed);
    expect(SkuSchema.parse(skuMinimalFixture)).not.toHaveProperty('un_numbers');
  });

  it('does not mutate the input body', () => {
    const body = clone(skuFixture);
    parseResponse(SkuSchema, body, 'lenient');
    expect(body).toEqual(skuFixture);
    expect(body).not.toHaveProperty('un_names');
  });

  it('accepts null on every field that may have no value, and an unknown status in lenient mode', () => {
    const sku = parseResponse(SkuSchema, skuWithNullsFixture, 'lenient');
    expect(sku.status).toBe('archived');
    expect(sku.merchant_sku_id).toBeNull();
    expect(sku.un_names).toEqual([]);
  });

  it('accepts a SKU with only what every answer carries', () => {
    expect(parseResponse(SkuSchema, skuMinimalFixture, 'lenient')).toEqual(skuMinimalParsed);
  });

  it.each([
    ['inventory', null],
    ['inventory', undefined],
    ['fulfilled_by', null],
    ['dangerous_good', null],
    ['created_at', undefined],
    ['inventory_batches', null],
  ])('refuses %s = %s: the type promises it, so the SDK never hands back a lie', (field, value) => {
    const body: Record<string, unknown> = { ...skuMinimalFixture, [field]: value };
    if (value === undefined) delete body[field];
    expect(responseIssues(SkuSchema, body).map((i) => i.path)).toEqual([field]);
  });

  it('rejects unknown enum values in strict mode, with their paths', () => {
    expect(strictIssues(SkuSchema, skuFixture)).toEqual([
      { path: 'fulfilled_by', message: "expected one of 'service', 'other', 'new'" },
    ]);
    expect(strictIssues(SkuSchema, skuWithNullsFixture)).toEqual([
      { path: 'status', message: "expected one of 'active', 'deleted'" },
    ]);
  });

  it('accepts known enum values in strict mode', () => {
    const body = { ...skuFixture, fulfilled_by: 'service' };
    expect(parseKnown(SkuSchema, body).fulfilled_by).toBe('service');
  });

  it('does not leave strict mode switched on after a strict parse', () => {
    expect(() => parseKnown(SkuSchema, skuWithNullsFixture)).toThrow();
    expect(parseResponse(SkuSchema, skuWithNullsFixture, 'lenient').status).toBe('archived');
  });

  it.each([
    ['id as a string', { id: '48213' }, 'id'],
    ['status as a number', { status: 1 }, 'status'],
    ['name missing', { name: undefined }, 'name'],
    ['name null', { name: null }, 'name'],
    ['status missing', { status: undefined }, 'status'],
    ['weight as a string', { weight_in_kg: '0.5' }, 'weight_in_kg'],
    ['un_names as a string', { un_names: 'UN1223' }, 'un_names'],
    ['inventory figure as a string', { inventory: { reserved: '1' } }, 'inventory.reserved'],
    [
      'warehouse row without warehouse_id',
      { inventory_per_warehouse: [{ stocked: 1 }] },
      'inventory_per_warehouse[0].warehouse_id',
    ],
    ['batch without id', { inventory_batches: [{ name: 'x' }] }, 'inventory_batches[0].id'],
  ])('rejects %s even in lenient mode', (_label, patch, path) => {
    const issues = responseIssues(SkuSchema, { ...skuMinimalFixture, ...patch });
    expect(issues.map((i) => i.path)).toContain(path);
  });

  it('accepts stocked_quantities as one object or an array, and rejects other shapes', () => {
    const batch = { id: 1, stocked_quantities: { warehouse_id: 3, quantity: 1 } };
    expect(SkuInventoryBatchSchema.safeParse(batch).success).toBe(true);
    expect(SkuInventoryBatchSchema.safeParse({ ...batch, stocked_quantities: [] }).success).toBe(true);
    expect(SkuInventoryBatchSchema.safeParse({ ...batch, stocked_quantities: 5 }).success).toBe(false);
  });

  it('parses a page of SKUs with quirks normalised on every item', () => {
    const page = parseResponse(SkuPageSchema, skuListPageFixture, 'lenient');
    expect(page.data).toHaveLength(3);
    expect(page.data[0]?.un_names).toEqual(['UN1223']);
    expect(page.pagination?.page_count).toBe(7);
  });

  it('gives the same result through the compiled fast path and the runtime parser', () => {
    expect(z.compile(SkuSchema).parse(skuFixture)).toEqual(SkuSchema.parse(skuFixture));
  });
});

describe('SkuCreateParamsSchema', () => {
  const valid = { name: 'Lamp oil 500 ml', merchant_sku_id: 'LAMP-OIL-500' };

  it('accepts a full body and sends it unchanged', () => {
    const body = {
      ...valid,
      cost_in_cents: 349,
      country_code_of_origin: 'DE',
      hs_code: '27101981',
      weight_in_kg: 0.56,
      image_url: 'https://cdn.example.com/x.jpg',
      barcode: '4006381333931',
      batch_tracking_enabled: true,
    };
    expect(validateRequest(SkuCreateParamsSchema, body)).toEqual(body);
  });

  it('refuses unknown keys', () => {
    expect(() => validateRequest(SkuCreateParamsSchema, { ...valid, wieght_in_kg: 1 })).toThrow(
      /wieght_in_kg/,
    );
  });

  it('says required for missing name and merchant_sku_id', () => {
    expect(requestIssues(SkuCreateParamsSchema, {})).toEqual([
      { path: 'name', message: 'required' },
      { path: 'merchant_sku_id', message: 'required' },
    ]);
  });

  it('rejects empty required strings', () => {
    expect(requestIssues(SkuCreateParamsSchema, { name: '', merchant_sku_id: 'X' })).toEqual([
      { path: 'name', message: 'must not be empty' },
    ]);
  });

  it('lists every bad field with a readable message', () => {
    const issues = requestIssues(SkuCreateParamsSchema, {
      name: 5,
      merchant_sku_id: 'X',
      cost_in_cents: 3.5,
      country_code_of_origin: 'DEU',
      weight_in_kg: '0.5',
      batch_tracking_enabled: 'yes',
    });
    expect(issues).toEqual([
      { path: 'name', message: 'expected string' },
      { path: 'cost_in_cents', message: 'expected integer' },
      { path: 'country_code_of_origin', message: 'expected a 2-letter code' },
      { path: 'weight_in_kg', message: 'expected number' },
      { path: 'batch_tracking_enabled', message: 'expected boolean' },
    ]);
  });

  it('does not accept a digit string for cost_in_cents on create', () => {
    expect(requestIssues(SkuCreateParamsSchema, { ...valid, cost_in_cents: '349' })).toEqual([
      { path: 'cost_in_cents', message: 'expected integer' },
    ]);
  });
});

describe('SkuUpdateParamsSchema (PATCH and PUT)', () => {
  it('accepts an empty body', () => {
    expect(validateRequest(SkuUpdateParamsSchema, {})).toEqual({});
  });

  it('accepts cost_in_cents as a digit string and weight_in_kg as a numeric string, sent as given', () => {
    const body = { cost_in_cents: '349', weight_in_kg: '0.56' };
    expect(validateRequest(SkuUpdateParamsSchema, body)).toEqual(body);
    expect(validateRequest(SkuUpdateParamsSchema, { cost_in_cents: 349, weight_in_kg: 2 })).toEqual({
      cost_in_cents: 349,
      weight_in_kg: 2,
    });
  });

  it.each([
    ['cost_in_cents', '3.49', 'expected integer or a string of digits'],
    ['cost_in_cents', '-1', 'expected integer or a string of digits'],
    ['cost_in_cents', 3.49, 'expected integer or a string of digits'],
    ['weight_in_kg', 'heavy', 'expected number or a numeric string'],
    ['weight_in_kg', true, 'expected number or a numeric string'],
    ['batch_tracking_enabled', 'false', 'expected boolean or null'],
    ['name', '', 'must not be empty'],
  ])('rejects %s = %j', (path, value, message) => {
    expect(requestIssues(SkuUpdateParamsSchema, { [path]: value })).toEqual([{ path, message }]);
  });

  it('accepts batch_tracking_enabled null (leaves it unchanged)', () => {
    expect(validateRequest(SkuUpdateParamsSchema, { batch_tracking_enabled: null })).toEqual({
      batch_tracking_enabled: null,
    });
  });
});

describe('SkuBulkUpsertItemSchema / SkuBulkUpsertParamsSchema', () => {
  it('requires only name and merchant_sku_id on each item', () => {
    expect(validateRequest(SkuBulkUpsertItemSchema, { name: 'A', merchant_sku_id: 'A' })).toEqual({
      name: 'A',
      merchant_sku_id: 'A',
    });
    expect(requestIssues(SkuBulkUpsertItemSchema, { name: 'A' })).toEqual([
      { path: 'merchant_sku_id', message: 'required' },
    ]);
  });

  it('reports item issues with their index', () => {
    const issues = requestIssues(SkuBulkUpsertParamsSchema, {
      skus: [{ name: 'A', merchant_sku_id: 'A' }, { name: 'B' }],
    });
    expect(issues).toEqual([{ path: 'skus[1].merchant_sku_id', message: 'required' }]);
  });

  it('accepts 1 to 100 SKUs', () => {
    const sku = { name: 'A', merchant_sku_id: 'A' };
    expect(requestIssues(SkuBulkUpsertParamsSchema, { skus: [] })).toEqual([
      { path: 'skus', message: 'expected at least 1 SKU' },
    ]);
    expect(requestIssues(SkuBulkUpsertParamsSchema, { skus: Array(101).fill(sku) })).toEqual([
      { path: 'skus', message: 'expected at most 100 SKUs' },
    ]);
    expect(validateRequest(SkuBulkUpsertParamsSchema, { skus: Array(100).fill(sku) }).skus).toHaveLength(100);
    expect(requestIssues(SkuBulkUpsertParamsSchema, {})).toEqual([{ path: 'skus', message: 'required' }]);
  });
});

describe('SkuListParamsSchema', () => {
  it('accepts the documented filters and keeps Dates as given', () => {
    const gte = new Date('2025-01-01T00:00:00Z');
    const params = {
      merchant_sku_ids: ['A', 'B'],
      created_at: { gte, lt: '2025-02-01' },
      limit: 50,
      page: 2,
    };
    const out = validateRequest(SkuListParamsSchema, params);
    expect(out).toEqual(params);
    expect(out.created_at?.gte).toBe(gte);
  });

  it('rejects bad filters', () => {
    expect(
      requestIssues(SkuListParamsSchema, {
        merchant_sku_ids: 'A',
        created_at: { gte: 'yesterday', lt: new Date('nope') },
        limit: 0,
        page: 1.5,
      }),
    ).toEqual([
      { path: 'merchant_sku_ids', message: 'expected array of strings' },
      { path: 'created_at.gte', message: 'expected a Date or an ISO 8601 date-time string' },
      { path: 'created_at.lt', message: 'expected a Date or an ISO 8601 date-time string' },
      { path: 'limit', message: 'expected integer > 0' },
      { path: 'page', message: 'expected integer' },
    ]);
  });
});
