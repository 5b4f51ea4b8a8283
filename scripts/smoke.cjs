// Requires the built CommonJS entry point (ky is bundled into it), makes one real request, and hands
// the webhook handler a signed delivery, the same one again and a tampered one.
const { createServer } = require('node:http');
const {
  createWebhookHandler,
  createWebhookHeaders,
  FulfillmentClient,
  VERSION,
} = require('merchant-fulfillment');
const shipment = require('./webhook-shipment.cjs');

/** `createWebhookHandler(...).fetch`: signed → 200, duplicate → 200 `duplicate`, tampered → 400. */
async function checkWebhookHandler() {
  const secret = 'smoke-webhook-secret';
  const handled = [];
  const handler = createWebhookHandler({
    secret,
    on: { delivered: (s) => handled.push(`${s.id} ${s.status}`) },
    onError: () => {},
  });
  const post = (body, headers) =>
    handler.fetch(new Request('http://127.0.0.1/webhooks', { method: 'POST', body, headers }));
  const body = JSON.stringify(shipment);
  const headers = await createWebhookHeaders({ body, secret, eventId: 'evt-smoke-cjs-1' });
  const first = await post(body, headers);
  const firstBody = await first.json();
  if (first.status !== 200 || firstBody.received !== true || firstBody.duplicate !== undefined) {
    throw new Error(`CJS build: a signed delivery got ${first.status} ${JSON.stringify(firstBody)}`);
  }
  if (handled.join() !== `${shipment.id} delivered`) {
    throw new Error(`CJS build: the delivered handler saw ${JSON.stringify(handled)}`);
  }
  const again = await post(body, headers);
  const againBody = await again.json();
  if (again.status !== 200 || againBody.duplicate !== true || handled.length !== 1) {
    throw new Error(`CJS build: a duplicate got ${again.status} ${JSON.stringify(againBody)}`);
  }
  const tampered = body.replace(`"id":${shipment.id}`, `"id":${shipment.id + 1}`);
  if (tampered === body) throw new Error('CJS build: could not tamper with the body');
  const refused = await post(tampered, { ...headers, 'x-service-event-id': 'evt-smoke-cjs-2' });
  const refusedBody = await refused.json();
  if (refused.status !== 400 || refusedBody.error !== 'signature_mismatch' || handled.length !== 1) {
    throw new Error(`CJS build: a tampered delivery got ${refused.status} ${JSON.stringify(refusedBody)}`);
  }
}

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify([{ id: 2 }]));
});
server.listen(0, '127.0.0.1', async () => {
  const { port } = server.address();
  try {
    const client = new FulfillmentClient({
      apiToken: 'smoke',
      baseUrl: `http://127.0.0.1:${port}`,
      logLevel: 'off',
    });
    const page = await client.warehouses.list();
    if (page.data[0]?.id !== 2) throw new Error('CJS build: unexpected warehouses page');
    await checkWebhookHandler();
    console.log(`CJS build ok (merchant-fulfillment ${VERSION}), createWebhookHandler ok`);
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    server.close();
  }
});
