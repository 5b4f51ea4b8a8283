import { describe, expect, it } from 'vitest';
import { parseResponse, validateRequest } from '../../src/core/validation.js';
import {
  AddressParamsSchema,
  OrderCreateParamsSchema,
  OrderItemParamsSchema,
  OrderListParamsSchema,
  OrderRetrieveParamsSchema,
  OrderSchema,
  OrderUpdateParamsSchema,
} from '../../src/schemas/orders.js';
import { orderCreateParamsFixture, orderFixture } from '../fixtures/orders.js';
import { clone, parseKnown, requestIssues, responseIssues, strictIssues } from './helpers.js';

describe('OrderSchema (response)', () => {
  it('parses an order with items, batches and address, keeping unknown keys', () => {
    const order = parseKnown(OrderSchema, orderFixture);
    expect(order.shipping_method).toBe('standard');
    expect(order.items[0]?.batches?.[0]).toEqual({
      name: 'L-2024-11',
      tracking_code: 'LOT24110',
      expiry_date: '2027-11-30',
      quantity: 1,
    });
    expect(order.items[1]?.merchant_item_id).toBeNull();
    expect(order.items[1]?.batches).toBeUndefined();
    expect(order.shipping_address.company).toBeNull();
    expect(order.custom_metadata).toEqual({ channel: 'web', campaign: { id: 7 } });
  });

  it('keeps unknown status and financial_status values in lenient mode, rejects them in strict mode', () => {
    const body = { ...orderFixture, status: 'on_hold', financial_status: 'partially_refunded' };
    const order = parseResponse(OrderSchema, body, 'lenient');
    expect(order.status).toBe('on_hold');
    expect(order.financial_status).toBe('partially_refunded');
    expect(strictIssues(OrderSchema, body)).toEqual([
      { path: 'financial_status', message: "expected one of 'paid', 'refunded', 'pending', 'failed'" },
      { path: 'status', message: "expected one of 'fulfillable', 'unfulfillable', 'fulfilled'" },
    ]);
  });

  it('accepts null on optional fields', () => {
    const body = {
      ...orderFixture,
      customer_order_number: null,
      carrier_preference: null,
      tags: null,
      custom_metadata: null,
      financial_status: null,
      payment_method: null,
      total_price_in_cents: null,
    };
    expect(parseKnown(OrderSchema, body).tags).toBeNull();
  });

  it('fills what the spec defaults when the API leaves it out: currency EUR, unit price 0, nulls', () => {
    const { currency: _c, customer_order_number: _n, ...rest } = orderFixture;
    const items = rest.items.map(({ price_per_unit_in_cents: _p, ...item }) => item);
    const order = parseKnown(OrderSchema, { ...rest, items });
    expect(order.currency).toBe('EUR');
    expect(order.customer_order_number).toBeNull();
    expect(order.items.map((i) => i.price_per_unit_in_cents)).toEqual(items.map(() => 0));
  });

  it.each([
    ['id as a string', { id: '1204577' }, 'id'],
    ['status as a number', { status: 2 }, 'status'],
    ['items missing', { items: undefined }, 'items'],
    ['shipping_address null', { shipping_address: null }, 'shipping_address'],
    ['item quantity missing', { items: [{ merchant_item_id: 'x' }] }, 'items[0].quantity'],
    [
      'address city missing',
      { shipping_address: { ...orderFixture.shipping_address, city: undefined } },
      'shipping_address.city',
    ],
    [
      'batch quantity as a string',
      { items: [{ quantity: 1, batches: [{ quantity: '1' }] }] },
      'items[0].batches[0].quantity',
    ],
    ['tags as a string', { tags: 'vip' }, 'tags'],
  ])('rejects %s', (_label, patch, path) => {
    expect(responseIssues(OrderSchema, { ...orderFixture, ...patch }).map((i) => i.path)).toContain(path);
  });
});

