/**
 * The README's createWebhookHandler example, as written there (its `console.log` lines become
 * assertions): the mock API delivers its webhooks straight to `handler.fetch`.
 */

import { createWebhookHandler, FulfillmentClient } from 'merchant-fulfillment';
import { createMockApi } from 'merchant-fulfillment/testing';
import { expect, it } from 'vitest';

it('runs the README example', async () => {
  const seen: string[] = [];
  const handler = createWebhookHandler({
    secret: 'tok_test', // the sales channel's API token (or all of its tokens during a rotation)
    on: {
      // Keys are version 1 statuses: a version 2 shipment moving to `received` arrives at `delivered`.
      delivered: (shipment) => {
        seen.push(`at the warehouse: ${shipment.status}`);
      },
      restocked: async (shipment) => {
        seen.push(`in stock: ${shipment.restocking_shipment_items.length} item(s)`);
      },
    },
    // Every other status, including one this SDK version does not know yet.
    onEvent: (shipment) => {
      seen.push(`other: ${shipment.status}`);
    },
  });

  // In an app: `export const POST = handler.fetch` (Next.js), `app.post(path, handler.node)` (Express).
  // Here the mock API delivers its webhooks straight to `handler.fetch`.
  const api = createMockApi({
    tokens: ['tok_test'],
    webhooks: ['https://shop.example/webhooks/fulfillment'],
    webhookFetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  const client = new FulfillmentClient({ apiToken: api.token, baseUrl: api.baseUrl, fetch: api.fetch });
  const sku = await client.skus.create({ name: 'Mug', merchant_sku_id: 'MUG' });
  const shipment = await client.restockingShipments.v2.create({
    delivery_option: 'courier',
    estimated_arrival_date: '2025-03-01',
    warehouse_id: 1,
    restocking_shipment_items: [{ sku_id: sku.id, announced_quantity: 5 }],
  });
  api.advanceRestockingShipment(shipment.id, 'received'); // the warehouse receives it
  api.advanceRestockingShipment(shipment.id, 'arrived');
  api.advanceRestockingShipment(shipment.id, 'restocked');
  await api.flushWebhooks();
  await api.close();

  expect(seen).toEqual(['at the warehouse: delivered', 'other: arrived', 'in stock: 1 item(s)']);
  expect(api.deliveries.map((d) => d.statusCodes)).toEqual([[200], [200], [200]]);
});
