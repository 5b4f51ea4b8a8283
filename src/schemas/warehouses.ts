/**
 * Warehouses (`GET /merchant_api/v1/warehouses`). Their fields are documented nowhere: only the
 * integer `id` (the `warehouse_id` used elsewhere) is known; every other field is kept as received.
 */
import * as z from 'zod/mini';
import { type Fields, sometimes } from './common.js';
import { openListParamsSchema } from './envelope.js';

/** A warehouse (see the `Warehouse` type): `id`, and every other field kept as received. */
export const WarehouseSchema = z.looseObject({
  /** Provider's identifier (the `warehouse_id` of SKU inventory and restocking shipments). */
  id: z.number(),
  /** Name of the warehouse, where the API sends one (not documented). */
  name: sometimes(z.string()),
});

/**
 * A warehouse. Only `id` is documented; `name` is what the answers seen carry. Every other field
 * the API sends stays on the object (see README, "Types").
 */
export interface Warehouse extends Fields<typeof WarehouseSchema> {}

/**
 * Query of `GET /warehouses`: `limit`, `page`, `created_at`. The provider documents no other parameters
 * for this endpoint, so further ones are passed through as given (request options never are).
 */
export const WarehouseListParamsSchema = openListParamsSchema();
/** Query of `GET /warehouses`. */
export type WarehouseListParams = z.input<typeof WarehouseListParamsSchema>;
