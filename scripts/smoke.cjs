// Requires the built CommonJS entry point (ky is bundled into it), makes one real request, and hands
// the webhook handler a signed delivery, the same one again and a tampered one.
const { createServer } = require('node:http');
const {
  createWebhookHandler,
  createWebhookHeaders,
  FulfillmentClient,
  VERSION,
} = require('merchant-fulfillment');
const { checkWebhookHandler } = require('./lib/webhook-check.cjs');

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
    await checkWebhookHandler('CJS build (require)', { createWebhookHandler, createWebhookHeaders });
    console.log(`CJS build ok (merchant-fulfillment ${VERSION}), createWebhookHandler ok`);
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    server.close();
  }
});
