import { spawn } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApi } from '../../src/testing/index.js';
import { startServer } from '../helpers/http-server.js';
import {
  activeTimeouts,
  call,
  createSku,
  httpCall,
  skuBody,
  TOKEN,
  testApi,
  until,
  within,
} from './helpers.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SKUS = '/merchant_api/v1/skus';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A webhook receiver that accepts connections and requests but never answers. */
async function silentReceiver() {
  const requests: IncomingMessage[] = [];
  const server = await startServer((req) => {
    requests.push(req);
  });
  closers.push(server.close);
  return { url: `${server.url}/hooks`, requests };
}

/** A restocking shipment of one SKU, moved to `arrived` (which sends a webhook). */
async function sendWebhook(api: MockApi): Promise<void> {
  const sku = await createSku(api, 'A');
  const answer = await call(api, 'POST', '/merchant_api/v1/restocking_shipments', {
    warehouse_id: 1,
    restocking_shipment_items: [{ sku_id: sku, announced_quantity: 2 }],
  });
  api.advanceRestockingShipment(answer.body.id, 'arrived');
}

describe('reset() while requests are in progress', () => {
  test('a request waiting on latency answers 503 "mock was reset" and writes nothing into the fresh state', async () => {
    const api = testApi({ latency: 200 });
    const pending = call(api, 'POST', SKUS, skuBody('LEAK'));
    await sleep(50);
    api.reset();
    const answer = await pending;
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ success: false, errors: ['mock was reset'] });
    expect(api.state.skus).toEqual([]);
    expect(api.state.requests).toEqual([]);
  });

  test('the same for a request delayed by an injected fault', async () => {
    const api = testApi();
    api.injectFault({ path: SKUS, method: 'POST', latency: 200, times: 1 });
    const pending = call(api, 'POST', SKUS, skuBody('LEAK'));
    await sleep(30);
    api.reset();
    expect((await pending).status).toBe(503);
    expect(api.state.skus).toEqual([]);
    expect((await call(api, 'POST', SKUS, skuBody('OK'))).body.id).toBe(1);
  });

  test('over HTTP, POST /__mock/reset cuts a slow request short the same way; the rate-limit window is fresh', async () => {
    const api = testApi({ latency: 200, rateLimit: { requests: 5, perMs: 60_000 } });
    const server = await api.listen();
    closers.push(server.close);
    const pending = httpCall(server.url, 'POST', SKUS, skuBody('LEAK'));
    await sleep(50);
    expect((await httpCall(server.url, 'POST', '/__mock/reset')).status).toBe(204);
    expect(await pending).toMatchObject({ status: 503, body: { errors: ['mock was reset'] } });
    const state = await httpCall(server.url, 'GET', '/__mock/state');
    expect(state.body.skus).toEqual([]);
    expect(state.body.requests).toEqual([]);
    const next = await httpCall(server.url, 'GET', '/merchant_api/v1/warehouses');
    expect(next.headers.get('x-rate-limit-used')).toBe('1');
  });
});

describe('webhook retry timers keep the process alive while needed', () => {
  test('a plain script awaiting flushWebhooks() at the top level sees the retry, then exits 0 by itself', async () => {
    const script = join(ROOT, 'test/testing/fixtures/flush-at-top-level.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
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
    expect(stdout).toContain('FLUSHED [[500,200]]');
    expect(code).toBe(0);
  }, 20_000);
});

describe('closing abandons webhook deliveries in flight', () => {
  test("the server's close() aborts a delivery to a receiver that never answers; its record stays", async () => {
    const hook = await silentReceiver();
    const api = testApi({ webhooks: [hook.url], webhookRetry: { attempts: 3, initialDelayMs: 10 } });
    const server = await api.listen();
    const timeoutsBefore = activeTimeouts();
    await sendWebhook(api);
    await until(() => hook.requests.length === 1);
    const socketClosed = new Promise<boolean>((r) => hook.requests[0]!.socket.once('close', () => r(true)));
    const started = performance.now();
    await server.close();
    expect(await within(api.flushWebhooks(), 1000, 'still in flight')).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await within(socketClosed, 1000, false)).toBe(true);
    expect(api.deliveries).toEqual([
      expect.objectContaining({
        attempts: 1,
        statusCodes: [],
        delivered: false,
        finished: true,
        error: 'abandoned: the mock was closed',
      }),
    ]);
    expect(activeTimeouts()).toBeLessThanOrEqual(timeoutsBefore);
    expect(hook.requests).toHaveLength(1); // no retry after close
  });

  test('api.close() closes every server, abandons deliveries (backoff waits included) and cancels every timer', async () => {
    const hook = await silentReceiver();
    const answering = await startServer((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    closers.push(answering.close);
    const api = testApi({
      latency: 0,
      webhooks: [hook.url, `${answering.url}/hooks`],
      webhookRetry: { attempts: 5, initialDelayMs: 10_000 },
    });
    const [a, b] = [await api.listen(), await api.listen()];
    const timeoutsBefore = activeTimeouts();
    await sendWebhook(api);
    // One delivery hangs on its attempt, the other waits 10 s before its retry.
    await until(() => hook.requests.length === 1 && api.deliveries[1]!.statusCodes.length === 1);
    expect(activeTimeouts()).toBeGreaterThan(timeoutsBefore); // the ref'd backoff timer
    const started = performance.now();
    await api.close();
    await api.flushWebhooks();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(api.deliveries.map((d) => [d.finished, d.delivered, d.error])).toEqual([
      [true, false, 'abandoned: the mock was closed'],
      [true, false, 'abandoned: the mock was closed'],
    ]);
    expect(activeTimeouts()).toBeLessThanOrEqual(timeoutsBefore);
    for (const server of [a, b]) {
      await expect(fetch(`${server.url}/merchant_api/v1/warehouses`)).rejects.toThrow(TypeError);
    }
    // The mock stays usable in-process, and closing again is harmless.
    expect((await call(api, 'GET', '/merchant_api/v1/warehouses')).status).toBe(200);
    await api.close();
  });

  test('api.close() cuts pending response delays short', async () => {
    const api = testApi({ latency: 5_000, tokens: [TOKEN] });
    const server = await api.listen();
    const pending = httpCall(server.url, 'GET', '/merchant_api/v1/warehouses').catch((e: unknown) => e);
    await until(() => activeTimeouts() > 0);
    const started = performance.now();
    await api.close();
    expect(await pending).toBeInstanceOf(TypeError);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
