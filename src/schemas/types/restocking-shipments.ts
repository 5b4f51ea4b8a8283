/**
 * Restocking shipments as the API returns them (spec §2.5, §9.2; provider notes): named interfaces
 * with the spec's meaning on every field. `test/schemas/interfaces.test-d.ts` proves each equal to
 * its schema's output.
 */
import type {
  DeliveryOption,
  RestockingShipmentV1Status,
  RestockingShipmentV2Status,
} from '../restocking-shipments.js';
import type { OrderItemBatch } from './orders.js';

/** A batch received for an item of a restocking shipment. */
export interface RestockingShipmentItemBatch extends Omit<OrderItemBatch, 'quantity'> {
  /** Inventory batch id. */
  id: number;
  /** Quantity of this batch that arrived. */
  arrived_quantity: number | null;
}

/** An item of a restocking shipment, as both versions return it. */
export interface RestockingShipmentItem {
  /** Item id. */
  id: number | null;
  /** Provider's SKU id. */
  sku_id: number | null;
  /** Merchant's SKU code, in the version 1 answers that carry it. */
  merchant_sku_id?: string | null;
  /** Quantity announced. */
  announced_quantity: number;
  /** Quantity that arrived: `null` until the shipment is `restocked`. */
  arrived_quantity: number | null;
  /** Quantity that arrived damaged: `null` until the shipment is `restocked`. */
  damaged_quantity: number | null;
  /** Quantity missing: `null` until the shipment is `restocked`. */
  missing_quantity: number | null;
  /** Batches received (empty until restocked, and after a version 1 update). */
  inventory_batches: RestockingShipmentItemBatch[];
}

/** An item of a version 2 restocking shipment: the version 1 fields and four of its own (spec §9.2). */
export interface RestockingShipmentItemV2 extends RestockingShipmentItem {
  /** Merchant's SKU code. */
  sku_code: string | null;
  /** Remarks for the warehouse. */
  remarks: string | null;
  /** Total cost of the item in cents. */
  total_cost_in_cents: number | null;
  /** Inventory batch the item was announced for. */
  inventory_batch_id: number | null;
}

/**
 * A version 1 restocking shipment as the API returns it; also the body of the webhook (spec §6),
 * which shows a version 2 shipment moving to `received` as `delivered`.
 */
export interface RestockingShipmentV1 {
  /** Provider's identifier. */
  id: number;
  /** Merchant the shipment belongs to. */
  merchant_id: number;
  /** Destination warehouse. */
  warehouse_id: number;
  /** Estimated arrival, ISO 8601 date string, or `null`. */
  estimated_arrival_date: string | null;
  /**
   * How the goods reach the warehouse: `courier`, `dropoff`, `service_freight` or `postal`; `null`
   * when the shipment was announced without one (version 1 does not require it).
   */
  delivery_option: DeliveryOption | null;
  /** Carrier tracking code. */
  tracking_code: string | null;
  /** Purchase order number. */
  po_number: string | null;
  /** Supplier name. */
  supplier_name: string | null;
  /**
   * `created` (not yet shipped), `shipped` (on the way; where shipments created through the API
   * start), `delivered` (at the warehouse, not yet verified), `arrived` (documentation complete),
   * `processing` (being put into storage), `restocked` (done), `on_hold`, `cancelled`.
   */
  status: RestockingShipmentV1Status;
  /** Barcode of the shipment. */
  barcode: string | null;
  /** Items. */
  restocking_shipment_items: RestockingShipmentItem[];
}

/** A version 2 restocking shipment as the API returns it: the version 1 fields it shares, and its own. */
export interface RestockingShipmentV2
  extends Omit<
    RestockingShipmentV1,
    'merchant_id' | 'delivery_option' | 'status' | 'restocking_shipment_items'
  > {
  /** How the goods reach the warehouse: `courier`, `dropoff`, `service_freight` or `postal`. */
  delivery_option: DeliveryOption;
  /** Prioritised for faster fulfillment (`false` unless set). */
  priority: boolean;
  /** Items. */
  restocking_shipment_items: RestockingShipmentItemV2[];
  /**
   * `created`, `shipped` (where shipments created through the API start), `received` (at the
   * warehouse, not yet verified; version 1 and the webhook say `delivered`), `arrived`,
   * `processing`, `restocked`, `cancelled`.
   */
  status: RestockingShipmentV2Status;
  /** Creation time, ISO 8601 date-time string. */
  created_at: string;
  /** Last update time, ISO 8601 date-time string. */
  updated_at: string;
  /** Arrival time, or `null`. */
  arrived_at: string | null;
  /** Most recent reopen, or `null` if never reopened. */
  reopened_at: string | null;
  /** Completed reopen cycles: 0 through the initial finalization, +1 each time a reopened shipment is restocked. */
  completed_reopens_count: number;
}
