// The runtime smoke test, run by scripts/runtimes.mjs under Node, Bun and Deno inside a consumer
// project that installed the packed package. It checks `import` and `require` of the entry points,
// a round trip against the testing kit's mock (in-process through `api.fetch`, and through a real
// server on 127.0.0.1 where the runtime has `node:http`), webhook signing and verification, the webhook
// handler (`createWebhookHandler(...).fetch`, from both builds), the client's events, the error
// classes, and, over the real server, `connectMock` and the server's CORS answers. Every client option is passed, so no environment variable is read (Deno runs it
// without --allow-env). Prints one line; exits with 1 on any failure.
import { createRequire } from 'node:module';
import process from 'node:process';
import * as sdk from 'merchant-fulfillment';
import * as schemas from 'merchant-fulfillment/schemas';
import { connectMock, createMockApi, MockControlError } from 'merchant-fulfillment/testing';

const TOKEN = 'smoke-token-5f2c';
const SKUS = 5;
const PAGE_SIZE = 2;
const ADDRESS = {
  full_name: 'Ada Lovelace',
  first_name: 'Ada',
  last_name: 'Lovelace',
  line1: 'Unter den Linden 1',
  city: 'Berlin',
  postal_code: '10117',
  country_code: 'DE',
};

function check(condition, message) {
  if (!condition) throw new Error(message);
}

function runtimeName() {
  const { Deno, Bun } = globalThis;
  if (Deno?.version?.deno) return `deno ${Deno.version.deno}`;
  if (Bun?.version) return `bun ${Bun.version}`;
  return `node ${process.versions.node}`;
}

/** The rejection of `promise`, or a failure when it resolves. */
async function rejection(promise, what) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error(`${what}: expected a rejection`);
}

/** Whether this runtime offers `node:http` (asked of the runtime, not the way the kit looks it up). */
async function hasNodeHttp() {
  try {
    return typeof (await import('node:http')).createServer === 'function';
  } catch {
    return false;
  }
}

/** `import` and `require` of the entry points: both builds load and agree. */
function checkEntryPoints(cjs) {
  check(typeof sdk.FulfillmentClient === 'function', 'import: no FulfillmentClient');
  check(typeof sdk.VERSION === 'string' && sdk.VERSION.length > 0, 'import: no VERSION');
  check(cjs.sdk.VERSION === sdk.VERSION, `require gives ${cjs.sdk.VERSION}, import ${sdk.VERSION}`);
  const sku = { merchant_sku_id: 'SMOKE', name: 'Smoke' };
  for (const [how, entry] of [
    ['import', schemas],
    ['require', cjs.schemas],
  ]) {
    check(entry.SkuCreateParamsSchema.safeParse(sku).success, `${how} schemas: a valid SKU is refused`);
    check(!entry.SkuCreateParamsSchema.safeParse({ name: 1 }).success, `${how} schemas: no check`);
  }
}

/** A client with every option given explicitly (none falls back to an environment variable). */
function newClient(Client, { baseUrl, fetch, logs }) {
  const record =
    (level) =>
    (message, ...args) =>
      logs.push(`${level} ${message} ${args.map((a) => JSON.stringify(a) ?? String(a)).join(' ')}`);
  return new Client({
    apiToken: TOKEN,
    baseUrl,
    timeout: 10_000,
    maxRetries: 1,
    maxRetryAfter: 5,
    retryDelay: { initialMs: 10, maxMs: 100 },
    fetch,
    defaultHeaders: { 'x-smoke-test': 'runtimes' },
    logLevel: 'debug',
    logger: { error: record('error'), warn: record('warn'), info: record('info'), debug: record('debug') },
    validateResponses: 'lenient',
    maxResponseBytes: 4 * 1024 * 1024,
    rateLimit: { requests: 1000, perMs: 1000 },
  });
}

