/**
 * The command line's newer options, run in-process (`runCli`): a log line per request and
 * `--quiet`, `--version`, `--state` (load, save on change and on close, crash-safe writes, refused
 * files left alone), `--seed`, the webhook retry flags and `--cors`.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  CLI_USAGE,
  CliUsageError,
  COMMANDS_USAGE,
  type RunningCli,
  runCli,
} from '../../../src/testing/index.js';
import { VERSION } from '../../../src/version.js';
import { startServer } from '../../helpers/http-server.js';
import { ADDRESS, mockRequest, orderBody, skuBody, until } from '../helpers.js';

const T = 'cli-secret-token';
let dir = '';
let running: RunningCli[] = [];
let closers: (() => Promise<void>)[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mf-mock-cli-'));
});

afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  await Promise.all(closers.map((c) => c()));
  running = [];
  closers = [];
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the command on a free port with token `T`; collects its output lines. */
async function start(args: string[], lines: string[] = [], errors: string[] = []): Promise<RunningCli> {
  const cli = await runCli(['--port=0', `--token=${T}`, ...args], {
    out: (l) => lines.push(l),
    err: (l) => errors.push(l),
  });
  if (!cli) throw new Error('nothing started');
  running.push(cli);
  return cli;
}

async function stop(cli: RunningCli): Promise<void> {
  running = running.filter((r) => r !== cli);
  await cli.close();
}

async function usageError(argv: string[]): Promise<Error> {
  const error = await runCli(argv, { out: () => {}, err: () => {} }).then(
    (cli) => {
      if (cli) running.push(cli);
      throw new Error('started');
    },
    (e: unknown) => e as Error,
  );
  expect(error).toBeInstanceOf(CliUsageError);
  return error;
}

describe('the request log', () => {
  test('one line per API and control request: method, path with query, status, duration; never the token', async () => {
    const lines: string[] = [];
    const cli = await start([], lines);
    const url = cli.server.url;
    const startup = lines.length;
    await mockRequest(url, 'POST', '/merchant_api/v1/skus', skuBody('A'), T);
    await mockRequest(url, 'GET', '/merchant_api/v1/skus?page=1&limit=5', undefined, T);
    await mockRequest(url, 'GET', '/merchant_api/v1/nothing', undefined, T);
    await mockRequest(url, 'GET', '/merchant_api/v1/skus', undefined, 'wrong');
    await mockRequest(url, 'POST', '/__mock/reset', undefined, T);
    const logged = lines.slice(startup);
    expect(logged).toHaveLength(5);
    expect(logged[0]).toMatch(/^POST \/merchant_api\/v1\/skus 201 \d+ ms$/);
    expect(logged[1]).toMatch(/^GET \/merchant_api\/v1\/skus\?page=1&limit=5 200 \d+ ms$/);
    expect(logged[2]).toMatch(/^GET \/merchant_api\/v1\/nothing 404 \d+ ms$/);
    expect(logged[3]).toMatch(/^GET \/merchant_api\/v1\/skus 401 \d+ ms$/);
    expect(logged[4]).toMatch(/^POST \/__mock\/reset 204 \d+ ms \(control\)$/);
    for (const line of logged) {
      expect(line).not.toContain(T);
      expect(line).not.toContain('wrong');
    }
  });

  test('--quiet: the startup lines only', async () => {
    const lines: string[] = [];
    const cli = await start(['--quiet'], lines);
    const startup = [...lines];
    await mockRequest(cli.server.url, 'POST', '/merchant_api/v1/skus', skuBody('A'), T);
    await mockRequest(cli.server.url, 'GET', '/__mock/state', undefined, T);
    expect(lines).toEqual(startup);
    expect(startup[0]).toMatch(/listening on http/);
  });
});

