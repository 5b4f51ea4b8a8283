/**
 * Returns (`GET /merchant_api/v1/returns`, `GET /merchant_api/v1/returns/{id}`): parcels coming
 * back from customers. The spec does not show the record; the fields come from the provider notes,
 * so only the `id` of each object is required and every other field is nullish.
 */
import * as z from 'zod/mini';
import { type Fields, openEnum, orNull } from './common.js';
import { openListParamsSchema } from './envelope.js';
import { SkuRefSchema } from './skus.js';

/** Known values of `Return.status`. */
export const RETURN_STATUSES = [
  'on_the_way',
  'arrived',
  'processing',
  'action_required',
  'handling_completed',
] as const;
/** Status of a return (open enum). */
export const ReturnStatusSchema = openEnum(RETURN_STATUSES);
/** Status of a return: a known value or one this SDK does not know yet. */
export type ReturnStatus = z.infer<typeof ReturnStatusSchema>;

/** Known values of `Return.return_reason` (the API also sends `""`, which is a known value here). */
export const RETURN_REASONS = [
  'customer_return',
  'not_picked_up',
  'invalid_address',
  'rejected_by_customer',
  'customs_documents_missing',
  'other',
  '',
] as const;
/** Why the parcel came back (open enum; `""` and `null` occur). */
export const ReturnReasonSchema = openEnum(RETURN_REASONS);
/** Why the parcel came back. */
export type ReturnReason = z.infer<typeof ReturnReasonSchema>;

/** Known values of `Return.return_reason_type` (`""` included). */
export const RETURN_REASON_TYPES = ['active', 'passive', ''] as const;
/** Whether the customer returned the parcel (`active`) or it bounced (`passive`); open enum. */
export const ReturnReasonTypeSchema = openEnum(RETURN_REASON_TYPES);
/** Whether the return was active or passive. */
export type ReturnReasonType = z.infer<typeof ReturnReasonTypeSchema>;

/** Known values of `ReturnLineItem.condition`. */
export const RETURN_ITEM_CONDITIONS = ['A', 'B', 'C'] as const;
/** Condition grade of a handled return item: `A`, `B`, `C` (open enum). */
export const ReturnItemConditionSchema = openEnum(RETURN_ITEM_CONDITIONS);
/** Condition grade of a handled return item. */
export type ReturnItemCondition = z.infer<typeof ReturnItemConditionSchema>;

/** A photo taken of a return or of a handled item (see the `ReturnPhoto` type). */
export const ReturnPhotoSchema = z.looseObject({
  /** Photo id. */
  id: z.number(),
  /** URL of the image. */
  image_url: orNull(z.string()),
  /** What the photo shows (values not documented). */
  photo_type: orNull(z.string()),
});

/** The order a return belongs to (see the `ReturnOrderRef` type). */
export const ReturnOrderRefSchema = z.looseObject({
  /** Provider's id of the order. */
  id: z.number(),
  /** Merchant's id of the order. */
  merchant_order_id: orNull(z.string()),
  /** Order number the end customer sees. */
  customer_order_number: orNull(z.string()),
});

/** What the announced and the handled items of a return both carry. */
const returnedItem = {
  /** Item id. */
  id: z.number(),
  /** Quantity announced (`return_items`) or handled (`return_line_items`). */
  quantity: z.number(),
  /** The SKU. */
  sku: orNull(SkuRefSchema),
};

/** An item the customer announced for return (see the `ReturnItem` type). */
export const ReturnItemSchema = z.looseObject({
  ...returnedItem,
  /** Reason the customer gave. */
  customer_return_reason: orNull(z.string()),
  /** Message the customer wrote. */
  customer_return_message: orNull(z.string()),
});

/** An item the warehouse handled (see the `ReturnLineItem` type). */
export const ReturnLineItemSchema = z.looseObject({
  ...returnedItem,
  /** Condition grade: `A`, `B` or `C`. */
  condition: orNull(ReturnItemConditionSchema),
  /** What happens to the item next (values not documented). */
  follow_up_action: orNull(z.string()),
  /** Inventory batch the item was put into. */
  inventory_batch_id: orNull(z.number()),
  /** The announced `return_items` entry this line handles. */
  return_item_id: orNull(z.number()),
  /** Photos of the item. */
  photos: z._default(z.array(ReturnPhotoSchema), []),
});

/** A return as the API returns it (see the `Return` type). */
export const ReturnSchema = z.looseObject({
  /** Provider's identifier. */
  id: z.number(),
  /** `on_the_way`, `arrived`, `processing`, `action_required` or `handling_completed`. */
  status: ReturnStatusSchema,
  /** Carrier bringing the parcel back. */
  carrier: orNull(z.string()),
  /** Carrier tracking code. */
  tracking_code: orNull(z.string()),
  /** Carrier tracking URL. */
  tracking_url: orNull(z.string()),
  /** Creation time, ISO 8601 date-time string. */
  created_at: orNull(z.string()),
  /** Time the parcel reached the warehouse. */
  received_at: orNull(z.string()),
  /** Time handling started. */
  started_processing_at: orNull(z.string()),
  /** Time handling completed. */
  completed_handling_at: orNull(z.string()),
  /** The order the return belongs to. */
  order: orNull(ReturnOrderRefSchema),
  /** Photos of the parcel. */
  photos: z._default(z.array(ReturnPhotoSchema), []),
  /**
   * Why the parcel came back: `customer_return`, `not_picked_up`, `invalid_address`,
   * `rejected_by_customer`, `customs_documents_missing`, `other`, or `""`/`null` when unknown.
   */
  return_reason: orNull(ReturnReasonSchema),
  /** `active` (the customer sent it) or `passive` (it bounced), or `""`/`null` when unknown. */
  return_reason_type: orNull(ReturnReasonTypeSchema),
  /** Items the customer announced. */
  return_items: z._default(z.array(ReturnItemSchema), []),
  /** Items the warehouse handled. */
  return_line_items: z._default(z.array(ReturnLineItemSchema), []),
});

/** A photo taken of a return or of a handled item. */
export interface ReturnPhoto extends Fields<typeof ReturnPhotoSchema> {}
/** The order a return belongs to. */
export interface ReturnOrderRef extends Fields<typeof ReturnOrderRefSchema> {}
/** An item the customer announced for return (`return_items`). */
export interface ReturnItem extends Fields<typeof ReturnItemSchema> {}
/** An item the warehouse handled (`return_line_items`). */
export interface ReturnLineItem extends Fields<typeof ReturnLineItemSchema> {}
/** A return (a parcel coming back) as the API returns it. */
export interface Return extends Fields<typeof ReturnSchema> {}

/**
 * Query of `GET /returns`: `limit`, `page`, `created_at`. The provider documents no other parameters
 * for this endpoint, so further ones are passed through as given (request options never are).
 */
export const ReturnListParamsSchema = openListParamsSchema();
/** Query of `GET /returns`. */
export type ReturnListParams = z.input<typeof ReturnListParamsSchema>;
