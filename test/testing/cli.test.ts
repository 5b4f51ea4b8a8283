import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLI_USAGE, CliUsageError, runCli } from '../../src/testing/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = 'bin/merchant-fulfillment-mock.mjs';

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
      const answer = await fetch(`${url}/merchant_api/v1/warehouses`, {
        headers: { authorization: 'Bearer cli-token' },
      });
      expect(answer.status).toBe(200);
      expect(
        ((await answer.json()) as { pagination: { items_per_page: number } }).pagination.items_per_page,
      ).toBe(2);
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
      const url = `${running!.server.url}/merchant_api/v1/warehouses`;
      expect((await fetch(url, { headers: { authorization: 'Bearer b' } })).status).toBe(200);
      const limited = await fetch(url, { headers: { authorization: 'Bearer b' } });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('x-rate-limit-max')).toBe('1');
    } finally {
      await running?.close();
    }
  });

  test('--help prints the usage and starts nothing', async () => {
    const lines: string[] = [];
    expect(await runCli(['--help'], { out: (l) => lines.push(l) })).toBeUndefined();
    expect(lines).toEqual([CLI_USAGE]);
  });

  test.each([
    [['--nope'], /Unknown option '--nope'/],
    [['stray'], /Unexpected argument 'stray'/],
    [['--port'], /needs a value/],
    [['--port', 'abc'], /must be an integer >= 0/],
    [['--port', '1', '--port', '2'], /given twice/],
    [['--page-size', '0'], /must be an integer >= 1/],
    [['--webhook', 'not-a-url', '--port', '0'], /webhooks must be absolute URLs/],
  ])('usage error for %j', async (argv, message) => {
    const error = await runCli(argv, { out: () => {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliUsageError);
    expect((error as Error).message).toMatch(message);
  });
});

/** Reads stdout until `pattern` matches (bounded by `ms`). */
function waitFor(child: ChildProcess, pattern: RegExp, ms = 10_000): Promise<RegExpMatchArray> {
  return new Promise((resolvePromise, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; got: ${out}`)), ms);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}; got: ${out}`));
    });
  });
}

function exitOf(child: ChildProcess, ms = 5_000): Promise<number | null> {
  return new Promise((resolvePromise, reject) => {
    if (child.exitCode !== null) return resolvePromise(child.exitCode);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the process did not exit by itself'));
    }, ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolvePromise(code);
    });
  });
}

/**
 * The bin script, spawned with node: against the package's own build (`dist/testing.js`) when it
 * exists, and always against a fresh bundle of the sources laid out the same way (bin/ + dist/).
 */
describe('the bin', () => {
  let sandbox = '';
  const layouts: [string, string][] = [];

  beforeAll(async () => {
    if (existsSync(join(ROOT, 'dist/testing.js'))) layouts.push(['package build', ROOT]);
    const esbuild = await import('esbuild').catch(() => undefined);
    if (!esbuild) return;
    sandbox = mkdtempSync(join(tmpdir(), 'mf-mock-bin-'));
    mkdirSync(join(sandbox, 'bin'));
    copyFileSync(join(ROOT, BIN), join(sandbox, BIN));
    // One file, no code splitting, and no node_modules next to it: msw cannot be found there, so
    // this also proves the HTTP server face works without the optional peer dependency.
    await esbuild.build({
      entryPoints: [join(ROOT, 'src/testing/index.ts')],
      outfile: join(sandbox, 'dist/testing.js'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      external: ['msw'],
      logLevel: 'silent',
    });
    layouts.push(['sources bundle', sandbox]);
  }, 30_000);

  afterAll(() => {
    if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  });

  test('serves the API, prints URL and token, and exits by itself on SIGTERM', async () => {
    expect(layouts.length).toBeGreaterThan(0);
    for (const [name, root] of layouts) {
      const child = spawn(process.execPath, [join(root, BIN), '--port', '0', '--token', 'bin-token'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const [, url] = await waitFor(child, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
        const answer = await fetch(`${url}/merchant_api/v1/warehouses`, {
          headers: { authorization: 'Bearer bin-token' },
        });
        expect(answer.status, name).toBe(200);
        child.kill('SIGTERM');
        expect(await exitOf(child), name).toBe(0);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    }
  });

  test('a usage error exits with status 2', async () => {
    for (const [name, root] of layouts) {
      const child = spawn(process.execPath, [join(root, BIN), '--bogus'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      expect(await exitOf(child), name).toBe(2);
      expect(stderr).toMatch(/Unknown option '--bogus'/);
    }
  });
});
