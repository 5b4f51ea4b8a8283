/**
 * The command line (`faces/cli.ts`) and the bin script around it.
 */

import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  CLI_USAGE,
  CliUsageError,
  COMMANDS_USAGE,
  type RunningCli,
  runCli,
} from '../../../src/testing/index.js';
import { VERSION } from '../../../src/version.js';
import { startServer } from '../../helpers/http-server.js';
import {
  ADDRESS,
  binSandbox,
  exitOf,
  mockRequest,
  orderBody,
  output,
  skuBody,
  spawnBin,
  until,
  waitFor,
  within,
} from '../helpers.js';

describe('runCli', () => {
  test('starts the server and prints its URL and token', async () => {
    const lines: string[] = [];
    const running = await runCli(['--port', '0', '--token', 'cli-token', '--page-size=2'], {
      out: (l) => lines.push(l),
    });
    try {
      expect(running).toBeDefined();
      const url = running!.server.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines[0]).toBe(`Merchant Fulfillment mock API listening on ${url}`);
      expect(lines[1]).toBe('API token: cli-token');
      const answer = await mockRequest(url, 'GET', '/merchant_api/v1/warehouses', undefined, 'cli-token');
      expect(answer.status).toBe(200);
      expect(answer.body.pagination.items_per_page).toBe(2);
      expect(running!.api.token).toBe('cli-token');
    } finally {
      await running?.close();
    }
  });

  test('passes the other options on', async () => {
    const running = await runCli(
      [
        '--port=0',
        '--token',
        'a',
        '--token',
        'b',
        '--blocked-country',
        'CH',
        '--rate-limit',
        '1',
        '--latency',
        '0',
      ],
      { out: () => {} },
    );
    try {
      expect(running!.api.tokens).toEqual(['a', 'b']);
      const url = running!.server.url;
      expect((await mockRequest(url, 'GET', '/merchant_api/v1/warehouses', undefined, 'b')).status).toBe(200);
      const limited = await mockRequest(url, 'GET', '/merchant_api/v1/warehouses', undefined, 'b');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('x-rate-limit-max')).toBe('1');
    } finally {
      await running?.close();
    }
  });

  test('--latency, --blocked-country and repeated --webhook; control routes drive the mock', async () => {
    const hooks: string[] = [];
    const receiver = await startServer((req: IncomingMessage, res: ServerResponse) => {
      hooks.push(req.url!);
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    const running = await runCli(
      [
        '--port=0',
        '--token=t',
        '--latency',
        '40',
        '--blocked-country',
        'ch',
        '--blocked-country=KP',
        '--webhook',
        `${receiver.url}/a`,
        `--webhook=${receiver.url}/b`,
      ],
      { out: () => {} },
    );
    try {
      const url = running!.server.url;
      const started = performance.now();
      const sku = await mockRequest(url, 'POST', '/merchant_api/v1/skus', skuBody('A'), 't');
      expect(performance.now() - started).toBeGreaterThanOrEqual(35);
      for (const country of ['CH', 'KP', 'DE']) {
        const order = await mockRequest(
          url,
          'POST',
          '/merchant_api/v1/orders',
          { ...orderBody(`O-${country}`, 'A'), shipping_address: { ...ADDRESS, country_code: country } },
          't',
        );
        expect(order.body.status, country).toBe(country === 'DE' ? 'fulfillable' : 'unfulfillable');
      }
      const shipment = await mockRequest(
        url,
        'POST',
        '/merchant_api/v1/restocking_shipments',
        { warehouse_id: 1, restocking_shipment_items: [{ sku_id: sku.body.id, announced_quantity: 1 }] },
        't',
      );
      const advanced = await mockRequest(
        url,
        'POST',
        `/__mock/restocking_shipments/${shipment.body.id}/advance`,
        { status: 'arrived' },
        't',
      );
      expect(advanced.body.status).toBe('arrived');
      const flushed = await mockRequest(url, 'POST', '/__mock/webhooks/flush', undefined, 't');
      expect(flushed.body.data.map((d: { delivered: boolean }) => d.delivered)).toEqual([true, true]);
      expect(hooks.sort()).toEqual(['/a', '/b']);
    } finally {
      await running?.close();
      await receiver.close();
    }
  });

  test('--rate-limit <requests>/<ms> sets the window', async () => {
    const running = await runCli(['--port=0', '--token=t', '--rate-limit', '2/150'], { out: () => {} });
    try {
      const url = running!.server.url;
      expect(running!.api).toBeDefined();
      const statuses: number[] = [];
      let retryAfter = '';
      for (let i = 0; i < 3; i++) {
        const answer = await mockRequest(url, 'GET', '/merchant_api/v1/warehouses', undefined, 't');
        statuses.push(answer.status);
        expect(answer.headers.get('x-rate-limit-max')).toBe('2');
        retryAfter = answer.headers.get('retry-after') ?? '';
      }
      expect(statuses).toEqual([200, 200, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(Number(retryAfter)).toBeLessThanOrEqual(0.2);
      await new Promise((r) => setTimeout(r, Number(retryAfter) * 1000 + 10));
      expect((await mockRequest(url, 'GET', '/merchant_api/v1/warehouses', undefined, 't')).status).toBe(200);
    } finally {
      await running?.close();
    }
  });

  test('a port in use is a clean usage error, not a stack trace', async () => {
    const taken = await startServer(() => {});
    try {
      const port = Number(new URL(taken.url).port);
      const error = await runCli(['--port', String(port)], { out: () => {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CliUsageError);
      expect((error as Error).message).toBe(
        `Cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE)`,
      );
    } finally {
      await taken.close();
    }
  });

  test('close() closes the mock: webhook deliveries in flight are abandoned', async () => {
    const silent = await startServer(() => {});
    const running = await runCli(['--port=0', '--token=t', '--webhook', `${silent.url}/hooks`], {
      out: () => {},
    });
    try {
      const api = running!.api;
      const sku = await mockRequest(running!.server.url, 'POST', '/merchant_api/v1/skus', skuBody('A'), 't');
      const shipment = await mockRequest(
        running!.server.url,
        'POST',
        '/merchant_api/v1/restocking_shipments',
        { warehouse_id: 1, restocking_shipment_items: [{ sku_id: sku.body.id, announced_quantity: 1 }] },
        't',
      );
      api.advanceRestockingShipment(shipment.body.id, 'arrived');
      await until(() => api.deliveries[0]!.attempts === 1);
      await running!.close();
      // Nothing is left in flight: the flush settles at once.
      expect(await within(api.flushWebhooks(), 1000, 'in flight')).not.toBe('in flight');
      expect(api.deliveries[0]).toMatchObject({ finished: true, error: 'abandoned: the mock was closed' });
    } finally {
      await running?.close();
      await silent.close();
    }
  });

  test('--help prints the usage and starts nothing', async () => {
    const lines: string[] = [];
    expect(await runCli(['--help'], { out: (l) => lines.push(l) })).toBeUndefined();
    expect(lines).toEqual([CLI_USAGE]);
  });

  test.each([
    [['--nope'], /^Unknown option, got a string of 6 characters\n\nUsage:/],
    [['stray'], /^Unknown command, got a string of 5 characters \(expected one of advance, fulfil,/],
    [['--quiet', 'stray'], /^Unexpected argument, got a string of 5 characters\n\nUsage:/],
    [['--quiet', '-p'], /^Unexpected argument, got a string of 2 characters\n/],
    [['--port'], /needs a value/],
    [['--port', 'abc'], /must be an integer from 0 to 65535/],
    [['--port', '65536'], /'--port' must be an integer from 0 to 65535, got '65536'/],
    [['--port', '-1'], /'--port' must be an integer from 0 to 65535, got '-1'/],
    [['--port', '1', '--port', '2'], /given twice/],
    [['--port='], /^Option '--port' needs a value\n/],
    [['--help=yes'], /^Option '--help' takes no value\n\nUsage:/],
    [['--print-url=1'], /^Option '--print-url' takes no value\n\nUsage:/],
    [['--'], /^Unknown option, got a string of 2 characters\n/],
    [['--constructor'], /^Unknown option, got a string of 13 characters\n/],
    [['--quiet', '-hx'], /^Unexpected argument, got a string of 3 characters\n/],
    [['--page-size', '0'], /must be an integer >= 1/],
    [['--webhook', 'not-a-url', '--port', '0'], /webhooks\[0\]: must be an absolute http: or https: URL/],
    [['--rate-limit', 'abc'], /'--rate-limit' must be <requests>\/<ms>/],
    [['--rate-limit', '0/1000'], /'--rate-limit' must be <requests>\/<ms>/],
    [['--rate-limit', '5/0'], /'--rate-limit' must be <requests>\/<ms>/],
    [['--rate-limit', '5/'], /'--rate-limit' must be <requests>\/<ms>/],
    [['--latency', '-5'], /'--latency' must be an integer >= 0/],
    [
      ['--blocked-country', 'CHE'],
      /'--blocked-country' must be a 2-letter country code, got a string of 3 characters$/,
    ],
    [['--port', '7x'], /^Option '--port' must be an integer from 0 to 65535, got a string of 2 characters$/],
  ])('usage error for %j', async (argv, message) => {
    const error = await runCli(argv, { out: () => {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliUsageError);
    expect((error as Error).message).toMatch(message);
  });
});

/**
 * The bin script, spawned with node against a fresh bundle of the sources laid out as the package is
 * (bin/ + dist/). Never against the checkout's own dist/: a build running meanwhile rewrites it.
 */
/** The bin bundled once for every test of this file that spawns it. */
let sandbox = '';

beforeAll(async () => {
  sandbox = await binSandbox('mf-mock-bin-');
}, 30_000);

afterAll(() => {
  if (sandbox) rmSync(sandbox, { recursive: true, force: true });
});

describe('the bin', () => {
  test('--print-url: the first line is the URL alone; the rest as without it', async () => {
    const child = spawnBin(sandbox, ['--port', '0', '--token', 'bin-token', '--print-url']);
    try {
      const lines = createInterface({ input: child.stdout! });
      const url = await new Promise<string>((resolve) => lines.once('line', resolve));
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await waitFor(child, /^Control routes: /m);
      expect(output(child)).not.toContain('listening on');
      expect(output(child)).toContain(`API token: bin-token\n`);
      const answer = await mockRequest(url, 'GET', '/merchant_api/v1/warehouses', undefined, 'bin-token');
      expect(answer.status).toBe(200);
      process.kill(child.pid!, 'SIGTERM');
      expect(await exitOf(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  test('SIGTERM while a webhook delivery hangs: the process still exits by itself', async () => {
    const arrived: IncomingMessage[] = [];
    const silent = await startServer((req: IncomingMessage) => {
      arrived.push(req); // accepts the delivery, never answers
    });
    // The delivery's own time-out is far beyond the bounded wait for the exit below: exiting by
    // itself at all proves the delivery was abandoned.
    const child = spawnBin(sandbox, [
      '--port',
      '0',
      '--token',
      'bin-token',
      '--webhook',
      `${silent.url}/hooks`,
      '--webhook-timeout',
      '600000',
    ]);
    try {
      const [, url] = await waitFor(child, /listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
      const sku = await mockRequest(url!, 'POST', '/merchant_api/v1/skus', skuBody('A'), 'bin-token');
      const shipment = await mockRequest(
        url!,
        'POST',
        '/merchant_api/v1/restocking_shipments',
        { warehouse_id: 1, restocking_shipment_items: [{ sku_id: sku.body.id, announced_quantity: 1 }] },
        'bin-token',
      );
      const path = `/__mock/restocking_shipments/${shipment.body.id}/advance`;
      expect((await mockRequest(url!, 'POST', path, { status: 'arrived' }, 'bin-token')).status).toBe(200);
      await until(() => arrived.length === 1);
      const deliveries = await mockRequest(url!, 'GET', '/__mock/deliveries', undefined, 'bin-token');
      expect(deliveries.body.data[0]).toMatchObject({ finished: false });
      child.kill('SIGTERM');
      expect(await exitOf(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await silent.close();
    }
  });

  test('a port in use exits with status 2 and a one-line message', async () => {
    const taken = await startServer(() => {});
    const port = new URL(taken.url).port;
    try {
      const child = spawnBin(sandbox, ['--port', port]);
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      expect(await exitOf(child)).toBe(2);
      expect(stderr.trim()).toBe(
        `Cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE)`,
      );
    } finally {
      await taken.close();
    }
  });

  test('a usage error exits with status 2', async () => {
    const child = spawnBin(sandbox, ['--bogus']);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await exitOf(child)).toBe(2);
    expect(stderr).toMatch(/^Unknown option, got a string of 7 characters\n/);
  });

  test('a token pasted as a word, an option or a value is never printed: described, exit 2', async () => {
    const pasted = 'sk_live_4eC39HqLyjWDarjtT1';
    const cases: [string[], RegExp][] = [
      // Not a command the bin knows, so the server's parser refuses it as a command mistyped.
      [[pasted], /^Unknown command, got a string of 26 characters \(expected one of advance, fulfil, /],
      [['--port', '0', pasted], /^Unexpected argument, got a string of 26 characters\n\nUsage: /],
      [[`--${pasted}`], /^Unknown option, got a string of 28 characters\n\nUsage: /],
      [
        ['--port', pasted],
        /^Option '--port' must be an integer from 0 to 65535, got a string of 26 characters$/,
      ],
      [
        ['--rate-limit', pasted],
        /^Option '--rate-limit' must be <requests>\/<ms> .*, got a string of 26 characters$/,
      ],
      [
        ['--blocked-country', pasted],
        /^Option '--blocked-country' must be .*, got a string of 26 characters$/,
      ],
      [['--port', '0', '--cors', pasted], /^Option '--cors' must be .*, got a string of 26 characters$/],
    ];
    const runs = cases.map(async ([argv, message]) => {
      const child = spawnBin(sandbox, argv);
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await exitOf(child);
      return { argv, message, code, stderr };
    });
    for (const { argv, message, code, stderr } of await Promise.all(runs)) {
      expect(code, argv.join(' ')).toBe(2);
      expect(stderr.trimEnd(), argv.join(' ')).toMatch(message);
      expect(stderr.toLowerCase(), argv.join(' ')).not.toContain(pasted.toLowerCase());
    }
  });
});

/**
 * The command line's newer options, run in-process (`runCli`): a log line per request and
 * `--quiet`, `--version`, `--state` (load, save on change and on close, crash-safe writes, refused
 * files left alone), `--seed`, the webhook retry flags and `--cors`.
 */
describe('the server options', () => {
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
      writeFileSync(
        file,
        JSON.stringify({ skus: [{ name: 'x', merchant_sku_id: 'A' }, { name: 'no code' }] }),
      );
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
});

/**
 * The bin script as a process, on a fresh bundle of the sources laid out as the package is
 * (`bin/` + `dist/`): request log lines on stdout, `--version`, `--state` across a restart
 * (SIGTERM) and a crash (SIGKILL), an invalid state file (exit 2, file untouched), and the
 * subcommands dispatched to `runCommand`.
 */
describe('the bin as a child process', () => {
  const TOKEN = 'bin-secret-token';

  let dir = '';
  let children: ChildProcess[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mf-mock-state-'));
  });

  afterEach(() => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    children = [];
    rmSync(dir, { recursive: true, force: true });
  });

  /** A spawned bin with its output collected. */
  interface Run {
    child: ChildProcess;
    stdout: () => string;
    stderr: () => string;
  }

  function run(args: string[]): Run {
    const child = spawnBin(sandbox, args);
    children.push(child);
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    return { child, stdout: () => output(child), stderr: () => err };
  }

  /** The first complete line (its `\n` arrived) of `text` that starts with `prefix`. */
  function lineOf(text: string, prefix: string): string | undefined {
    return text
      .split('\n')
      .slice(0, -1)
      .find((line) => line.startsWith(prefix));
  }

  /**
   * Starts the server on a free port and resolves with its URL once the whole startup banner is out.
   * The banner is several writes (URL, token, control routes, state file), which a busy machine
   * delivers in separate chunks: seeing the URL does not mean the later lines have arrived.
   */
  async function serve(args: string[]): Promise<Run & { url: string }> {
    const started = run(['--port', '0', '--token', TOKEN, ...args]);
    const last = args.includes('--state') ? 'State file: ' : 'Control routes: ';
    await until(
      () => lineOf(started.stdout(), last) !== undefined || started.child.exitCode !== null,
      10_000,
    );
    const url = /^Merchant Fulfillment mock API listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(
      lineOf(started.stdout(), 'Merchant Fulfillment mock API listening on ') ?? '',
    )?.[1];
    if (!url || lineOf(started.stdout(), last) === undefined) {
      throw new Error(`did not start: ${started.stdout()}${started.stderr()}`);
    }
    return { ...started, url };
  }

  const readState = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

  describe('merchant-fulfillment-mock (process)', () => {
    test('a bad --cors: exit 2 before anything is done (no state file written)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mf-mock-cors-'));
      try {
        const file = join(dir, 'mock.json');
        const refused = run(['--port', '0', '--state', file, '--cors', 'localhost']);
        expect(await exitOf(refused.child)).toBe(2);
        expect(refused.stderr()).toMatch(/Option '--cors' must be '\*' or origins/);
        expect(refused.stdout()).not.toMatch(/listening/);
        expect(readdirSync(dir)).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('--version prints the version and exits 0', async () => {
      const version = run(['--version']);
      expect(await exitOf(version.child)).toBe(0);
      expect(version.stdout().trim()).toBe(VERSION);
    });

    test('logs one line per request on stdout, never the token; --quiet none', async () => {
      const server = await serve([]);
      await mockRequest(server.url, 'POST', '/merchant_api/v1/skus', skuBody('A'), TOKEN);
      await mockRequest(server.url, 'GET', '/__mock/state', undefined, TOKEN);
      await until(() => lineOf(server.stdout(), 'GET /__mock/state ') !== undefined);
      expect(server.stdout()).toMatch(/^POST \/merchant_api\/v1\/skus 201 \d+ ms$/m);
      expect(server.stdout()).toMatch(/^GET \/__mock\/state 200 \d+ ms \(control\)$/m);
      const afterStartup = server.stdout().slice(server.stdout().indexOf('Control routes'));
      expect(afterStartup).not.toContain(TOKEN);
      server.child.kill('SIGTERM');
      expect(await exitOf(server.child)).toBe(0);

      const quiet = await serve(['--quiet']);
      await mockRequest(quiet.url, 'POST', '/merchant_api/v1/skus', skuBody('A'), TOKEN);
      quiet.child.kill('SIGTERM');
      expect(await exitOf(quiet.child)).toBe(0);
      expect(quiet.stdout()).not.toContain('/merchant_api/v1/skus 201');
    });

    test('--state survives a restart: the order is there and the next id continues', async () => {
      const file = join(dir, 'state.json');
      const first = await serve(['--state', file]);
      await mockRequest(first.url, 'POST', '/merchant_api/v1/skus', skuBody('A'), TOKEN);
      const order = await mockRequest(
        first.url,
        'POST',
        '/merchant_api/v1/orders',
        orderBody('O-1', 'A'),
        TOKEN,
      );
      expect(order.body.id).toBe(1);
      first.child.kill('SIGTERM');
      expect(await exitOf(first.child)).toBe(0);
      expect(readState(file).orders).toHaveLength(1);
      expect(readdirSync(dir)).toEqual(['state.json']); // no temporary file left behind

      const second = await serve(['--state', file]);
      expect(second.stdout()).toContain('(loaded; saved after every change)');
      const orders = await mockRequest(second.url, 'GET', '/merchant_api/v1/orders', undefined, TOKEN);
      expect(orders.body.data).toMatchObject([{ id: 1, merchant_order_id: 'O-1' }]);
      const next = await mockRequest(
        second.url,
        'POST',
        '/merchant_api/v1/orders',
        orderBody('O-2', 'A'),
        TOKEN,
      );
      expect(next.body.id).toBe(2);
      second.child.kill('SIGTERM');
      expect(await exitOf(second.child)).toBe(0);
    });

    test('--state after a crash (SIGKILL once a change was saved): the file is valid and loads', async () => {
      const file = join(dir, 'state.json');
      const first = await serve(['--state', file]);
      await mockRequest(first.url, 'POST', '/merchant_api/v1/skus', skuBody('A'), TOKEN);
      await mockRequest(first.url, 'POST', '/merchant_api/v1/orders', orderBody('O-1', 'A'), TOKEN);
      await until(() => existsSync(file) && readState(file).orders.length === 1, 5_000);
      // More changes, then the kill: whatever was being written, the file is a whole save.
      for (let i = 0; i < 5; i++) {
        await mockRequest(first.url, 'POST', '/merchant_api/v1/skus', skuBody(`S${i}`), TOKEN);
      }
      first.child.kill('SIGKILL');
      await exitOf(first.child);
      const saved = readState(file);
      expect(saved.orders).toHaveLength(1);

      const second = await serve(['--state', file]);
      const orders = await mockRequest(second.url, 'GET', '/merchant_api/v1/orders', undefined, TOKEN);
      expect(orders.body.data).toMatchObject([{ id: 1, merchant_order_id: 'O-1' }]);
      second.child.kill('SIGTERM');
      expect(await exitOf(second.child)).toBe(0);
    });

    test('an invalid state file: exit 2, a message naming the field, the file untouched', async () => {
      const file = join(dir, 'state.json');
      const first = await serve(['--state', file]);
      await mockRequest(first.url, 'POST', '/merchant_api/v1/skus', skuBody('A'), TOKEN);
      first.child.kill('SIGTERM');
      expect(await exitOf(first.child)).toBe(0);
      const saved = readState(file);
      saved.skus[0].status = 'gone';
      const content = JSON.stringify(saved, null, 2);
      writeFileSync(file, content);

      const second = run(['--port', '0', '--state', file]);
      expect(await exitOf(second.child)).toBe(2);
      expect(second.stderr().trim()).toBe(
        `The state file '${file}' is invalid: skus[0].status: Invalid option: expected one of "active"|"deleted"`,
      );
      expect(readFileSync(file, 'utf8')).toBe(content);
    });

    test('a subcommand drives a running mock and exits with its status', async () => {
      const server = await serve(['--quiet']);
      await mockRequest(server.url, 'POST', '/merchant_api/v1/skus', skuBody('A'), TOKEN);
      const reset = run(['reset', '--url', server.url, '--token', TOKEN]);
      expect(await exitOf(reset.child)).toBe(0);
      const skus = await mockRequest(server.url, 'GET', '/merchant_api/v1/skus', undefined, TOKEN);
      expect(skus.body.data).toEqual([]);
      const refused = run(['fulfil', '99', '--url', server.url, '--token', TOKEN]);
      expect(await exitOf(refused.child)).toBe(1);
      expect(refused.stderr()).not.toContain(TOKEN);
      server.child.kill('SIGTERM');
      expect(await exitOf(server.child)).toBe(0);
    });
  });
});
