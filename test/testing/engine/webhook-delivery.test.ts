/**
 * Webhook delivery (`engine/webhook-delivery.ts`) of the status event: signing, retries with the
 * same event id, redirects not followed, giving up, per-receiver order.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { createMockApi } from '../../../src/testing/index.js';
import { signWebhook, verifyWebhook } from '../../../src/webhooks/index.js';
import { closedPort, startServer } from '../../helpers/http-server.js';
import { mockRequest, restockingShipment, TOKEN, testApi, until } from '../helpers.js';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A webhook receiver answering each call with the next status of `statuses` (the last one repeats),
 * or `answer(status)` from then on. `url` is its `/hooks`; `base`, its root.
 */
async function receiver(statuses: number[] = [200]) {
  const calls: Received[] = [];
  const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = statuses[Math.min(calls.length - 1, statuses.length - 1)]!;
      res.end('ok');
    });
  });
  closers.push(server.close);
  const answer = (status: number) => {
    statuses = [status];
  };
  return { url: `${server.url}/hooks`, base: server.url, calls, answer };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const FAST = { attempts: 3, initialDelayMs: 5 };

describe('webhook delivery', () => {
  test('every status change POSTs the v1 shipment, signed with the oldest token, with a unique event id', async () => {
    const hook = await receiver();
    const api = testApi({ tokens: [TOKEN, 'newer-token'], webhooks: [hook.url], webhookRetry: FAST });
    const id = await restockingShipment(api);
    api.advanceRestockingShipment(id, 'delivered');
    await api.flushWebhooks();
    const afterDelivered = (await mockRequest(api, 'GET', `/merchant_api/v1/restocking_shipments/${id}`))
      .body;
    api.advanceRestockingShipment(id, 'restocked');
    await api.flushWebhooks();

    expect(hook.calls).toHaveLength(2);
    const [first, second] = hook.calls as [Received, Received];
    expect(first.headers['content-type']).toBe('application/json');
    expect(JSON.parse(first.body)).toEqual(afterDelivered);
    expect(JSON.parse(second.body)).toMatchObject({ id, status: 'restocked' });
    expect(first.headers['x-service-signature']).toBe(await signWebhook({ body: first.body, secret: TOKEN }));
    expect(first.headers['x-service-signature']).not.toBe(
      await signWebhook({ body: first.body, secret: 'newer-token' }),
    );
    expect(first.headers['x-service-event-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers['x-service-event-id']).not.toBe(second.headers['x-service-event-id']);

    const event = await verifyWebhook({
      body: second.body,
      headers: second.headers,
      secret: [TOKEN, 'newer-token'],
    });
    expect(event.data.status).toBe('restocked');

    expect(api.deliveries).toEqual([
      expect.objectContaining({
        url: hook.url,
        restockingShipmentId: id,
        status: 'delivered',
        attempts: 1,
        statusCodes: [200],
        delivered: true,
        finished: true,
        redeliveries: 0,
      }),
      expect.objectContaining({ status: 'restocked', attempts: 1, delivered: true }),
    ]);
    expect(api.deliveries[0]!.body).toBe(first.body);
    expect(api.deliveries[0]!.eventId).toBe(first.headers['x-service-event-id']);
  });

  test('a non-2xx answer is retried with the same event id', async () => {
    const hook = await receiver([500, 503, 204]);
    const api = testApi({ webhooks: [hook.url], webhookRetry: { attempts: 5, initialDelayMs: 5 } });
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    await api.flushWebhooks();
    expect(hook.calls).toHaveLength(3);
    const ids = new Set(hook.calls.map((c) => c.headers['x-service-event-id']));
    expect(ids.size).toBe(1);
    expect(new Set(hook.calls.map((c) => c.body)).size).toBe(1);
    expect(api.deliveries[0]).toMatchObject({
      attempts: 3,
      statusCodes: [500, 503, 204],
      delivered: true,
      error: null,
    });
  });

  test('while retrying, error says why the last attempt failed', async () => {
    let answer!: (response: Response) => void;
    const api = testApi({
      webhooks: ['https://shop.example/hooks'],
      webhookRetry: { attempts: 2, initialDelayMs: 0 },
      webhookFetch: () =>
        api.deliveries[0]!.attempts === 1
          ? Promise.resolve(new Response(null, { status: 503 }))
          : new Promise<Response>((resolve) => {
              answer = resolve;
            }),
    });
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    await until(() => api.deliveries[0]!.attempts === 2);
    expect(api.deliveries[0]).toMatchObject({ attempts: 2, error: 'receiver answered 503', finished: false });
    answer(new Response(null, { status: 200 }));
    await api.flushWebhooks();
    expect(api.deliveries[0]).toMatchObject({ delivered: true, error: null });
  });

  test('attempts are bounded; giving up says why', async () => {
    const hook = await receiver([500, 502, 503]);
    const api = testApi({ webhooks: [hook.url], webhookRetry: FAST });
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    await api.flushWebhooks();
    expect(hook.calls).toHaveLength(3);
    expect(api.deliveries[0]).toMatchObject({
      attempts: 3,
      statusCodes: [500, 502, 503],
      delivered: false,
      finished: true,
      error: 'gave up after 3 attempts (last status 503)',
    });
  });

  test('a single attempt that fails gives up at once', async () => {
    const hook = await receiver([410]);
    const api = testApi({ webhooks: [hook.url], webhookRetry: { attempts: 1 } });
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    await api.flushWebhooks();
    expect(api.deliveries[0]).toMatchObject({
      statusCodes: [410],
      error: 'gave up after 1 attempt (last status 410)',
    });
  });

  test('a 3xx is not followed: it is recorded and retried like any non-2xx, with the same POST', async () => {
    const calls: string[] = [];
    let answered = 0;
    const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
      calls.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => {
        answered += 1;
        if (req.url === '/hooks' && answered === 1) {
          res.writeHead(302, { location: '/elsewhere' }).end();
        } else if (req.url === '/hooks' && answered === 2) {
          res.writeHead(307, { location: '/elsewhere' }).end();
        } else {
          res.writeHead(200).end('ok');
        }
      });
    });
    closers.push(server.close);
    const api = testApi({ webhooks: [`${server.url}/hooks`], webhookRetry: FAST });
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    await api.flushWebhooks();
    expect(calls).toEqual(['POST /hooks', 'POST /hooks', 'POST /hooks']);
    expect(api.deliveries[0]).toMatchObject({
      attempts: 3,
      statusCodes: [302, 307, 200],
      delivered: true,
      error: null,
    });
  });

  test('only 3xx answers: the delivery gives up, never having followed one', async () => {
    const calls: string[] = [];
    const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
      calls.push(`${req.method} ${req.url}`);
      res.writeHead(301, { location: '/moved' }).end();
    });
    closers.push(server.close);
    const api = testApi({ webhooks: [`${server.url}/hooks`], webhookRetry: FAST });
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    await api.flushWebhooks();
    expect(calls).toEqual(['POST /hooks', 'POST /hooks', 'POST /hooks']);
    expect(api.deliveries[0]).toMatchObject({
      statusCodes: [301, 301, 301],
      delivered: false,
      error: 'gave up after 3 attempts (last status 301)',
    });
  });

  test('the webhookFetch option is asked not to follow redirects', async () => {
    const inits: RequestInit[] = [];
    const api = testApi({
      webhooks: ['https://shop.example/hooks'],
      webhookFetch: async (_url, init) => {
        inits.push(init);
        return new Response(null, { status: 204 });
      },
    });
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    await api.flushWebhooks();
    expect(inits.map((i) => [i.method, i.redirect])).toEqual([['POST', 'manual']]);
  });

  test('a connection error is retried, then recorded', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/hooks`;
    const api = testApi({ webhooks: [url], webhookRetry: FAST });
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    expect(api.deliveries[0]!.finished).toBe(false);
    await api.flushWebhooks();
    expect(api.deliveries[0]).toMatchObject({
      attempts: 3,
      statusCodes: [null, null, null],
      delivered: false,
      finished: true,
    });
    expect(api.deliveries[0]!.error).toMatch(/^gave up after 3 attempts \(last error: fetch failed/);
  });

  test("a receiver gets a shipment's events in the order of the status changes, even when one is retried", async () => {
    // The first call fails once: its retry must still arrive before the next event.
    const hook = await receiver([500, 200]);
    const api = testApi({ webhooks: [hook.url], webhookRetry: FAST });
    const id = await restockingShipment(api);
    for (const status of ['delivered', 'arrived', 'processing', 'restocked'] as const) {
      api.advanceRestockingShipment(id, status); // all at once, no flush in between
    }
    await api.flushWebhooks();
    const statuses = hook.calls.map((c) => (JSON.parse(c.body) as { status: string }).status);
    expect(statuses).toEqual(['delivered', 'delivered', 'arrived', 'processing', 'restocked']);
    const ids = hook.calls.map((c) => c.headers['x-service-event-id']);
    expect(ids[0]).toBe(ids[1]); // the retry carries the same event id
    expect(new Set(ids).size).toBe(4);
  });

  test('every receiver gets its own delivery', async () => {
    const a = await receiver();
    const b = await receiver();
    const api = testApi({ webhooks: [a.url, b.url], webhookRetry: FAST });
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    await api.flushWebhooks();
    expect(a.calls).toHaveLength(1);
    expect(b.calls).toHaveLength(1);
    expect(api.deliveries.map((d) => d.url)).toEqual([a.url, b.url]);
  });

  test('the webhookFetch option replaces the global fetch', async () => {
    const seen: string[] = [];
    const api = testApi({
      webhooks: ['https://shop.example/hooks'],
      webhookFetch: async (url, init) => {
        seen.push(`${init.method} ${url} ${new Headers(init.headers).get('x-service-event-id')}`);
        return new Response(null, { status: 200 });
      },
    });
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    await api.flushWebhooks();
    expect(seen).toEqual([`POST https://shop.example/hooks ${api.deliveries[0]!.eventId}`]);
  });

  test('a webhookFetch whose answer has a body that is no web stream (node-fetch 2): delivered once', async () => {
    const api = testApi({
      webhooks: ['https://shop.example/hooks'],
      webhookRetry: { attempts: 3, initialDelayMs: 0 },
      webhookFetch: async () => {
        const response = new Response(null, { status: 200 });
        // node-fetch 2 answers a Node stream as `body`: it has no `cancel`.
        Object.defineProperty(response, 'body', { value: { pipe() {} } });
        return response;
      },
    });
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    await api.flushWebhooks();
    expect(api.deliveries[0]).toMatchObject({ attempts: 1, delivered: true, statusCodes: [200] });
  });

  test('reset() abandons in-flight deliveries and leaves no timer behind', async () => {
    const hook = await receiver([500]);
    const api = testApi({ webhooks: [hook.url], webhookRetry: { attempts: 5, initialDelayMs: 10_000 } });
    const timeoutsBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    for (let i = 0; i < 100 && hook.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(hook.calls).toHaveLength(1);
    api.reset();
    await api.flushWebhooks(); // would take 10 s per retry if the wait were not cancelled
    expect(api.deliveries).toEqual([]);
    expect(hook.calls).toHaveLength(1);
    const timeoutsAfter = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    expect(timeoutsAfter).toBeLessThanOrEqual(timeoutsBefore);
  });

  test('without receivers nothing is sent', async () => {
    const api = createMockApi({ tokens: [TOKEN] });
    api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
    await api.flushWebhooks();
    expect(api.deliveries).toEqual([]);
  });
});

