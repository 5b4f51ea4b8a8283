/**
 * `connectMock`: every control method end to end against a mock served by a real HTTP server
 * (`api.listen({ port: 0 })`), with the SDK client pointed at the same server; its errors (404,
 * 422 naming the field, 401, a mock that is down, a time-out, what cannot be sent refused)
 * and the token kept out of every error and of `util.inspect`. Then the same against the
 * `merchant-fulfillment-mock` bin started in a child process.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { APIError, FulfillmentClient } from '../../src/index.js';
import {
  connectMock,
  type MockApi,
  type MockConnection,
  MockControlError,
  type MockServer,
} from '../../src/testing/index.js';
import { closedPort, startServer } from '../helpers/http-server.js';
import { ADDRESS, binSandbox, output, spawnBin, TOKEN, testApi, waitFor } from './helpers.js';

const SECRET = 'tok_connect_secret_123';

/** A webhook receiver answering `status` (500 until told otherwise). */
let receiverStatus = 500;
let receiver: Awaited<ReturnType<typeof startServer>>;
let api: MockApi;
let server: MockServer;
let mock: MockConnection;
let client: FulfillmentClient;

beforeEach(async () => {
  receiverStatus = 500;
  receiver = await startServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => res.writeHead(receiverStatus).end());
  });
  api = testApi({
    tokens: [SECRET],
    webhooks: [`${receiver.url}/hooks`],
    webhookRetry: { attempts: 2, initialDelayMs: 1 },
  });
  server = await api.listen({ port: 0 });
  mock = connectMock(server.url, { token: SECRET });
  client = new FulfillmentClient({ apiToken: mock.token, baseUrl: mock.baseUrl, maxRetries: 0 });
});

afterEach(async () => {
  await api.close();
  await receiver.close();
});

/** A SKU and a restocking shipment of `quantity` units of it, made through the SDK client. */
async function inbound(quantity = 3) {
  const sku = await client.skus.create({ name: 'Mug', merchant_sku_id: 'MUG' });
  const shipment = await client.restockingShipments.v1.create({
    warehouse_id: 1,
    restocking_shipment_items: [{ sku_id: sku.id, announced_quantity: quantity }],
  });
  return { sku, shipment };
}

/** The rejection of `promise`, which must be a {@link MockControlError}. */
async function failure(promise: Promise<unknown>): Promise<MockControlError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MockControlError);
  const controlError = error as MockControlError;
  // The token never shows, however the error is printed.
  for (const text of [
    controlError.message,
    String(controlError),
    inspect(controlError),
    JSON.stringify(controlError),
  ]) {
    expect(text).not.toContain(SECRET);
  }
  return controlError;
}

