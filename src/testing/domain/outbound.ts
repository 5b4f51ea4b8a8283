/**
 * Outbound records made by control methods: fulfilling an order (its reserved stock ships and a
 * shipment record appears) and returns of fulfilled orders, with the return reasons they accept.
 */
import { RETURN_REASONS as SDK_RETURN_REASONS } from '../../schemas/returns.js';
import { ship } from './inventory.js';
import type { MockReturn, MockReturnReason, MockShipment } from './resources.js';
import type { MockState, OrderRecord } from './state.js';
import { itemBatches } from './views.js';

/**
 * Options of `api.createReturn`, checked field by field (unknown fields refused) by
 * `checkReturnOptions` (`faces/control.ts`), the checker of `POST /__mock/orders/{id}/returns` too.
 */
export interface MockReturnOptions {
  /** Items returned (by `sku_id` or `merchant_sku_id`). Default: every item of the order, in full. */
  items?: readonly {
    sku_id?: number;
    merchant_sku_id?: string;
    quantity: number;
    reason?: string;
    message?: string;
  }[];
  /** Reason of the return. Default `customer_return`. */
  reason?: MockReturnReason;
  /** Carrier of the return. Default `DHL`. */
  carrier?: string;
}

/** The SDK's known return reasons, without the empty string the API sometimes sends. */
export const RETURN_REASONS = SDK_RETURN_REASONS.filter((r): r is MockReturnReason => r !== '');

const PASSIVE_REASONS = new Set<MockReturnReason>([
  'not_picked_up',
  'invalid_address',
  'rejected_by_customer',
  'customs_documents_missing',
]);

/**
 * Fulfils a fulfillable order: its reserved units leave the warehouse (`reserved` goes down, the
 * units available for sale do not change), the order becomes `fulfilled`, and
 * a `shipped` shipment (`delivery_status` "In transit") is recorded with one item per order item.
 */
export function fulfilOrder(state: MockState, order: OrderRecord, now: Date): MockShipment {
  if (order.status !== 'fulfillable') {
    throw new Error(`Order ${order.id} is ${order.status}: only fulfillable orders can be fulfilled`);
  }
  for (const item of order.items) {
    if (item.reservation) ship(item.sku, item.reservation);
    item.reservation = null;
  }
  order.status = 'fulfilled';
  const at = now.toISOString();
  const id = state.shipments.nextId();
  const view: MockShipment = {
    id,
    order_id: order.id,
    merchant_order_id: order.merchant_order_id,
    created_at: at,
    shipped_at: at,
    delivered_at: null,
    shipment_provider: order.carrier_preference ?? 'DHL',
    status: 'shipped',
    delivery_status: 'In transit',
    items: order.items.map((item) => ({
      id: state.nextId('shipmentItem'),
      merchant_item_id: item.merchant_item_id,
      quantity: item.quantity,
      sku: { id: item.sku.id, sku_code: item.sku.merchant_sku_id },
      batches: itemBatches(item.batches),
      serial_numbers: [],
    })),
  };
  state.shipments.insert({ id, createdMs: now.getTime(), view });
  return structuredClone(view);
}

/**
 * Records a return (`on_the_way`) of a fulfilled order: by default every item in full. Items name
 * SKUs of the order by `sku_id` or `merchant_sku_id`.
 */
export function createReturn(
  state: MockState,
  order: OrderRecord,
  options: MockReturnOptions,
  now: Date,
): MockReturn {
  if (order.status !== 'fulfilled') {
    throw new Error(`Order ${order.id} is ${order.status}: only fulfilled orders can be returned`);
  }
  const wanted =
    options.items ?? order.items.map((item) => ({ sku_id: item.sku.id, quantity: item.quantity }));
  const returnItems = wanted.map((w: NonNullable<MockReturnOptions['items']>[number]) => {
    const item = order.items.find((i) =>
      w.sku_id !== undefined ? i.sku.id === w.sku_id : i.sku.merchant_sku_id === w.merchant_sku_id,
    );
    if (!item) {
      throw new Error(`Order ${order.id} has no item of SKU ${String(w.sku_id ?? w.merchant_sku_id)}`);
    }
    if (w.quantity > item.quantity) {
      throw new Error(`Return quantity of SKU ${item.sku.id} must be an integer from 1 to ${item.quantity}`);
    }
    return {
      id: state.nextId('returnItem'),
      quantity: w.quantity,
      sku: { id: item.sku.id, sku_code: item.sku.merchant_sku_id },
      customer_return_reason: w.reason ?? null,
      customer_return_message: w.message ?? null,
    };
  });
  const reason = options.reason ?? 'customer_return';
  const id = state.returns.nextId();
  const trackingCode = `RT${String(id).padStart(8, '0')}`;
  const view: MockReturn = {
    id,
    status: 'on_the_way',
    carrier: options.carrier ?? 'DHL',
    tracking_code: trackingCode,
    tracking_url: `https://tracking.example/${trackingCode}`,
    created_at: now.toISOString(),
    received_at: null,
    started_processing_at: null,
    completed_handling_at: null,
    order: {
      id: order.id,
      merchant_order_id: order.merchant_order_id,
      customer_order_number: order.customer_order_number,
    },
    photos: [],
    return_reason: reason,
    return_reason_type:
      reason === 'customer_return' ? 'active' : PASSIVE_REASONS.has(reason) ? 'passive' : null,
    return_items: returnItems,
    return_line_items: [],
  };
  state.returns.insert({ id, createdMs: now.getTime(), view });
  return structuredClone(view);
}
