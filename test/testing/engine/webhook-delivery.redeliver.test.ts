/**
 * Redelivery (`WebhookDispatcher.redeliver`, `api.redeliverWebhooks()`): a delivery that was given
 * up is sent again — the same record, event id, body and signature, a fresh budget of attempts —
 * to a real receiver (node:http on 127.0.0.1) that is down, then back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { verifyWebhook } from '../../../src/webhooks/index.js';
import { startServer } from '../../helpers/http-server.js';
import { restockingShipment, TOKEN, testApi, until } from '../helpers.js';

interface Received {
  path: string;
  eventId: string;
  signature: string;
  body: string;
}

/** A receiver answering `status()` to every call (500 until told otherwise). */
async function receiver() {
  const calls: Received[] = [];
  let status = 500;
  const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({
        path: req.url!,
        eventId: String(req.headers['x-service-event-id']),
        signature: String(req.headers['x-service-signature']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.statusCode = status;
      res.end();
    });
  });
  closers.push(server.close);
  return {
    url: server.url,
    calls,
    answer(next: number) {
      status = next;
    },
  };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const RETRY = { attempts: 2, initialDelayMs: 1 };

describe('redeliverWebhooks', () => {
  test('a receiver down until the deliveries are given up gets them on redelivery, unchanged', async () => {
    const hook = await receiver();
    const api = testApi({ webhooks: [`${hook.url}/hooks`], webhookRetry: RETRY });
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
    expect(redelivered.map((c) => c.eventId)).toEqual([before[0]!.eventId, before[1]!.eventId]);
    for (const call of hook.calls) {
      const original = before.find((d) => d.eventId === call.eventId)!;
      expect(call.body).toBe(original.body);
      expect(call.signature).toBe(original.signature);
    }
    const event = await verifyWebhook({
      body: redelivered[1]!.body,
      headers: {
        'x-service-signature': redelivered[1]!.signature,
        'x-service-event-id': redelivered[1]!.eventId,
      },
      secret: TOKEN,
    });
    expect(event.data).toMatchObject({ id, status: 'arrived' });
    // Nothing left to redeliver.
    expect(api.redeliverWebhooks()).toEqual([]);
  });

  test('a fresh budget: given up again after as many attempts, counted on top', async () => {
    const hook = await receiver();
    const api = testApi({ webhooks: [`${hook.url}/hooks`], webhookRetry: RETRY });
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
    const down = await receiver();
    const up = await receiver();
    up.answer(200);
    const api = testApi({ webhooks: [`${down.url}/a`, `${up.url}/b`], webhookRetry: RETRY });
    const id = await restockingShipment(api);
    api.advanceRestockingShipment(id, 'delivered');
    api.advanceRestockingShipment(id, 'arrived');
    await api.flushWebhooks();
    const failed = api.deliveries.filter((d) => !d.delivered);
    expect(failed.map((d) => d.url)).toEqual([`${down.url}/a`, `${down.url}/a`]);

    expect(api.redeliverWebhooks({ url: `${up.url}/b` })).toEqual([]);
    expect(api.redeliverWebhooks({ eventId: 'no-such-event' })).toEqual([]);
    down.answer(200);
    const one = api.redeliverWebhooks({ eventId: failed[1]!.eventId, url: `${down.url}/a` });
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
