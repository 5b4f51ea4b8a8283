/**
 * The order records as the API returns them: named interfaces with the spec's meaning on every field
 * (spec §2.2–2.4). `test/schemas/interfaces.test-d.ts` proves each equal to its schema's output.
 */
import type { FinancialStatus, OrderStatus } from '../orders.js';

/** A shipping address as the API returns it (spec §2.4). */
export interface Address {
  /** Full name of the recipient. */
  full_name: string;
  /** First name (an address carries a first or a last name, or both). */
  first_name: string | null;
  /** Last name (an address carries a first or a last name, or both). */
  last_name: string | null;
  /** Company. */
  company: string | null;
  /** Street line 1. */
  line1: string;
  /** Street line 2. */
  line2: string | null;
  /** City. */
  city: string;
  /** Postal code. */
  postal_code: string;
  /** 2-letter province or state code. */
  province_or_state_code: string | null;
  /** 2-letter ISO 3166-1 country code. */
  country_code: string;
  /** E-mail address. */
  email: string | null;
  /** Phone number. */
  phone: string | null;
  /** Parcel point id (one external parcel-point provider is supported). */
  parcel_point_id: string | null;
}

/** A batch an item is (or will be) taken from: on order items with `include=batches`, and on shipment items. */
export interface OrderItemBatch {
  /** Batch name. */
  name: string | null;
  /** Batch tracking code (lot number). */
  tracking_code: string | null;
  /** Expiry date, ISO 8601 date string. */
  expiry_date: string | null;
  /** Quantity taken from this batch. */
  quantity: number | null;
}

/** A line item of an order as the API returns it (spec §2.3). */
export interface OrderLineItem {
  /** Merchant's id of the line item, unique within the order; `null` for add-ons that are not order lines. */
  merchant_item_id: string | null;
  /** Provider's SKU id (an item carries `sku_id` or `merchant_sku_id`, or both). */
  sku_id: number | null;
  /** Merchant's SKU code (an item carries `sku_id` or `merchant_sku_id`, or both). */
  merchant_sku_id: string | null;
  /** Quantity ordered. */
  quantity: number;
  /** Unit price in cents (0 when not given: the spec's default). */
  price_per_unit_in_cents: number;
  /** Discounted unit price in cents. */
  price_per_unit_in_cents_with_discount: number | null;
  /** Batches the item is taken from: only with `include: ['batches']`. */
  batches?: OrderItemBatch[] | null;
}

/** An order as the API returns it (spec §2.2). */
export interface Order {
  /** Provider's identifier. */
  id: number;
  /** Merchant's order id, unique (a second order with the same id is refused with a 422). */
  merchant_order_id: string;
  /** Order number the end customer sees, if different from `merchant_order_id`. */
  customer_order_number: string | null;
  /** Line items. */
  items: OrderLineItem[];
  /** Shipping address. */
  shipping_address: Address;
  /** Preferred carrier. */
  carrier_preference: string | null;
  /** Tags (may trigger actions such as add-on rules). */
  tags: string[] | null;
  /** Free-form metadata (a JSON object). */
  custom_metadata: Record<string, unknown> | null;
  /** Creation time, ISO 8601 date-time string (the time of submission unless one was given). */
  created_at: string;
  /** 3-letter ISO 4217 currency code (`EUR` unless one was given). */
  currency: string;
  /** Financial status: `paid`, `refunded`, `pending` or `failed`. */
  financial_status: FinancialStatus | null;
  /** Payment method; contains `COD` for cash on delivery. */
  payment_method: string | null;
  /** Total paid, in cents (the amount the carrier collects for COD). */
  total_price_in_cents: number | null;
  /** Amount paid minus taxes, in cents. */
  total_net_revenue_in_cents: number | null;
  /** Taxes, in cents. */
  total_tax_in_cents: number | null;
  /** Refunded minus taxes, in cents. */
  total_net_refunds_in_cents: number | null;
  /** Tax within the refunded amount, in cents. */
  total_tax_refunds_in_cents: number | null;
  /**
   * `fulfillable` (will be fulfilled: the normal case), `unfulfillable` (blocked shipping country,
   * or cancelled) or `fulfilled`.
   */
  status: OrderStatus;
}
