/**
 * Order rules: create, update (PATCH), cancel, validation (required fields, address names, SKU
 * references, COD total, unique merchant order id) and the status machine of spec section 3.2,
 * with the stock each fulfillable order reserves.
 */
import { AddressSchema, FINANCIAL_STATUSES } from '../../schemas/orders.js';
import type { JsonValue } from '../engine/json.js';
import { Fields, Invalid, isBlank, isObject } from '../engine/validation.js';
import { release, reserve } from './inventory.js';
import type { MockAddress } from './resources.js';
import type { MockState, OrderItemRecord, OrderRecord, SkuRecord } from './state.js';

/** Address fields in the spec's order, and those the API requires on create (spec §2.4). */
const ADDRESS_FIELDS = Object.keys(AddressSchema.shape) as (keyof MockAddress)[];
const ADDRESS_REQUIRED = ['full_name', 'line1', 'city', 'postal_code', 'country_code'] as const;
/** The order totals: integers in cents, each `null` when not given. */
export const ORDER_TOTALS = [
  'total_price_in_cents',
  'total_net_revenue_in_cents',
  'total_tax_in_cents',
  'total_net_refunds_in_cents',
  'total_tax_refunds_in_cents',
] as const;

/** The countries an order cannot be shipped to (upper-case codes). */
export type BlockedCountries = ReadonlySet<string>;

/** A validated line item, new or matched with an existing one by `merchant_item_id`. */
interface ItemDraft {
  existing: OrderItemRecord | undefined;
  merchant_item_id: string;
  sku: SkuRecord;
  quantity: number;
  price_per_unit_in_cents: number;
  price_per_unit_in_cents_with_discount: number | null;
}

/** The optional top-level fields, as sent. */
type OrderFields = Partial<
  Pick<
    OrderRecord,
    | 'customer_order_number'
    | 'carrier_preference'
    | 'tags'
    | 'custom_metadata'
    | 'currency'
    | 'financial_status'
    | 'payment_method'
    | (typeof ORDER_TOTALS)[number]
  >
>;

function readFields(f: Fields): OrderFields {
  const out: OrderFields = {};
  if (f.has('customer_order_number')) out.customer_order_number = f.string('customer_order_number') ?? null;
  if (f.has('carrier_preference')) out.carrier_preference = f.string('carrier_preference') ?? null;
  if (f.has('tags')) out.tags = f.strings('tags') ?? [];
  if (f.has('custom_metadata')) out.custom_metadata = f.object('custom_metadata') ?? null;
  if (f.has('currency')) out.currency = f.code('currency', 3) ?? 'EUR';
  if (f.has('financial_status'))
    out.financial_status = f.oneOf('financial_status', FINANCIAL_STATUSES) ?? null;
  if (f.has('payment_method')) out.payment_method = f.string('payment_method') ?? null;
  for (const key of ORDER_TOTALS) if (f.has(key)) out[key] = f.integer(key) ?? null;
  return out;
}

/** Reads `shipping_address`, merged over `base` on update; checks required fields and names. */
function readAddress(
  value: JsonValue | undefined,
  base: MockAddress | undefined,
  errors: string[],
): MockAddress | undefined {
  if (value === undefined && base) return base;
  if (isBlank(value)) {
    errors.push("Shipping address can't be blank");
    return undefined;
  }
  if (!isObject(value)) {
    errors.push('Shipping address is invalid');
    return undefined;
  }
  const f = new Fields(value, errors, 'Shipping address');
  const read = (key: string): string | null | undefined =>
    key === 'country_code' || key === 'province_or_state_code' ? f.code(key, 2) : f.string(key);
  const merged: Record<string, string | null> = {};
  for (const key of ADDRESS_FIELDS) {
    const sent = f.has(key) ? read(key) : undefined;
    merged[key] = sent !== undefined ? sent : ((base?.[key] as string | null | undefined) ?? null);
  }
  for (const key of ADDRESS_REQUIRED) if (isBlank(merged[key])) f.error(key, "can't be blank");
  if (isBlank(merged.first_name) && isBlank(merged.last_name)) {
    errors.push('Shipping address first name or last name must be present');
  }
  return merged as unknown as MockAddress;
}

