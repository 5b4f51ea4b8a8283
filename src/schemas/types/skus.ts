/**
 * The SKU records as the API returns them (spec §2.1): named interfaces over the schemas' outputs,
 * their fields documented on the schemas. `test/schemas/interfaces.test-d.ts` proves each equal to
 * its schema's output.
 */
import type { Fields } from '../common.js';
import type {
  InventoryPerWarehouseSchema,
  SkuInventoryBatchSchema,
  SkuInventoryPerWarehouseSchema,
  SkuInventorySchema,
  SkuRefSchema,
  SkuSchema,
} from '../skus.js';

/** Inventory of a SKU over all warehouses. */
export interface SkuInventory extends Fields<typeof SkuInventorySchema> {}

/** Inventory of a SKU in one warehouse. */
export interface SkuInventoryPerWarehouse extends Fields<typeof SkuInventoryPerWarehouseSchema> {}

/** Quantity of a batch available for sale in one warehouse. */
export interface InventoryPerWarehouse extends Fields<typeof InventoryPerWarehouseSchema> {}

/** One inventory batch of a SKU. */
export interface SkuInventoryBatch extends Fields<typeof SkuInventoryBatchSchema> {}

/** A SKU as the API returns it, its quirks normalised (`un_names` always a list). */
export interface Sku extends Fields<typeof SkuSchema> {}

/** A reference to a SKU in shipment and return items. */
export interface SkuRef extends Fields<typeof SkuRefSchema> {}
