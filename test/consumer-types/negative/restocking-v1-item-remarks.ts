// @expect-error /\bremarks\b/
/** `remarks` is a version 2 item field: a version 1 restocking shipment item refuses it. */
import { FulfillmentClient } from 'merchant-fulfillment';

const client = new FulfillmentClient({ apiToken: 'token', baseUrl: 'https://fulfillment.example.com' });

client.restockingShipments.v1.create({
  warehouse_id: 1,
  restocking_shipment_items: [{ sku_id: 1, announced_quantity: 10, remarks: 'fragile' }],
});
