import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/index.js';
import { orderCreateParamsFixture, orderFixture } from '../fixtures/orders.js';
import { testClient, useMsw } from '../helpers/msw.js';
import { capture, expectWire } from '../helpers/wire.js';

const server = useMsw();
const client = () => testClient();
const page = (data: unknown[]) => ({
  data,
  pagination: { current_page: 1, page_count: 1, item_count: data.length, items_per_page: 20 },
});

describe('orders.list', () => {
  it('sends created_at bounds and include comma-joined, and parses orders', async () => {
    const seen = capture(server, 'get', '/merchant_api/v1/orders', page([orderFixture]));
    const result = await client().orders.list({
      created_at: { gt: '2025-01-01T00:00:00Z', lte: new Date('2025-02-01T12:00:00Z') },
      include: ['batches'],
      limit: 10,
      page: 2,
    });
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'GET',
      path: '/merchant_api/v1/orders',
      search:
        '?created_at[gt]=2025-01-01T00%3A00%3A00Z&created_at[lte]=2025-02-01T12%3A00%3A00.000Z&limit=10&page=2&include=batches',
      body: undefined,
    });
    expect(result.data).toHaveLength(1);
    expect(result.data[0]).toMatchObject({
      id: orderFixture.id,
      merchant_order_id: orderFixture.merchant_order_id,
      status: orderFixture.status,
      custom_metadata: orderFixture.custom_metadata,
    });
    expect(result.data[0]?.items[0]?.batches).toEqual(orderFixture.items[0]?.batches);
  });

  it('sends no include when the list is empty', async () => {
    const seen = capture(server, 'get', '/merchant_api/v1/orders', page([]));
    const result = await client().orders.list({ include: [] });
    expectWire(seen[0], { method: 'GET', path: '/merchant_api/v1/orders', search: '', body: undefined });
    expect(result.data).toEqual([]);
  });
});

describe('orders.retrieve', () => {
  it('GETs /orders/{id} with include=batches', async () => {
    const seen = capture(server, 'get', `/merchant_api/v1/orders/${orderFixture.id}`, orderFixture);
    const order = await client().orders.retrieve(orderFixture.id, { include: ['batches'] });
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'GET',
      path: `/merchant_api/v1/orders/${orderFixture.id}`,
      search: '?include=batches',
      body: undefined,
    });
    expect(order).toMatchObject({
      id: orderFixture.id,
      merchant_order_id: orderFixture.merchant_order_id,
      shipping_address: orderFixture.shipping_address,
    });
  });

  it('GETs without a query when no params are given', async () => {
    const seen = capture(server, 'get', '/merchant_api/v1/orders/9', orderFixture);
    const order = await client().orders.retrieve(9);
    expectWire(seen[0], { method: 'GET', path: '/merchant_api/v1/orders/9', search: '', body: undefined });
    expect(order.id).toBe(orderFixture.id);
  });
});

describe('orders.create', () => {
  it('POSTs the validated body exactly and parses the 201 order', async () => {
    const seen = capture(server, 'post', '/merchant_api/v1/orders', orderFixture, 201);
    const order = await client().orders.create(orderCreateParamsFixture);
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'POST',
      path: '/merchant_api/v1/orders',
      search: '',
      body: orderCreateParamsFixture,
    });
    expect(order).toMatchObject({ id: orderFixture.id, status: orderFixture.status });
  });

  it('sends a Date created_at as ISO 8601', async () => {
    const seen = capture(server, 'post', '/merchant_api/v1/orders', orderFixture, 201);
    await client().orders.create({
      ...orderCreateParamsFixture,
      created_at: new Date('2025-05-01T10:00:00Z'),
    });
    expectWire(seen[0], {
      method: 'POST',
      path: '/merchant_api/v1/orders',
      search: '',
      body: { ...orderCreateParamsFixture, created_at: '2025-05-01T10:00:00.000Z' },
    });
  });

  it('refuses a COD order without a positive total, with every other bad field, sending nothing', async () => {
    const error = (await client()
      .orders.create({
        ...orderCreateParamsFixture,
        total_price_in_cents: 0,
        shipping_address: {
          ...orderCreateParamsFixture.shipping_address,
          last_name: undefined,
          country_code: 'NLD',
        },
        items: [
          { merchant_item_id: 'x', quantity: 1, price_per_unit_in_cents: 1 },
          { merchant_item_id: 'x', sku_id: 1, quantity: 1.5, price_per_unit_in_cents: 1 },
        ],
      })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    const paths = error.issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'total_price_in_cents',
        'shipping_address.country_code',
        'shipping_address.first_name',
        'items[0].sku_id',
        'items[1].quantity',
        'items[1].merchant_item_id',
      ]),
    );
    expect(error.message).toMatch(/^Invalid request to POST \/merchant_api\/v1\/orders: /);
    expect(error.issues.find((i) => i.path === 'items[1].quantity')?.message).toBe('expected integer');
  });

  it('names a misspelled address or item key at its path, and sends nothing', async () => {
    const seen = capture(server, 'post', '/merchant_api/v1/orders', orderFixture);
    const [item] = orderCreateParamsFixture.items;
    const error = await client()
      .orders.create({
        ...orderCreateParamsFixture,
        // @ts-expect-error: `zip` is not an address field (postal_code is)
        shipping_address: { ...orderCreateParamsFixture.shipping_address, zip: '1012' },
        // @ts-expect-error: `quantiy` is not an item field
        items: [{ ...item, quantiy: 2 }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).message).toBe(
      'Invalid request to POST /merchant_api/v1/orders: shipping_address: Unrecognized key: "zip"; items[0]: Unrecognized key: "quantiy" (did you mean "quantity"?)',
    );
    expect(seen).toHaveLength(0);
  });
});

