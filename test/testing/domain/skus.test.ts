/**
 * SKU rules (`domain/skus.ts`): create, update, delete, bulk upsert, and the list.
 */
import { describe, expect, test } from 'vitest';
import { createSku, manualClock, mockRequest, skuBody, skuById, testApi } from '../helpers.js';

const SKUS = '/merchant_api/v1/skus';

describe('POST /skus', () => {
  test('creates an active SKU with the documented read-only fields', async () => {
    const api = testApi({ now: manualClock('2025-01-01T00:00:02.000Z').now });
    const answer = await mockRequest(
      api,
      'POST',
      SKUS,
      skuBody('TSHIRT-M', { cost_in_cents: 450, weight_in_kg: 0.25 }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: 1,
      merchant_sku_id: 'TSHIRT-M',
      name: 'SKU TSHIRT-M',
      barcode: null,
      batch_tracking_enabled: false,
      cost_in_cents: 450,
      cost_in_cent: 450,
      country_code_of_origin: null,
      hs_code: null,
      image_url: null,
      weight_in_kg: 0.25,
      created_at: '2025-01-01T00:00:02.000Z',
      status: 'active',
      fulfilled_by: 'service',
      dangerous_good: false,
      hazardous_good: false,
      h_codes: [],
      un_names: [],
      inventory: { reserved: 0, stocked: 0, total: 0 },
      inventory_per_warehouse: [1, 2, 3].map((warehouse_id) => ({
        warehouse_id,
        reserved: 0,
        stocked: 0,
        total: 0,
      })),
      inventory_batches: [],
    });
  });

  test('name and merchant_sku_id are required (Rails-style messages)', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'POST', SKUS, { name: ' ', barcode: '123' });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      success: false,
      errors: ["Name can't be blank", "Merchant sku can't be blank"],
    });
  });

  test('field types are checked', async () => {
    const api = testApi();
    const answer = await mockRequest(
      api,
      'POST',
      SKUS,
      skuBody('A', {
        cost_in_cents: 'abc',
        weight_in_kg: 'heavy',
        country_code_of_origin: 'Germany',
        batch_tracking_enabled: 'yes',
      }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      'Batch tracking enabled is invalid',
      'Cost in cents is not a number',
      'Country code of origin is invalid',
      'Weight in kg is not a number',
    ]);
  });

  test('a merchant_sku_id held by an active SKU is taken', async () => {
    const api = testApi();
    await createSku(api, 'A');
    const answer = await mockRequest(api, 'POST', SKUS, skuBody('A'));
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual(['Merchant sku has already been taken']);
  });

  test('the merchant_sku_id of a deleted SKU reactivates that SKU', async () => {
    const api = testApi();
    const id = await createSku(api, 'A', { barcode: 'B1', batch_tracking_enabled: true });
    await mockRequest(api, 'DELETE', `${SKUS}/${id}`);
    const answer = await mockRequest(api, 'POST', SKUS, {
      name: 'Again',
      merchant_sku_id: 'A',
      hs_code: '6109',
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      id,
      status: 'active',
      name: 'Again',
      hs_code: '6109',
      barcode: null,
      batch_tracking_enabled: true,
    });
    expect(api.state.skus).toHaveLength(1);
  });

  test('numeric strings are accepted for cost and weight', async () => {
    const api = testApi();
    const answer = await mockRequest(
      api,
      'POST',
      SKUS,
      skuBody('A', { cost_in_cents: '120', weight_in_kg: '0.5' }),
    );
    expect(answer.body).toMatchObject({ cost_in_cents: 120, weight_in_kg: 0.5 });
  });
});

describe('PATCH and PUT /skus/{id}', () => {
  test.each(['PATCH', 'PUT'])('%s keeps omitted properties', async (method) => {
    const api = testApi();
    const id = await createSku(api, 'A', { barcode: 'B1', hs_code: '6109', batch_tracking_enabled: true });
    const answer = await mockRequest(api, method, `${SKUS}/${id}`, { name: 'Renamed', cost_in_cents: '99' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      name: 'Renamed',
      cost_in_cents: 99,
      barcode: 'B1',
      hs_code: '6109',
      merchant_sku_id: 'A',
      batch_tracking_enabled: true,
    });
  });

  test.each(['PATCH', 'PUT'])('%s with batch_tracking_enabled null leaves it unchanged', async (method) => {
    const api = testApi();
    const id = await createSku(api, 'A', { batch_tracking_enabled: true });
    const answer = await mockRequest(api, method, `${SKUS}/${id}`, { batch_tracking_enabled: null });
    expect(answer.body.batch_tracking_enabled).toBe(true);
    const off = await mockRequest(api, method, `${SKUS}/${id}`, { batch_tracking_enabled: false });
    expect(off.body.batch_tracking_enabled).toBe(false);
  });

  test('a sent null clears an optional field', async () => {
    const api = testApi();
    const id = await createSku(api, 'A', { barcode: 'B1' });
    expect((await mockRequest(api, 'PATCH', `${SKUS}/${id}`, { barcode: null })).body.barcode).toBeNull();
  });

  test('name cannot be blanked, and a taken code is refused', async () => {
    const api = testApi();
    const a = await createSku(api, 'A');
    await createSku(api, 'B');
    expect((await mockRequest(api, 'PATCH', `${SKUS}/${a}`, { name: '' })).body.errors).toEqual([
      "Name can't be blank",
    ]);
    const taken = await mockRequest(api, 'PATCH', `${SKUS}/${a}`, { merchant_sku_id: 'B' });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual(['Merchant sku has already been taken']);
  });

  test.each(['PATCH', 'PUT'])('%s reactivates a deleted SKU', async (method) => {
    const api = testApi();
    const id = await createSku(api, 'A');
    await mockRequest(api, 'DELETE', `${SKUS}/${id}`);
    const answer = await mockRequest(api, method, `${SKUS}/${id}`, { name: 'Back' });
    expect(answer.body).toMatchObject({ status: 'active', name: 'Back' });
  });

  test('a code change moves the SKU in the merchant_sku_ids filter', async () => {
    const api = testApi();
    const id = await createSku(api, 'OLD');
    await mockRequest(api, 'PATCH', `${SKUS}/${id}`, { merchant_sku_id: 'NEW' });
    expect((await mockRequest(api, 'GET', `${SKUS}?merchant_sku_ids[]=OLD`)).body.data).toEqual([]);
    expect((await mockRequest(api, 'GET', `${SKUS}?merchant_sku_ids[]=NEW`)).body.data[0].id).toBe(id);
  });
});