/** SKUs, a paginated list, an order read back; returns the pages seen. */
async function roundTrip(client) {
  const created = [];
  for (let i = 1; i <= SKUS; i++) {
    created.push(await client.skus.create({ name: `Smoke ${i}`, merchant_sku_id: `SMOKE-${i}` }));
  }
  let pages = 0;
  for await (const page of client.skus.list({ limit: PAGE_SIZE }, { maxPages: 10 }).pages()) {
    pages++;
    check(page.data.length <= PAGE_SIZE, `a page of ${page.data.length} SKUs for limit ${PAGE_SIZE}`);
  }
  const listed = [];
  for await (const sku of client.skus.list({ limit: PAGE_SIZE }, { maxPages: 10 })) {
    listed.push(sku.merchant_sku_id);
  }
  const expected = Math.ceil(SKUS / PAGE_SIZE);
  check(pages === expected, `listed ${pages} pages, expected ${expected}`);
  check(
    listed.length === SKUS && created.every((s) => listed.includes(s.merchant_sku_id)),
    `for await listed ${listed.join(',')}`,
  );

  const order = await client.orders.create({
    merchant_order_id: 'SMOKE-ORDER-1',
    shipping_address: ADDRESS,
    items: [
      { merchant_item_id: '1', merchant_sku_id: 'SMOKE-1', quantity: 2, price_per_unit_in_cents: 1999 },
    ],
  });
  const read = await client.orders.retrieve(order.id);
  check(read.id === order.id && read.merchant_order_id === 'SMOKE-ORDER-1', 'order read back differs');
  check(read.items?.[0]?.quantity === 2, 'order read back: item quantity');
  return pages;
}

/** Signs and verifies a webhook carrying a real restocking shipment; a tampered one fails. */
async function webhooks(client, cjs) {
  const sku = await client.skus.retrieveByMerchantSkuId('SMOKE-2');
  check(sku !== null, 'SKU SMOKE-2 not found');
  const shipment = await client.restockingShipments.v1.create({
    warehouse_id: 1,
    delivery_option: 'postal',
    estimated_arrival_date: '2030-03-10',
    restocking_shipment_items: [{ sku_id: sku.id, announced_quantity: 5 }],
  });
  // The body exactly as the API sends a shipment (the raw bytes of the answer).
  const body = await client.restockingShipments.v1
    .retrieve(shipment.id)
    .asResponse()
    .then((r) => r.text());
  const signature = await sdk.signWebhook({ body, secret: TOKEN });
  const headers = { [sdk.SIGNATURE_HEADER]: signature, [sdk.EVENT_ID_HEADER]: 'evt-smoke-1' };

  const event = await sdk.verifyWebhook({ body, headers, secret: TOKEN });
  check(event.id === 'evt-smoke-1' && event.data.id === shipment.id, 'verifyWebhook: wrong event');
  const viaClient = await client.webhooks.verify(new TextEncoder().encode(body), new Headers(headers));
  check(viaClient.data.id === shipment.id, 'client.webhooks.verify: wrong event');
  const viaCjs = await cjs.sdk.verifyWebhook({
    body,
    headers: await cjs.sdk.createWebhookHeaders({ body, secret: TOKEN, eventId: 'evt-smoke-2' }),
    secret: ['an-older-token', TOKEN],
  });
  check(viaCjs.id === 'evt-smoke-2', 'require: verifyWebhook with createWebhookHeaders');

  const tampered = body.replace(`"id":${shipment.id}`, `"id":${shipment.id + 1}`);
  check(tampered !== body, 'could not tamper with the body');
  const error = await rejection(sdk.verifyWebhook({ body: tampered, headers, secret: TOKEN }), 'tampered');
  check(error instanceof sdk.WebhookVerificationError, `tampered webhook: ${error}`);
  check(error.reason === 'signature_mismatch', `tampered webhook: reason ${error.reason}`);
  check(error instanceof cjs.sdk.WebhookVerificationError, 'tampered webhook: not the CommonJS class');
  const wrongSecret = await rejection(sdk.verifyWebhook({ body, headers, secret: 'other' }), 'other secret');
  check(wrongSecret.reason === 'signature_mismatch', `wrong secret: reason ${wrongSecret.reason}`);

  for (const [how, build] of [
    ['import', sdk],
    ['require', cjs.sdk],
  ]) {
    await webhookHandler(how, build, { body, tampered, shipment });
  }
  return shipment;
}

/**
 * `createWebhookHandler(...).fetch` of one build, given Fetch API `Request`s: a signed delivery is
 * handled (200) by the handler of its status, the same event id again is a duplicate (200, not
 * handled again), a tampered body is refused (400, `signature_mismatch`).
 */
