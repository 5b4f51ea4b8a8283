// Runs under `node --disallow-code-generation-from-strings`, as on edge runtimes that forbid
// `new Function`: Zod's compiled parsers cannot be generated there, and the SDK must fall back to
// the classic parser silently, with the same results and errors.
import { FulfillmentClient, ResponseValidationError } from 'merchant-fulfillment';
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
console.log('no-eval build ok (classic parser fallback)');
