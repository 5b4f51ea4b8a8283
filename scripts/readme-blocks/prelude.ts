/**
 * What the README's code fragments take from elsewhere: a block marked
 * `<!-- readme: uses=client,order -->` starts with `import { client, order } from './prelude.js'`.
 * Each name stands for something an earlier block or the reader's own application defines. Nothing
 * here sends a request: importing it leaves the mock as fresh as it was. See scripts/readme-blocks.mjs.
 */
import {
  createWebhookHeaders,
  FulfillmentClient,
  type OrderCreateParams,
  type RestockingShipmentV1,
  type SkuBulkUpsertItem,
} from 'merchant-fulfillment';

/** The Quickstart's client: token and service root from `FULFILLMENT_API_TOKEN` and `FULFILLMENT_BASE_URL`. */
export const client = new FulfillmentClient();

/** An order to create, as in the Quickstart. */
export const order: OrderCreateParams = {
  merchant_order_id: 'A-1001',
  shipping_address: {
    full_name: 'Ada Lovelace',
    first_name: 'Ada',
    last_name: 'Lovelace',
    line1: 'Unter den Linden 1',
    city: 'Berlin',
    postal_code: '10117',
    country_code: 'DE',
  },
  items: [{ merchant_item_id: '1', merchant_sku_id: 'TSHIRT-M', quantity: 2, price_per_unit_in_cents: 1999 }],
};

/** The merchant's catalogue: more SKUs than one bulk request carries. */
export const catalogue: SkuBulkUpsertItem[] = Array.from({ length: 250 }, (_, i) => ({
  name: `Poster #${i + 1}`,
  merchant_sku_id: `POSTER-${i + 1}`,
  cost_in_cents: 300,
}));

/** The shipments the reader's `updateShipment` received, in order (checked by the webhook fixture). */
export const handledShipments: RestockingShipmentV1[] = [];

/** The reader's own handling of a restocking shipment the webhook reported. */
export async function updateShipment(shipment: RestockingShipmentV1): Promise<void> {
  handledShipments.push(shipment);
}

/** A webhook call as the provider sends it (the restocking shipment), signed with `NEW_TOKEN`. */
export const body = JSON.stringify({
  id: 5522,
  merchant_id: 1,
  warehouse_id: 3,
  estimated_arrival_date: '2025-03-10',
  delivery_option: 'postal',
  tracking_code: null,
  po_number: null,
  supplier_name: null,
  status: 'restocked',
  barcode: 'RS-5522',
  restocking_shipment_items: [
    {
      id: 1,
      sku_id: 1,
      announced_quantity: 50,
      arrived_quantity: 50,
      damaged_quantity: 0,
      missing_quantity: 0,
      inventory_batches: [],
    },
  ],
});

/** The headers of that call: signature and event id. */
export const headers: Record<string, string> = await createWebhookHeaders({
  body,
  secret: process.env.NEW_TOKEN ?? '',
  eventId: 'readme-event-1',
});
