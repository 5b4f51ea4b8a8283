// The smoke tests' check of the webhook handler on a build (ESM, or CJS from ESM or from
// require): a signed delivery is handled (200), the same event id again is a duplicate (200, the
// handler is not called again), a tampered body is refused (400). CommonJS, so that both smoke.mjs
// and smoke.cjs load it.

/** A version 1 restocking shipment as the "Restocking shipment status updated" call carries it. */
const shipment = {
  id: 5521,
  merchant_id: 88,
  warehouse_id: 3,
  estimated_arrival_date: '2025-02-03',
  delivery_option: 'courier',
  tracking_code: '00340434161094042557',
  po_number: null,
  supplier_name: null,
  status: 'delivered',
  barcode: 'RS-5521',
  restocking_shipment_items: [
    {
      sku_id: 48213,
      announced_quantity: 120,
      arrived_quantity: null,
      damaged_quantity: null,
      missing_quantity: null,
      inventory_batches: [],
    },
  ],
};

/** Runs the check against `build` (the package's exports); throws naming `label` when it fails. */
async function checkWebhookHandler(label, build) {
  const secret = 'smoke-webhook-secret';
  const handled = [];
  const handler = build.createWebhookHandler({
    secret,
    on: { delivered: (s) => handled.push(`${s.id} ${s.status}`) },
    onError: () => {},
  });
  const post = (body, headers) =>
    handler.fetch(new Request('http://127.0.0.1/webhooks', { method: 'POST', body, headers }));
  const body = JSON.stringify(shipment);
  const headers = await build.createWebhookHeaders({ body, secret, eventId: 'evt-smoke-1' });
  const first = await post(body, headers);
  const firstBody = await first.json();
  if (first.status !== 200 || firstBody.received !== true || firstBody.duplicate !== undefined) {
    throw new Error(`${label}: a signed delivery got ${first.status} ${JSON.stringify(firstBody)}`);
  }
  if (handled.join() !== `${shipment.id} delivered`) {
    throw new Error(`${label}: the delivered handler saw ${JSON.stringify(handled)}`);
  }
  const again = await post(body, headers);
  const againBody = await again.json();
  if (again.status !== 200 || againBody.duplicate !== true || handled.length !== 1) {
    throw new Error(`${label}: a duplicate got ${again.status} ${JSON.stringify(againBody)}`);
  }
  const tampered = body.replace(`"id":${shipment.id}`, `"id":${shipment.id + 1}`);
  if (tampered === body) throw new Error(`${label}: could not tamper with the body`);
  const refused = await post(tampered, { ...headers, 'x-service-event-id': 'evt-smoke-2' });
  const refusedBody = await refused.json();
  if (refused.status !== 400 || refusedBody.error !== 'signature_mismatch' || handled.length !== 1) {
    throw new Error(`${label}: a tampered delivery got ${refused.status} ${JSON.stringify(refusedBody)}`);
  }
}

module.exports = { checkWebhookHandler, shipment };
