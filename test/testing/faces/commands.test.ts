/**
 * The subcommands (`faces/commands.ts`): `runCommand` in-process against a mock listening on a
 * real port (output captured), exit codes 0 / 1 / 2, the token never printed; then the bin run as
 * a child process against a mock the bin started.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  COMMANDS,
  COMMANDS_USAGE,
  type MockApi,
  type MockServer,
  runCommand,
} from '../../../src/testing/index.js';
import { closedPort } from '../../helpers/http-server.js';
import {
  binSandbox,
  mockRequest,
  orderBody,
  restockingShipment,
  skuBody,
  spawnBin,
  TOKEN,
  testApi,
  waitFor,
} from '../helpers.js';

const SECRET = 'tok_commands_secret_42';

let api: MockApi;
const COLLECTIONS =
  '"skus"|"orders"|"restockingShipments"|"restockingShipmentsV2"|"shipments"|"returns"|"warehouses"|"requests"';
let server: MockServer;
/** What the webhook receiver answers. */
let receiverStatus = 500;

beforeEach(async () => {
  receiverStatus = 500;
  api = testApi({
    tokens: [SECRET, TOKEN], // TOKEN: the helpers' requests
    webhooks: ['https://shop.example/hooks'],
    webhookRetry: { attempts: 1, initialDelayMs: 1 },
    webhookFetch: async () => new Response(null, { status: receiverStatus }),
  });
  server = await api.listen({ port: 0 });
});
afterEach(() => api.close());

/** Runs a command with `--url` and `--token` of the test mock; captures both streams. */
async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommand([...argv, '--url', server.url, '--token', SECRET], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env: {},
  });
  for (const line of [...out, ...err]) expect(line).not.toContain(SECRET);
  return { code, out, err };
}

const target = () => ({ fetch: api.fetch, baseUrl: api.baseUrl });

