// What importing the built package loads, and what its first uses load (part of `npm test`).
// Importing `merchant-fulfillment` must load neither zod, the schemas, the compiler nor ky: they
// come with the first request. Webhook verification and the webhook handler load none of them (the
// payload is checked without zod). Module loads are recorded with a resolve hook (`module.registerHooks`).
import { createServer } from 'node:http';
import { registerHooks } from 'node:module';
import { skuBody } from './sku-body.mjs';

const loaded = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    loaded.add(result.url);
    return result;
  },
});

const groups = {
  zod: /\/node_modules\/zod\//,
  ky: /\/node_modules\/ky\//,
  // The chunks the build emits for what is imported on first use (dist/esm/<module>-<hash>.js).
  schemas:
    /\/dist\/esm\/(orders|skus|returns|shipments|warehouses|lookups|restocking-shipments|restocking-shipment-records)-\w+\.js$/,
  // The validation module (zod's messages and the compiler), imported by the first request.
  compiler: /\/dist\/esm\/validation-\w+\.js$/,
};
const present = () =>
  Object.entries(groups)
    .filter(([, re]) => [...loaded].some((url) => re.test(url)))
    .map(([name]) => name);
const expect = (when, wanted) => {
  const got = present().join(', ') || 'nothing';
  if (got !== (wanted.join(', ') || 'nothing')) {
    console.error(`smoke-lazy: ${when}: loaded ${got}, expected ${wanted.join(', ') || 'nothing'}`);
    process.exit(1);
  }
  console.log(`smoke-lazy: ${when}: ${got}`);
};

const sdk = await import('merchant-fulfillment');
expect('import', []);

const body = JSON.stringify({
  id: 7,
  merchant_id: 1,
  warehouse_id: 2,
  status: 'restocked',
  restocking_shipment_items: [],
});
const headers = await sdk.createWebhookHeaders({ body, secret: 'smoke', eventId: 'evt-1' });
const event = await sdk.verifyWebhook({ body, headers, secret: 'smoke' });
if (event.data.id !== 7) throw new Error('smoke-lazy: unexpected webhook payload');
expect('first verifyWebhook', []);

const handled = [];
const handler = sdk.createWebhookHandler({ secret: 'smoke', on: { restocked: (s) => handled.push(s.id) } });
const delivery = await handler.fetch(
  new Request('http://127.0.0.1/webhooks', {
    method: 'POST',
    body,
    headers: { ...headers, 'x-service-event-id': 'evt-2' },
  }),
);
if (delivery.status !== 200 || handled.join() !== '7') {
  throw new Error(`smoke-lazy: the webhook handler answered ${delivery.status}, handled ${handled.join()}`);
}
expect('first webhook handled', []);

const server = createServer((_req, res) => {
  res.writeHead(201, { 'content-type': 'application/json' });
  res.end(JSON.stringify(skuBody));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
try {
  const client = new sdk.FulfillmentClient({
    apiToken: 'smoke',
    baseUrl: `http://127.0.0.1:${server.address().port}`,
    logLevel: 'off',
  });
  const sku = await client.skus.create({ name: 'Mug', merchant_sku_id: 'MUG' });
  if (sku.id !== 1) throw new Error('smoke-lazy: unexpected SKU');
  expect('first request', ['zod', 'ky', 'schemas', 'compiler']);
} finally {
  server.close();
}
