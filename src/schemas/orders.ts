/**
 * Orders (`/merchant_api/v1/orders`): the order record with its line items, batches and address,
 * and the request bodies of create, update (PATCH), list and retrieve.
 *
 * Longer than most files on purpose: the order's request rules (a name on the address, a SKU on
 * each item, unique item ids, cash on delivery) sit next to the schemas they guard.
 */
import * as z from 'zod/mini';
import {
  batchShape,
  dateTimeParam,
  eitherRequired,
  type Fields,
  integer,
  letterCode,
  objectError,
  objectRule,
  openEnum,
  orNull,
  positiveInteger,
  repeats,
  requiredArray,
  requiredOr,
  requiredPositiveInt,
  requiredText,
  sometimes,
  text,
} from './common.js';
import { listQueryShape } from './envelope.js';

// ---------------------------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------------------------

/** Known values of `Order.status`. */
export const ORDER_STATUSES = ['fulfillable', 'unfulfillable', 'fulfilled'] as const;
/**
 * Order status (open enum): `fulfillable` (will be fulfilled), `unfulfillable` (blocked country or
 * cancelled), `fulfilled`.
 */
export const OrderStatusSchema = openEnum(ORDER_STATUSES);
/** Order status: a known value or one this SDK does not know yet. */
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

/** Known values of `Order.financial_status`. */
export const FINANCIAL_STATUSES = ['paid', 'refunded', 'pending', 'failed'] as const;
/** Financial status of an order (open enum, on requests too). */
export const FinancialStatusSchema = openEnum(FINANCIAL_STATUSES);
/** Financial status of an order: `paid`, `refunded`, `pending`, `failed`, or another value. */
export type FinancialStatus = z.infer<typeof FinancialStatusSchema>;

/** Known values of the `include` query parameter of `GET /orders` and `GET /orders/{id}`. */
export const ORDER_INCLUDES = ['batches'] as const;
/** A value of `include` (open enum; `batches` is the only documented one). */
export const OrderIncludeSchema = openEnum(ORDER_INCLUDES);
/** A value of `include`. */
export type OrderInclude = z.infer<typeof OrderIncludeSchema>;

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/**
 * A shipping address as the API returns it (see the `Address` type). The spec's `*` fields are
 * required; every other field is `null` when unset.
 */
export const AddressSchema = z.looseObject({
  /** Full name of the recipient. */
  full_name: z.string(),
  /** First name (an address carries a first or a last name, or both). */
  first_name: orNull(z.string()),
  /** Last name (an address carries a first or a last name, or both). */
  last_name: orNull(z.string()),
  /** Company. */
  company: orNull(z.string()),
  /** Street line 1. */
  line1: z.string(),
  /** Street line 2. */
  line2: orNull(z.string()),
  /** City. */
  city: z.string(),
  /** Postal code. */
  postal_code: z.string(),
  /** 2-letter province or state code. */
  province_or_state_code: orNull(z.string()),
  /** 2-letter ISO 3166-1 country code. */
  country_code: z.string(),
  /** E-mail address. */
  email: orNull(z.string()),
  /** Phone number. */
  phone: orNull(z.string()),
  /** Parcel point id (one external parcel-point provider is supported). */
  parcel_point_id: orNull(z.string()),
});

/** A batch an item is (or will be) taken from (see the `OrderItemBatch` type). */
export const OrderItemBatchSchema = z.looseObject({
  ...batchShape,
  /** Quantity taken from this batch. */
  quantity: orNull(z.number()),
});

/**
 * A line item of an order as the API returns it (see the `OrderLineItem` type).
 * `price_per_unit_in_cents` is 0 when the API leaves it out (the spec's default).
 */
export const OrderLineItemSchema = z.looseObject({
  /** Merchant's id of the line item, unique within the order; `null` for add-ons that are not order lines. */
  merchant_item_id: orNull(z.string()),
  /** Provider's SKU id (an item carries `sku_id` or `merchant_sku_id`, or both). */
  sku_id: orNull(z.number()),
  /** Merchant's SKU code (an item carries `sku_id` or `merchant_sku_id`, or both). */
  merchant_sku_id: orNull(z.string()),
  /** Quantity ordered. */
  quantity: z.number(),
  /** Unit price in cents (0 when not given: the spec's default). */
  price_per_unit_in_cents: z._default(z.number(), 0),
  /** Discounted unit price in cents. */
  price_per_unit_in_cents_with_discount: orNull(z.number()),
  /** Batches the item is taken from: only with `include: ['batches']`. */
  batches: sometimes(z.array(OrderItemBatchSchema)),
});