/** The active SKU an item refers to (`sku_id` first, else `merchant_sku_id`). */
function referencedSku(state: MockState, f: Fields): SkuRecord | undefined {
  const id = f.integer('sku_id');
  const code = f.string('merchant_sku_id');
  const sku = typeof id === 'number' ? state.skus.get(id) : code ? state.activeSkuByCode(code) : undefined;
  return sku?.status === 'active' ? sku : undefined;
}

/**
 * Reads `items`. On create the list is required and complete; on update each element is matched
 * with an existing item by `merchant_item_id` (sent fields change, the others are kept), unknown
 * ids add items, and items not mentioned stay.
 */
function readItems(
  state: MockState,
  value: JsonValue | undefined,
  existing: readonly OrderItemRecord[] | undefined,
  errors: string[],
): ItemDraft[] | undefined {
  if (existing && value === undefined) return undefined;
  if (!Array.isArray(value) || (!existing && value.length === 0)) {
    errors.push(Array.isArray(value) || isBlank(value) ? "Items can't be blank" : 'Items is invalid');
    return undefined;
  }
  const drafts: ItemDraft[] = (existing ?? []).map((item) => ({ ...item, existing: item }));
  const seen = new Set<string>();
  for (const element of value) {
    if (!isObject(element)) {
      errors.push('Items is invalid');
      continue;
    }
    const f = new Fields(element, errors, 'Items');
    const id = f.string('merchant_item_id', true);
    if (typeof id !== 'string') continue;
    if (seen.has(id)) f.error('merchant_item_id', 'has already been taken');
    seen.add(id);
    const match = drafts.find((d) => d.merchant_item_id === id);
    const quantity =
      match && !f.has('quantity')
        ? match.quantity
        : f.integer('quantity', { required: true, positive: true });
    const price = f.has('price_per_unit_in_cents')
      ? (f.integer('price_per_unit_in_cents') ?? 0)
      : (match?.price_per_unit_in_cents ?? 0);
    const discount = f.has('price_per_unit_in_cents_with_discount')
      ? (f.integer('price_per_unit_in_cents_with_discount') ?? null)
      : (match?.price_per_unit_in_cents_with_discount ?? null);
    const refersToSku = f.has('sku_id') || f.has('merchant_sku_id');
    const sku = match && !refersToSku ? match.sku : referencedSku(state, f);
    if (!sku) f.error('sku', 'must exist');
    if (!sku || typeof quantity !== 'number') continue;
    const draft: ItemDraft = {
      existing: match?.existing,
      merchant_item_id: id,
      sku,
      quantity,
      price_per_unit_in_cents: price,
      price_per_unit_in_cents_with_discount: discount,
    };
    if (match) drafts[drafts.indexOf(match)] = draft;
    else drafts.push(draft);
  }
  return drafts;
}

/** The COD rule: a payment method containing `COD` needs `total_price_in_cents` > 0. */
function checkCod(paymentMethod: string | null, total: number | null, errors: string[]): void {
  if (paymentMethod?.toUpperCase().includes('COD') && !(typeof total === 'number' && total > 0)) {
    errors.push('Total price in cents must be greater than 0');
  }
}

function toItems(state: MockState, drafts: readonly ItemDraft[]): OrderItemRecord[] {
  return drafts.map((d) => ({
    id: d.existing?.id ?? state.nextId('orderItem'),
    merchant_item_id: d.merchant_item_id,
    sku: d.sku,
    quantity: d.quantity,
    price_per_unit_in_cents: d.price_per_unit_in_cents,
    price_per_unit_in_cents_with_discount: d.price_per_unit_in_cents_with_discount,
    reservation: null,
    batches: [],
  }));
}

/** Sets the status from the shipping country and reserves stock when fulfillable. */
function settle(state: MockState, order: OrderRecord, blocked: BlockedCountries): void {
  order.status = blocked.has(order.shipping_address.country_code) ? 'unfulfillable' : 'fulfillable';
  if (order.status !== 'fulfillable') return;
  for (const item of order.items) {
    item.reservation = reserve(state, item.sku, item.quantity);
    item.batches = item.reservation.batches;
  }
}

/** Gives back the stock an order holds. */
export function releaseOrder(order: OrderRecord): void {
  for (const item of order.items) {
    if (!item.reservation) continue;
    release(item.sku, item.reservation);
    item.reservation = null;
    item.batches = [];
  }
}

