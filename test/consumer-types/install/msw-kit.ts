/**
 * The testing kit's msw face as a consumer uses it, with whichever msw (2 or 3) the consumer
 * installed: run with `node` and type-checked by scripts/install-consumers.mjs, next to the README's
 * msw example. Each check prints `ok <name>` or `FAIL <name>: <reason>`; any failure fails the run.
 * No vitest and no Node types: the floor consumers install only the package and msw.
 */
import { FulfillmentClient, verifyWebhook } from 'merchant-fulfillment';
import { createMockApi } from 'merchant-fulfillment/testing';
import { type HttpHandler, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';

const RECEIVER = 'https://hooks.example.com/fulfillment';
const api = createMockApi({ webhooks: [RECEIVER], webhookRetry: { attempts: 2, initialDelayMs: 1 } });
const received: { body: string; headers: Headers }[] = [];
const receiver: HttpHandler = http.post(RECEIVER, async ({ request }) => {
  received.push({ body: await request.text(), headers: request.headers });
  return new HttpResponse(null, { status: 204 });
});
const server = setupServer(...api.handlers, receiver);
// Nothing may leave the process. msw 3 calls the option onUnhandledFrame, msw 2 onUnhandledRequest;
// each ignores the other's.
const strict = { onUnhandledFrame: 'error', onUnhandledRequest: 'error' } as const;
server.listen(strict);

const client = new FulfillmentClient({
  apiToken: api.token,
  baseUrl: api.baseUrl,
  logLevel: 'off',
  retryDelay: { initialMs: 1, maxMs: 4 },
});
const auth = { authorization: `Bearer ${api.token}` };

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function rejects(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const failures: string[] = [];
async function step(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
    console.log(`ok ${name}`);
  } catch (error) {
    failures.push(name);
    console.log(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

await step('the client lists warehouses through the handlers', async () => {
  const page = await client.warehouses.list();
  check(page.data.map((w) => w.id).join() === '1,2,3', `warehouses ${page.data.map((w) => w.id).join()}`);
});

await step('an order reserves stock', async () => {
  const sku = await client.skus.create({ name: 'T-shirt M', merchant_sku_id: 'TSHIRT-M' });
  const inbound = await client.restockingShipments.v1.create({
    warehouse_id: 1,
    restocking_shipment_items: [{ sku_id: sku.id, announced_quantity: 10 }],
  });
  api.advanceRestockingShipment(inbound.id, 'restocked');
  await client.orders.create({
    merchant_order_id: 'A-1001',
    shipping_address: {
      full_name: 'Ada Lovelace',
      first_name: 'Ada',
      line1: 'Main St 1',
      city: 'Berlin',
      postal_code: '10115',
      country_code: 'DE',
    },
    items: [{ merchant_item_id: '1', sku_id: sku.id, quantity: 2, price_per_unit_in_cents: 1500 }],
  });
  const found = await client.skus.retrieveByMerchantSkuId('TSHIRT-M');
  const inventory = JSON.stringify(found?.inventory);
  check(inventory === '{"reserved":2,"stocked":8,"total":8}', `inventory ${inventory}`);
});

await step('webhooks reach an msw handler (global fetch) and verify', async () => {
  await api.flushWebhooks();
  const last = received.at(-1);
  check(last !== undefined, 'no delivery reached the receiver');
  const event = await verifyWebhook({ body: last.body, headers: last.headers, secret: api.token });
  check(event.data.status === 'restocked', `event status ${event.data.status}`);
});

await step('a reset fault is a network error (TypeError)', async () => {
  api.injectFault({ path: '/merchant_api/v1/warehouses', reset: true, times: 1 });
  const error = await rejects(fetch(`${api.baseUrl}/merchant_api/v1/warehouses`, { headers: auth }));
  check(error instanceof TypeError, `rejected with ${String(error)}`);
});

await step('the client retries a 503 and a dropped connection', async () => {
  api.injectFault({ path: '/merchant_api/v1/warehouses', status: 503, times: 1, retryAfter: 0 });
  api.injectFault({ path: '/merchant_api/v1/warehouses', reset: true, times: 1 });
  check((await client.warehouses.list()).data.length === 3, 'no warehouses');
});

await step('HEAD has no body; a 401 carries WWW-Authenticate', async () => {
  const head = await fetch(`${api.baseUrl}/merchant_api/v1/warehouses`, { method: 'HEAD' });
  check(head.status === 401, `status ${head.status}`);
  check(head.headers.get('www-authenticate') === 'Bearer', 'no WWW-Authenticate');
  check((await head.text()) === '', 'HEAD with a body');
});

await step('the control routes answer through msw', async () => {
  const response = await fetch(`${api.baseUrl}/__mock/state`, { headers: auth });
  check(response.status === 200, `status ${response.status}`);
  const state: unknown = await response.json();
  check(typeof state === 'object' && state !== null && 'requests' in state, 'no request log');
});

await step('latency meets the client timeout', async () => {
  api.injectFault({ path: '/merchant_api/v1/warehouses', latency: 500, times: 1 });
  const impatient = new FulfillmentClient({
    apiToken: api.token,
    baseUrl: api.baseUrl,
    logLevel: 'off',
    maxRetries: 0,
    timeout: 50,
  });
  await rejects(impatient.warehouses.list());
});

await step('a list iterates over its pages', async () => {
  for (let i = 0; i < 25; i++) await client.skus.create({ name: `SKU ${i}`, merchant_sku_id: `SKU-${i}` });
  let count = 0;
  for await (const _sku of client.skus.list({ limit: 10 })) count++;
  check(count === 26, `${count} SKUs`);
});

server.close();
if (failures.length > 0) throw new Error(`${failures.length} check(s) failed: ${failures.join('; ')}`);
