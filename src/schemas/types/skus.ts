/**
 * The SKU records as the API returns them (spec §2.1): named interfaces with the spec's meaning on
 * every field. `test/schemas/interfaces.test-d.ts` proves each equal to its schema's output.
 */
import type { SkuFulfilledBy, SkuStatus } from '../skus.js';
import type { OrderItemBatch } from './orders.js';

/** Inventory of a SKU over all warehouses. */
export interface SkuInventory {
  /** Quantity reserved for orders. */
  reserved: number;
  /** Quantity available for sale, minus any configured buffer. */
  stocked: number;
  /** Quantity available; equals `stocked` when the buffer is 0. */
  total: number;
}

/** Inventory of a SKU in one warehouse. */
export interface SkuInventoryPerWarehouse extends SkuInventory {
  /** The warehouse these figures are for. */
  warehouse_id: number;
}

/** Quantity of a batch available for sale in one warehouse. */
export interface InventoryPerWarehouse {
  /** The warehouse. */
  warehouse_id: number;
  /** Quantity available for sale. */
  quantity: number;
}

/** One inventory batch of a SKU. */
export interface SkuInventoryBatch extends Omit<OrderItemBatch, 'quantity'> {
  /** Batch id. */
  id: number;
  /** Stock of the batch per warehouse: one object (as documented) or a list of them, as received. */
  stocked_quantities: InventoryPerWarehouse | InventoryPerWarehouse[] | null;
}

/** A SKU as the API returns it, its quirks normalised. */
export interface Sku {
  /** Provider's identifier. */
  id: number;
  /** Merchant's SKU code, unique within the sales channel; always set for SKUs created through the API. */
  merchant_sku_id: string | null;
  /** Human-readable name. */
  name: string;
  /** Barcode. */
  barcode: string | null;
  /** Whether inventory is tracked per batch (`false` unless enabled). */
  batch_tracking_enabled: boolean;
  /** Cost (not price) of one unit, in cents (filled from `cost_in_cent` when only that is sent). */
  cost_in_cents: number | null;
  /** The singular spelling some responses carry, as received (same value as `cost_in_cents`). */
  cost_in_cent?: number | null;
  /** 2-letter ISO 3166-1 country of origin. */
  country_code_of_origin: string | null;
  /** Harmonized System code. */
  hs_code: string | null;
  /** Public URL of an image. */
  image_url: string | null;
  /** Weight of one unit in kg. */
  weight_in_kg: number | null;
  /** Creation time, ISO 8601 date-time string. */
  created_at: string;
  /** `active`, or `deleted` (after `skus.delete`; any update makes it active again). */
  status: SkuStatus;
  /** Who fulfils the SKU: `service` (the provider itself), `other` or `new`. */
  fulfilled_by: SkuFulfilledBy;
  /** Whether the SKU is a dangerous good. */
  dangerous_good: boolean;
  /** Whether the SKU is a hazardous good. */
  hazardous_good: boolean;
  /** Hazard statement codes. */
  h_codes: string[];
  /** UN numbers of the dangerous-good classifications (filled from `un_numbers`; empty when neither is sent). */
  un_names: string[];
  /** The name a sample response uses for `un_names`, as received. */
  un_numbers?: string[] | null;
  /** Inventory over all warehouses. */
  inventory: SkuInventory;
  /** Inventory per warehouse. */
  inventory_per_warehouse: SkuInventoryPerWarehouse[];
  /** Inventory per batch. */
  inventory_batches: SkuInventoryBatch[];
}

/** A reference to a SKU in shipment and return items. */
export interface SkuRef {
  /** Provider's SKU id. */
  id: number;
  /** Merchant's SKU code. */
  sku_code: string | null;
}
