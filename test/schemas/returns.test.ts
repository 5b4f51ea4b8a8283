import { describe, expect, it } from 'vitest';
import { parseResponse, validateRequest } from '../../src/core/validation.js';
import { ReturnListParamsSchema, ReturnSchema } from '../../src/schemas/returns.js';
import { returnFixture, returnOnTheWayFixture } from '../fixtures/returns.js';
import { parseKnown, requestIssues, responseIssues, strictIssues } from './helpers.js';

describe('ReturnSchema (response)', () => {
  it('parses a handled return with announced items, handled items, photos and the order', () => {
    const ret = parseKnown(ReturnSchema, returnFixture);
    expect(ret.order).toEqual({ id: 1204577, merchant_order_id: 'A-1001', customer_order_number: '#1001' });
    expect(ret.photos?.[0]?.photo_type).toBe('parcel');
    expect(ret.return_items?.[0]?.customer_return_message).toBe('Bottle was leaking');
    const line = ret.return_line_items?.[0];
    expect(line?.condition).toBe('C');
    expect(line?.return_item_id).toBe(301);
    expect(line?.photos?.[0]?.id).toBe(56);
  });

  it('accepts a null return_reason and an empty return_reason_type, even in strict mode', () => {
    const ret = parseKnown(ReturnSchema, returnOnTheWayFixture);
    expect(ret.return_reason).toBeNull();
    expect(ret.return_reason_type).toBe('');
    const empty = parseKnown(ReturnSchema, { ...returnOnTheWayFixture, return_reason: '' });
    expect(empty.return_reason).toBe('');
  });

  it('keeps unknown status, reason and condition values in lenient mode and rejects them in strict mode', () => {
    const body = {
      ...returnFixture,
      status: 'disputed',
      return_reason: 'wrong_item',
      return_reason_type: 'mixed',
      return_line_items: [{ ...returnFixture.return_line_items[0], condition: 'D' }],
    };
    const ret = parseResponse(ReturnSchema, body, 'lenient');
    expect([
      ret.status,
      ret.return_reason,
      ret.return_reason_type,
      ret.return_line_items?.[0]?.condition,
    ]).toEqual(['disputed', 'wrong_item', 'mixed', 'D']);
    expect(strictIssues(ReturnSchema, body).map((i) => i.path)).toEqual([
      'status',
      'return_reason',
      'return_reason_type',
      'return_line_items[0].condition',
    ]);
  });

  it.each([
    ['id as a string', { id: '7781' }, 'id'],
    ['status as a number', { status: 1 }, 'status'],
    ['order without id', { order: { merchant_order_id: 'A-1001' } }, 'order.id'],
    ['photo id as a string', { photos: [{ id: '55' }] }, 'photos[0].id'],
    [
      'return item quantity as a string',
      { return_items: [{ id: 1, quantity: '1' }] },
      'return_items[0].quantity',
    ],
    [
      'condition as a number',
      { return_line_items: [{ id: 1, condition: 1 }] },
      'return_line_items[0].condition',
    ],
  ])('rejects %s', (_label, patch, path) => {
    expect(responseIssues(ReturnSchema, { ...returnFixture, ...patch }).map((i) => i.path)).toContain(path);
  });
});

describe('ReturnListParamsSchema', () => {
  it('accepts limit, page and created_at', () => {
    const params = { limit: 100, page: 1, created_at: { lt: new Date('2025-03-01T00:00:00Z') } };
    expect(validateRequest(ReturnListParamsSchema, params)).toEqual(params);
  });

  it('rejects a zero page', () => {
    expect(requestIssues(ReturnListParamsSchema, { page: 0 })).toEqual([
      { path: 'page', message: 'expected integer > 0' },
    ]);
  });
});