describe('--version and --help', () => {
  test.each([['--version'], ['-v']])('%s prints the version and starts nothing', async (flag) => {
    const lines: string[] = [];
    expect(await runCli([flag], { out: (l) => lines.push(l) })).toBeUndefined();
    expect(lines).toEqual([VERSION]);
  });

  test('the help lists every option and the subcommands', () => {
    for (const option of [
      '--state <file>',
      '--seed <file>',
      '--cors <origin>',
      '--quiet',
      '-v, --version',
      '--webhook-attempts <n>',
      '--webhook-backoff <ms>',
      '--webhook-timeout <ms>',
    ]) {
      expect(CLI_USAGE).toContain(option);
    }
    expect(CLI_USAGE.endsWith(COMMANDS_USAGE)).toBe(true);
  });

  test('the control routes line points at the index of the control routes', async () => {
    const lines: string[] = [];
    const cli = await start([], lines);
    expect(lines).toContain(`Control routes: ${cli.server.url}/__mock/ (see --help)`);
  });

  test.each([
    [['--quiet=yes'], /'--quiet' takes no value/],
    [['--webhook-attempts', '0'], /'--webhook-attempts' must be an integer >= 1, got '0'/],
    [['--webhook-backoff', '-1'], /'--webhook-backoff' must be an integer >= 0/],
    [['--webhook-timeout', 'soon'], /'--webhook-timeout' must be an integer >= 1/],
    [['--state', 'a.json', '--state', 'b.json'], /'--state' is given twice/],
    [['--port=0', '--cors', 'localhost'], /Option '--cors' must be '\*' or origins/],
  ])('usage error for %j', async (argv, message) => {
    expect((await usageError(argv)).message).toMatch(message);
  });
});

describe('--state', () => {
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

  test('a new file is written at start, after each change and on close; a restart continues from it', async () => {
    const file = join(dir, 'mock.json');
    const lines: string[] = [];
    const first = await start(['--state', file, '--quiet'], lines);
    expect(lines).toContain(`State file: ${file} (new; saved after every change)`);
    await until(() => existsSync(file));
    expect(read(file)).toMatchObject({ format: 'merchant-fulfillment-mock-state', skus: [] });
    const url = first.server.url;
    await mockRequest(url, 'POST', '/merchant_api/v1/skus', skuBody('A'), T);
    const order = await mockRequest(url, 'POST', '/merchant_api/v1/orders', orderBody('O-1', 'A'), T);
    expect(order.body.id).toBe(1);
    await until(() => read(file).orders.length === 1);
    await mockRequest(url, 'POST', '/__mock/orders/1/fulfill', undefined, T);
    await stop(first);
    expect(read(file).orders[0].status).toBe('fulfilled');
    expect(readdirSync(dir)).toEqual(['mock.json']); // no temporary file left behind

    const again: string[] = [];
    const second = await start(['--state', file, '--quiet'], again);
    expect(again).toContain(`State file: ${file} (loaded; saved after every change)`);
    const orders = await mockRequest(second.server.url, 'GET', '/merchant_api/v1/orders', undefined, T);
    expect(orders.body.data).toMatchObject([{ id: 1, merchant_order_id: 'O-1', status: 'fulfilled' }]);
    const next = await mockRequest(
      second.server.url,
      'POST',
      '/merchant_api/v1/orders',
      orderBody('O-2', 'A'),
      T,
    );
    expect(next.body.id).toBe(2);
    await stop(second);
    expect(read(file).orders).toHaveLength(2);
  });

  test('a burst of changes is saved, the last one included', async () => {
    const file = join(dir, 'burst.json');
    const cli = await start(['--state', file, '--quiet']);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        mockRequest(cli.server.url, 'POST', '/merchant_api/v1/skus', skuBody(`S${i}`), T),
      ),
    );
    await until(() => existsSync(file) && read(file).skus.length === 20);
    await stop(cli);
    expect(read(file).lastIds.skus).toBe(20);
  });

  test.each<[string, string, RegExp]>([
    ['not JSON', '{"format":', /The state file '.*bad\.json' is not JSON/],
    [
      'not a state',
      '{"hello":1}',
      /The state file '.*bad\.json' is invalid: format: Invalid input: expected "merchant-fulfillment-mock-state"/,
    ],
  ])('a file that is %s is refused and left as it was', async (_name, content, message) => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, content);
    expect((await usageError(['--port=0', '--state', file])).message).toMatch(message);
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  test('a field at fault is named, and the file is left as it was', async () => {
    const file = join(dir, 'state.json');
    const cli = await start(['--state', file, '--quiet']);
    await mockRequest(cli.server.url, 'POST', '/merchant_api/v1/skus', skuBody('A'), T);
    await mockRequest(cli.server.url, 'POST', '/merchant_api/v1/orders', orderBody('O-1', 'A'), T);
    await stop(cli);
    const saved = read(file);
    saved.orders[0].items[0].sku_id = 9;
    const content = JSON.stringify(saved);
    writeFileSync(file, content);
    const error = await usageError(['--port=0', '--state', file]);
    expect(error.message).toBe(
      `The state file '${file}' is invalid: orders[0].items[0].sku_id: no SKU with id 9`,
    );
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  test('a save that fails is reported, and the mock goes on', async () => {
    const file = join(dir, 'gone', 'state.json'); // its directory does not exist
    const errors: string[] = [];
    const cli = await start(['--state', file, '--quiet'], [], errors);
    await until(() => errors.length > 0);
    expect(errors[0]).toMatch(/^Cannot save the state to '.*state\.json': ENOENT/);
    const answer = await mockRequest(cli.server.url, 'POST', '/merchant_api/v1/skus', skuBody('A'), T);
    expect(answer.status).toBe(201);
    running = running.filter((r) => r !== cli);
    await expect(cli.close()).rejects.toThrow(/ENOENT/);
  });
});