describe('AddressParamsSchema', () => {
  const address = orderCreateParamsFixture.shipping_address;

  it('accepts an address with only last_name', () => {
    expect(validateRequest(AddressParamsSchema, address)).toEqual(address);
  });

  it('requires first_name or last_name, reporting on first_name', () => {
    const { last_name: _, ...noName } = address;
    expect(requestIssues(AddressParamsSchema, noName)).toEqual([
      { path: 'first_name', message: 'first_name or last_name is required' },
    ]);
    expect(requestIssues(AddressParamsSchema, { ...noName, first_name: ' ', last_name: '' })).toEqual([
      { path: 'first_name', message: 'first_name or last_name is required' },
    ]);
  });

  it('lists every problem at once, the name rule included', () => {
    expect(
      requestIssues(AddressParamsSchema, { country_code: 'NLD', province_or_state_code: 'North' }),
    ).toEqual([
      { path: 'full_name', message: 'required' },
      { path: 'line1', message: 'required' },
      { path: 'city', message: 'required' },
      { path: 'postal_code', message: 'required' },
      { path: 'country_code', message: 'expected a 2-letter code' },
      { path: 'province_or_state_code', message: 'expected a 2-letter code' },
      { path: 'first_name', message: 'first_name or last_name is required' },
    ]);
  });

  it('says required for a missing address and expected object for another type', () => {
    expect(requestIssues(AddressParamsSchema, undefined)).toEqual([{ path: '', message: 'required' }]);
    expect(requestIssues(AddressParamsSchema, 'Damrak 1')).toEqual([
      { path: '', message: 'expected object' },
    ]);
  });
});

describe('OrderItemParamsSchema', () => {
  it('requires sku_id or merchant_sku_id', () => {
    expect(
      requestIssues(OrderItemParamsSchema, {
        merchant_item_id: 'x',
        quantity: 1,
        price_per_unit_in_cents: 0,
      }),
    ).toEqual([{ path: 'sku_id', message: 'sku_id or merchant_sku_id is required' }]);
  });

  it('does not repeat the sku rule when sku_id has the wrong type', () => {
    expect(
      requestIssues(OrderItemParamsSchema, {
        merchant_item_id: 'x',
        sku_id: '5',
        quantity: 1,
        price_per_unit_in_cents: 0,
      }),
    ).toEqual([{ path: 'sku_id', message: 'expected integer' }]);
  });

  it('requires merchant_item_id, quantity and price_per_unit_in_cents', () => {
    expect(requestIssues(OrderItemParamsSchema, { sku_id: 1 })).toEqual([
      { path: 'merchant_item_id', message: 'required' },
      { path: 'quantity', message: 'required' },
      { path: 'price_per_unit_in_cents', message: 'required' },
    ]);
  });
});

