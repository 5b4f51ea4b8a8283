/**
 * The restock quantities of `advanceRestockingShipment`: one checker (`checkRestockQuantities`)
 * for the three ways in — the in-process method, a connection before it sends, and the route
 * `POST /__mock/restocking_shipments/{id}/advance` — so each refuses the same quantities with the
 * same words, and a key that is not an sku id is described by its length, never shown.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import {
  connectMock,
  type MockApi,
  type MockConnection,
  MockControlError,
} from '../../../src/testing/index.js';
import { hostile, mockRequest, restockingShipment, TOKEN, testApi } from '../helpers.js';

/** What a pasted token as a key looks like (never to be shown). */
const SECRET_KEY = 'sk_live_4eC39HqLyjWDarjtT1';

let api: MockApi;
let connection: MockConnection;
let shipment = 0;
let skuId = 0;
/** Requests the connection sent. */
let sent = 0;

beforeEach(async () => {
  api = testApi();
  connection = connectMock(api.baseUrl, {
    token: TOKEN,
    fetch: (input, init) => {
      sent += 1;
      return api.fetch(input, init);
    },
  });
  shipment = await restockingShipment(api, 'A', 10);
  skuId = api.state.skus[0]!.id;
  sent = 0;
});

/** The message of what `call` throws. */
function thrown(call: () => unknown): Error {
  try {
    call();
  } catch (error) {
    return error as Error;
  }
  throw new Error('did not throw');
}