async function webhookHandler(how, build, { body, tampered, shipment }) {
  const handled = [];
  const failures = [];
  const handler = build.createWebhookHandler({
    secret: ['an-older-token', TOKEN],
    on: { shipped: (s, event) => handled.push(`${event.id} ${s.id} ${s.status}`) },
    onError: (error, context) => failures.push(`${context.stage} ${error?.reason}`),
  });
  const eventId = `evt-handler-${how}`;
  const headers = await build.createWebhookHeaders({ body, secret: TOKEN, eventId });
  const post = (text, extra = {}) =>
    handler.fetch(
      new Request('http://127.0.0.1/webhooks/fulfillment', {
        method: 'POST',
        body: text,
        headers: { ...headers, ...extra },
      }),
    );
  const ok = await post(body);
  const okBody = await ok.json();
  check(ok.status === 200 && okBody.received === true, `${how} handler: signed got ${ok.status}`);
  check(
    handled.join() === `${eventId} ${shipment.id} shipped`,
    `${how} handler: handled ${JSON.stringify(handled)}`,
  );
  const again = await post(body);
  const againBody = await again.json();
  check(
    again.status === 200 && againBody.duplicate === true,
    `${how} handler: duplicate got ${again.status}`,
  );
  check(handled.length === 1, `${how} handler: a duplicate was handled again`);
  const refused = await post(tampered, { [sdk.EVENT_ID_HEADER]: `${eventId}-tampered` });
  const refusedBody = await refused.json();
  check(
    refused.status === 400 && refusedBody.error === 'signature_mismatch',
    `${how} handler: tampered got ${refused.status} ${JSON.stringify(refusedBody)}`,
  );
  check(handled.length === 1, `${how} handler: a tampered delivery was handled`);
  check(
    failures.join() === 'verification signature_mismatch',
    `${how} handler: onError told of ${failures.join() || 'nothing'}`,
  );
}

/** The client's events: `on` and `off` (a listener removing itself after its first call), for one request. */
async function clientEvents(client) {
  const seen = [];
  const removed = () => seen.push('removed');
  const once = (e) => {
    seen.push(`response ${e.status}`);
    client.off('response', once);
  };
  client
    .on('request', (e) => seen.push(`request ${e.attempt}`))
    .on('response', once)
    .on('error', removed)
    .off('error', removed);
  await client.warehouses.list();
  await client.warehouses.list();
  const events = seen.join(', ');
  check(events === 'request 1, response 200, request 1', `client events: ${events}`);
}

/**
 * Over the real server: `connectMock` moves the restocking shipment (version 2 name `received`,
 * answered in the version 1 view, `delivered`) and the client reads it back; an unknown id is a
 * `MockControlError`; the token shows neither in `JSON.stringify` nor in the error. A preflight to
 * the server started with `cors` is answered.
 */
