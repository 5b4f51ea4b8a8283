// @expect-error /sku_id|merchant_sku_id/
/** An order line item needs `sku_id` or `merchant_sku_id`. */
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
  items: [{ merchant_item_id: '1', quantity: 2, price_per_unit_in_cents: 1999 }],
});
