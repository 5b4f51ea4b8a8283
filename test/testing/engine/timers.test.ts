/**
 * The mock's timers (`engine/timers.ts`): ref'd, so that a script awaiting a webhook retry at the
 * top level stays alive until it is done, then exits by itself.
 */
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('webhook retry timers keep the process alive while needed', () => {
  test.each([
    ['sees the retry', '', 'FLUSHED [[500,200]]'],
    ['sees a hung receiver time out', 'hung', 'the receiver did not answer within 100 ms'],
  ])(
    'a plain script awaiting flushWebhooks() at the top level %s, then exits 0 by itself',
    async (_, mode, seen) => {
      const script = join(ROOT, 'test/testing/fixtures/flush-at-top-level.ts');
      const child = spawn(process.execPath, ['--import', 'tsx', script, mode], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolvePromise, reject) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`the script did not exit within 15 s; stdout: ${stdout}; stderr: ${stderr}`));
        }, 15_000);
        child.on('exit', (exitCode) => {
          clearTimeout(timer);
          resolvePromise(exitCode);
        });
      });
      expect(stderr).not.toMatch(/unsettled top-level await/i);
      expect(stdout).toContain(seen);
      expect(code).toBe(0);
    },
    20_000,
  );
});
