import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/index.js';
import { returnFixture, returnOnTheWayFixture } from '../fixtures/returns.js';
import { testClient, useMsw } from '../helpers/msw.js';
import { capture, expectWire } from '../helpers/wire.js';

const server = useMsw();
const PATH = '/merchant_api/v1/returns';
const page = (data: unknown[]) => ({
  data,
  pagination: { current_page: 1, page_count: 1, item_count: data.length, items_per_page: 20 },
});

describe('returns.list', () => {
  it('GETs /returns without a query and parses every return', async () => {
    const seen = capture(server, 'get', PATH, page([returnFixture, returnOnTheWayFixture]));
    const result = await testClient().returns.list();
    expect(seen).toHaveLength(1);
    expectWire(seen[0], { method: 'GET', path: PATH, search: '', body: undefined });
    expect(result.data).toHaveLength(2);
    expect(result.data[0]).toMatchObject({
      id: returnFixture.id,
      status: 'handling_completed',
      order: returnFixture.order,
      photos: returnFixture.photos,
      return_items: returnFixture.return_items,
      return_line_items: returnFixture.return_line_items,
    });
    expect(result.data[1]).toMatchObject({
      id: returnOnTheWayFixture.id,
      status: 'on_the_way',
      carrier: null,
      return_reason_type: '',
    });
  });

  it('sends created_at, limit and page in the API encoding', async () => {
    const seen = capture(server, 'get', PATH, page([returnFixture]));
    await testClient().returns.list({ created_at: { gt: '2025-01-01' }, limit: 10, page: 2 });
    expect(seen).toHaveLength(1);
    expectWire(seen[0], {
      method: 'GET',
      path: PATH,
      search: '?created_at[gt]=2025-01-01&limit=10&page=2',
      body: undefined,
    });
  });
});

describe('returns.retrieve', () => {
  it('GETs /returns/{id} and parses the return with its order', async () => {
    const seen = capture(server, 'get', `${PATH}/${returnFixture.id}`, returnFixture);
    const ret = await testClient().returns.retrieve(returnFixture.id);
    expect(seen).toHaveLength(1);
    expectWire(seen[0], { method: 'GET', path: `${PATH}/${returnFixture.id}`, search: '', body: undefined });
    expect(ret).toMatchObject({
      id: returnFixture.id,
      status: returnFixture.status,
      order: returnFixture.order,
    });
    expect(ret.return_line_items?.[0]).toMatchObject({ condition: 'C', follow_up_action: 'dispose' });
  });

  it('accepts a digit-string id', async () => {
    const seen = capture(server, 'get', `${PATH}/7782`, returnOnTheWayFixture);
    const ret = await testClient().returns.retrieve('7782');
    expectWire(seen[0], { method: 'GET', path: `${PATH}/7782`, search: '', body: undefined });
    expect(ret.id).toBe(7782);
  });

  it.each(['../x', -1, 1.5, '1 OR 1'])('refuses the path id %s and sends nothing', async (id) => {
    const error = await testClient()
      .returns.retrieve(id as number)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.path).toBe('id');
  });
});
