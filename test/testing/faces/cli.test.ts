/**
 * The command line (`faces/cli.ts`) and the bin script around it.
 */
import { rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI_USAGE, CliUsageError, runCli } from '../../../src/testing/index.js';
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
    [['--help=yes'], /^Option '--help' takes no value$/],
    [['--print-url=1'], /^Option '--print-url' takes no value$/],
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
describe('the bin', () => {
  let sandbox = '';

  beforeAll(async () => {
    sandbox = await binSandbox('mf-mock-bin-');
  }, 30_000);

  afterAll(() => {
    if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  });

  test('serves the API, prints URL and token, and exits by itself on SIGTERM', async () => {
    const child = spawnBin(sandbox, ['--port', '0', '--token', 'bin-token']);
    try {
      const [, url] = await waitFor(child, /listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
      const answer = await mockRequest(url!, 'GET', '/merchant_api/v1/warehouses', undefined, 'bin-token');
      expect(answer.status).toBe(200);
      child.kill('SIGTERM');
      expect(await exitOf(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

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