/**
 * An order as the API returns it (see the `Order` type). `currency` is `EUR` when the API leaves it
 * out (the spec's default).
 */
export const OrderSchema = z.looseObject({
  /** Provider's identifier. */
  id: z.number(),
  /** Merchant's order id, unique (a second order with the same id is refused with a 422). */
  merchant_order_id: z.string(),
  /** Order number the end customer sees, if different from `merchant_order_id`. */
  customer_order_number: orNull(z.string()),
  /** Line items. */
  items: z.array(OrderLineItemSchema),
  /** Shipping address. */
  shipping_address: AddressSchema,
  /** Preferred carrier. */
  carrier_preference: orNull(z.string()),
  /** Tags (may trigger actions such as add-on rules). */
  tags: orNull(z.array(z.string())),
  /** Free-form metadata (a JSON object). */
  custom_metadata: orNull(z.record(z.string(), z.unknown())),
  /** Creation time, ISO 8601 date-time string (the time of submission unless one was given). */
  created_at: z.string(),
  /** 3-letter ISO 4217 currency code (`EUR` unless one was given). */
  currency: z._default(z.string(), 'EUR'),
  /** Financial status: `paid`, `refunded`, `pending` or `failed`. */
  financial_status: orNull(FinancialStatusSchema),
  /** Payment method; contains `COD` for cash on delivery. */
  payment_method: orNull(z.string()),
  /** Total paid, in cents (the amount the carrier collects for COD). */
  total_price_in_cents: orNull(z.number()),
  /** Amount paid minus taxes, in cents. */
  total_net_revenue_in_cents: orNull(z.number()),
  /** Taxes, in cents. */
  total_tax_in_cents: orNull(z.number()),
  /** Refunded minus taxes, in cents. */
  total_net_refunds_in_cents: orNull(z.number()),
  /** Tax within the refunded amount, in cents. */
  total_tax_refunds_in_cents: orNull(z.number()),
  /**
   * `fulfillable` (will be fulfilled: the normal case), `unfulfillable` (blocked shipping country,
   * or cancelled) or `fulfilled`.
   */
  status: OrderStatusSchema,
});

/** A shipping address as the API returns it (spec §2.4). */
export interface Address extends Fields<typeof AddressSchema> {}
/** A batch an item is (or will be) taken from: on order items with `include=batches`, and on shipment items. */
export interface OrderItemBatch extends Fields<typeof OrderItemBatchSchema> {}
/** A line item of an order as the API returns it (spec §2.3). */
export interface OrderLineItem extends Fields<typeof OrderLineItemSchema> {}
/** An order as the API returns it (spec §2.2). */
export interface Order extends Fields<typeof OrderSchema> {}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

const addressShape = {
  /** Full name of the recipient (required on create). */
  full_name: requiredText(),
  /** First name; on create, required if `last_name` is omitted. */
  first_name: z.optional(text()),
  /** Last name; on create, required if `first_name` is omitted. */
  last_name: z.optional(text()),
  /** Street line 1 (required on create). */
  line1: requiredText(),
  /** City (required on create). */
  city: requiredText(),
  /** Postal code (required on create). */
  postal_code: requiredText(),
  /** 2-letter ISO 3166-1 country code (required on create). */
  country_code: letterCode(2, '2-letter code', requiredOr('expected string')),
  /** Company. */
  company: z.optional(text()),
  /** Street line 2. */
  line2: z.optional(text()),
  /** 2-letter province or state code. */
  province_or_state_code: z.optional(letterCode(2, '2-letter code')),
  /** E-mail address. */
  email: z.optional(text()),
  /** Phone number. */
  phone: z.optional(text()),
  /** Parcel point id. */
  parcel_point_id: z.optional(text()),
};

/**
 * Shipping address of `POST /orders`. Required: `full_name`, `line1`, `city`, `postal_code`,
 * `country_code` (2 letters), and `first_name` or `last_name` (the issue is reported on
 * `first_name`).
 */