describe('OrderCreateParamsSchema', () => {
  it('accepts a valid COD order and sends it unchanged', () => {
    expect(validateRequest(OrderCreateParamsSchema, orderCreateParamsFixture)).toEqual(
      orderCreateParamsFixture,
    );
  });

  it('sends a Date created_at as toISOString() and an ISO string as given', () => {
    const date = new Date(Date.UTC(2025, 0, 14, 8, 30));
    expect(
      validateRequest(OrderCreateParamsSchema, { ...orderCreateParamsFixture, created_at: date }).created_at,
    ).toBe('2025-01-14T08:30:00.000Z');
    const iso = '2025-01-14T09:30:00+01:00';
    expect(
      validateRequest(OrderCreateParamsSchema, { ...orderCreateParamsFixture, created_at: iso }).created_at,
    ).toBe(iso);
  });

  it('rejects an invalid created_at', () => {
    for (const created_at of [new Date('invalid'), '14/01/2025', 1736843400000]) {
      expect(requestIssues(OrderCreateParamsSchema, { ...orderCreateParamsFixture, created_at })).toEqual([
        { path: 'created_at', message: 'expected a Date or an ISO 8601 date-time string' },
      ]);
    }
  });

  it('says required for the required top-level fields', () => {
    expect(requestIssues(OrderCreateParamsSchema, {})).toEqual([
      { path: 'merchant_order_id', message: 'required' },
      { path: 'shipping_address', message: 'required' },
      { path: 'items', message: 'required' },
    ]);
  });

  it('needs at least one item', () => {
    expect(requestIssues(OrderCreateParamsSchema, { ...orderCreateParamsFixture, items: [] })).toEqual([
      { path: 'items', message: 'expected at least 1 item' },
    ]);
  });

  it('reports item problems by index', () => {
    const body = clone(orderCreateParamsFixture);
    const second = body.items[1] as Record<string, unknown>;
    second.quantity = 1.5;
    second.price_per_unit_in_cents = '100';
    expect(requestIssues(OrderCreateParamsSchema, body)).toEqual([
      { path: 'items[1].quantity', message: 'expected integer' },
      { path: 'items[1].price_per_unit_in_cents', message: 'expected integer' },
    ]);
    second.quantity = 0;
    second.price_per_unit_in_cents = 100;
    expect(requestIssues(OrderCreateParamsSchema, body)).toEqual([
      { path: 'items[1].quantity', message: 'expected integer > 0' },
    ]);
  });

  it('rejects a duplicate merchant_item_id on the duplicate', () => {
    const body = clone(orderCreateParamsFixture);
    body.items.push({ merchant_item_id: 'A-1002-1', sku_id: 1, quantity: 1, price_per_unit_in_cents: 5 });
    expect(requestIssues(OrderCreateParamsSchema, body)).toEqual([
      { path: 'items[2].merchant_item_id', message: 'duplicate merchant_item_id (same as items[0])' },
    ]);
  });

  it('lists item, address and order-level problems together', () => {
    const body = clone(orderCreateParamsFixture) as unknown as Record<string, unknown>;
    body.shipping_address = { ...orderCreateParamsFixture.shipping_address, last_name: undefined };
    body.items = [
      { merchant_item_id: 'x', quantity: 1, price_per_unit_in_cents: 1 },
      { merchant_item_id: 'x', sku_id: 2, quantity: -1, price_per_unit_in_cents: 1 },
    ];
    body.total_price_in_cents = undefined;
    expect(requestIssues(OrderCreateParamsSchema, body)).toEqual([
      { path: 'shipping_address.first_name', message: 'first_name or last_name is required' },
      { path: 'items[0].sku_id', message: 'sku_id or merchant_sku_id is required' },
      { path: 'items[1].quantity', message: 'expected integer > 0' },
      { path: 'items[1].merchant_item_id', message: 'duplicate merchant_item_id (same as items[0])' },
      {
        path: 'total_price_in_cents',
        message: 'required when payment_method is COD (the amount the carrier collects)',
      },
    ]);
  });

  it('keeps running the order rules after a non-integer quantity', () => {
    const body = clone(orderCreateParamsFixture) as unknown as Record<string, unknown>;
    body.items = [
      { merchant_item_id: 'x', sku_id: 1, quantity: 1.5, price_per_unit_in_cents: 1 },
      { merchant_item_id: 'x', sku_id: 2, quantity: -2.5, price_per_unit_in_cents: 1 },
    ];
    body.total_price_in_cents = 0;
    expect(requestIssues(OrderCreateParamsSchema, body)).toEqual([
      { path: 'items[0].quantity', message: 'expected integer' },
      { path: 'items[1].quantity', message: 'expected integer' },
      { path: 'items[1].merchant_item_id', message: 'duplicate merchant_item_id (same as items[0])' },
      { path: 'total_price_in_cents', message: 'expected integer > 0 when payment_method is COD' },
    ]);
  });

  describe('COD rule', () => {
    it.each(['COD', 'cod', 'Cash on delivery (COD)', 'cash_on_delivery_cod', 'Cod'])(
      'requires total_price_in_cents for payment_method %j',
      (payment_method) => {
        const { total_price_in_cents: _, ...body } = orderCreateParamsFixture;
        expect(requestIssues(OrderCreateParamsSchema, { ...body, payment_method })).toEqual([
          {
            path: 'total_price_in_cents',
            message: 'required when payment_method is COD (the amount the carrier collects)',
          },
        ]);
      },
    );

    it('requires total_price_in_cents > 0', () => {
      for (const total_price_in_cents of [0, -100]) {
        expect(
          requestIssues(OrderCreateParamsSchema, { ...orderCreateParamsFixture, total_price_in_cents }),
        ).toEqual([
          { path: 'total_price_in_cents', message: 'expected integer > 0 when payment_method is COD' },
        ]);
      }
    });

    it('does not add a COD issue on top of a type error', () => {
      expect(
        requestIssues(OrderCreateParamsSchema, {
          ...orderCreateParamsFixture,
          total_price_in_cents: '15.99',
        }),
      ).toEqual([{ path: 'total_price_in_cents', message: 'expected integer' }]);
    });

    it.each(['paypal', 'promo_code', 'credit_card'])(
      'does not apply to payment_method %j',
      (payment_method) => {
        const { total_price_in_cents: _, ...body } = orderCreateParamsFixture;
        expect(validateRequest(OrderCreateParamsSchema, { ...body, payment_method }).payment_method).toBe(
          payment_method,
        );
      },
    );
  });

  it('validates currency, financial_status, tags and custom_metadata', () => {
    const body = { ...orderCreateParamsFixture, currency: 'EURO', tags: ['a', 1], custom_metadata: 'x' };
    expect(requestIssues(OrderCreateParamsSchema, body)).toEqual([
      { path: 'tags[1]', message: 'expected string' },
      { path: 'custom_metadata', message: 'expected object' },
      { path: 'currency', message: 'expected a 3-letter currency code' },
    ]);
    // Closed on requests: a typo such as 'payed' is refused before it reaches the API.
    expect(
      requestIssues(OrderCreateParamsSchema, { ...orderCreateParamsFixture, financial_status: 'payed' }),
    ).toEqual([{ path: 'financial_status', message: 'expected one of paid, refunded, pending, failed' }]);
    expect(
      validateRequest(OrderCreateParamsSchema, { ...orderCreateParamsFixture, financial_status: 'paid' }),
    ).toMatchObject({
      financial_status: 'paid',
    });
  });

  it('refuses unknown keys (a typo never goes out silently)', () => {
    const body = { ...orderCreateParamsFixture, carrier_preferance: 'DHL' };
    expect(requestIssues(OrderCreateParamsSchema, body)).toEqual([
      { path: '', message: 'Unrecognized key: "carrier_preferance" (did you mean "carrier_preference"?)' },
    ]);
  });

  it('names an unknown key of the address or of an item at its path; a wrong type reads expected object', () => {
    const [item] = orderCreateParamsFixture.items;
    const body = {
      ...orderCreateParamsFixture,
      shipping_address: { ...orderCreateParamsFixture.shipping_address, zip: '1012' },
      items: [{ ...item, quantiy: 2 }, 'x', null],
    };
    expect(requestIssues(OrderCreateParamsSchema, body)).toEqual([
      { path: 'shipping_address', message: 'Unrecognized key: "zip"' },
      { path: 'items[0]', message: 'Unrecognized key: "quantiy" (did you mean "quantity"?)' },
      { path: 'items[1]', message: 'expected object' },
      { path: 'items[2]', message: 'expected object' },
    ]);
    expect(
      requestIssues(OrderCreateParamsSchema, { ...orderCreateParamsFixture, shipping_address: [] }),
    ).toEqual([{ path: 'shipping_address', message: 'expected object' }]);
  });
});