describe('DELETE /skus/{id}', () => {
  test('marks an active SKU deleted; it stays listed with status deleted', async () => {
    const api = testApi();
    const id = await createSku(api, 'A');
    const answer = await mockRequest(api, 'DELETE', `${SKUS}/${id}`);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('deleted');
    expect((await skuById(api, id)).status).toBe('deleted');
  });

  test('deleting a deleted SKU is 422, and its code is free again', async () => {
    const api = testApi();
    const id = await createSku(api, 'A');
    await mockRequest(api, 'DELETE', `${SKUS}/${id}`);
    const again = await mockRequest(api, 'DELETE', `${SKUS}/${id}`);
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual(['Sku has already been deleted']);
    // Another SKU may take the code by PATCH (duplicates are only checked among active SKUs).
    const other = await createSku(api, 'B');
    expect((await mockRequest(api, 'PATCH', `${SKUS}/${other}`, { merchant_sku_id: 'A' })).status).toBe(200);
    // ...and then the deleted one cannot be reactivated under that code.
    expect((await mockRequest(api, 'PATCH', `${SKUS}/${id}`, { name: 'x' })).body.errors).toEqual([
      'Merchant sku has already been taken',
    ]);
  });
});

describe('POST /skus/bulk_upsert', () => {
  const BULK = `${SKUS}/bulk_upsert`;

  test('creates missing SKUs and updates existing ones, answering { data }', async () => {
    const api = testApi();
    const id = await createSku(api, 'A');
    const answer = await mockRequest(api, 'POST', BULK, {
      skus: [skuBody('A', { name: 'A2' }), skuBody('B')],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((s: { id: number; name: string }) => [s.id, s.name])).toEqual([
      [id, 'A2'],
      [2, 'SKU B'],
    ]);
  });

  test('omitted fields of an existing SKU become null, except batch_tracking_enabled', async () => {
    const api = testApi();
    const id = await createSku(api, 'A', {
      barcode: 'B1',
      hs_code: '6109',
      cost_in_cents: 5,
      batch_tracking_enabled: true,
    });
    await mockRequest(api, 'POST', BULK, {
      skus: [{ name: 'A', merchant_sku_id: 'A', image_url: 'https://img.example/a.png' }],
    });
    expect(await skuById(api, id)).toMatchObject({
      barcode: null,
      hs_code: null,
      cost_in_cents: null,
      image_url: 'https://img.example/a.png',
      batch_tracking_enabled: true,
    });
    await mockRequest(api, 'POST', BULK, {
      skus: [{ name: 'A', merchant_sku_id: 'A', batch_tracking_enabled: false }],
    });
    expect((await skuById(api, id)).batch_tracking_enabled).toBe(false);
  });

  test('reactivates deleted SKUs', async () => {
    const api = testApi();
    const id = await createSku(api, 'A');
    await mockRequest(api, 'DELETE', `${SKUS}/${id}`);
    const answer = await mockRequest(api, 'POST', BULK, { skus: [skuBody('A')] });
    expect(answer.body.data[0]).toMatchObject({ id, status: 'active' });
  });

  test('takes 1 to 100 items', async () => {
    const api = testApi();
    const message = { success: false, errors: ['Skus must contain between 1 and 100 items'] };
    expect((await mockRequest(api, 'POST', BULK, { skus: [] })).body).toEqual(message);
    expect((await mockRequest(api, 'POST', BULK, {})).body).toEqual(message);
    const many = Array.from({ length: 101 }, (_, i) => skuBody(`S${i}`));
    const tooMany = await mockRequest(api, 'POST', BULK, { skus: many });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toEqual(message);
    expect((await mockRequest(api, 'POST', BULK, { skus: many.slice(0, 100) })).status).toBe(200);
    expect(api.state.skus).toHaveLength(100);
  });

  test('an invalid item rejects the whole request, naming the item', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'POST', BULK, { skus: [skuBody('A'), { merchant_sku_id: 'B' }] });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual(["Skus[1] name can't be blank"]);
    expect(api.state.skus).toEqual([]);
  });
});

