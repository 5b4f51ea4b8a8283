/** The order records, where they were named before they sat beside their schemas. */
export type { Address, Order, OrderItemBatch, OrderLineItem } from '../orders.js';
