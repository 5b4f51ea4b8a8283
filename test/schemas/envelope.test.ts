import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ErrorBodySchema, listEnvelopeSchema, PaginationSchema } from '../../src/schemas/envelope.js';
import { parseKnown, responseIssues } from './helpers.js';

const NumbersPageSchema = listEnvelopeSchema(z.looseObject({ id: z.number() }));

describe('PaginationSchema', () => {
  it('accepts the page-number style', () => {
    const p = { current_page: 1, page_count: 7, item_count: 131, items_per_page: 20 };
    expect(parseKnown(PaginationSchema, p)).toEqual(p);
  });

  it('accepts the cursor style, null next_page_url included', () => {
    const p = {
      first_page_url: 'https://api.example.com/merchant_api/v2/restocking_shipments?limit=20',
      next_page_url: null,
      limit: 20,
    };
    expect(parseKnown(PaginationSchema, p)).toEqual(p);
  });

  it('keeps unknown keys and accepts an empty object', () => {
    expect(parseKnown(PaginationSchema, {})).toEqual({});
    expect(parseKnown(PaginationSchema, { total_pages: 3 })).toEqual({ total_pages: 3 });
  });

  it('rejects wrong types', () => {
    expect(
      responseIssues(PaginationSchema, { current_page: '1', next_page_url: 5 }).map((i) => i.path),
    ).toEqual(['current_page', 'next_page_url']);
  });
});

describe('listEnvelopeSchema', () => {
  it('parses data with the item schema and tolerates a missing or null pagination', () => {
    expect(parseKnown(NumbersPageSchema, { data: [{ id: 1 }] })).toEqual({ data: [{ id: 1 }] });
    expect(parseKnown(NumbersPageSchema, { data: [], pagination: null, meta: 1 })).toEqual({
      data: [],
      pagination: null,
      meta: 1,
    });
  });

  it('reports item problems by index and rejects a bare array', () => {
    expect(responseIssues(NumbersPageSchema, { data: [{ id: 1 }, { id: 'x' }] }).map((i) => i.path)).toEqual([
      'data[1].id',
    ]);
    expect(responseIssues(NumbersPageSchema, [{ id: 1 }]).map((i) => i.path)).toEqual(['']);
  });
});

describe('ErrorBodySchema', () => {
  it.each([
    { success: false, errors: ['authentication required'] },
    { success: false, errors: ["Name can't be blank", "Merchant sku can't be blank"] },
    { error: 'Bad gateway' },
    { message: 'Too many requests', retry_in: 3 },
    {},
  ])('accepts %j', (body) => {
    expect(parseKnown(ErrorBodySchema, body)).toEqual(body);
  });

  it('rejects errors that are not strings', () => {
    expect(responseIssues(ErrorBodySchema, { errors: [{ code: 1 }] }).map((i) => i.path)).toEqual([
      'errors[0]',
    ]);
  });
});