describe('GET /skus', () => {
  test('newest first in the v1 envelope, with page and limit', async () => {
    const api = testApi();
    for (let i = 1; i <= 5; i++) await createSku(api, `S${i}`);
    const first = await mockRequest(api, 'GET', `${SKUS}?limit=2`);
    expect(first.body.data.map((s: { merchant_sku_id: string }) => s.merchant_sku_id)).toEqual(['S5', 'S4']);
    expect(first.body.pagination).toEqual({
      current_page: 1,
      page_count: 3,
      item_count: 5,
      items_per_page: 2,
    });
    const last = await mockRequest(api, 'GET', `${SKUS}?limit=2&page=3`);
    expect(last.body.data.map((s: { merchant_sku_id: string }) => s.merchant_sku_id)).toEqual(['S1']);
    const beyond = await mockRequest(api, 'GET', `${SKUS}?limit=2&page=4`);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination.current_page).toBe(4);
  });

  test('ties on created_at are broken by id, highest first', async () => {
    const api = testApi({ now: () => new Date('2025-03-01T00:00:00Z') });
    for (let i = 1; i <= 3; i++) await createSku(api, `S${i}`);
    const answer = await mockRequest(api, 'GET', SKUS);
    expect(answer.body.data.map((s: { id: number }) => s.id)).toEqual([3, 2, 1]);
  });

  test('an empty collection has page_count 0', async () => {
    const api = testApi();
    const answer = await mockRequest(api, 'GET', SKUS);
    expect(answer.body).toEqual({
      data: [],
      pagination: { current_page: 1, page_count: 0, item_count: 0, items_per_page: 20 },
    });
  });

  test('merchant_sku_ids[] filters by code', async () => {
    const api = testApi();
    for (const code of ['A', 'B', 'C']) await createSku(api, code);
    const answer = await mockRequest(
      api,
      'GET',
      `${SKUS}?merchant_sku_ids[]=A&merchant_sku_ids[]=C&merchant_sku_ids[]=Z`,
    );
    expect(answer.body.data.map((s: { merchant_sku_id: string }) => s.merchant_sku_id)).toEqual(['C', 'A']);
    expect(answer.body.pagination.item_count).toBe(2);
    const encoded = await mockRequest(api, 'GET', `${SKUS}?${encodeURIComponent('merchant_sku_ids[]')}=B`);
    expect(encoded.body.data.map((s: { merchant_sku_id: string }) => s.merchant_sku_id)).toEqual(['B']);
  });

  test('created_at[gte|gt|lte|lt] filter by creation time', async () => {
    const clock = manualClock();
    const api = testApi({ now: clock.now });
    for (let i = 1; i <= 5; i++) {
      clock.set(`2025-01-01T00:00:0${i}Z`);
      await createSku(api, `S${i}`);
    }
    const codes = async (query: string) =>
      (await mockRequest(api, 'GET', `${SKUS}?${query}`)).body.data.map(
        (s: { merchant_sku_id: string }) => s.merchant_sku_id,
      );
    expect(await codes('created_at[gte]=2025-01-01T00:00:03Z')).toEqual(['S5', 'S4', 'S3']);
    expect(await codes('created_at[gt]=2025-01-01T00:00:03Z')).toEqual(['S5', 'S4']);
    expect(await codes('created_at[lte]=2025-01-01T00:00:02Z')).toEqual(['S2', 'S1']);
    expect(await codes('created_at[lt]=2025-01-01T00:00:02Z')).toEqual(['S1']);
    expect(await codes('created_at[gt]=2025-01-01T00:00:01Z&created_at[lt]=2025-01-01T00:00:04Z')).toEqual([
      'S3',
      'S2',
    ]);
    expect(
      await codes('created_at[gte]=2025-01-01T00:00:02Z&merchant_sku_ids[]=S1&merchant_sku_ids[]=S2'),
    ).toEqual(['S2']);
  });

  test('pages of a large catalogue stay consistent (1000 SKUs, pages of 100)', async () => {
    const api = testApi();
    for (let chunk = 0; chunk < 10; chunk++) {
      const skus = Array.from({ length: 100 }, (_, i) => skuBody(`S${chunk * 100 + i}`));
      expect((await mockRequest(api, 'POST', `${SKUS}/bulk_upsert`, { skus })).status).toBe(200);
    }
    const seen = new Set<number>();
    for (let page = 1; page <= 10; page++) {
      const answer = await mockRequest(api, 'GET', `${SKUS}?limit=100&page=${page}`);
      expect(answer.body.pagination).toEqual({
        current_page: page,
        page_count: 10,
        item_count: 1000,
        items_per_page: 100,
      });
      for (const sku of answer.body.data) seen.add(sku.id);
    }
    expect(seen.size).toBe(1000);
  });
});
