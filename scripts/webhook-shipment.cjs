// A version 1 restocking shipment as a webhook carries it (spec: the body of the "Restocking
// shipment status updated" call), for the smoke tests of the webhook handler. CommonJS, so that
// both smoke.mjs and smoke.cjs load it.
module.exports = {
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