const AddressFieldsSchema = z.strictObject(addressShape, {
  error: objectError(requiredOr('expected object')),
});
export const AddressParamsSchema = AddressFieldsSchema.check(eitherRequired('first_name', 'last_name'));
/** Shipping address of `POST /orders`: `first_name` or `last_name`, or both (checked before sending). */
export type AddressParams = z.input<typeof AddressParamsSchema>;

/** Shipping address of `PATCH /orders/{id}`: every field optional (no first/last name rule). */
export const AddressUpdateParamsSchema = z.partial(AddressFieldsSchema);
/** Shipping address of `PATCH /orders/{id}`. */
export type AddressUpdateParams = z.input<typeof AddressUpdateParamsSchema>;

const orderItemShape = {
  /** Merchant's id of the line item, unique within the order. Required. */
  merchant_item_id: requiredText(),
  /** Provider's SKU id; on create, required if `merchant_sku_id` is absent. */
  sku_id: z.optional(positiveInteger()),
  /** Merchant's SKU code; on create, required if `sku_id` is absent. */
  merchant_sku_id: z.optional(requiredText()),
  /** Quantity, an integer > 0 (required on create). */
  quantity: requiredPositiveInt(),
  /** Unit price in cents (used on customs documents, return labels and for COD; required on create). */
  price_per_unit_in_cents: integer(requiredOr('expected integer')),
  /** Discounted unit price in cents. */
  price_per_unit_in_cents_with_discount: z.optional(integer()),
};

/**
 * A line item of `POST /orders`. Required: `merchant_item_id`, `quantity` (> 0),
 * `price_per_unit_in_cents`, and `sku_id` or `merchant_sku_id` (the issue is reported on `sku_id`).
 */
const OrderItemFieldsSchema = z.strictObject(orderItemShape, { error: objectError() });
export const OrderItemParamsSchema = OrderItemFieldsSchema.check(eitherRequired('sku_id', 'merchant_sku_id'));
/** A line item of `POST /orders`: `sku_id` or `merchant_sku_id`, or both (checked before sending). */
export type OrderItemParams = z.input<typeof OrderItemParamsSchema>;

/**
 * A line item of `PATCH /orders/{id}`: `merchant_item_id` (which item to update) is required, the
 * rest optional; `quantity` must still be > 0.
 */
export const OrderItemUpdateParamsSchema = z.extend(z.partial(OrderItemFieldsSchema), {
  /** Merchant's id of the line item to update. Required. */
  merchant_item_id: orderItemShape.merchant_item_id,
});
/** A line item of `PATCH /orders/{id}`. */
export type OrderItemUpdateParams = z.input<typeof OrderItemUpdateParamsSchema>;

const orderFields = {
  /** Order number the end customer sees, if different from `merchant_order_id`. */
  customer_order_number: z.optional(text()),
  /** Preferred carrier. */
  carrier_preference: z.optional(text()),
  /** Tags (may trigger actions such as add-on rules). */
  tags: z.optional(z.array(text(), { error: 'expected array of strings' })),
  /** Free-form metadata (a JSON object). */
  custom_metadata: z.optional(z.record(z.string(), z.unknown(), { error: 'expected object' })),
  /** Creation time: a `Date` (sent as `toISOString()`) or an ISO 8601 string (sent as given). */
  created_at: z.optional(dateTimeParam()),
  /** 3-letter ISO 4217 currency code (the API defaults to `EUR`). */
  currency: z.optional(letterCode(3, '3-letter currency code')),
  /** Financial status (open enum: `paid`, `refunded`, `pending`, `failed`). */
  financial_status: z.optional(
    z.enum(FINANCIAL_STATUSES, { error: `expected one of ${FINANCIAL_STATUSES.join(', ')}` }),
  ),
  /** Payment method; for cash on delivery use `COD` (then `total_price_in_cents` > 0 is required). */
  payment_method: z.optional(text()),
  /** Total paid, in cents; the amount the carrier collects for COD. */
  total_price_in_cents: z.optional(integer()),
  /** Amount paid minus taxes, in cents. */
  total_net_revenue_in_cents: z.optional(integer()),
  /** Taxes, in cents. */
  total_tax_in_cents: z.optional(integer()),
  /** Refunded minus taxes, in cents. */
  total_net_refunds_in_cents: z.optional(integer()),
  /** Tax within the refunded amount, in cents. */
  total_tax_refunds_in_cents: z.optional(integer()),
};