/** `POST /orders`: `fulfillable` (stock reserved), or `unfulfillable` when the country is blocked. */
export function createOrder(
  state: MockState,
  body: JsonValue | undefined,
  now: Date,
  blocked: BlockedCountries,
): OrderRecord | Invalid {
  if (!isObject(body)) return new Invalid(["Merchant order can't be blank"]);
  const errors: string[] = [];
  const f = new Fields(body, errors);
  const merchantOrderId = f.string('merchant_order_id', true);
  if (typeof merchantOrderId === 'string' && state.orderByMerchantId(merchantOrderId)) {
    f.error('merchant_order_id', 'has already been taken');
  }
  const address = readAddress(body.shipping_address, undefined, errors);
  const drafts = readItems(state, body.items, undefined, errors);
  const fields = readFields(f);
  const createdMs = f.dateTime('created_at');
  checkCod(fields.payment_method ?? null, fields.total_price_in_cents ?? null, errors);
  if (errors.length > 0) return new Invalid(errors);
  const created = typeof createdMs === 'number' ? new Date(createdMs) : now;
  const order: OrderRecord = {
    id: state.orders.nextId(),
    createdMs: created.getTime(),
    created_at: created.toISOString(),
    merchant_order_id: merchantOrderId!,
    customer_order_number: null,
    status: 'fulfillable',
    cancelled: false,
    items: toItems(state, drafts!),
    shipping_address: address!,
    carrier_preference: null,
    tags: [],
    custom_metadata: null,
    currency: 'EUR',
    financial_status: null,
    payment_method: null,
    total_price_in_cents: null,
    total_net_revenue_in_cents: null,
    total_tax_in_cents: null,
    total_net_refunds_in_cents: null,
    total_tax_refunds_in_cents: null,
    ...fields,
  };
  settle(state, order, blocked);
  state.addOrder(order);
  return order;
}

/**
 * `PATCH /orders/{id}`: sent fields change, omitted ones are kept (address fields one by one,
 * items matched by `merchant_item_id`). Rejected once the order is fulfilled or cancelled. The
 * status is set again from the (new) shipping country and the stock reserved again.
 */
export function updateOrder(
  state: MockState,
  order: OrderRecord,
  body: JsonValue | undefined,
  blocked: BlockedCountries,
): OrderRecord | Invalid {
  if (order.status === 'fulfilled') return new Invalid(['Order has already been fulfilled']);
  if (order.cancelled) return new Invalid(['Order has been cancelled']);
  if (!isObject(body)) return new Invalid(['Order is invalid']);
  const errors: string[] = [];
  const f = new Fields(body, errors);
  const merchantOrderId = f.has('merchant_order_id') ? f.string('merchant_order_id', true) : undefined;
  if (typeof merchantOrderId === 'string') {
    const holder = state.orderByMerchantId(merchantOrderId);
    if (holder && holder !== order) f.error('merchant_order_id', 'has already been taken');
  }
  const address = readAddress(body.shipping_address, order.shipping_address, errors);
  const drafts = readItems(state, body.items, order.items, errors);
  const fields = readFields(f);
  checkCod(
    fields.payment_method !== undefined ? fields.payment_method : order.payment_method,
    fields.total_price_in_cents !== undefined ? fields.total_price_in_cents : order.total_price_in_cents,
    errors,
  );
  if (errors.length > 0) return new Invalid(errors);
  releaseOrder(order);
  const oldId = order.merchant_order_id;
  Object.assign(order, fields);
  if (typeof merchantOrderId === 'string') order.merchant_order_id = merchantOrderId;
  order.shipping_address = address!;
  if (drafts) order.items = toItems(state, drafts);
  state.reindexOrder(order, oldId);
  settle(state, order, blocked);
  return order;
}

/** `PUT /orders/{id}/cancel`: a fulfillable order becomes unfulfillable and its stock is released. */
export function cancelOrder(order: OrderRecord): OrderRecord | Invalid {
  if (order.status !== 'fulfillable') return new Invalid(['Order can only be cancelled while fulfillable']);
  releaseOrder(order);
  order.status = 'unfulfillable';
  order.cancelled = true;
  return order;
}