describe('connectMock against api.listen()', () => {
  test('an order made through the SDK client is fulfilled and returned remotely', async () => {
    await client.skus.create({ name: 'Mug', merchant_sku_id: 'MUG' });
    const order = await client.orders.create({
      merchant_order_id: 'O-1',
      shipping_address: ADDRESS,
      items: [
        { merchant_item_id: 'O-1-1', merchant_sku_id: 'MUG', quantity: 2, price_per_unit_in_cents: 900 },
      ],
    });
    const shipment = await mock.fulfillOrder(order.id);
    expect(shipment).toMatchObject({ order_id: order.id, merchant_order_id: 'O-1', status: 'shipped' });
    expect((await client.orders.retrieve(order.id)).status).toBe('fulfilled');
    expect((await client.shipments.list()).data.map((s) => s.id)).toEqual([shipment.id]);

    const returned = await mock.createReturn(order.id, { reason: 'not_picked_up', carrier: 'UPS' });
    expect(returned).toMatchObject({ carrier: 'UPS', return_reason: 'not_picked_up' });
    expect(returned.return_items[0]).toMatchObject({ quantity: 2 });
    expect(await client.returns.retrieve(returned.id)).toMatchObject({ id: returned.id, carrier: 'UPS' });
  });

  test('a restocking shipment is advanced: received (v2 name) → delivered, then restocked with quantities', async () => {
    const { sku, shipment } = await inbound(3);
    const received = await mock.advanceRestockingShipment(shipment.id, 'received');
    expect(received).toMatchObject({ id: shipment.id, status: 'delivered' });
    expect((await client.restockingShipments.v1.retrieve(shipment.id)).status).toBe('delivered');
    const restocked = await mock.advanceRestockingShipment(shipment.id, 'restocked', {
      damaged: { [sku.id]: 1 },
    });
    expect(restocked.status).toBe('restocked');
    expect(restocked.restocking_shipment_items[0]).toMatchObject({
      arrived_quantity: 2,
      damaged_quantity: 1,
    });
    const page = await client.skus.list();
    expect(page.data[0]!.inventory).toEqual({ reserved: 0, stocked: 2, total: 2 });
  });

  test('webhooks: given up while the receiver is down, delivered after redeliverWebhooks()', async () => {
    const { shipment } = await inbound();
    await mock.advanceRestockingShipment(shipment.id, 'arrived');
    const givenUp = await mock.flushWebhooks();
    expect(givenUp).toEqual([
      expect.objectContaining({
        restockingShipmentId: shipment.id,
        status: 'arrived',
        delivered: false,
        finished: true,
        statusCodes: [500, 500],
        error: 'gave up after 2 attempts (last status 500)',
      }),
    ]);
    receiverStatus = 204;
    const queued = await mock.redeliverWebhooks({ eventId: givenUp[0]!.eventId });
    expect(queued).toEqual([expect.objectContaining({ eventId: givenUp[0]!.eventId, redeliveries: 1 })]);
    const delivered = await mock.flushWebhooks();
    expect(delivered).toEqual([
      expect.objectContaining({
        eventId: givenUp[0]!.eventId,
        body: givenUp[0]!.body,
        delivered: true,
        statusCodes: [500, 500, 204],
        redeliveries: 1,
      }),
    ]);
    expect(await mock.deliveries()).toEqual(delivered);
    expect(await mock.redeliverWebhooks()).toEqual([]);
  });

  test('redeliverWebhooks({ eventId }) sends a delivered one again, in-process and remotely (a receiver’s dedupe)', async () => {
    receiverStatus = 204;
    const { shipment } = await inbound();
    await mock.advanceRestockingShipment(shipment.id, 'arrived');
    const [delivered] = await mock.flushWebhooks();
    expect(delivered).toMatchObject({ delivered: true, statusCodes: [204] });
    // Without the event id only the given-up ones are sent again: none.
    expect(await mock.redeliverWebhooks({ url: delivered!.url })).toEqual([]);
    const { eventId } = delivered!;
    expect(await mock.redeliverWebhooks({ eventId })).toEqual([
      expect.objectContaining({ eventId, delivered: false, finished: false, redeliveries: 1 }),
    ]);
    expect(await mock.flushWebhooks()).toEqual([
      expect.objectContaining({ eventId, body: delivered!.body, delivered: true, statusCodes: [204, 204] }),
    ]);
    expect(api.redeliverWebhooks({ eventId })).toHaveLength(1);
    await api.flushWebhooks();
    expect(api.deliveries).toEqual([
      expect.objectContaining({ eventId, delivered: true, statusCodes: [204, 204, 204], redeliveries: 2 }),
    ]);
  });

  test('faults are injected, listed and removed remotely, and the SDK client sees them', async () => {
    const handle = await mock.injectFault({
      method: 'GET',
      path: '/merchant_api/v1/warehouses',
      status: 503,
    });
    expect(handle.id).toBe(1);
    const error = await client.warehouses.list().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(503);
    const pattern = await mock.injectFault({
      path: /^\/merchant_api\/v1\/skus(\/|$)/,
      status: 500,
      times: 2,
    });
    expect(await mock.faults()).toEqual([
      {
        id: 1,
        method: 'GET',
        path: '/merchant_api/v1/warehouses',
        pathPattern: null,
        hits: 1,
        remaining: null,
      },
      {
        id: 2,
        method: null,
        path: null,
        pathPattern: '^\\/merchant_api\\/v1\\/skus(\\/|$)',
        hits: 0,
        remaining: 2,
      },
    ]);
    expect(await handle.remove()).toBe(true);
    expect(await handle.remove()).toBe(false);
    expect((await client.warehouses.list()).data).toHaveLength(3);
    await expect(client.skus.list()).rejects.toMatchObject({ status: 500 });
    expect(await mock.clearFaults()).toBe(1);
    expect(await pattern.remove()).toBe(false);
    expect((await client.skus.list()).data).toEqual([]);
  });

  test('a RegExp with flags is refused before sending, naming path', async () => {
    let sent = 0;
    const counting = connectMock(server.url, {
      token: SECRET,
      fetch: (input, init) => {
        sent += 1;
        return fetch(input, init);
      },
    });
    const error = await failure(counting.injectFault({ path: /orders/i }));
    expect(error).toMatchObject({
      code: 'invalid_argument',
      argument: 'path',
      status: null,
      route: 'injectFault',
    });
    expect(error.message).toMatch(/^injectFault: path: cannot be a RegExp with flags \(got \/orders\/i\)/);
    expect(sent).toBe(0);
    expect(await counting.faults()).toEqual([]);
    expect(sent).toBe(1);
  });

  test('state: the whole snapshot, one list paginated, several lists; reset empties it', async () => {
    for (const code of ['A', 'B', 'C']) await client.skus.create({ name: code, merchant_sku_id: code });
    const all = await mock.state();
    expect(all.skus.map((s) => s.merchant_sku_id)).toEqual(['A', 'B', 'C']);
    expect(all.warehouses).toHaveLength(3);
    const page = await mock.state({ collection: 'skus', page: 2, limit: 2 });
    expect(page.data.map((s) => s.merchant_sku_id)).toEqual(['C']);
    expect(page.pagination).toEqual({ current_page: 2, page_count: 2, item_count: 3, items_per_page: 2 });
    const two = await mock.state({ collections: ['skus', 'requests'], limit: 1 });
    expect(two.skus.pagination.item_count).toBe(3);
    expect(two.requests.data[0]).toMatchObject({ method: 'POST', path: '/merchant_api/v1/skus' });
    await mock.reset();
    expect((await mock.state({ collection: 'skus' })).pagination.item_count).toBe(0);
    expect((await client.skus.create({ name: 'D', merchant_sku_id: 'D' })).id).toBe(1);
  });

  test('routes() lists the control routes', async () => {
    const routes = await mock.routes();
    expect(routes.map((r) => `${r.method} ${r.path}`)).toContain('POST /__mock/webhooks/redeliver');
  });

  test('errors: 404 for an unknown id, 422 naming the field, 401 for a wrong token', async () => {
    const notFound = await failure(mock.fulfillOrder(999));
    expect(notFound).toMatchObject({
      code: 'rejected',
      status: 404,
      route: 'POST /__mock/orders/999/fulfill',
      errors: ['No order with id 999'],
    });
    expect(notFound.message).toBe('POST /__mock/orders/999/fulfill answered 404: No order with id 999');

    const { shipment } = await inbound();
    // A status that is no status name is refused by the route, naming it.
    const invalid = await failure(mock.advanceRestockingShipment(shipment.id, 'teleported' as never));
    expect(invalid).toMatchObject({ code: 'rejected', status: 422, argument: null });
    expect(invalid.message).toMatch(
      /^POST \/__mock\/restocking_shipments\/1\/advance answered 422: status: Invalid option: expected one of "created"\|.*"cancelled"$/,
    );

    const wrong = connectMock(server.url, { token: 'not-the-token' });
    const unauthorized = await failure(wrong.reset());
    expect(unauthorized).toMatchObject({
      status: 401,
      errors: ['authentication required'],
      hint: "the bearer token is not one of the mock's tokens",
    });
    expect(unauthorized.message).toContain("(the bearer token is not one of the mock's tokens)");
    expect(unauthorized.message).not.toContain('not-the-token');
  });

  test('arguments are checked by the mock (a 4xx naming the field); what cannot be sent is refused before', async () => {
    const cases: [() => Promise<unknown>, number, RegExp][] = [
      [() => mock.fulfillOrder(-1), 404, /^not found$/],
      [
        () => mock.advanceRestockingShipment(1, '' as never),
        422,
        /^status: Invalid option: expected one of /,
      ],
      [
        () => mock.createReturn(1, [] as never),
        422,
        /^body: Invalid input: expected object, received array$/,
      ],
      [() => mock.injectFault({ path: 5 as never }), 422, /^path: must be a string or a RegExp$/],
      [
        () => mock.redeliverWebhooks({ eventId: 7 as never }),
        422,
        /^eventId: Invalid input: expected string, received number$/,
      ],
      [
        () => mock.state({ collection: 'nope' as never }),
        422,
        /^collection: Invalid option: expected one of /,
      ],
      [
        () => mock.state({ collection: 'skus', limit: 1001 }),
        422,
        /^limit: Too big: expected number to be <=1000$/,
      ],
      // A query that is no object is sent as it reads; the mock names what it does not know.
      [() => mock.deliveries('failed' as never), 422, /^query: Unrecognized keys: "0", "1"/],
    ];
    for (const [call, status, message] of cases) {
      const error = await failure(call());
      expect(error).toMatchObject({ code: 'rejected', status });
      expect(error.errors[0]).toMatch(message);
    }
    // The bad id is explained by the hint.
    expect((await failure(mock.createReturn(0))).hint).toMatch(/\{id\} must be an integer >= 1, got '0'/);
    expect(await failure(mock.advanceRestockingShipment(1, 'arrived', 3 as never))).toMatchObject({
      code: 'invalid_argument',
      argument: 'quantities',
      message: 'advanceRestockingShipment: quantities: must be an object',
    });
    expect(() => connectMock('not a url', { token: SECRET })).toThrow(
      /^connectMock: url: must be an absolute http\(s\) URL$/,
    );
    expect(() => connectMock('ftp://x', { token: SECRET })).toThrow(
      /^connectMock: url: must be an absolute http\(s\) URL$/,
    );
    expect(() => connectMock('http://user:pw@127.0.0.1:1', { token: SECRET })).toThrow(
      /^connectMock: url: must not hold credentials/,
    );
    expect(() => connectMock(server.url, { token: 'two words' })).toThrow(
      /^connectMock: token: must be a non-empty string of visible ASCII characters/,
    );
    expect(() => connectMock(server.url, { token: SECRET, timeoutMs: 0 })).toThrow(
      /^connectMock: timeoutMs: Too small: expected number to be >=1$/,
    );
    // An option it does not know, with the one meant.
    expect(() => connectMock(server.url, { token: SECRET, timeout: 5 } as never)).toThrow(
      /^connectMock: options: Unrecognized key: "timeout" \(did you mean "timeoutMs"\?\)$/,
    );
    expect(connectMock(`${server.url}/__mock/`, { token: SECRET }).baseUrl).toBe(server.url);
  });

  test('a mock that is down: a connection error naming the URL; a silent one: a time-out', async () => {
    const port = await closedPort();
    const down = connectMock(`http://127.0.0.1:${port}`, { token: SECRET });
    const error = await failure(down.reset());
    expect(error).toMatchObject({ code: 'unreachable', status: null, route: 'POST /__mock/reset' });
    expect(error.message).toMatch(
      new RegExp(
        `^Cannot reach the mock at http://127\\.0\\.0\\.1:${port} \\(POST /__mock/reset\\): .*ECONNREFUSED`,
      ),
    );
    const silent = await startServer(() => {}); // accepts, never answers
    try {
      const slow = connectMock(silent.url, { token: SECRET, timeoutMs: 50 });
      const timeout = await failure(slow.faults());
      expect(timeout).toMatchObject({ code: 'timeout', route: 'GET /__mock/faults' });
      expect(timeout.message).toBe(
        `The mock at ${silent.url} did not answer GET /__mock/faults within 50 ms`,
      );
    } finally {
      await silent.close();
    }
  });

  test('the token is only in the Authorization header: never in util.inspect or JSON', async () => {
    const seen: Headers[] = [];
    const spying = connectMock(server.url, {
      token: SECRET,
      fetch: (input, init) => {
        seen.push(new Headers(init.headers));
        expect(input).not.toContain(SECRET);
        expect(String(init.body ?? '')).not.toContain(SECRET);
        return fetch(input, init);
      },
    });
    await spying.clearFaults();
    expect(seen[0]!.get('authorization')).toBe(`Bearer ${SECRET}`);
    expect(spying.token).toBe(SECRET);
    expect(inspect(spying)).not.toContain(SECRET);
    expect(inspect(spying, { showHidden: true, depth: 5 })).not.toContain(SECRET);
    expect(JSON.stringify(spying)).toBe(
      JSON.stringify({ baseUrl: server.url, token: '***', timeoutMs: 30_000 }),
    );
    expect(`${inspect({ nested: spying })}`).not.toContain(SECRET);
  });

  test('in-process too: with the mock’s own fetch, no server needed', async () => {
    const inProcess = connectMock(api.baseUrl, { token: SECRET, fetch: api.fetch });
    await inProcess.injectFault({ path: '/merchant_api/v1/orders', status: 502, times: 1 });
    expect(api.faults()).toEqual([
      expect.objectContaining({ path: '/merchant_api/v1/orders', remaining: 1 }),
    ]);
    expect(await inProcess.clearFaults()).toBe(1);
    expect(api.clearFaults()).toBe(0);
  });
});