async function remoteControl(client, server, shipmentId) {
  const mock = connectMock(server.url, { token: TOKEN, timeoutMs: 10_000 });
  check(!JSON.stringify(mock).includes(TOKEN), 'connectMock: the token shows in JSON.stringify');
  const moved = await mock.advanceRestockingShipment(shipmentId, 'received');
  check(moved.id === shipmentId && moved.status === 'delivered', `connectMock: moved to ${moved.status}`);
  const read = await client.restockingShipments.v1.retrieve(shipmentId);
  check(read.status === 'delivered', `connectMock: the client reads ${read.status}`);
  const missing = await rejection(mock.advanceRestockingShipment(999_999, 'shipped'), 'unknown shipment');
  check(missing instanceof MockControlError, `connectMock unknown id: ${missing}`);
  check(
    missing.code === 'rejected' && missing.status === 404,
    `connectMock: ${missing.code} ${missing.status}`,
  );
  check(!String(missing.message).includes(TOKEN), 'connectMock: the token shows in an error');
  const preflight = await globalThis.fetch(`${server.url}/merchant_api/v1/skus`, {
    method: 'OPTIONS',
    headers: {
      origin: 'http://localhost:5173',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });
  await preflight.body?.cancel();
  const allowed = preflight.headers.get('access-control-allow-origin');
  check(preflight.status === 204 && allowed !== null, `cors preflight: ${preflight.status} ${allowed}`);
}

/** The error classes: a 404, a 422 from the API, a refused input, across the two builds. */
async function errors(client, cjsClient, cjs, api) {
  const notFound = await rejection(client.orders.retrieve(999_999), '404');
  check(notFound instanceof sdk.NotFoundError, `404: ${notFound}`);
  check(notFound instanceof sdk.APIError && notFound instanceof sdk.FulfillmentError, '404: not an APIError');
  check(notFound instanceof Error && notFound.status === 404, '404: status');
  check(notFound instanceof cjs.sdk.NotFoundError, '404: not instanceof the CommonJS class');
  check(!(notFound instanceof sdk.RateLimitError), '404: instanceof an unrelated class');

  const fromCjs = await rejection(cjsClient.orders.retrieve(999_999), 'CommonJS 404');
  check(
    fromCjs instanceof sdk.NotFoundError && fromCjs instanceof sdk.APIError,
    'CommonJS 404 vs ESM classes',
  );

  const taken = await rejection(client.skus.create({ name: 'Again', merchant_sku_id: 'SMOKE-1' }), '422');
  check(taken instanceof sdk.UnprocessableEntityError && taken instanceof sdk.APIError, `422: ${taken}`);

  const sent = api.state.requests.length;
  const invalid = await rejection(
    client.orders.create({
      merchant_order_id: 'SMOKE-BAD',
      shipping_address: ADDRESS,
      items: [{ merchant_item_id: '1', merchant_sku_id: 'SMOKE-1', quantity: 0, price_per_unit_in_cents: 1 }],
    }),
    'invalid order',
  );
  check(invalid instanceof sdk.RequestValidationError, `invalid order: ${invalid}`);
  check(
    invalid instanceof sdk.FulfillmentError && !(invalid instanceof sdk.APIError),
    'invalid order: class',
  );
  check(invalid instanceof cjs.sdk.RequestValidationError, 'invalid order: not the CommonJS class');
  check(
    invalid.issues.some((i) => i.path === 'items[0].quantity'),
    `invalid order issues: ${JSON.stringify(invalid.issues)}`,
  );
  check(api.state.requests.length === sent, 'an invalid order was sent');
}

/** One mock, one transport: `fetch` (in-process) or `http` (a real server on 127.0.0.1). */
async function viaTransport(transport, cjs) {
  const api = createMockApi({ tokens: [TOKEN] });
  try {
    let baseUrl = api.baseUrl;
    let send = api.fetch;
    let server;
    if (transport === 'http') {
      server = await api.listen({ port: 0, host: '127.0.0.1', cors: 'http://localhost:5173' });
      baseUrl = server.url;
      send = globalThis.fetch;
    }
    // Every request must carry the default header and the token (noted here, checked at the end).
    let sent = 0;
    const wrong = [];
    const fetch = (input, init) => {
      const headers = input instanceof Request ? input.headers : new Headers(init?.headers);
      if (headers.get('x-smoke-test') !== 'runtimes') wrong.push('a request without the default header');
      if (headers.get('authorization') !== `Bearer ${TOKEN}`) wrong.push('a request without the token');
      sent++;
      return send(input, init);
    };
    const logs = [];
    const client = newClient(sdk.FulfillmentClient, { baseUrl, fetch, logs });
    const cjsClient = newClient(cjs.sdk.FulfillmentClient, { baseUrl, fetch, logs });
    try {
      const pages = await roundTrip(client);
      const shipment = await webhooks(client, cjs);
      await errors(client, cjsClient, cjs, api);
      await clientEvents(client);
      check(wrong.length === 0, wrong[0]);
      check(logs.length > 0, 'logLevel debug logged nothing');
      check(!logs.some((line) => line.includes(TOKEN)), 'the API token appears in a log line');
      const answered = api.state.requests.length;
      check(sent === answered, `the client sent ${sent} requests, the mock answered ${answered}`);
      if (server) await remoteControl(client, server, shipment.id);
      return pages;
    } catch (error) {
      if (wrong.length > 0 && error instanceof Error) error.message += ` (and: ${wrong[0]})`;
      throw error;
    }
  } finally {
    await api.close();
  }
}

const name = runtimeName();
try {
  const cjs = createRequire(import.meta.url)('./require.cjs');
  checkEntryPoints(cjs);
  const transports = ['fetch'];
  if (await hasNodeHttp()) transports.push('http');
  let pages = 0;
  for (const transport of transports) {
    try {
      pages = await viaTransport(transport, cjs);
    } catch (error) {
      error.message = `[${transport}] ${error.message}`;
      throw error;
    }
  }
  console.log(
    `ok ${name}: import+require, mock over ${transports.join('+')} (${pages} pages), webhooks, ` +
      `webhook handler, client events, errors${transports.includes('http') ? ', connectMock, cors' : ''}`,
  );
} catch (error) {
  console.error(`FAIL ${name}: ${error?.stack ?? error}`);
  process.exit(1);
}
