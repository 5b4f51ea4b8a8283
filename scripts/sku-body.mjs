// The smallest SKU answer the SDK accepts (what every answer carries, spec §2.1), for the smoke tests.
export const skuBody = {
  id: 1,
  name: 'Mug',
  created_at: '2025-01-01T00:00:00Z',
  status: 'active',
  fulfilled_by: 'service',
  dangerous_good: false,
  hazardous_good: false,
  h_codes: [],
  inventory: { reserved: 0, stocked: 0, total: 0 },
  inventory_per_warehouse: [],
  inventory_batches: [],
};