describe('connectMock: the reads and flush with a query, a per-call time-out', () => {
  test('deliveries, readDeliveries and flushWebhooks take the query of the control routes', async () => {
    const { shipment } = await inbound();
    await mock.advanceRestockingShipment(shipment.id, 'arrived');
    await mock.flushWebhooks(); // the first given up (500, 500)
    receiverStatus = 204;
    await mock.advanceRestockingShipment(shipment.id, 'processing');
    const all = await mock.flushWebhooks(undefined, { timeoutMs: 5_000 });
    expect(all.map((d) => [d.status, d.delivered])).toEqual([
      ['arrived', false],
      ['processing', true],
    ]);
    expect(await mock.readDeliveries()).toEqual(all);
    expect(await mock.deliveries()).toEqual(all);
    expect(all).toEqual(api.deliveries);

    const failed = await mock.deliveries({ status: 'failed' });
    expect(failed).toEqual({
      data: [all[0]],
      pagination: { current_page: 1, page_count: 1, item_count: 1, items_per_page: 50 },
    });
    expect(await mock.readDeliveries({ status: 'failed' })).toEqual(api.readDeliveries({ status: 'failed' }));
    // An empty query is a page too (page 1 of every delivery).
    expect((await mock.readDeliveries({})).pagination.item_count).toBe(2);
    const second = await mock.flushWebhooks({ url: all[1]!.url, page: 2, limit: 1 }, { timeoutMs: 5_000 });
    expect(second.data).toEqual([all[1]]);
    expect(second.pagination).toEqual({ current_page: 2, page_count: 2, item_count: 2, items_per_page: 1 });
    expect((await mock.flushWebhooks({ eventId: all[1]!.eventId })).data).toEqual([all[1]]);

    expect(await mock.readState()).toEqual(api.state);
    expect(await mock.readState({ collection: 'skus' })).toEqual(api.readState({ collection: 'skus' }));
    expect(await mock.readState({ collections: ['skus', 'restockingShipments'], limit: 1 })).toEqual(
      api.readState({ collections: ['skus', 'restockingShipments'], limit: 1 }),
    );

    const cases: [() => Promise<unknown>, RegExp][] = [
      [
        () => mock.deliveries({ status: SECRET as never }),
        /^GET \/__mock\/deliveries\?status=\*\*\*&page=1 answered 422: status: Invalid option: expected one of "delivered"\|"failed"\|"pending"$/,
      ],
      [
        () => mock.readDeliveries({ limit: 1001 }),
        /answered 422: limit: Too big: expected number to be <=1000$/,
      ],
      [
        () => mock.flushWebhooks({ page: 0 }),
        /^POST \/__mock\/webhooks\/flush\?page=0 answered 422: page: Too small: expected number to be >=1$/,
      ],
      [() => mock.readState({ collection: 'nope' as never }), /answered 422: collection: Invalid option/],
    ];
    for (const [call, message] of cases) {
      const error = await failure(call());
      expect(error).toMatchObject({ code: 'rejected', status: 422 });
      expect(error.message).toMatch(message);
    }
    // The time-out is the connection's own: checked before sending.
    expect(await failure(mock.flushWebhooks(undefined, { timeoutMs: 0 }))).toMatchObject({
      code: 'invalid_argument',
      argument: 'options.timeoutMs',
      message: 'flushWebhooks: options.timeoutMs: Too small: expected number to be >=1',
    });
  });

  test('flushWebhooks({ timeoutMs }) overrides the connection’s time-out for that call only', async () => {
    const silent = await startServer(() => {}); // accepts, never answers
    try {
      const slow = connectMock(silent.url, { token: SECRET, timeoutMs: 20_000 });
      const timeout = await failure(slow.flushWebhooks(undefined, { timeoutMs: 50 }));
      expect(timeout).toMatchObject({ code: 'timeout', route: 'POST /__mock/webhooks/flush' });
      expect(timeout.message).toBe(
        `The mock at ${silent.url} did not answer POST /__mock/webhooks/flush within 50 ms`,
      );
      const paged = await failure(slow.flushWebhooks({ status: 'failed' }, { timeoutMs: 30 }));
      expect(paged.route).toBe('POST /__mock/webhooks/flush?status=failed&page=1');
      expect(paged.message).toMatch(/within 30 ms$/);
      expect(slow.toJSON().timeoutMs).toBe(20_000);
    } finally {
      await silent.close();
    }
  });
});

