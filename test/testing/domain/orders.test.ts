/**
 * Order rules (`domain/orders.ts`): create, list, update, cancel, and the status machine.
 */
import { describe, expect, test } from 'vitest';
import { ADDRESS, createSku, manualClock, mockRequest, orderBody, testApi } from '../helpers.js';

const ORDERS = '/merchant_api/v1/orders';

describe('POST /orders', () => {
  test('creates a fulfillable order (201) with defaults', async () => {
    const api = testApi({ now: manualClock('2025-02-01T10:00:00.000Z').now });
    const skuId = await createSku(api, 'A');
    const answer = await mockRequest(
      api,
      'POST',
      ORDERS,
      orderBody('O-1', 'A', 2, { tags: ['vip'], custom_metadata: { x: 1 } }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      id: 1,
      merchant_order_id: 'O-1',
      status: 'fulfillable',
      currency: 'EUR',
      created_at: '2025-02-01T10:00:00.000Z',
      tags: ['vip'],
      custom_metadata: { x: 1 },
      items: [
        {
          id: 1,
          merchant_item_id: 'O-1-1',
          sku_id: skuId,
          merchant_sku_id: 'A',
          quantity: 2,
          price_per_unit_in_cents: 1000,
          price_per_unit_in_cents_with_discount: null,
        },
      ],
      shipping_address: {
        ...ADDRESS,
        company: null,
        line2: null,
        email: null,
        phone: null,
        parcel_point_id: null,
      },
    });
    expect(answer.body.items[0].batches).toBeUndefined();
  });

  test('items may refer to the SKU by sku_id; price defaults to 0', async () => {
    const api = testApi();
    const skuId = await createSku(api, 'A');
    const body = { ...orderBody('O-1', 'A'), items: [{ merchant_item_id: 'x', sku_id: skuId, quantity: 1 }] };
    const answer = await mockRequest(api, 'POST', ORDERS, body);
    expect(answer.status).toBe(201);
    expect(answer.body.items[0]).toMatchObject({
      sku_id: skuId,
      merchant_sku_id: 'A',
      price_per_unit_in_cents: 0,
    });
  });

  test('required fields', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'POST', ORDERS, {});
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      success: false,
      errors: ["Merchant order can't be blank", "Shipping address can't be blank", "Items can't be blank"],
    });
  });

  test('address fields and names', async () => {
    const api = testApi();
    await createSku(api, 'A');
    const answer = await mockRequest(api, 'POST', ORDERS, {
      ...orderBody('O-1', 'A'),
      shipping_address: { full_name: 'X', line1: '', country_code: 'Germany' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      'Shipping address country code is invalid',
      "Shipping address line1 can't be blank",
      "Shipping address city can't be blank",
      "Shipping address postal code can't be blank",
      "Shipping address country code can't be blank",
      'Shipping address first name or last name must be present',
    ]);
    const lastNameOnly = { ...ADDRESS, first_name: undefined, last_name: 'Lovelace' };
    expect(
      (await mockRequest(api, 'POST', ORDERS, { ...orderBody('O-2', 'A'), shipping_address: lastNameOnly }))
        .status,
    ).toBe(201);
  });

  test('items need an existing active SKU, a merchant_item_id and a positive quantity', async () => {
    const api = testApi();
    const deleted = await createSku(api, 'GONE');
    await mockRequest(api, 'DELETE', `/merchant_api/v1/skus/${deleted}`);
    const answer = await mockRequest(api, 'POST', ORDERS, {
      ...orderBody('O-1', 'A'),
      items: [
        { merchant_item_id: 'a', merchant_sku_id: 'NOPE', quantity: 1 },
        { merchant_item_id: 'b', sku_id: deleted, quantity: 1 },
        { merchant_item_id: 'c', quantity: 1 },
        { merchant_sku_id: 'NOPE', quantity: 0 },
      ],
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual(['Items sku must exist', "Items merchant item can't be blank"]);
    const zero = await mockRequest(api, 'POST', ORDERS, {
      ...orderBody('O-1', 'A'),
      items: [{ merchant_item_id: 'a', sku_id: deleted, quantity: 0 }],
    });
    expect(zero.body.errors).toEqual(['Items quantity must be greater than 0', 'Items sku must exist']);
  });

  test('merchant_item_id is unique within the order', async () => {
    const api = testApi();
    await createSku(api, 'A');
    const item = { merchant_item_id: 'same', merchant_sku_id: 'A', quantity: 1 };
    const answer = await mockRequest(api, 'POST', ORDERS, { ...orderBody('O-1', 'A'), items: [item, item] });
    expect(answer.body.errors).toEqual(['Items merchant item has already been taken']);
  });

  test('a duplicate merchant_order_id is taken', async () => {
    const api = testApi();
    await createSku(api, 'A');
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
    const answer = await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual(['Merchant order has already been taken']);
  });

  test('COD rule: payment_method containing COD needs total_price_in_cents > 0', async () => {
    const api = testApi();
    await createSku(api, 'A');
    for (const total of [undefined, 0]) {
      const answer = await mockRequest(
        api,
        'POST',
        ORDERS,
        orderBody('O-1', 'A', 1, { payment_method: 'COD', total_price_in_cents: total }),
      );
      expect(answer.status).toBe(422);
      expect(answer.body.errors).toEqual(['Total price in cents must be greater than 0']);
    }
    const lower = await mockRequest(
      api,
      'POST',
      ORDERS,
      orderBody('O-1', 'A', 1, { payment_method: 'paypal_cod' }),
    );
    expect(lower.body.errors).toEqual(['Total price in cents must be greater than 0']);
    const ok = await mockRequest(
      api,
      'POST',
      ORDERS,
      orderBody('O-1', 'A', 1, { payment_method: 'COD', total_price_in_cents: 1999 }),
    );
    expect(ok.status).toBe(201);
    const card = await mockRequest(api, 'POST', ORDERS, orderBody('O-2', 'A', 1, { payment_method: 'card' }));
    expect(card.status).toBe(201);
  });

  test('other field checks', async () => {
    const api = testApi();
    await createSku(api, 'A');
    const answer = await mockRequest(
      api,
      'POST',
      ORDERS,
      orderBody('O-1', 'A', 1, {
        financial_status: 'maybe',
        currency: 'euro',
        tags: 'vip',
        total_tax_in_cents: 1.5,
        created_at: 'soon',
      }),
    );
    expect(answer.body.errors).toEqual([
      'Tags is invalid',
      'Currency is invalid',
      'Financial status is not included in the list',
      'Total tax in cents must be an integer',
      'Created at is invalid',
    ]);
  });

  test('an order to a blocked country is unfulfillable', async () => {
    const api = testApi({ blockedCountries: ['ch'] });
    await createSku(api, 'A');
    const answer = await mockRequest(api, 'POST', ORDERS, {
      ...orderBody('O-1', 'A'),
      shipping_address: { ...ADDRESS, country_code: 'CH' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.status).toBe('unfulfillable');
  });

  test('created_at may be given; the list stays in creation-time order', async () => {
    const api = testApi();
    await createSku(api, 'A');
    await mockRequest(api, 'POST', ORDERS, orderBody('NEW', 'A'));
    await mockRequest(api, 'POST', ORDERS, orderBody('OLD', 'A', 1, { created_at: '2020-06-01T00:00:00Z' }));
    const list = await mockRequest(api, 'GET', ORDERS);
    expect(list.body.data.map((o: { merchant_order_id: string }) => o.merchant_order_id)).toEqual([
      'NEW',
      'OLD',
    ]);
    expect(list.body.data[1].created_at).toBe('2020-06-01T00:00:00.000Z');
    const filtered = await mockRequest(api, 'GET', `${ORDERS}?created_at[lt]=2024-01-01T00:00:00Z`);
    expect(filtered.body.data.map((o: { merchant_order_id: string }) => o.merchant_order_id)).toEqual([
      'OLD',
    ]);
  });
});

describe('GET /orders', () => {
  test('list envelope, newest first, and GET /orders/{id}', async () => {
    const api = testApi();
    await createSku(api, 'A');
    for (let i = 1; i <= 3; i++) await mockRequest(api, 'POST', ORDERS, orderBody(`O-${i}`, 'A'));
    const list = await mockRequest(api, 'GET', `${ORDERS}?limit=2&page=1`);
    expect(list.body.data.map((o: { id: number }) => o.id)).toEqual([3, 2]);
    expect(list.body.pagination).toEqual({
      current_page: 1,
      page_count: 2,
      item_count: 3,
      items_per_page: 2,
    });
    const one = await mockRequest(api, 'GET', `${ORDERS}/2`);
    expect(one.status).toBe(200);
    expect(one.body.merchant_order_id).toBe('O-2');
  });

  test('include=batches adds the batches to order items', async () => {
    const api = testApi();
    await createSku(api, 'A');
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
    for (const query of ['include=batches', 'include[]=batches', 'include=foo,batches']) {
      const one = await mockRequest(api, 'GET', `${ORDERS}/1?${query}`);
      expect(one.body.items[0].batches, query).toEqual([]);
      const list = await mockRequest(api, 'GET', `${ORDERS}?${query}`);
      expect(list.body.data[0].items[0].batches, query).toEqual([]);
    }
    expect(
      (await mockRequest(api, 'GET', `${ORDERS}/1?include=other`)).body.items[0].batches,
    ).toBeUndefined();
  });
});

describe('PATCH /orders/{id}', () => {
  test('changes sent fields, keeps the others, matches items by merchant_item_id', async () => {
    const api = testApi();
    await createSku(api, 'A');
    const b = await createSku(api, 'B');
    const created = await mockRequest(api, 'POST', ORDERS, {
      ...orderBody('O-1', 'A', 2),
      carrier_preference: 'DHL',
      items: [
        { merchant_item_id: 'i1', merchant_sku_id: 'A', quantity: 2, price_per_unit_in_cents: 500 },
        { merchant_item_id: 'i2', merchant_sku_id: 'A', quantity: 1, price_per_unit_in_cents: 700 },
      ],
    });
    const answer = await mockRequest(api, 'PATCH', `${ORDERS}/${created.body.id}`, {
      customer_order_number: 'C-9',
      shipping_address: { city: 'Hamburg' },
      items: [
        { merchant_item_id: 'i1', quantity: 5 },
        { merchant_item_id: 'i3', sku_id: b, quantity: 1 },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      customer_order_number: 'C-9',
      carrier_preference: 'DHL',
      shipping_address: { city: 'Hamburg', line1: ADDRESS.line1, first_name: 'Ada' },
    });
    expect(
      answer.body.items.map(
        (i: { id: number; merchant_item_id: string; quantity: number; price_per_unit_in_cents: number }) => [
          i.id,
          i.merchant_item_id,
          i.quantity,
          i.price_per_unit_in_cents,
        ],
      ),
    ).toEqual([
      [1, 'i1', 5, 500],
      [2, 'i2', 1, 700],
      [3, 'i3', 1, 0],
    ]);
  });

  test('validation on update: names, uniqueness, new items, COD', async () => {
    const api = testApi();
    await createSku(api, 'A');
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
    await mockRequest(api, 'POST', ORDERS, orderBody('O-2', 'A'));
    const names = await mockRequest(api, 'PATCH', `${ORDERS}/1`, {
      shipping_address: { first_name: null, last_name: '' },
    });
    expect(names.body.errors).toEqual(['Shipping address first name or last name must be present']);
    const taken = await mockRequest(api, 'PATCH', `${ORDERS}/1`, { merchant_order_id: 'O-2' });
    expect(taken.body.errors).toEqual(['Merchant order has already been taken']);
    const newItem = await mockRequest(api, 'PATCH', `${ORDERS}/1`, { items: [{ merchant_item_id: 'new' }] });
    expect(newItem.body.errors).toEqual(["Items quantity can't be blank", 'Items sku must exist']);
    const cod = await mockRequest(api, 'PATCH', `${ORDERS}/1`, { payment_method: 'COD' });
    expect(cod.body.errors).toEqual(['Total price in cents must be greater than 0']);
    expect(
      (await mockRequest(api, 'PATCH', `${ORDERS}/1`, { payment_method: 'COD', total_price_in_cents: 100 }))
        .status,
    ).toBe(200);
    expect(
      (await mockRequest(api, 'PATCH', `${ORDERS}/1`, { merchant_order_id: 'O-1b' })).body.merchant_order_id,
    ).toBe('O-1b');
    expect((await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'))).status).toBe(201);
  });

  test('a changed shipping country re-evaluates the status', async () => {
    const api = testApi({ blockedCountries: ['CH'] });
    await createSku(api, 'A');
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
    expect(
      (await mockRequest(api, 'PATCH', `${ORDERS}/1`, { shipping_address: { country_code: 'CH' } })).body
        .status,
    ).toBe('unfulfillable');
    expect(
      (await mockRequest(api, 'PATCH', `${ORDERS}/1`, { shipping_address: { country_code: 'AT' } })).body
        .status,
    ).toBe('fulfillable');
  });

  test('cancelled and fulfilled orders cannot be updated', async () => {
    const api = testApi();
    await createSku(api, 'A');
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
    await mockRequest(api, 'POST', ORDERS, orderBody('O-2', 'A'));
    await mockRequest(api, 'PUT', `${ORDERS}/1/cancel`);
    api.fulfillOrder(2);
    expect((await mockRequest(api, 'PATCH', `${ORDERS}/1`, { tags: [] })).body.errors).toEqual([
      'Order has been cancelled',
    ]);
    expect((await mockRequest(api, 'PATCH', `${ORDERS}/2`, { tags: [] })).body.errors).toEqual([
      'Order has already been fulfilled',
    ]);
  });
});

describe('order status machine', () => {
  test('PUT /orders/{id}/cancel: fulfillable → unfulfillable; again → 422', async () => {
    const api = testApi();
    await createSku(api, 'A');
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
    const cancelled = await mockRequest(api, 'PUT', `${ORDERS}/1/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('unfulfillable');
    const again = await mockRequest(api, 'PUT', `${ORDERS}/1/cancel`);
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ success: false, errors: ['Order can only be cancelled while fulfillable'] });
  });

  test('cancelling a blocked-country or fulfilled order is 422', async () => {
    const api = testApi({ blockedCountries: ['CH'] });
    await createSku(api, 'A');
    await mockRequest(api, 'POST', ORDERS, {
      ...orderBody('O-1', 'A'),
      shipping_address: { ...ADDRESS, country_code: 'CH' },
    });
    await mockRequest(api, 'POST', ORDERS, orderBody('O-2', 'A'));
    api.fulfillOrder(2);
    expect((await mockRequest(api, 'PUT', `${ORDERS}/1/cancel`)).status).toBe(422);
    expect((await mockRequest(api, 'PUT', `${ORDERS}/2/cancel`)).status).toBe(422);
  });

  test('fulfillOrder: fulfillable → fulfilled; other statuses throw', async () => {
    const api = testApi();
    await createSku(api, 'A');
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
    api.fulfillOrder(1);
    expect((await mockRequest(api, 'GET', `${ORDERS}/1`)).body.status).toBe('fulfilled');
    expect(() => api.fulfillOrder(1)).toThrow(/fulfilled: only fulfillable orders/);
    expect(() => api.fulfillOrder(42)).toThrow(/No order with id 42/);
  });

  test('control methods refuse an id that is not an integer >= 1, naming it (never "no order with id 5")', async () => {
    const api = testApi();
    await createSku(api, 'A');
    await mockRequest(api, 'POST', ORDERS, orderBody('O-1', 'A'));
    for (const bad of ['1', 0, 1.5, Symbol('x'), null, 2n, Number.NaN]) {
      for (const [name, call] of [
        ['fulfillOrder: id', () => api.fulfillOrder(bad as never)],
        ['createReturn: orderId', () => api.createReturn(bad as never)],
        ['advanceRestockingShipment: id', () => api.advanceRestockingShipment(bad as never, 'arrived')],
      ] as const) {
        expect(call, `${name} ${String(bad)}`).toThrow(TypeError);
        expect(call, `${name} ${String(bad)}`).toThrow(
          new RegExp(
            `^${name}: (Invalid input: expected (number|int), received \\w+|Too small: expected number to be >=1)$`,
          ),
        );
      }
    }
    // Nothing changed: the order is still there to fulfil.
    expect(api.fulfillOrder(1).order_id).toBe(1);
  });
});
