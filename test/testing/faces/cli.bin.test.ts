/**
 * The bin script as a process, on a fresh bundle of the sources laid out as the package is
 * (`bin/` + `dist/`): request log lines on stdout, `--version`, `--state` across a restart
 * (SIGTERM) and a crash (SIGKILL), an invalid state file (exit 2, file untouched), and the
 * subcommands dispatched to `runCommand`.
 */
import type { ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { VERSION } from '../../../src/version.js';
import { binSandbox, exitOf, mockRequest, orderBody, output, skuBody, spawnBin, until } from '../helpers.js';

const TOKEN = 'bin-secret-token';

let sandbox = '';
let dir = '';
let children: ChildProcess[] = [];

beforeAll(async () => {
  sandbox = await binSandbox('mf-mock-bin-state-');
}, 30_000);

afterAll(() => {
  if (sandbox) rmSync(sandbox, { recursive: true, force: true });
});

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
  await until(() => lineOf(started.stdout(), last) !== undefined || started.child.exitCode !== null, 10_000);
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
  test('a bad --cors: exit 2 before anything is done (no stale temporary file removed, no state file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mf-mock-cors-'));
    try {
      const file = join(dir, 'mock.json');
      const stale = join(dir, '.mock.json.1.tmp');
      writeFileSync(stale, '{}');
      const old = new Date(Date.now() - 3_600_000);
      utimesSync(stale, old, old);
      const refused = run(['--port', '0', '--state', file, '--cors', 'localhost']);
      expect(await exitOf(refused.child)).toBe(2);
      expect(refused.stderr()).toMatch(/Option '--cors' must be '\*' or origins/);
      expect(refused.stdout()).not.toMatch(/listening/);
      expect(readdirSync(dir)).toEqual(['.mock.json.1.tmp']);
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
