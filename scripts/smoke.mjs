// Imports the built ESM entry points and makes one real request through each, against a local server;
// then the webhook handler (from the ESM and the CommonJS build) and the client's events against the
// testing kit's mock.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import {
  createWebhookHandler,
  createWebhookHeaders,
  FulfillmentClient,
  FulfillmentError,
  NotFoundError,
  VERSION,
} from 'merchant-fulfillment';
import { SkuSchema } from 'merchant-fulfillment/schemas';
import { createMockApi } from 'merchant-fulfillment/testing';
import webhookCheck from './lib/webhook-check.cjs';
import { skuBody } from './sku-body.mjs';

const { checkWebhookHandler } = webhookCheck;

const cjs = createRequire(import.meta.url)('merchant-fulfillment');

const server = createServer((req, res) => {
  if (req.url === '/merchant_api/v1/warehouses') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [{ id: 1 }], pagination: { current_page: 1, page_count: 1 } }));
  } else {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"success":false,"errors":["not found"]}');
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();
try {
  const client = new FulfillmentClient({
    apiToken: 'smoke',
    baseUrl: `http://127.0.0.1:${port}`,
    logLevel: 'off',
  });
  const page = await client.warehouses.list();
  if (page.data[0]?.id !== 1) throw new Error('ESM build: unexpected warehouses page');
  const elsewhere = new FulfillmentClient({
    apiToken: 'smoke',
    baseUrl: `http://127.0.0.1:${port}/missing`,
    logLevel: 'off',
  });
  const error = await elsewhere.warehouses.list().catch((e) => e);
  if (!(error instanceof NotFoundError) || !(error instanceof FulfillmentError)) {
    throw new Error('ESM build: error classes');
  }
  // instanceof holds across the two builds (errors are branded with Symbol.for), both ways.
  const cjsClient = new cjs.FulfillmentClient({
    apiToken: 'smoke',
    baseUrl: `http://127.0.0.1:${port}/missing`,
    logLevel: 'off',
  });
  const cjsError = await cjsClient.warehouses.list().catch((e) => e);
  if (!(cjsError instanceof NotFoundError) || !(cjsError instanceof FulfillmentError)) {
    throw new Error('a CommonJS error is not instanceof the ESM classes');
  }
  if (!(error instanceof cjs.NotFoundError) || !(error instanceof cjs.APIError)) {
    throw new Error('an ESM error is not instanceof the CommonJS classes');
  }
  if (cjsError instanceof cjs.RateLimitError) throw new Error('instanceof matches an unrelated class');
  // The schemas entry point.
  const sku = skuBody;
  if (!SkuSchema.safeParse(sku).success) throw new Error('schemas entry');
  if (SkuSchema.safeParse({ ...sku, id: '1' }).success) throw new Error('schemas entry: no check');
  await checkWebhookHandler('ESM build', { createWebhookHandler, createWebhookHeaders });
  await checkWebhookHandler('CJS build (from ESM)', cjs);
  await checkClientEvents();
  checkErrorNames('ESM build', await import('merchant-fulfillment'));
  checkErrorNames('CJS build', cjs);
  console.log(
    `ESM build ok (merchant-fulfillment ${VERSION}), instanceof across ESM and CJS ok, schemas ok, ` +
      'createWebhookHandler ok (ESM and CJS), client events over the mock ok, error names ok (ESM and CJS)',
  );
} finally {
  server.close();
}

/**
 * Every exported error class shows its public name in the build: `Class.name`, `err.name`,
 * `err.constructor.name` and the first line of `console.log(err)` (a bundler renames a class that
 * refers to itself, or exports it as an anonymous class expression).
 */
function checkErrorNames(build, sdk) {
  const url = 'https://x.test/a';
  const init = { status: 500, body: '', headers: new Headers(), method: 'GET', url };
  // Each class is built with the first of these argument lists its constructor takes.
  const shapes = [
    [init],
    [[{ path: 'a', message: 'b' }]],
    ['m', { pages: 1, items: 1 }],
    ['m'],
    ['invalid_body', 'm'],
    [{ body: 1, issues: [] }],
    [{ chunks: [] }, 0],
    [{ ...init, status: 302 }, 'https://y.test', 'test'],
  ];
  for (const [exported, Class] of Object.entries(sdk)) {
    if (typeof Class !== 'function' || !(Class.prototype instanceof Error)) continue;
    let error;
    for (const args of shapes) {
      try {
        error = new Class(...args);
        break;
      } catch {}
    }
    const shown = error && inspect(error).split('\n')[0];
    if (Class.name !== exported || error?.name !== exported || error.constructor.name !== exported) {
      throw new Error(
        `${build}: the class ${exported} is named ${JSON.stringify(Class.name)} (${error?.name})`,
      );
    }
    if (shown !== exported && !shown.startsWith(`${exported}: `))
      throw new Error(`${build}: ${exported} is shown as ${JSON.stringify(shown)}`);
  }
}

/** `client.on` / `off` emit for a request to the mock (in-process, `api.fetch`); a listener may remove itself. */
async function checkClientEvents() {
  const api = createMockApi();
  try {
    const client = new FulfillmentClient({
      apiToken: api.token,
      baseUrl: api.baseUrl,
      fetch: api.fetch,
      logLevel: 'off',
    });
    const seen = [];
    const removed = () => seen.push('a removed listener was called');
    const once = (e) => {
      seen.push(`response ${e.status}`);
      client.off('response', once);
    };
    client
      .on('request', (e) => seen.push(`request ${e.method} ${new URL(e.url).pathname} #${e.attempt}`))
      .on('response', once)
      .on('error', removed)
      .off('error', removed);
    await client.warehouses.list();
    await client.warehouses.list();
    const expected = [
      'request GET /merchant_api/v1/warehouses #1',
      'response 200',
      'request GET /merchant_api/v1/warehouses #1',
    ];
    if (JSON.stringify(seen) !== JSON.stringify(expected)) {
      throw new Error(`client events: got ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
    }
    const missing = await client.orders.retrieve(999_999).catch((e) => e);
    if (!(missing instanceof NotFoundError) || seen.includes('a removed listener was called')) {
      throw new Error('client events: off() did not remove the error listener');
    }
  } finally {
    await api.close();
  }
}