describe('connectMock against the merchant-fulfillment-mock bin in a child process', () => {
  let sandbox = '';
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    sandbox = await binSandbox('mf-connect-bin-');
  }, 30_000);

  afterEach(() => {
    if (child?.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
    child = undefined;
  });

  afterAll(() => {
    if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  });

  /**
   * Starts the bin with `args` and resolves with its URL once it has printed its LAST startup line
   * (`last`: `State file: …` with `--state`, else `Control routes: …`), complete with its newline:
   * the output may arrive in any chunks, and a line cut short must not be read.
   */
  async function startBin(
    args: string[],
    last = /^State file: [^\n]*\n/m,
  ): Promise<{ proc: ChildProcess; url: string }> {
    const proc = spawnBin(sandbox, args);
    child = proc;
    await waitFor(proc, last);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output(proc))?.[1];
    expect(url).toBeDefined();
    return { proc, url: url! };
  }

  /** Sends SIGTERM to `proc` by its pid and resolves with its exit code (bounded wait). */
  function stop(proc: ChildProcess): Promise<number | null> {
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => reject(new Error('the mock did not exit after SIGTERM')), 10_000);
      proc.once('exit', (code) => {
        clearTimeout(timer);
        resolvePromise(code);
      });
      process.kill(proc.pid!, 'SIGTERM');
    });
  }

  test('--state survives a restart: stopped by SIGTERM (exit 0), started again, records and ids kept', async () => {
    const stateFile = join(sandbox, 'state.json');
    rmSync(stateFile, { force: true });
    const args = ['--port', '0', '--token', TOKEN, '--state', stateFile, '--quiet'];
    const first = await startBin(args);
    const remote = connectMock(first.url, { token: TOKEN });
    const sdk = new FulfillmentClient({ apiToken: remote.token, baseUrl: remote.baseUrl, maxRetries: 0 });
    const sku = await sdk.skus.create({ name: 'Mug', merchant_sku_id: 'MUG' });
    const inbound = await sdk.restockingShipments.v1.create({
      warehouse_id: 1,
      restocking_shipment_items: [{ sku_id: sku.id, announced_quantity: 2 }],
    });
    await remote.advanceRestockingShipment(inbound.id, 'restocked');
    const order = await sdk.orders.create({
      merchant_order_id: 'O-1',
      shipping_address: ADDRESS,
      items: [{ merchant_item_id: 'O-1-1', sku_id: sku.id, quantity: 1, price_per_unit_in_cents: 900 }],
    });
    const shipment = await remote.fulfillOrder(order.id);
    const before = await remote.state({ collection: 'orders' });
    expect(before.data.map((o) => [o.id, o.status])).toEqual([[order.id, 'fulfilled']]);
    expect(await stop(first.proc)).toBe(0);

    const second = await startBin(args);
    expect(output(second.proc)).toMatch(/State file: .* \(loaded;/);
    const again = connectMock(second.url, { token: TOKEN });
    expect(await again.state({ collection: 'orders' })).toEqual(before);
    const shipments = await again.readState({ collection: 'shipments' });
    expect(shipments.data).toEqual([shipment]);
    // New ids continue after the saved ones.
    const sdk2 = new FulfillmentClient({ apiToken: again.token, baseUrl: again.baseUrl, maxRetries: 0 });
    const next = await sdk2.orders.create({
      merchant_order_id: 'O-2',
      shipping_address: ADDRESS,
      items: [{ merchant_item_id: 'O-2-1', sku_id: sku.id, quantity: 1, price_per_unit_in_cents: 900 }],
    });
    expect(next.id).toBe(order.id + 1);
    expect((await sdk2.skus.create({ name: 'Cup', merchant_sku_id: 'CUP' })).id).toBe(sku.id + 1);
    expect((await again.state({ collection: 'orders' })).pagination.item_count).toBe(2);
    expect(await stop(second.proc)).toBe(0);
  });

  test('drives the mock the CLI started: client writes, remote control, state, reset', async () => {
    const { url } = await startBin(['--port', '0', '--token', TOKEN], /^Control routes: [^\n]*\n/m);
    const remote = connectMock(url, { token: TOKEN });
    const sdk = new FulfillmentClient({ apiToken: remote.token, baseUrl: remote.baseUrl, maxRetries: 0 });
    const sku = await sdk.skus.create({ name: 'Mug', merchant_sku_id: 'MUG' });
    const shipment = await sdk.restockingShipments.v1.create({
      warehouse_id: 1,
      restocking_shipment_items: [{ sku_id: sku.id, announced_quantity: 4 }],
    });
    expect((await remote.advanceRestockingShipment(shipment.id, 'received')).status).toBe('delivered');
    expect((await remote.advanceRestockingShipment(shipment.id, 'restocked')).status).toBe('restocked');
    const order = await sdk.orders.create({
      merchant_order_id: 'O-1',
      shipping_address: ADDRESS,
      items: [{ merchant_item_id: 'O-1-1', sku_id: sku.id, quantity: 1, price_per_unit_in_cents: 900 }],
    });
    expect((await remote.fulfillOrder(order.id)).order_id).toBe(order.id);
    expect((await remote.createReturn(order.id)).return_items).toHaveLength(1);
    const handle = await remote.injectFault({ path: '/merchant_api/v1/warehouses', status: 500, times: 1 });
    await expect(sdk.warehouses.list()).rejects.toMatchObject({ status: 500 });
    expect(await handle.remove()).toBe(false); // used up
    expect(await remote.flushWebhooks()).toEqual([]); // no receiver configured
    const orders = await remote.state({ collection: 'orders' });
    expect(orders.data.map((o) => o.status)).toEqual(['fulfilled']);
    await remote.reset();
    expect((await remote.state()).skus).toEqual([]);
    const refused = await failure(remote.fulfillOrder(order.id));
    expect(refused.status).toBe(404);
  });
});