describe('runCommand against a listening mock', () => {
  test('advance, with quantities, and --json prints the raw result', async () => {
    const id = await restockingShipment({ fetch: api.fetch, baseUrl: api.baseUrl }, 'MUG', 4);
    expect(await run('advance', String(id), 'received')).toEqual({
      code: 0,
      out: [`Restocking shipment ${id} is now delivered`],
      err: [],
    });
    const skuId = api.state.skus[0]!.id;
    const restocked = await run(
      'advance',
      String(id),
      'restocked',
      '--damaged',
      `${skuId}=1`,
      '--missing=1',
      '--json',
    );
    expect(restocked.code).toBe(0);
    const shipment = JSON.parse(restocked.out[0]!);
    expect(shipment).toMatchObject({ id, status: 'restocked' });
    expect(shipment.restocking_shipment_items[0]).toMatchObject({
      arrived_quantity: 2,
      damaged_quantity: 1,
      missing_quantity: 1,
    });
  });

  test('fulfil (and its alias fulfill), return with items and a reason', async () => {
    await mockRequest(target(), 'POST', '/merchant_api/v1/skus', skuBody('MUG'), SECRET);
    await mockRequest(target(), 'POST', '/merchant_api/v1/orders', orderBody('O-1', 'MUG', 2), SECRET);
    await mockRequest(target(), 'POST', '/merchant_api/v1/orders', orderBody('O-2', 'MUG', 1), SECRET);
    expect((await run('fulfil', '1')).out).toEqual(['Order 1 fulfilled: shipment 1 (shipped)']);
    expect((await run('fulfill', '2')).out).toEqual(['Order 2 fulfilled: shipment 2 (shipped)']);
    const returned = await run(
      'return',
      '1',
      '--item',
      '1=1',
      '--reason',
      'not_picked_up',
      '--carrier',
      'UPS',
    );
    expect(returned).toEqual({
      code: 0,
      out: ['Return 1 recorded for order 1 (on_the_way, 1 item)'],
      err: [],
    });
    expect(api.state.returns[0]).toMatchObject({ carrier: 'UPS', return_reason: 'not_picked_up' });
  });

  test('flush-webhooks, deliveries and redeliver', async () => {
    api.advanceRestockingShipment(await restockingShipment(target(), 'MUG', 1), 'arrived');
    expect((await run('flush-webhooks')).out).toEqual([
      '1 webhook delivery: 0 delivered, 1 given up, 0 in flight',
    ]);
    const [delivery] = api.deliveries;
    receiverStatus = 200;
    expect((await run('redeliver', '--event-id', 'nope')).out).toEqual(['Re-queued 0 webhook deliveries']);
    expect(
      (await run('redeliver', '--event-id', delivery!.eventId, '--receiver', delivery!.url)).out,
    ).toEqual(['Re-queued 1 webhook delivery']);
    expect((await run('flush-webhooks')).out).toEqual([
      '1 webhook delivery: 1 delivered, 0 given up, 0 in flight',
    ]);
    const listed = await run('deliveries', '--json');
    expect(JSON.parse(listed.out[0]!)).toEqual([
      expect.objectContaining({ delivered: true, redeliveries: 1 }),
    ]);
  });

  test('deliveries and flush-webhooks filter and page; flush-webhooks takes a --timeout', async () => {
    api.advanceRestockingShipment(await restockingShipment(target(), 'MUG', 1), 'arrived');
    await run('flush-webhooks');
    receiverStatus = 200;
    api.advanceRestockingShipment(await restockingShipment(target(), 'CUP', 1), 'arrived');
    expect((await run('flush-webhooks', '--timeout', '5000')).out).toEqual([
      '2 webhook deliveries: 1 delivered, 1 given up, 0 in flight',
    ]);
    expect((await run('deliveries', '--status', 'failed')).out).toEqual([
      'Page 1/1 (1 of 1 matching): 1 webhook delivery: 0 delivered, 1 given up, 0 in flight',
    ]);
    const [, second] = api.deliveries;
    const paged = await run(
      'flush-webhooks',
      '--receiver',
      second!.url,
      '--page',
      '2',
      '--limit',
      '1',
      '--json',
    );
    expect(JSON.parse(paged.out[0]!)).toEqual({
      data: [second],
      pagination: { current_page: 2, page_count: 2, item_count: 2, items_per_page: 1 },
    });
    expect((await run('deliveries', '--event-id', second!.eventId)).out).toEqual([
      'Page 1/1 (1 of 1 matching): 1 webhook delivery: 1 delivered, 0 given up, 0 in flight',
    ]);
    const wrong = await run('deliveries', '--status', 'lost');
    expect(wrong.code).toBe(1);
    expect(wrong.err[0]).toBe(
      'Error: GET /__mock/deliveries answered 422: status: Invalid option: expected one of "delivered"|"failed"|"pending"',
    );
    expect((await run('flush-webhooks', '--timeout', '0')).code).toBe(2);
  });

  test('faults, clear-faults, reset, routes', async () => {
    api.injectFault({ method: 'GET', path: '/merchant_api/v1/warehouses', times: 2 });
    api.injectFault({ path: /^\/merchant_api\/v1\/skus/ });
    expect((await run('faults')).out).toEqual([
      '2 faults in force: #1 GET /merchant_api/v1/warehouses (2 left), #2 * /^\\/merchant_api\\/v1\\/skus/',
    ]);
    expect((await run('clear-faults')).out).toEqual(['Removed 2 faults']);
    expect(api.faults()).toEqual([]);
    await mockRequest(target(), 'POST', '/merchant_api/v1/skus', skuBody('MUG'), SECRET);
    expect((await run('reset')).out).toEqual(['The mock was reset']);
    expect(api.state.skus).toEqual([]);
    const routes = await run('routes');
    expect(routes.out[0]).toContain('POST /__mock/webhooks/redeliver');
  });

  test('state: counts by default, one list or several paginated, the whole snapshot with --json', async () => {
    for (const code of ['A', 'B', 'C']) {
      await mockRequest(target(), 'POST', '/merchant_api/v1/skus', skuBody(code), SECRET);
    }
    expect((await run('state')).out).toEqual([
      'skus 3, orders 0, restockingShipments 0, restockingShipmentsV2 0, shipments 0, returns 0, warehouses 3, requests 3',
    ]);
    expect((await run('state', '--collection', 'skus', '--limit', '2', '--page', '2')).out).toEqual([
      'skus page 2/2 (1 of 3)',
    ]);
    expect((await run('state', '--collections', 'skus,orders')).out).toEqual([
      'skus page 1/1 (3 of 3); orders page 1/1 (0 of 0)',
    ]);
    const page = JSON.parse((await run('state', '--collection=skus', '--limit=1', '--json')).out[0]!);
    expect(page.pagination).toEqual({ current_page: 1, page_count: 3, item_count: 3, items_per_page: 1 });
    const all = JSON.parse((await run('state', '--json')).out[0]!);
    expect(all.skus).toHaveLength(3);
  });

  test('the URL and token from FULFILLMENT_MOCK_URL and FULFILLMENT_MOCK_TOKEN', async () => {
    const out: string[] = [];
    const code = await runCommand(['clear-faults'], {
      out: (line) => out.push(line),
      err: (line) => out.push(line),
      env: { FULFILLMENT_MOCK_URL: server.url, FULFILLMENT_MOCK_TOKEN: SECRET },
    });
    expect({ code, out }).toEqual({ code: 0, out: ['Removed 0 faults'] });
  });

  test('a control error exits 1 with the mock’s message, never the token', async () => {
    expect(await run('fulfil', '9')).toEqual({
      code: 1,
      out: [],
      err: ['Error: POST /__mock/orders/9/fulfill answered 404: No order with id 9'],
    });
    await mockRequest(target(), 'POST', '/merchant_api/v1/skus', skuBody('MUG'), SECRET);
    await mockRequest(target(), 'POST', '/merchant_api/v1/orders', orderBody('O-1', 'MUG', 1), SECRET);
    const refused = await run('return', '1');
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toMatch(/^Error: POST \/__mock\/orders\/1\/returns answered 422: /);

    const err: string[] = [];
    const wrongToken = await runCommand(['reset', '--url', server.url, '--token', 'wrong-token-xyz'], {
      out: () => {},
      err: (line) => err.push(line),
      env: {},
    });
    expect(wrongToken).toBe(1);
    expect(err[0]).toMatch(/answered 401: authentication required \(the bearer token is not one of/);
    expect(err.join('\n')).not.toContain('wrong-token-xyz');

    const port = await closedPort();
    const down: string[] = [];
    const unreachable = await runCommand(['reset', '--url', `http://127.0.0.1:${port}`, '--token', SECRET], {
      out: () => {},
      err: (line) => down.push(line),
      env: {},
    });
    expect(unreachable).toBe(1);
    expect(down[0]).toMatch(new RegExp(`^Error: Cannot reach the mock at http://127\\.0\\.0\\.1:${port} `));
    expect(down.join('\n')).not.toContain(SECRET);
  });

  test('a bad --reason: refused by the mock, as in-process: exit 1', async () => {
    const err: string[] = [];
    const code = await runCommand(
      ['return', '1', '--reason', 'bogus', '--url', server.url, '--token', SECRET],
      { out: () => {}, err: (line) => err.push(line), env: {} },
    );
    expect(code).toBe(1);
    expect(err).toEqual([
      expect.stringMatching(
        /^Error: POST \/__mock\/orders\/1\/returns answered 422: reason: Invalid option: expected one of "customer_return"\|.*"other"$/,
      ),
    ]);
    expect(api.state.returns).toEqual([]);
  });

  test.each([
    [['nope'], /^Unknown command, got a string of 4 characters \(expected one of advance, fulfil/],
    [['advance', '1'], /^'advance' needs <shipment-id> <status>: missing <status>$/],
    // Worded as checkRecordId words it; digits shown, other text only by its length.
    [['advance', 'x', 'arrived'], /^<shipment-id> must be an integer >= 1, got a string of 1 character$/],
    [['fulfil', '0'], /^<order-id> must be an integer >= 1, got '0'$/],
    [['return', '-3'], /^<order-id> must be an integer >= 1, got '-3'$/],
    [
      ['advance', '1', 'restocked', '--arrived', 'lots'],
      /^--arrived must be a number or <sku_id>=<n>\[,<sku_id>=<n>\.\.\.\], got a string of 4 characters$/,
    ],
    [['fulfil'], /missing <order-id>/],
    [['fulfil', '1', '2'], /^Unexpected argument, got '2' \('fulfil' takes <order-id>\)$/],
    [['reset', 'all'], /^Unexpected argument, got a string of 3 characters \('reset' takes options only\)$/],
    [
      ['reset', '--force'],
      /^Unknown option for 'reset', got a string of 7 characters \(expected --url, --token, --json, --help\)$/,
    ],
    [['return', '1', '--item', 'x'], /^--item must be <sku_id>=<quantity>, got a string of 1 character$/],
    [['reset', '--url'], /^Option '--url' needs a value$/],
    [['reset', '--url', '--json'], /^Option '--url' needs a value$/],
    [['reset', '--json=yes'], /^Option '--json' takes no value$/],
    [['reset', '--constructor'], /^Unknown option for 'reset', got a string of 13 characters/],
    [['fulfil', '-12'], /^<order-id> must be an integer >= 1, got '-12'$/],
    [
      ['fulfil', '1', '-hx'],
      /^Unexpected argument, got a string of 3 characters \('fulfil' takes <order-id>\)$/,
    ],
    [['reset', '--url', 'nowhere'], /^--url must be an absolute http\(s\) URL/],
  ])('usage error for %j: exit 2, nothing sent', async (argv, message) => {
    const before = api.state.requests.length;
    const err: string[] = [];
    const code = await runCommand(
      [...argv, ...(argv.includes('--url') ? [] : ['--url', server.url]), '--token', SECRET],
      {
        out: () => {},
        err: (line) => err.push(line),
        env: {},
      },
    );
    expect(code).toBe(2);
    expect(err[0]).toMatch(message);
    expect(err.slice(1)).toEqual(["See 'merchant-fulfillment-mock <command> --help'."]);
    expect(api.state.requests.length).toBe(before);
  });

  test.each([
    [
      ['state', '--page', 'two', '--collection', 'skus'],
      'GET /__mock/state',
      'page: Invalid input: expected number, received NaN',
    ],
    [
      ['advance', '1', 'teleported'],
      'POST /__mock/restocking_shipments/1/advance',
      'status: Invalid option: expected one of "created"|"shipped"|"delivered"|"received"|"arrived"|"processing"|"restocked"|"on_hold"|"cancelled"',
    ],
    [
      ['state', '--collection', 'nope'],
      'GET /__mock/state',
      `collection: Invalid option: expected one of ${COLLECTIONS}`,
    ],
    [
      ['state', '--collections', 'skus,nope'],
      'GET /__mock/state',
      `collections[1]: Invalid option: expected one of ${COLLECTIONS}`,
    ],
    [['state', '--page', '2'], 'GET /__mock/state', 'collection: give either collection or collections'],
    [
      ['state', '--collection', 'skus', '--collections', 'orders'],
      'GET /__mock/state',
      'collection: give either collection or collections',
    ],
    [
      ['state', '--limit', '0', '--collection', 'skus'],
      'GET /__mock/state',
      'limit: Too small: expected number to be >=1',
    ],
  ])(
    'a value the mock checks, %j: refused by the mock as in-process, exit 1',
    async (argv, route, problem) => {
      const err: string[] = [];
      const code = await runCommand([...argv, '--url', server.url, '--token', SECRET], {
        out: () => {},
        err: (line) => err.push(line),
        env: {},
      });
      expect(code).toBe(1);
      expect(err).toEqual([`Error: ${route} answered 422: ${problem}`]);
    },
  );

  test('a token pasted as a value the mock checks is never printed: the query is left out of the refusal', async () => {
    const pasted = 'sk_live_4eC39HqLyjWDarjtT1';
    for (const argv of [
      ['advance', '1', pasted],
      ['state', '--collections', `skus,${pasted}`],
      ['state', '--collection', pasted],
      ['deliveries', '--status', pasted],
      ['deliveries', '--page', pasted],
    ]) {
      const lines: string[] = [];
      const io = {
        out: (line: string) => lines.push(line),
        err: (line: string) => lines.push(line),
        env: {},
      };
      expect(await runCommand([...argv, '--url', server.url, '--token', SECRET], io), argv.join(' ')).toBe(1);
      expect(lines.join('\n').toLowerCase(), argv.join(' ')).not.toContain('4ec39hqlyjwdarjtt1');
    }
  });

  test('no token: exit 2; --help prints the usage and exits 0', async () => {
    const err: string[] = [];
    expect(await runCommand(['reset'], { out: () => {}, err: (l) => err.push(l), env: {} })).toBe(2);
    expect(err[0]).toMatch(/^An API token is needed: --token <token> or the FULFILLMENT_MOCK_TOKEN variable/);
    const out: string[] = [];
    expect(await runCommand(['advance', '--help'], { out: (l) => out.push(l), env: {} })).toBe(0);
    expect(out).toEqual([COMMANDS_USAGE]);
    for (const command of COMMANDS) expect(COMMANDS_USAGE).toContain(command);
  });
});

/**
 * Collects a child's output and resolves with its exit code once stdout and stderr are drained
 * (`'close'`: on `'exit'` the last output may still be in the pipes). Bounded.
 */
function finish(
  child: ChildProcess,
  ms = 10_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => reject(new Error(`no exit within ${ms} ms; got: ${stdout}${stderr}`)), ms);
    child.on('close', (code: number | null) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

describe('the bin dispatches subcommands', () => {
  let sandbox = '';
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    sandbox = await binSandbox('mf-commands-bin-');
  }, 30_000);

  afterEach(() => {
    for (const child of children.splice(0)) {
      if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
    }
  });

  afterAll(() => {
    if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  });

  test('a mock started by the bin is driven by the bin: exit 0 on success, 1 on a refusal', async () => {
    const mock = spawnBin(sandbox, ['--port', '0', '--token', SECRET]);
    children.push(mock);
    const [, url] = await waitFor(mock, /listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
    const env = { ...process.env, FULFILLMENT_MOCK_URL: url!, FULFILLMENT_MOCK_TOKEN: SECRET };
    const command = (...argv: string[]) => {
      const child = spawnBin(sandbox, argv, env);
      children.push(child);
      return finish(child);
    };
    await mockRequest(url!, 'POST', '/merchant_api/v1/skus', skuBody('MUG'), SECRET);
    expect(await command('state', '--collection', 'skus')).toEqual({
      code: 0,
      stdout: 'skus page 1/1 (1 of 1)\n',
      stderr: '',
    });
    const refused = await command('fulfil', '5');
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: POST /__mock/orders/5/fulfill answered 404: No order with id 5\n',
    });
    expect(await command('reset')).toEqual({ code: 0, stdout: 'The mock was reset\n', stderr: '' });
    const usage = await command('advance', '1');
    expect(usage.code).toBe(2);
    expect(usage.stderr).not.toContain(SECRET);
    // A token pasted where an id goes is described by its length, never printed.
    const pasted = await command('fulfil', 'sk_live_4eC39HqLyjWDarjtT1');
    expect(pasted).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "<order-id> must be an integer >= 1, got a string of 26 characters\nSee 'merchant-fulfillment-mock <command> --help'.\n",
    });
    expect(await command('advance', '0', 'arrived')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^<shipment-id> must be an integer >= 1, got '0'\n/),
    });
  });

  test('a token pasted as an argument, an option or a value is never printed: described, exit 2', async () => {
    const pasted = 'sk_live_4eC39HqLyjWDarjtT1';
    // Only letters, digits and dashes before the colon: it parses as a URL of that scheme.
    const schemed = 'sk-live-4eC39HqLyjWDarjtT1:x';
    // Nothing is sent: each is refused before the first request (the port is closed anyway).
    const env = {
      ...process.env,
      FULFILLMENT_MOCK_URL: `http://127.0.0.1:${await closedPort()}`,
      FULFILLMENT_MOCK_TOKEN: SECRET,
    };
    const cases: [string[], string][] = [
      [
        ['fulfil', '1', pasted],
        "Unexpected argument, got a string of 26 characters ('fulfil' takes <order-id>)",
      ],
      [
        ['reset', `--${pasted}`],
        "Unknown option for 'reset', got a string of 28 characters (expected --url, --token, --json, --help)",
      ],
      [
        ['advance', '1', 'restocked', '--arrived', pasted],
        '--arrived must be a number or <sku_id>=<n>[,<sku_id>=<n>...], got a string of 26 characters',
      ],
      [
        ['advance', '1', 'restocked', '--damaged', `12=1,${pasted}`],
        '--damaged must be a number or <sku_id>=<n>[,<sku_id>=<n>...], got a string of 31 characters',
      ],
      [
        ['return', '1', '--item', pasted],
        '--item must be <sku_id>=<quantity>, got a string of 26 characters',
      ],
      [['reset', '--url', schemed], '--url must be an absolute http(s) URL'],
    ];
    const runs = cases.map(async ([argv, message]) => {
      const child = spawnBin(sandbox, argv, env);
      children.push(child);
      return { message, ...(await finish(child)) };
    });
    for (const { message, code, stdout, stderr } of await Promise.all(runs)) {
      expect({ code, stdout, stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: `${message}\nSee 'merchant-fulfillment-mock <command> --help'.\n`,
      });
      for (const secret of [pasted, schemed])
        expect(stderr.toLowerCase()).not.toContain(secret.toLowerCase());
      expect(stderr.toLowerCase()).not.toContain('4ec39hqlyjwdarjtt1');
    }
  });
});
