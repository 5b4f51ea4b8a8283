import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { validateRequest } from '../../src/core/validation.js';
import { listEnvelopeSchema } from '../../src/schemas/envelope.js';
import { WarehouseListParamsSchema, WarehouseSchema } from '../../src/schemas/warehouses.js';
import { warehouseListPageFixture, warehousesFixture } from '../fixtures/warehouses.js';
import { parseKnown, requestIssues, responseIssues } from './helpers.js';

const WarehousePageSchema = listEnvelopeSchema(WarehouseSchema);

describe('WarehouseSchema (response)', () => {
  it('keeps every undocumented field', () => {
    expect(parseKnown(z.array(WarehouseSchema), warehousesFixture)).toEqual(warehousesFixture);
    expect(parseKnown(WarehousePageSchema, warehouseListPageFixture)).toEqual(warehouseListPageFixture);
  });

  it('requires an integer-typed id', () => {
    expect(responseIssues(WarehouseSchema, { name: 'Berlin' })).toEqual([
      { path: 'id', message: 'Invalid input: expected number, received undefined' },
    ]);
    expect(responseIssues(WarehouseSchema, { id: '3' }).map((i) => i.path)).toEqual(['id']);
  });
});

describe('WarehouseListParamsSchema', () => {
  it('accepts limit and page', () => {
    expect(validateRequest(WarehouseListParamsSchema, { limit: 20, page: 2 })).toEqual({
      limit: 20,
      page: 2,
    });
    expect(requestIssues(WarehouseListParamsSchema, { limit: '20' })).toEqual([
      { path: 'limit', message: 'expected integer' },
    ]);
  });
});
