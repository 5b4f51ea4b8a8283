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
