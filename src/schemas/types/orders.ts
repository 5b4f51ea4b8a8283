/**
 * The order records as the API returns them (spec §2.2–2.4): named interfaces over the schemas'
 * outputs, their fields documented on the schemas. `test/schemas/interfaces.test-d.ts` proves each
 * equal to its schema's output.
 */
import type { Fields } from '../common.js';
import type { AddressSchema, OrderItemBatchSchema, OrderLineItemSchema, OrderSchema } from '../orders.js';

/** A shipping address as the API returns it (spec §2.4). */
export interface Address extends Fields<typeof AddressSchema> {}

/** A batch an item is (or will be) taken from: on order items with `include=batches`, and on shipment items. */
export interface OrderItemBatch extends Fields<typeof OrderItemBatchSchema> {}

/** A line item of an order as the API returns it (spec §2.3). */
export interface OrderLineItem extends Fields<typeof OrderLineItemSchema> {}

/** An order as the API returns it (spec §2.2). */
export interface Order extends Fields<typeof OrderSchema> {}