/** What `promise` rejects with, as a MockControlError. */
async function rejection(promise: Promise<unknown>): Promise<MockControlError> {
  const error = await promise.then(
    () => {
      throw new Error('resolved');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MockControlError);
  return error as MockControlError;
}

/** The shipment's status and first item's figures, to see that nothing moved. */
function shipmentNow() {
  const record = api.state.restockingShipments[0]!;
  const item = record.restocking_shipment_items[0]!;
  return [record.status, item.arrived_quantity, item.damaged_quantity, item.missing_quantity];
}

describe('one checker of restock quantities for the route, the in-process method and a connection', () => {
  // [label, status, quantities, field (relative to the quantities), problem]
  const cases: [string, string, Record<string, unknown>, string, string][] = [
    [
      'a key that is not an sku id',
      'restocked',
      { arrived: { abc: 1 } },
      'arrived[<a key of 3 characters>]',
      'keys must be sku ids (positive integers)',
    ],
    [
      'a token pasted as a key',
      'restocked',
      { damaged: { [SECRET_KEY]: 1 } },
      'damaged[<a key of 26 characters>]',
      'keys must be sku ids (positive integers)',
    ],
    [
      'a run of digits that is no id',
      'restocked',
      { missing: { 0: 1 } },
      'missing.0',
      'keys must be sku ids (positive integers)',
    ],
    [
      'a figure per sku that is not an integer',
      'restocked',
      { arrived: { 1: 'sk_live_x' } },
      'arrived.1',
      'must be an integer >= 0, got a string of 9 characters',
    ],
    [
      'a negative figure',
      'restocked',
      { arrived: -1 },
      'arrived',
      'must be an integer >= 0 or an object of such integers keyed by sku_id, got -1',
    ],
    [
      'a list',
      'restocked',
      { damaged: [1] },
      'damaged',
      'must be an integer >= 0 or an object of such integers keyed by sku_id, got an array',
    ],
    [
      'quantities before restocked (a version 2 name)',
      'received',
      { missing: 1 },
      'missing',
      "must be left out: quantities apply only when moving to 'restocked', not 'received'",
    ],
  ];

  test.each(cases)('%s: the same refusal, nothing moved', async (_, status, quantities, field, problem) => {
    const before = shipmentNow();
    const inProcess = thrown(() => api.advanceRestockingShipment(shipment, status as never, quantities));
    expect(inProcess).toBeInstanceOf(TypeError);
    expect(inProcess.message).toBe(`advanceRestockingShipment: quantities.${field} ${problem}`);

    const remote = await rejection(
      connection.advanceRestockingShipment(shipment, status as never, quantities),
    );
    expect(remote).toMatchObject({ code: 'invalid_argument', argument: `quantities.${field}` });
    expect(remote.message).toBe(inProcess.message);
    expect(sent).toBe(0);

    const route = await mockRequest(api, 'POST', `/__mock/restocking_shipments/${shipment}/advance`, {
      status,
      ...quantities,
    });
    expect(route.status).toBe(422);
    expect(route.body).toEqual({ success: false, errors: [`${field}: ${problem}`] });

    for (const text of [inProcess.message, remote.message, route.body.errors[0]]) {
      expect(text).not.toContain(SECRET_KEY);
      expect(text).not.toContain('abc');
    }
    expect(shipmentNow()).toEqual(before);
  });

  test('an unknown field: refused in-process and before sending as the route refuses it', async () => {
    const message =
      'advanceRestockingShipment: quantities.arived unknown field (expected arrived, damaged, missing)';
    expect(
      thrown(() => api.advanceRestockingShipment(shipment, 'restocked', { arived: 3 } as never)).message,
    ).toBe(message);
    const remote = await rejection(
      connection.advanceRestockingShipment(shipment, 'restocked', { arived: 3 } as never),
    );
    expect(remote).toMatchObject({ code: 'invalid_argument', argument: 'quantities.arived', message });
    expect(sent).toBe(0);
    // The route reads the quantities among the body's fields, status one of them.
    const route = await mockRequest(api, 'POST', `/__mock/restocking_shipments/${shipment}/advance`, {
      status: 'restocked',
      arived: 3,
    });
    expect(route.body.errors).toEqual(['arived: unknown field (expected status, arrived, damaged, missing)']);
    expect(api.state.restockingShipments[0]!.status).toBe('shipped');
  });

  test('a getter that throws under a key that is not an sku id: named by the key’s length', async () => {
    const { getter } = hostile('trap-secret');
    const field = `quantities.arrived[<a key of ${SECRET_KEY.length} characters>]`;
    const quantities = () => ({ arrived: getter(SECRET_KEY) });
    const inProcess = thrown(() =>
      api.advanceRestockingShipment(shipment, 'restocked', quantities() as never),
    );
    expect(inProcess.message).toBe(
      `advanceRestockingShipment: ${field} could not be read (a getter or Proxy threw)`,
    );
    const remote = await rejection(
      connection.advanceRestockingShipment(shipment, 'restocked', quantities() as never),
    );
    expect(remote).toMatchObject({ code: 'invalid_argument', argument: field, message: inProcess.message });
    expect(sent).toBe(0);
  });

  test('valid quantities (one number, per sku id, none at all) restock alike through every way in', async () => {
    const advanced = api.advanceRestockingShipment(shipment, 'restocked', {
      arrived: { [skuId]: 8 },
      damaged: 1,
    });
    expect(advanced.restocking_shipment_items[0]).toMatchObject({
      arrived_quantity: 8,
      damaged_quantity: 1,
      missing_quantity: 1,
    });
    api.advanceRestockingShipment(shipment, 'processing', {});
    const remote = await connection.advanceRestockingShipment(shipment, 'restocked', {
      missing: { [skuId]: 4 },
    });
    expect(remote.restocking_shipment_items[0]).toMatchObject({ arrived_quantity: 6, missing_quantity: 4 });
    expect(sent).toBe(1);
    await connection.advanceRestockingShipment(shipment, 'processing');
    const route = await mockRequest(api, 'POST', `/__mock/restocking_shipments/${shipment}/advance`, {
      status: 'restocked',
      arrived: 10,
      damaged: null,
    });
    expect(route.status).toBe(200);
    expect(route.body.restocking_shipment_items[0]).toMatchObject({
      arrived_quantity: 10,
      missing_quantity: 0,
    });
  });
});
