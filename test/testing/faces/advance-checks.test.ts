/**
 * The arguments of `advanceRestockingShipment`, each with one checker for the ways in — the
 * in-process method and the route `POST /__mock/restocking_shipments/{id}/advance`, whose answer a
 * connection passes on — so each refuses the same values with the same words, before anything
 * changes:
 * - the status (`checkRestockingStatus`): the names of version 1 and version 2 accepted, anything
 *   else refused with the names listed (the value itself is never shown);
 * - the quantities (`checkRestockQuantities`): integers >= 0, or objects of them keyed by sku id,
 *   and only for `restocked`.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import {
  RESTOCKING_SHIPMENT_V1_STATUSES,
  RESTOCKING_SHIPMENT_V2_STATUSES,
} from '../../../src/schemas/restocking-shipments.js';
import {
  connectMock,
  type MockApi,
  type MockConnection,
  MockControlError,
} from '../../../src/testing/index.js';
import { mockRequest, restockingShipment, TOKEN, testApi } from '../helpers.js';

/** What a pasted token as the status looks like (never to be shown). */
const SECRET = 'sk_live_4eC39HqLyjWDarjtT1';
/** What a pasted token as a quantity key looks like (never to be shown). */
const SECRET_KEY = SECRET;

/** The names listed by every refusal, in the order shown. */
const LISTED = 'created, shipped, delivered, received, arrived, processing, restocked, on_hold, cancelled';

let api: MockApi;
let connection: MockConnection;
let shipment = 0;
let skuId = 0;
/** Requests the connection sent. */
let sent = 0;

