// @expect-error /^Property 'price_per_unit_in_cents' is missing/
/** An order line item without `price_per_unit_in_cents`: the first line of the error names the field. */
import { FulfillmentClient } from 'merchant-fulfillment';

const client = new FulfillmentClient({ apiToken: 'token', baseUrl: 'https://fulfillment.example.com' });

client.orders.create({
  merchant_order_id: 'A-1001',
  shipping_address: {
    full_name: 'Ada Lovelace',
    first_name: 'Ada',
    line1: 'Unter den Linden 1',
    city: 'Berlin',
    postal_code: '10117',
    country_code: 'DE',
  },
  items: [{ merchant_item_id: '1', merchant_sku_id: 'TSHIRT-M', quantity: 2 }],
});
