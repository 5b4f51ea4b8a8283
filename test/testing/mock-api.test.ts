/**
 * The composition root (`mock-api.ts`): `reset()` and `close()` of the whole mock — records, servers,
 * webhook deliveries in flight and timers.
 */
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApi } from '../../src/testing/index.js';
import { startServer } from '../helpers/http-server.js';
import {
  activeTimeouts,
  mockRequest,
  restockingShipment,
  settledTimeouts,
  TOKEN,
  testApi,
  until,
  within,
} from './helpers.js';

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
  api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
}

describe('reset', () => {
  test('reset() clears every record and restarts ids', async () => {
    const api = testApi();
    await mockRequest(api, 'POST', '/merchant_api/v1/skus', { name: 'A', merchant_sku_id: 'A' });
    api.reset();
    expect(api.state.skus).toEqual([]);
    expect(api.state.requests).toEqual([]);
    const again = await mockRequest(api, 'POST', '/merchant_api/v1/skus', {
      name: 'A',
      merchant_sku_id: 'A',
    });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(1);
  });
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
    const timeoutsBefore = await settledTimeouts();
    await sendWebhook(api);
    // One delivery hangs on its attempt, the other waits 10 s before its retry. (Its `error` is set
    // just before the backoff timer starts: its status code alone may be recorded a moment earlier.)
    await until(
      () =>
        hook.requests.length === 1 &&
        api.deliveries[1]!.statusCodes.length === 1 &&
        api.deliveries[1]!.error !== null,
    );
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
      await expect(
        mockRequest(server.url, 'GET', '/merchant_api/v1/warehouses', undefined, null),
      ).rejects.toThrow(TypeError);
    }
    // The mock stays usable in-process, and closing again is harmless.
    expect((await mockRequest(api, 'GET', '/merchant_api/v1/warehouses')).status).toBe(200);
    await api.close();
  });

  test('api.close() cuts pending response delays short', async () => {
    const api = testApi({ latency: 5_000, tokens: [TOKEN] });
    const server = await api.listen();
    const pending = mockRequest(server.url, 'GET', '/merchant_api/v1/warehouses').catch((e: unknown) => e);
    await until(() => activeTimeouts() > 0);
    const started = performance.now();
    await api.close();
    expect(await pending).toBeInstanceOf(TypeError);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