describe('closing and the token', () => {
  test('the final save happens even when closing the mock fails', async () => {
    const file = join(dir, 'mock.json');
    const cli = await start(['--state', file, '--quiet']);
    await until(() => existsSync(file));
    await mockRequest(cli.server.url, 'POST', '/merchant_api/v1/skus', skuBody('A'), T);
    const close = cli.api.close.bind(cli.api);
    // The mock's own close fails after closing: the state is still saved, and the error surfaces.
    Object.defineProperty(cli.api, 'close', {
      value: async () => {
        await close();
        throw new Error('close failed');
      },
    });
    running = running.filter((r) => r !== cli);
    await expect(cli.close()).rejects.toThrow('close failed');
    expect(JSON.parse(readFileSync(file, 'utf8')).skus).toHaveLength(1);
  });

  test('without --token, FULFILLMENT_MOCK_TOKEN is the accepted token (what the subcommands send)', async () => {
    const lines: string[] = [];
    const cli = await runCli(['--port=0', '--quiet'], {
      out: (l) => lines.push(l),
      env: { FULFILLMENT_MOCK_TOKEN: ' env-token ' },
    });
    if (!cli) throw new Error('nothing started');
    running.push(cli);
    expect(cli.api.tokens).toEqual(['env-token']);
    expect(
      (await mockRequest(cli.server.url, 'GET', '/merchant_api/v1/warehouses', undefined, 'env-token'))
        .status,
    ).toBe(200);
    const flag = await runCli(['--port=0', '--quiet', '--token=flag-token'], {
      out: () => {},
      env: { FULFILLMENT_MOCK_TOKEN: 'env-token' },
    });
    if (!flag) throw new Error('nothing started');
    running.push(flag);
    expect(flag.api.tokens).toEqual(['flag-token']); // --token wins
  });
});

describe('--seed', () => {
  const seed = {
    skus: [{ merchant_sku_id: 'MUG', name: 'Mug' }],
    restockingShipments: [
      {
        warehouse_id: 1,
        status: 'restocked',
        restocking_shipment_items: [{ sku_code: 'MUG', announced_quantity: 5 }],
      },
    ],
    orders: [
      {
        merchant_order_id: 'ORD-1',
        shipping_address: ADDRESS,
        items: [{ merchant_item_id: '1', merchant_sku_id: 'MUG', quantity: 2 }],
      },
    ],
  };

  test('starts from the fixtures', async () => {
    const file = join(dir, 'seed.json');
    writeFileSync(file, JSON.stringify(seed));
    const cli = await start(['--seed', file, '--quiet']);
    const skus = await mockRequest(cli.server.url, 'GET', '/merchant_api/v1/skus', undefined, T);
    expect(skus.body.data[0].inventory).toEqual({ reserved: 2, stocked: 3, total: 3 });
  });

  test('with --state: the seed fills a new state file, and is ignored once the file exists', async () => {
    const seedFile = join(dir, 'seed.json');
    const stateFile = join(dir, 'state.json');
    writeFileSync(seedFile, JSON.stringify(seed));
    const first = await start(['--seed', seedFile, '--state', stateFile, '--quiet']);
    await mockRequest(first.server.url, 'DELETE', '/merchant_api/v1/skus/1', undefined, T);
    await stop(first);
    writeFileSync(seedFile, JSON.stringify({ skus: [{ merchant_sku_id: 'OTHER', name: 'Other' }] }));
    const second = await start(['--seed', seedFile, '--state', stateFile, '--quiet']);
    const skus = await mockRequest(second.server.url, 'GET', '/merchant_api/v1/skus', undefined, T);
    expect(skus.body.data).toMatchObject([{ merchant_sku_id: 'MUG', status: 'deleted' }]);
  });

  test('a fixture the API refuses is a usage error naming it', async () => {
    const file = join(dir, 'seed.json');
    writeFileSync(file, JSON.stringify({ skus: [{ name: 'x', merchant_sku_id: 'A' }, { name: 'no code' }] }));
    expect((await usageError(['--port=0', '--seed', file])).message).toBe(
      `The seed file '${file}' is invalid: skus[1]: Merchant sku can't be blank`,
    );
  });

  test('a missing seed file is a usage error', async () => {
    const file = join(dir, 'nope.json');
    expect((await usageError(['--port=0', '--seed', file])).message).toBe(
      `The seed file '${file}' does not exist`,
    );
  });
});

