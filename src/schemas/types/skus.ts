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
export interface SkuInventoryBatch
  extends Omit<Fields<typeof SkuInventoryBatchSchema>, 'stocked_quantities'> {
  /** Stock of the batch per warehouse: one object (as documented) or a list of them, as received. */
  stocked_quantities: InventoryPerWarehouse | InventoryPerWarehouse[] | null;
}

/** A SKU as the API returns it, its quirks normalised. */
export interface Sku
  extends Omit<
    Fields<(typeof SkuSchema)['_zod']['def']['in']>,
    'un_names' | 'inventory' | 'inventory_per_warehouse' | 'inventory_batches'
  > {
  /** UN numbers of the dangerous-good classifications (filled from `un_numbers`; empty when neither is sent). */
  un_names: string[];
  /** Inventory over all warehouses. */
  inventory: SkuInventory;
  /** Inventory per warehouse. */
  inventory_per_warehouse: SkuInventoryPerWarehouse[];
  /** Inventory per batch. */
  inventory_batches: SkuInventoryBatch[];
}

/** A reference to a SKU in shipment and return items. */
export interface SkuRef extends Fields<typeof SkuRefSchema> {}
