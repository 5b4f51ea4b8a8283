/**
 * Returns as the API returns them. The spec does not show the record: the fields are the provider
 * notes'. `test/schemas/interfaces.test-d.ts` proves each interface equal to its schema's output.
 */
import type { ReturnItemCondition, ReturnReason, ReturnReasonType, ReturnStatus } from '../returns.js';
import type { SkuRef } from './skus.js';

/** A photo taken of a return or of a handled item. */
export interface ReturnPhoto {
  /** Photo id. */
  id: number;
  /** URL of the image. */
  image_url: string | null;
  /** What the photo shows (values not documented). */
  photo_type: string | null;
}

/** The order a return belongs to. */
export interface ReturnOrderRef {
  /** Provider's id of the order. */
  id: number;
  /** Merchant's id of the order. */
  merchant_order_id: string | null;
  /** Order number the end customer sees. */
  customer_order_number: string | null;
}

/** An item the customer announced for return (`return_items`). */
export interface ReturnItem {
  /** Return item id. */
  id: number;
  /** Quantity announced. */
  quantity: number;
  /** The SKU. */
  sku: SkuRef | null;
  /** Reason the customer gave. */
  customer_return_reason: string | null;
  /** Message the customer wrote. */
  customer_return_message: string | null;
}

/** An item the warehouse handled (`return_line_items`). */
export interface ReturnLineItem {
  /** Return line item id. */
  id: number;
  /** Quantity handled. */
  quantity: number;
  /** The SKU. */
  sku: SkuRef | null;
  /** Condition grade: `A`, `B` or `C`. */
  condition: ReturnItemCondition | null;
  /** What happens to the item next (values not documented). */
  follow_up_action: string | null;
  /** Inventory batch the item was put into. */
  inventory_batch_id: number | null;
  /** The announced `return_items` entry this line handles. */
  return_item_id: number | null;
  /** Photos of the item. */
  photos: ReturnPhoto[];
}

/** A return (a parcel coming back) as the API returns it. */
export interface Return {
  /** Provider's identifier. */
  id: number;
  /** `on_the_way`, `arrived`, `processing`, `action_required` or `handling_completed`. */
  status: ReturnStatus;
  /** Carrier bringing the parcel back. */
  carrier: string | null;
  /** Carrier tracking code. */
  tracking_code: string | null;
  /** Carrier tracking URL. */
  tracking_url: string | null;
  /** Creation time, ISO 8601 date-time string. */
  created_at: string | null;
  /** Time the parcel reached the warehouse. */
  received_at: string | null;
  /** Time handling started. */
  started_processing_at: string | null;
  /** Time handling completed. */
  completed_handling_at: string | null;
  /** The order the return belongs to. */
  order: ReturnOrderRef | null;
  /** Photos of the parcel. */
  photos: ReturnPhoto[];
  /**
   * Why the parcel came back: `customer_return`, `not_picked_up`, `invalid_address`,
   * `rejected_by_customer`, `customs_documents_missing`, `other`, or `""`/`null` when unknown.
   */
  return_reason: ReturnReason | null;
  /** `active` (the customer sent it) or `passive` (it bounced), or `""`/`null` when unknown. */
  return_reason_type: ReturnReasonType | null;
  /** Items the customer announced. */
  return_items: ReturnItem[];
  /** Items the warehouse handled. */
  return_line_items: ReturnLineItem[];
}
