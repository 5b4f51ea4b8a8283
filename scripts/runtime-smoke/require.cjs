// The CommonJS half of the runtime smoke test: what `require` gives in this runtime. The testing kit
// is ESM only, so it is not required here.
const sdk = require('merchant-fulfillment');
const schemas = require('merchant-fulfillment/schemas');

if (typeof sdk.FulfillmentClient !== 'function') throw new Error('require: no FulfillmentClient');
if (typeof schemas.SkuSchema?.safeParse !== 'function') throw new Error('require: no SkuSchema');

module.exports = { sdk, schemas };