beforeEach(async () => {
  api = testApi({
    webhooks: ['https://shop.example/hooks'],
    webhookFetch: async () => new Response(null, { status: 204 }),
  });
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

/** What `call` throws. */
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

/** The shipment as the state shows it, and the webhook deliveries: to see that nothing moved. */
function now() {
  return { shipment: api.state.restockingShipments[0], deliveries: api.deliveries.length };
}

describe('one checker of the restocking status for the route, the in-process method and a connection', () => {
  const mustBe = `Invalid option: expected one of ${LISTED.split(', ')
    .map((name) => `"${name}"`)
    .join('|')}`;
  // [label, status (undefined: left out of the route's body)]
  const cases: [string, unknown][] = [
    ['an unknown name', 'lost'],
    ['a token pasted as the status', SECRET],
    ['a name in capitals', 'Received'],
    ['a name with a space', ' shipped'],
    ['an empty string', ''],
    ['a name of Object.prototype', 'toString'],
    ['__proto__', '__proto__'],
    ['a number', 5],
    ['a list', ['restocked']],
    ['no status', undefined],
  ];

  test.each(cases)('%s: the same refusal, nothing moved', async (_, status) => {
    const before = now();
    const inProcess = thrown(() => api.advanceRestockingShipment(shipment, status as never));
    expect(inProcess).toBeInstanceOf(TypeError);
    expect(inProcess.message).toBe(`advanceRestockingShipment: status: ${mustBe}`);

    const remote = await rejection(connection.advanceRestockingShipment(shipment, status as never));
    expect(remote).toMatchObject({ code: 'rejected', status: 422, errors: [`status: ${mustBe}`] });

    const route = await mockRequest(api, 'POST', `/__mock/restocking_shipments/${shipment}/advance`, {
      status,
    });
    expect(route.status).toBe(422);
    expect(route.body).toEqual({ success: false, errors: [`status: ${mustBe}`] });

    for (const text of [inProcess.message, remote.message, route.body.errors[0]]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('lost');
    }
    await api.flushWebhooks();
    expect(now()).toEqual(before);
  });

  test('the status is checked before the quantities, by each way in', async () => {
    const quantities = { arrived: { [SECRET]: 1 } };
    const message = `advanceRestockingShipment: status: ${mustBe}`;
    expect(thrown(() => api.advanceRestockingShipment(shipment, 'lost' as never, quantities)).message).toBe(
      message,
    );
    expect(
      (await rejection(connection.advanceRestockingShipment(shipment, 'lost' as never, quantities))).errors,
    ).toEqual([`status: ${mustBe}`]);
    const route = await mockRequest(api, 'POST', `/__mock/restocking_shipments/${shipment}/advance`, {
      status: 'lost',
      ...quantities,
    });
    expect(route.body.errors).toEqual([`status: ${mustBe}`]);
  });

  test('a null status in the route’s body is absent, as every null there', async () => {
    const route = await mockRequest(api, 'POST', `/__mock/restocking_shipments/${shipment}/advance`, {
      status: null,
    });
    expect(route.body.errors).toEqual([`status: ${mustBe}`]);
  });

  test('the names accepted are every version 1 and version 2 name, by each way in', async () => {
    const accepted = [...new Set([...RESTOCKING_SHIPMENT_V1_STATUSES, ...RESTOCKING_SHIPMENT_V2_STATUSES])];
    expect(new Set(LISTED.split(', '))).toEqual(new Set(accepted));
    const v1 = (name: string) => (name === 'received' ? 'delivered' : name);
    for (const name of accepted) {
      // Back to `created` first, so that each move is a change (and sends a webhook).
      api.advanceRestockingShipment(shipment, 'created');
      expect(api.advanceRestockingShipment(shipment, name).status, name).toBe(v1(name));
      await connection.advanceRestockingShipment(shipment, 'created');
      expect((await connection.advanceRestockingShipment(shipment, name)).status, name).toBe(v1(name));
      api.advanceRestockingShipment(shipment, 'created');
      const route = await mockRequest(api, 'POST', `/__mock/restocking_shipments/${shipment}/advance`, {
        status: name,
      });
      expect([route.status, route.body.status], name).toEqual([200, v1(name)]);
    }
  });
});

/** The shipment's status and first item's figures, to see that nothing moved. */
function shipmentNow() {
  const record = api.state.restockingShipments[0]!;
  const item = record.restocking_shipment_items[0]!;
  return [record.status, item.arrived_quantity, item.damaged_quantity, item.missing_quantity];
}

describe('one checker of restock quantities for the route, the in-process method and a connection', () => {
  // [label, status, quantities, field (relative to the quantities), problem]
  const figure = 'must be an integer >= 0 or an object of such integers keyed by sku id';
  // [label, status, quantities, field (relative to the quantities), problem]
  const cases: [string, string, Record<string, unknown>, string, string][] = [
    ['a key that is not an sku id', 'restocked', { arrived: { abc: 1 } }, 'arrived', figure],
    ['a token pasted as a key', 'restocked', { damaged: { [SECRET_KEY]: 1 } }, 'damaged', figure],
    ['a run of digits that is no id', 'restocked', { missing: { 0: 1 } }, 'missing', figure],
    [
      'a figure per sku that is not an integer',
      'restocked',
      { arrived: { 1: 'sk_live_x' } },
      'arrived',
      figure,
    ],
    [
      'a negative figure per sku',
      'restocked',
      { arrived: { 1: -1 } },
      'arrived.1',
      'Too small: expected number to be >=0',
    ],
    ['a negative figure', 'restocked', { arrived: -1 }, 'arrived', 'Too small: expected number to be >=0'],
    ['a list', 'restocked', { damaged: [1] }, 'damaged', figure],
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
    expect(inProcess.message).toBe(`advanceRestockingShipment: quantities.${field}: ${problem}`);

    const remote = await rejection(
      connection.advanceRestockingShipment(shipment, status as never, quantities),
    );
    expect(remote).toMatchObject({ code: 'rejected', status: 422, errors: [`${field}: ${problem}`] });

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

  test('an unknown field: refused in-process and by the route (through a connection too)', async () => {
    const message =
      'advanceRestockingShipment: quantities: Unrecognized key: "arived" (did you mean "arrived"?)';
    expect(
      thrown(() => api.advanceRestockingShipment(shipment, 'restocked', { arived: 3 } as never)).message,
    ).toBe(message);
    const remote = await rejection(
      connection.advanceRestockingShipment(shipment, 'restocked', { arived: 3 } as never),
    );
    // The route reads the quantities among the body's fields.
    expect(remote.errors).toEqual(['body: Unrecognized key: "arived" (did you mean "arrived"?)']);
    const route = await mockRequest(api, 'POST', `/__mock/restocking_shipments/${shipment}/advance`, {
      status: 'restocked',
      arived: 3,
    });
    expect(route.body.errors).toEqual(['body: Unrecognized key: "arived" (did you mean "arrived"?)']);
    expect(api.state.restockingShipments[0]!.status).toBe('shipped');
  });

  test('the status is checked before the quantities', async () => {
    const message = `advanceRestockingShipment: status: Invalid option: expected one of "${LISTED.split(', ').join('"|"')}"`;
    expect(
      thrown(() => api.advanceRestockingShipment(shipment, 'lost' as never, { arived: 3 } as never)).message,
    ).toBe(message);
    const remote = await rejection(
      connection.advanceRestockingShipment(shipment, 'lost' as never, { arived: 3 } as never),
    );
    expect(remote.errors).toEqual([message.replace('advanceRestockingShipment: status: ', 'status: ')]);
    const route = await mockRequest(api, 'POST', `/__mock/restocking_shipments/${shipment}/advance`, {
      status: 'lost',
      arived: 3,
    });
    expect(route.status).toBe(422);
    expect(route.body.errors).toEqual([message.replace('advanceRestockingShipment: status: ', 'status: ')]);
    expect(api.state.restockingShipments[0]!.status).toBe('shipped');
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
