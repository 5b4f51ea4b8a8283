import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/index.js';
import { shipmentFixture, shipmentUnknownStatusFixture } from '../fixtures/shipments.js';
import { testClient, useMsw } from '../helpers/msw.js';
import { capture, expectWire } from '../helpers/wire.js';

const server = useMsw();
const PATH = '/merchant_api/v1/shipments';
const page = (data: unknown[]) => ({
  data,
  pagination: { current_page: 1, page_count: 1, item_count: data.length, items_per_page: 20 },
});

describe('response validation modes', () => {
  it('lenient: a wrong type is a ResponseValidationError with the raw body and the issues', async () => {
    const body = page([{ ...shipmentFixture, id: 'not-a-number' }]);
    const seen = capture(server, 'get', PATH, body);
    const error = (await testClient()
      .shipments.list()
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.body).toEqual(body.data);
    expect(error.issues.map((i) => i.path)).toEqual(['[0].id']);
    expect(seen).toHaveLength(1);
    expectWire(seen[0], { method: 'GET', path: PATH, search: '', body: undefined });
  });

  it('lenient: a status of the wrong type is rejected, an unknown status string is kept', async () => {
    capture(server, 'get', PATH, page([{ ...shipmentFixture, status: 3 }]));
    const error = (await testClient()
      .shipments.list()
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i) => i.path)).toEqual(['[0].status']);

    server.resetHandlers();
    capture(server, 'get', PATH, page([shipmentUnknownStatusFixture]));
    expect((await testClient().shipments.list()).data[0]?.status).toBe('in_customs');
  });

  it('off: returns the body unchecked', async () => {
    const body = page([{ id: 'not-a-number' }]);
    capture(server, 'get', PATH, body);
    const result = await testClient({ validateResponses: 'off' }).shipments.list();
    expect(result.data).toEqual(body.data);
  });
});