describe('the attempt time-out holds whatever webhookFetch does with its signal', () => {
  test('a webhookFetch that ignores the signal and never settles: each attempt times out, then the delivery is given up', async () => {
    let calls = 0;
    const api = testApi({
      webhooks: ['http://127.0.0.1:9/hooks'],
      webhookRetry: { attempts: 2, initialDelayMs: 1, timeoutMs: 30 },
      webhookFetch: () => {
        calls += 1;
        return new Promise(() => {});
      },
    });
    const id = await restockingShipment(api);
    api.advanceRestockingShipment(id, 'delivered');
    const started = performance.now();
    const [delivery] = await api.flushWebhooks();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(calls).toBe(2);
    expect(delivery).toMatchObject({
      delivered: false,
      finished: true,
      attempts: 2,
      statusCodes: [null, null],
      error: 'gave up after 2 attempts (last error: the receiver did not answer within 30 ms)',
    });
    await api.close();
  });

  test('an attempt that times out is retried: a later answer delivers it', async () => {
    let calls = 0;
    const api = testApi({
      webhooks: ['http://127.0.0.1:9/hooks'],
      webhookRetry: { attempts: 3, initialDelayMs: 1, timeoutMs: 30 },
      webhookFetch: async () => {
        calls += 1;
        return calls === 1 ? new Promise<Response>(() => {}) : new Response('ok');
      },
    });
    const id = await restockingShipment(api);
    api.advanceRestockingShipment(id, 'delivered');
    const [delivery] = await api.flushWebhooks();
    expect(delivery).toMatchObject({ delivered: true, attempts: 2, statusCodes: [null, 200], error: null });
    await api.close();
  });

  test('close() abandons an attempt whose webhookFetch never settles: a flush in progress resolves', async () => {
    const api = testApi({
      webhooks: ['http://127.0.0.1:9/hooks'],
      webhookRetry: { attempts: 1, timeoutMs: 60_000 },
      webhookFetch: () => new Promise(() => {}),
    });
    const id = await restockingShipment(api);
    api.advanceRestockingShipment(id, 'delivered');
    const flushing = api.flushWebhooks();
    await until(() => api.deliveries[0]?.attempts === 1);
    await api.close();
    const [delivery] = await flushing;
    expect(delivery).toMatchObject({
      delivered: false,
      finished: true,
      error: 'abandoned: the mock was closed',
    });
  });
});