/**
 * Whether a payment method is cash on delivery: it contains `COD`, or `cod` in any case as a word of
 * its own (`cod`, `Cash on delivery (Cod)`, `cod_payment`), but not inside a word (`promo_code`).
 */
const isCod = (paymentMethod: unknown): boolean =>
  typeof paymentMethod === 'string' &&
  (paymentMethod.includes('COD') || /(^|[^a-z])cod([^a-z]|$)/i.test(paymentMethod));

/**
 * The order's rules: `merchant_item_id` unique among the items (the issue goes on the duplicate);
 * when `payment_method` contains `COD` (see `isCod`: any case, as a word), `total_price_in_cents`
 * must be > 0. `requireTotal` says whether a missing total is an error (create) or not (update).
 */
const orderRule = (requireTotal: boolean) =>
  objectRule((order, report) => {
    for (const [index, first, id] of repeats(order.items, 'merchant_item_id')) {
      report(
        ['items', index, 'merchant_item_id'],
        `duplicate merchant_item_id (same as items[${first}])`,
        id,
      );
    }
    const total = order.total_price_in_cents;
    if (!isCod(order.payment_method)) return;
    const problem =
      total === undefined || total === null
        ? requireTotal && 'required when payment_method is COD (the amount the carrier collects)'
        : typeof total === 'number' && total <= 0 && 'expected integer > 0 when payment_method is COD';
    if (problem) report(['total_price_in_cents'], problem, total);
  });

/**
 * Body of `POST /orders`. Required: `merchant_order_id`, `shipping_address`, `items` (at least
 * one). Rules: `merchant_item_id` unique among the items; when `payment_method` contains `COD`
 * (any case), `total_price_in_cents` is required and > 0. `created_at` accepts a `Date`.
 */
export const OrderCreateParamsSchema = z
  .strictObject({
    /** Merchant's order id (unique). Required. */
    merchant_order_id: requiredText(),
    /** Shipping address. Required. */
    shipping_address: AddressParamsSchema,
    /** Line items, at least one. Required. */
    items: requiredArray(OrderItemParamsSchema).check(z.minLength(1, { error: 'expected at least 1 item' })),
    ...orderFields,
  })
  .check(orderRule(true));
/**
 * Body of `POST /orders`. Shipping address: `full_name`, `line1`, `city`, `postal_code`,
 * `country_code`, and a first or last name; line items: at least one, each naming its SKU by
 * `sku_id` or `merchant_sku_id`.
 */
export type OrderCreateParams = z.input<typeof OrderCreateParamsSchema>;

/**
 * Body of `PATCH /orders/{id}`: every field optional, `shipping_address` subfields included; each
 * item identifies the line to update by `merchant_item_id`. Rules: `quantity` > 0, unique
 * `merchant_item_id`. COD rule: when `payment_method` containing `COD` is sent together with
 * `total_price_in_cents`, that total must be > 0; a COD `payment_method` without a total is let
 * through, since the order already has one on the server (the API checks it).
 */
export const OrderUpdateParamsSchema = z
  .strictObject({
    /** Merchant's order id. */
    merchant_order_id: z.optional(requiredText()),
    /** Shipping address fields to change. */
    shipping_address: z.optional(AddressUpdateParamsSchema),
    /** Line items to update, matched by `merchant_item_id`. */
    items: z.optional(z.array(OrderItemUpdateParamsSchema, { error: 'expected array' })),
    ...orderFields,
  })
  .check(orderRule(false));
/** Body of `PATCH /orders/{id}`. */
export type OrderUpdateParams = z.input<typeof OrderUpdateParamsSchema>;

/** Query of `GET /orders/{id}`. */
export const OrderRetrieveParamsSchema = z.strictObject({
  /** Extra data to include: `batches` adds `batches` to each line item (sent comma-joined). */
  include: z.optional(
    z.pipe(
      z.array(OrderIncludeSchema, { error: 'expected array of strings' }),
      z.transform((list) => list.join(',') || undefined),
    ),
  ),
});
/** Query of `GET /orders/{id}`. */
export type OrderRetrieveParams = z.input<typeof OrderRetrieveParamsSchema>;

/** Query of `GET /orders`. */
export const OrderListParamsSchema = z.strictObject({
  ...listQueryShape,
  ...OrderRetrieveParamsSchema.shape,
});
/** Query of `GET /orders`. */
export type OrderListParams = z.input<typeof OrderListParamsSchema>;
