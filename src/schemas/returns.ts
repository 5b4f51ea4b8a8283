/**
 * Returns (`GET /merchant_api/v1/returns`, `GET /merchant_api/v1/returns/{id}`): parcels coming
 * back from customers. The spec does not show the record; the fields come from the provider notes,
 * so only the `id` of each object is required and every other field is nullish.
 */
import * as z from 'zod';
import { openEnum } from './common.js';
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

/** A photo taken of a return or of a handled item. Only `id` is required. */
export const ReturnPhotoSchema = z.looseObject({
  /** Photo id. */
  id: z.number(),
  /** URL of the image. */
  image_url: z.string().nullish(),
  /** What the photo shows (values not documented). */
  photo_type: z.string().nullish(),
});
/** A photo taken of a return or of a handled item. */
export type ReturnPhoto = z.infer<typeof ReturnPhotoSchema>;

/** The order a return belongs to. Only `id` is required. */
export const ReturnOrderRefSchema = z.looseObject({
  /** Provider's id of the order. */
  id: z.number(),
  /** Merchant's id of the order. */
  merchant_order_id: z.string().nullish(),
  /** Order number the end customer sees. */
  customer_order_number: z.string().nullish(),
});
/** The order a return belongs to. */
export type ReturnOrderRef = z.infer<typeof ReturnOrderRefSchema>;

/** An item the customer announced for return (`return_items`). Only `id` is required. */
export const ReturnItemSchema = z.looseObject({
  /** Return item id. */
  id: z.number(),
  /** Quantity announced. */
  quantity: z.number().nullish(),
  /** The SKU: `{ id, sku_code }`. */
  sku: SkuRefSchema.nullish(),
  /** Reason the customer gave. */
  customer_return_reason: z.string().nullish(),
  /** Message the customer wrote. */
  customer_return_message: z.string().nullish(),
});
/** An item the customer announced for return. */
export type ReturnItem = z.infer<typeof ReturnItemSchema>;

/** An item the warehouse handled (`return_line_items`). Only `id` is required. */
export const ReturnLineItemSchema = z.looseObject({
  /** Return line item id. */
  id: z.number(),
  /** Quantity handled. */
  quantity: z.number().nullish(),
  /** The SKU: `{ id, sku_code }`. */
  sku: SkuRefSchema.nullish(),
  /** Condition grade (open enum `A`/`B`/`C`). */
  condition: ReturnItemConditionSchema.nullish(),
  /** What happens to the item next (values not documented). */
  follow_up_action: z.string().nullish(),
  /** Inventory batch the item was put into. */
  inventory_batch_id: z.number().nullish(),
  /** The announced `return_items` entry this line handles. */
  return_item_id: z.number().nullish(),
  /** Photos of the item. */
  photos: z.array(ReturnPhotoSchema).nullish(),
});
/** An item the warehouse handled. */
export type ReturnLineItem = z.infer<typeof ReturnLineItemSchema>;

/** A return as the API returns it. Only `id` is required. */
export const ReturnSchema = z.looseObject({
  /** Provider's identifier. */
  id: z.number(),
  /** Status (open enum). */
  status: ReturnStatusSchema.nullish(),
  /** Carrier bringing the parcel back. */
  carrier: z.string().nullish(),
  /** Carrier tracking code. */
  tracking_code: z.string().nullish(),
  /** Carrier tracking URL. */
  tracking_url: z.string().nullish(),
  /** Creation time, ISO 8601 date-time string. */
  created_at: z.string().nullish(),
  /** Time the parcel reached the warehouse. */
  received_at: z.string().nullish(),
  /** Time handling started. */
  started_processing_at: z.string().nullish(),
  /** Time handling completed. */
  completed_handling_at: z.string().nullish(),
  /** The order the return belongs to. */
  order: ReturnOrderRefSchema.nullish(),
  /** Photos of the parcel. */
  photos: z.array(ReturnPhotoSchema).nullish(),
  /** Why the parcel came back (open enum; `null` or `""` when unknown). */
  return_reason: ReturnReasonSchema.nullish(),
  /** Active (customer) or passive (bounced) return (open enum; `null` or `""` when unknown). */
  return_reason_type: ReturnReasonTypeSchema.nullish(),
  /** Items the customer announced. */
  return_items: z.array(ReturnItemSchema).nullish(),
  /** Items the warehouse handled. */
  return_line_items: z.array(ReturnLineItemSchema).nullish(),
});
/** A return as the API returns it. */
export type Return = z.infer<typeof ReturnSchema>;

/**
 * Query of `GET /returns`: `limit`, `page`, `created_at`. The provider documents no other parameters
 * for this endpoint, so further ones are passed through as given (request options never are).
 */
export const ReturnListParamsSchema = openListParamsSchema();
/** Query of `GET /returns`. */
export type ReturnListParams = z.input<typeof ReturnListParamsSchema>;