/**
 * Redelivery (`WebhookDispatcher.redeliver`, `api.redeliverWebhooks()`): a delivery that was given
 * up is sent again — the same record, event id, body and signature, a fresh budget of attempts —
 * to a real receiver (node:http on 127.0.0.1) that is down, then back.
 */
describe('redelivery', () => {
  const RETRY = { attempts: 2, initialDelayMs: 1 };

  describe('redeliverWebhooks', () => {
    test('a receiver down until the deliveries are given up gets them on redelivery, unchanged', async () => {
      const hook = await receiver([500]);
      const api = testApi({ webhooks: [hook.url], webhookRetry: RETRY });
      const id = await restockingShipment(api);
      api.advanceRestockingShipment(id, 'delivered');
      api.advanceRestockingShipment(id, 'arrived');
      await api.flushWebhooks();
      expect(api.deliveries.map((d) => [d.status, d.delivered, d.finished, d.attempts, d.error])).toEqual([
        ['delivered', false, true, 2, 'gave up after 2 attempts (last status 500)'],
        ['arrived', false, true, 2, 'gave up after 2 attempts (last status 500)'],
      ]);
      const before = api.deliveries;
      expect(hook.calls).toHaveLength(4);

      hook.answer(204);
      const queued = api.redeliverWebhooks();
      expect(queued.map((d) => [d.eventId, d.finished, d.redeliveries, d.error])).toEqual([
        [before[0]!.eventId, false, 1, null],
        [before[1]!.eventId, false, 1, null],
      ]);
      await api.flushWebhooks();

      const after = api.deliveries;
      expect(after).toHaveLength(2); // the same records, no new ones
      for (const [i, delivery] of after.entries()) {
        expect(delivery).toMatchObject({
          eventId: before[i]!.eventId,
          body: before[i]!.body,
          delivered: true,
          finished: true,
          error: null,
          attempts: 3,
          statusCodes: [500, 500, 204],
          redeliveries: 1,
        });
      }
      // The receiver saw the same event id, body and signature on every attempt, in order.
      const redelivered = hook.calls.slice(4);
      expect(redelivered.map((c) => c.headers['x-service-event-id'])).toEqual([
        before[0]!.eventId,
        before[1]!.eventId,
      ]);
      for (const call of hook.calls) {
        const original = before.find((d) => d.eventId === call.headers['x-service-event-id'])!;
        expect(call.body).toBe(original.body);
        expect(call.headers['x-service-signature']).toBe(original.signature);
      }
      const event = await verifyWebhook({
        body: redelivered[1]!.body,
        headers: {
          'x-service-signature': redelivered[1]!.headers['x-service-signature'],
          'x-service-event-id': redelivered[1]!.headers['x-service-event-id'],
        },
        secret: TOKEN,
      });
      expect(event.data).toMatchObject({ id, status: 'arrived' });
      // Nothing left to redeliver.
      expect(api.redeliverWebhooks()).toEqual([]);
    });

    test('a fresh budget: given up again after as many attempts, counted on top', async () => {
      const hook = await receiver([500]);
      const api = testApi({ webhooks: [hook.url], webhookRetry: RETRY });
      api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
      await api.flushWebhooks();
      api.redeliverWebhooks();
      await api.flushWebhooks();
      expect(api.deliveries[0]).toMatchObject({
        delivered: false,
        finished: true,
        attempts: 4,
        statusCodes: [500, 500, 500, 500],
        redeliveries: 1,
        error: 'gave up after 4 attempts (last status 500)',
      });
      api.redeliverWebhooks();
      await api.flushWebhooks();
      expect(api.deliveries[0]).toMatchObject({ attempts: 6, redeliveries: 2 });
    });

    test('filters by eventId and by receiver url; delivered or in-flight deliveries are left alone', async () => {
      const down = await receiver([500]);
      const up = await receiver([500]);
      up.answer(200);
      const api = testApi({ webhooks: [`${down.base}/a`, `${up.base}/b`], webhookRetry: RETRY });
      const id = await restockingShipment(api);
      api.advanceRestockingShipment(id, 'delivered');
      api.advanceRestockingShipment(id, 'arrived');
      await api.flushWebhooks();
      const failed = api.deliveries.filter((d) => !d.delivered);
      expect(failed.map((d) => d.url)).toEqual([`${down.base}/a`, `${down.base}/a`]);

      expect(api.redeliverWebhooks({ url: `${up.base}/b` })).toEqual([]);
      expect(api.redeliverWebhooks({ eventId: 'no-such-event' })).toEqual([]);
      down.answer(200);
      const one = api.redeliverWebhooks({ eventId: failed[1]!.eventId, url: `${down.base}/a` });
      expect(one.map((d) => d.eventId)).toEqual([failed[1]!.eventId]);
      // While it is in flight, asking again does not queue it twice.
      expect(api.redeliverWebhooks({ eventId: failed[1]!.eventId })).toEqual([]);
      await api.flushWebhooks();
      expect(api.deliveries.filter((d) => !d.delivered).map((d) => d.eventId)).toEqual([failed[0]!.eventId]);
      expect(up.calls).toHaveLength(2);
    });

    test('deliveries abandoned by close() can be redelivered; reset() forgets them', async () => {
      const hold: ServerResponse[] = [];
      const calls: string[] = [];
      const silent = await startServer((req, res) => {
        calls.push(String(req.headers['x-service-event-id']));
        if (calls.length === 1)
          hold.push(res); // the first attempt hangs until close()
        else res.writeHead(204).end();
      });
      closers.push(silent.close);
      const api = testApi({ webhooks: [`${silent.url}/hooks`], webhookRetry: RETRY });
      api.advanceRestockingShipment(await restockingShipment(api), 'arrived');
      await until(() => calls.length === 1);
      await api.close();
      await api.flushWebhooks();
      expect(api.deliveries[0]).toMatchObject({ finished: true, error: 'abandoned: the mock was closed' });
      expect(api.redeliverWebhooks()).toHaveLength(1);
      await api.flushWebhooks();
      expect(api.deliveries[0]).toMatchObject({ delivered: true, redeliveries: 1, attempts: 2 });
      expect(calls).toEqual([api.deliveries[0]!.eventId, api.deliveries[0]!.eventId]);
      api.reset();
      expect(api.redeliverWebhooks()).toEqual([]);
    });
  });
});