describe('webhook retry flags', () => {
  test('--webhook-attempts and --webhook-backoff: a receiver answering 500 sees exactly n attempts', async () => {
    let hits = 0;
    const receiver = await startServer((req: IncomingMessage, res: ServerResponse) => {
      hits += 1;
      req.resume();
      req.on('end', () => res.writeHead(500).end());
    });
    closers.push(receiver.close);
    const cli = await start([
      '--quiet',
      '--webhook',
      `${receiver.url}/hook`,
      '--webhook-attempts',
      '3',
      '--webhook-backoff',
      '1',
    ]);
    const url = cli.server.url;
    await mockRequest(url, 'POST', '/merchant_api/v1/skus', skuBody('A'), T);
    const shipment = await mockRequest(
      url,
      'POST',
      '/merchant_api/v1/restocking_shipments',
      { warehouse_id: 1, restocking_shipment_items: [{ sku_id: 1, announced_quantity: 1 }] },
      T,
    );
    cli.api.advanceRestockingShipment(shipment.body.id, 'arrived');
    await cli.api.flushWebhooks();
    expect(hits).toBe(3);
    expect(cli.api.deliveries[0]).toMatchObject({
      attempts: 3,
      statusCodes: [500, 500, 500],
      delivered: false,
    });
  });

  test('--webhook-timeout: an attempt that hangs fails after that time', async () => {
    const receiver = await startServer(() => {}); // never answers
    closers.push(receiver.close);
    const cli = await start([
      '--quiet',
      '--webhook',
      `${receiver.url}/hook`,
      '--webhook-attempts=2',
      '--webhook-backoff=0',
      '--webhook-timeout=30',
    ]);
    await mockRequest(cli.server.url, 'POST', '/merchant_api/v1/skus', skuBody('A'), T);
    const shipment = await mockRequest(
      cli.server.url,
      'POST',
      '/merchant_api/v1/restocking_shipments',
      { warehouse_id: 1, restocking_shipment_items: [{ sku_id: 1, announced_quantity: 1 }] },
      T,
    );
    cli.api.advanceRestockingShipment(shipment.body.id, 'arrived');
    await cli.api.flushWebhooks();
    expect(cli.api.deliveries[0]).toMatchObject({ attempts: 2, statusCodes: [null, null], finished: true });
  });
});

describe('--cors', () => {
  test('answers preflights and allows the origins given', async () => {
    const lines: string[] = [];
    const cli = await start(['--cors', 'http://localhost:5173', '--cors=http://127.0.0.1:3000'], lines);
    const preflight = await fetch(`${cli.server.url}/merchant_api/v1/skus`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:3000', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    const answer = await fetch(`${cli.server.url}/merchant_api/v1/skus`, {
      headers: { origin: 'http://localhost:5173', authorization: `Bearer ${T}` },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(lines.filter((l) => l.includes('/merchant_api/v1/skus'))).toEqual([
      'OPTIONS /merchant_api/v1/skus 204 0 ms',
      expect.stringMatching(/^GET \/merchant_api\/v1\/skus 200 \d+ ms$/),
    ]);
  });

  test('absent: no CORS headers', async () => {
    const cli = await start(['--quiet']);
    const answer = await fetch(`${cli.server.url}/merchant_api/v1/skus`, {
      headers: { origin: 'http://localhost:5173', authorization: `Bearer ${T}` },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});