describe('orders.update', () => {
  it('PATCHes with items matched by merchant_item_id', async () => {
    const seen = capture(server, 'patch', '/merchant_api/v1/orders/55', orderFixture);
    const body = { items: [{ merchant_item_id: 'A-1002-1', quantity: 2 }], tags: ['vip'] };
    const order = await client().orders.update(55, body);
    expect(seen).toHaveLength(1);
    expectWire(seen[0], { method: 'PATCH', path: '/merchant_api/v1/orders/55', search: '', body });
    expect(order.id).toBe(orderFixture.id);
  });

  it('applies quantity > 0 and unique merchant_item_id to PATCH items', async () => {
    const error = (await client()
      .orders.update(55, {
        items: [
          { merchant_item_id: 'a', quantity: 0 },
          { merchant_item_id: 'a', quantity: 1 },
        ],
      })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['items[0].quantity', 'items[1].merchant_item_id']),
    );
  });

  it('names a misspelled address or item key at its path; another type still reads expected object', async () => {
    const seen = capture(server, 'patch', '/merchant_api/v1/orders/55', orderFixture);
    const error = (await client()
      .orders.update(55, {
        // @ts-expect-error: `zip` is not an address field (postal_code is)
        shipping_address: { zip: '1012' },
        // @ts-expect-error: `quantiy` is not an item field, and an item is an object
        items: [{ merchant_item_id: 'a', quantiy: 2 }, 'b'],
      })
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues).toEqual([
      { path: 'shipping_address', message: 'Unrecognized key: "zip"' },
      { path: 'items[0]', message: 'Unrecognized key: "quantiy" (did you mean "quantity"?)' },
      { path: 'items[1]', message: 'expected object' },
    ]);
    expect(seen).toHaveLength(0);
  });
});

describe('orders.cancel', () => {
  it('PUTs /orders/{id}/cancel without a body and reads the order back on 204', async () => {
    const seen = capture(
      server,
      'put',
      '/merchant_api/v1/orders/55/cancel',
      () => new HttpResponse(null, { status: 204 }),
    );
    const reads = capture(server, 'get', '/merchant_api/v1/orders/55', {
      ...orderFixture,
      id: 55,
      status: 'unfulfillable',
    });
    expect(await client().orders.cancel(55)).toMatchObject({ id: 55, status: 'unfulfillable' });
    expect(reads).toHaveLength(1);
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'PUT',
      path: '/merchant_api/v1/orders/55/cancel',
      search: '',
      body: undefined,
    });
  });

  it('resolves the order when one is sent', async () => {
    const seen = capture(server, 'put', '/merchant_api/v1/orders/55/cancel', {
      ...orderFixture,
      status: 'unfulfillable',
    });
    expect(await client().orders.cancel(55)).toMatchObject({ id: orderFixture.id, status: 'unfulfillable' });
    expectWire(seen[0], {
      method: 'PUT',
      path: '/merchant_api/v1/orders/55/cancel',
      search: '',
      body: undefined,
    });
  });
});
