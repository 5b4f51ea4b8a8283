/**
 * The resources as the mock answers them: the SDK's own response types (the compiler holds every
 * view in `views.ts` and `outbound.ts` to them), under the kit's names. A warehouse is the one the
 * mock's options take as well.
 */

import type { Address, Order, OrderItemBatch, OrderLineItem } from '../../schemas/orders.js';
import type {
  RestockingShipmentItem,
  RestockingShipmentItemBatch,
  RestockingShipmentItemV2,
  RestockingShipmentV1,
  RestockingShipmentV2,
} from '../../schemas/restocking-shipment-records.js';
import type { Return, ReturnItem, ReturnReason } from '../../schemas/returns.js';
import type { Shipment, ShipmentItem } from '../../schemas/shipments.js';
import type { Sku, SkuInventory, SkuInventoryBatch } from '../../schemas/skus.js';
import type { JsonValue } from '../engine/json.js';

/** A warehouse of the mock. Only `id` is required; every other field is answered as given. */
export interface MockWarehouse {
  /** Warehouse id (the `warehouse_id` of inventory and restocking shipments). */
  id: number;
  /** Display name. */
  name?: string;
  /** Any other field, answered as given by `GET /warehouses`. */
  [key: string]: JsonValue | undefined;
}

/**
 * Inventory figures of a SKU (over all warehouses, or in one). The mock keeps the units on hand and
 * the units reserved; `reserved` is the units held by fulfillable orders, `stocked` the units
 * available for sale (on hand − reserved, never below 0), `total` equal to `stocked` (no buffer).
 */
export type MockInventory = SkuInventory;
/** A SKU as the mock answers it (`GET /skus`, `POST /skus`, ...). */
export type MockSku = Sku;
/** An inventory batch of a SKU (a batch lives in one warehouse). */
export type MockSkuBatch = SkuInventoryBatch;
/** A shipping address as the mock answers it (every field, `null` when not given). */
export type MockAddress = Address;
/** A batch allocated to an order item or a shipment item. */
export type MockItemBatch = OrderItemBatch;
/** An order line item as the mock answers it (`batches` only with `include=batches`). */
export type MockOrderItem = OrderLineItem;
/** An order as the mock answers it. */
export type MockOrder = Order;
/** A batch received for a restocking shipment item (once restocked). */
export type MockRestockingItemBatch = RestockingShipmentItemBatch;
/** A version 1 restocking shipment item (its arrived, damaged and missing figures `null` until restocked). */
export type MockRestockingItemV1 = RestockingShipmentItem;
/** A version 2 restocking shipment item. */
export type MockRestockingItemV2 = RestockingShipmentItemV2;
/** A restocking shipment in its version 1 view (also the webhook body). */
export type MockRestockingShipmentV1 = RestockingShipmentV1;
/** A restocking shipment in its version 2 view. */
export type MockRestockingShipmentV2 = RestockingShipmentV2;
/** An outbound shipment (`GET /shipments`), created by `api.fulfillOrder`. */
export type MockShipment = Shipment;
/** An item of an outbound shipment. */
export type MockShipmentItem = ShipmentItem;
/** A return (`GET /returns`), created by `api.createReturn`. */
export type MockReturn = Return;
/** Reasons of a return. */
export type MockReturnReason = Exclude<ReturnReason, ''>;
/** An announced item of a return. */
export type MockReturnItem = ReturnItem;
