// Runs under `node --disallow-code-generation-from-strings`, as on edge runtimes that forbid
// `new Function`: Zod's compiled parsers cannot be generated there, and the SDK must fall back to
// the classic parser silently, with the same results and errors.
import {
  createWebhookHandler,
  createWebhookHeaders,
  FulfillmentClient,
  ResponseValidationError,
} from 'merchant-fulfillment';
import { skuBody } from './sku-body.mjs';

let forbidden = false;
try {
  new Function('return 1');
} catch {
  forbidden = true;
}
if (!forbidden) throw new Error('run this with --disallow-code-generation-from-strings');

const sku = {
  ...skuBody,
  merchant_sku_id: 'MUG',
  cost_in_cent: 5,
  un_numbers: ['UN1'],
};
const answer = (body) => async () => Response.json(body);
const client = (body) =>
  new FulfillmentClient({
    apiToken: 't',
    baseUrl: 'http://fulfillment.test',
    logLevel: 'off',
    fetch: answer(body),
  });

const page = await client({ data: [sku], pagination: { current_page: 1, page_count: 1 } }).skus.list();
if (page.data[0]?.cost_in_cents !== 5 || page.data[0]?.un_names?.[0] !== 'UN1') {
  throw new Error('parsing without code generation lost the normalisation');
}
const error = await client([{ ...sku, id: 'not-a-number' }])
  .skus.list()
  .catch((e) => e);
if (!(error instanceof ResponseValidationError)) throw new Error('validation without code generation');

// The webhook handler validates the payload with the same fallback: a valid delivery is handled, an
// invalid payload (correctly signed) is refused.
const handler = createWebhookHandler({ secret: 's', onError: () => {} });
const deliver = async (payload, eventId) => {
  const body = JSON.stringify(payload);
  const headers = await createWebhookHeaders({ body, secret: 's', eventId });
  const response = await handler.fetch(new Request('http://t/webhooks', { method: 'POST', body, headers }));
  return { status: response.status, body: await response.json() };
};
const shipment = {
  id: 7,
  merchant_id: 1,
  warehouse_id: 2,
  status: 'restocked',
  restocking_shipment_items: [],
};
const good = await deliver(shipment, 'evt-1');
if (good.status !== 200 || good.body.received !== true)
  throw new Error(`webhook handler without code generation: ${JSON.stringify(good)}`);
const bad = await deliver({ ...shipment, id: 'seven' }, 'evt-2');
if (bad.status !== 400 || bad.body.error !== 'invalid_payload')
  throw new Error(`webhook handler without code generation: ${JSON.stringify(bad)}`);
console.log('no-eval build ok (classic parser fallback, webhook handler too)');
