/**
 * Returns as the API returns them. The spec does not show the record: the fields are the provider
 * notes', documented on the schemas. `test/schemas/interfaces.test-d.ts` proves each interface
 * equal to its schema's output.
 */
import type { Fields } from '../common.js';
import type {
  ReturnItemSchema,
  ReturnLineItemSchema,
  ReturnOrderRefSchema,
  ReturnPhotoSchema,
  ReturnSchema,
} from '../returns.js';
import type { SkuRef } from './skus.js';

/** A photo taken of a return or of a handled item. */
export interface ReturnPhoto extends Fields<typeof ReturnPhotoSchema> {}

/** The order a return belongs to. */
export interface ReturnOrderRef extends Fields<typeof ReturnOrderRefSchema> {}

/** An item the customer announced for return (`return_items`). */
export interface ReturnItem extends Omit<Fields<typeof ReturnItemSchema>, 'sku'> {
  /** The SKU. */
  sku: SkuRef | null;
}

/** An item the warehouse handled (`return_line_items`). */
export interface ReturnLineItem extends Omit<Fields<typeof ReturnLineItemSchema>, 'sku' | 'photos'> {
  /** The SKU. */
  sku: SkuRef | null;
  /** Photos of the item. */
  photos: ReturnPhoto[];
}

/** A return (a parcel coming back) as the API returns it. */
export interface Return
  extends Omit<Fields<typeof ReturnSchema>, 'order' | 'photos' | 'return_items' | 'return_line_items'> {
  /** The order the return belongs to. */
  order: ReturnOrderRef | null;
  /** Photos of the parcel. */
  photos: ReturnPhoto[];
  /** Items the customer announced. */
  return_items: ReturnItem[];
  /** Items the warehouse handled. */
  return_line_items: ReturnLineItem[];
}