describe('OrderUpdateParamsSchema (PATCH)', () => {
  it('accepts an empty body and a partial address without names', () => {
    expect(validateRequest(OrderUpdateParamsSchema, {})).toEqual({});
    expect(validateRequest(OrderUpdateParamsSchema, { shipping_address: { line2: 'Apt 4' } })).toEqual({
      shipping_address: { line2: 'Apt 4' },
    });
  });

  it('still checks the types of the address fields', () => {
    expect(requestIssues(OrderUpdateParamsSchema, { shipping_address: { country_code: 'Germany' } })).toEqual(
      [{ path: 'shipping_address.country_code', message: 'expected a 2-letter code' }],
    );
  });

  it('checks each address field it is sent as the create body does, in the same order', () => {
    expect(
      requestIssues(OrderUpdateParamsSchema, {
        shipping_address: { phone: 1, line1: '', full_name: null },
      }),
    ).toEqual([
      { path: 'shipping_address.full_name', message: 'expected string' },
      { path: 'shipping_address.line1', message: 'must not be empty' },
      { path: 'shipping_address.phone', message: 'expected string' },
    ]);
  });

  it('requires merchant_item_id on each item, checks quantity and uniqueness', () => {
    expect(
      requestIssues(OrderUpdateParamsSchema, {
        items: [{ quantity: 2 }, { merchant_item_id: 'a', quantity: 0 }, { merchant_item_id: 'a' }],
      }),
    ).toEqual([
      { path: 'items[0].merchant_item_id', message: 'required' },
      { path: 'items[1].quantity', message: 'expected integer > 0' },
      { path: 'items[2].merchant_item_id', message: 'duplicate merchant_item_id (same as items[1])' },
    ]);
  });

  it('names an unknown key of the address or of an item at its path; a wrong type reads expected object', () => {
    expect(
      requestIssues(OrderUpdateParamsSchema, {
        shipping_address: { line2: 'Apt 4', zip: '1012' },
        items: [{ merchant_item_id: 'a', quantiy: 2 }, 7],
      }),
    ).toEqual([
      { path: 'shipping_address', message: 'Unrecognized key: "zip"' },
      { path: 'items[0]', message: 'Unrecognized key: "quantiy" (did you mean "quantity"?)' },
      { path: 'items[1]', message: 'expected object' },
    ]);
    expect(requestIssues(OrderUpdateParamsSchema, { shipping_address: 'Damrak 1' })).toEqual([
      { path: 'shipping_address', message: 'expected object' },
    ]);
  });

  it('does not require sku_id or merchant_sku_id on items', () => {
    expect(
      validateRequest(OrderUpdateParamsSchema, { items: [{ merchant_item_id: 'a', quantity: 3 }] }),
    ).toEqual({
      items: [{ merchant_item_id: 'a', quantity: 3 }],
    });
  });

  it('applies the COD rule only when a total is sent with a COD payment method', () => {
    expect(validateRequest(OrderUpdateParamsSchema, { payment_method: 'COD' })).toEqual({
      payment_method: 'COD',
    });
    expect(validateRequest(OrderUpdateParamsSchema, { total_price_in_cents: 0 })).toEqual({
      total_price_in_cents: 0,
    });
    expect(
      requestIssues(OrderUpdateParamsSchema, { payment_method: 'COD', total_price_in_cents: 0 }),
    ).toEqual([{ path: 'total_price_in_cents', message: 'expected integer > 0 when payment_method is COD' }]);
  });

  it('converts a Date created_at', () => {
    expect(validateRequest(OrderUpdateParamsSchema, { created_at: new Date(0) })).toEqual({
      created_at: '1970-01-01T00:00:00.000Z',
    });
  });
});

describe('OrderListParamsSchema / OrderRetrieveParamsSchema', () => {
  it('accepts include with known and unknown values, sent comma-joined', () => {
    expect(validateRequest(OrderRetrieveParamsSchema, { include: ['batches'] })).toEqual({
      include: 'batches',
    });
    expect(
      validateRequest(OrderListParamsSchema, { include: ['batches', 'serial_numbers'], limit: 5 }),
    ).toEqual({
      include: 'batches,serial_numbers',
      limit: 5,
    });
  });

  it('rejects a malformed include and created_at', () => {
    expect(requestIssues(OrderListParamsSchema, { include: 'batches', created_at: { gt: 5 } })).toEqual([
      { path: 'created_at.gt', message: 'expected a Date or an ISO 8601 date-time string' },
      { path: 'include', message: 'expected array of strings' },
    ]);
  });
});
