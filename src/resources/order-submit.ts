/**
 * `orders.submit`: an order that is never lost and never doubled, without an idempotency key.
 * `merchant_order_id` is unique on the server (spec §2.2), so after a failure that leaves it open
 * whether the order was stored (a timeout, a dropped connection, a 5xx), the order is looked up by
 * it; found, it is the result; not found, sending again is safe, because a second copy would be
 * refused as taken.
 */
import { APIConnectionError, APIError, UnprocessableEntityError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import type { Order, OrderCreateParams } from '../schemas/orders.js';
import { checkOwnOptions, integer, type OptionRule } from './resource.js';

/** How `orders.submit` got its order. */
export type SubmitOutcome = 'created' | 'recovered' | 'existing';

/** What `orders.submit` resolves with. */
export interface SubmitResult {
  /** The order as the API holds it. */
  order: Order;
  /**
   * `'created'`: the API answered 201. `'recovered'`: a send failed without saying whether the order
   * was stored, and it was found by its `merchant_order_id`. `'existing'`: the API refused the
   * order as already taken, and the order it holds was found.
   */
  outcome: SubmitOutcome;
  /**
   * Where a recovered or existing order differs from the body submitted (`'items'`,
   * `'shipping_address.city'`, …); empty when it matches. An existing order with differences is
   * another order under the same `merchant_order_id`, or one changed since: check it.
   */
  differences: string[];
}

/** Options of `orders.submit`: request options, how often to send, and the lookup window. */
export interface SubmitOptions extends RequestOptions {
  /** Most sends of the order (each ambiguous failure that finds nothing allows another). Default 3. */
  maxAttempts?: number | undefined;
  /**
   * How far around the submission the lookup reads, in ms (clock skew between this machine and the
   * API): from that long before the first send (or before the body's `created_at`, when it has
   * one). From 0 up to 30 days (2 592 000 000); default 5 minutes. A larger value is refused
   * before anything is sent.
   */
  lookbackMs?: number | undefined;
}

/** What `submit` needs of the orders namespace. */
export interface SubmitTarget {
  create(body: OrderCreateParams, options?: RequestOptions): PromiseLike<Order>;
  findByMerchantOrderId(
    merchantOrderId: string,
    options?: RequestOptions & { createdAfter?: Date; createdBefore?: Date },
  ): Promise<Order | null>;
}

/**
 * Largest `lookbackMs`: 30 days. The window is for clock skew; a wider one would make the recovery
 * lookup read every order of that window.
 */
const MAX_LOOKBACK_MS = 30 * 24 * 60 * 60 * 1000;

/** The rules of `maxAttempts` and `lookbackMs` (`orders.createMany` takes them too). */
export const SUBMIT_RULES: Record<string, OptionRule> = /* @__PURE__ */ (() => ({
  maxAttempts: integer(1),
  lookbackMs: [
    (v) => typeof v === 'number' && v >= 0 && v <= MAX_LOOKBACK_MS,
    `expected milliseconds from 0 up to ${MAX_LOOKBACK_MS} (30 days)`,
  ],
}))();

/** Runs `orders.submit`: see `Orders.submit`. */
export async function submitOrder(
  orders: SubmitTarget,
  body: OrderCreateParams,
  options: SubmitOptions = {},
): Promise<SubmitResult> {
  checkOwnOptions(options, SUBMIT_RULES, 'orders.submit');
  const { maxAttempts = 3, lookbackMs = 5 * 60 * 1000, ...requestOptions } = options;
  // The window a recovered order was created in: from `lookbackMs` before the first send, or
  // around the body's own created_at when it sets one. The schema accepts ISO 8601 forms that
  // `Date` cannot read (`+01` as an offset): those fall back to the window from now.
  const at = body?.created_at === undefined ? Number.NaN : new Date(body.created_at).getTime();
  const window = Number.isNaN(at)
    ? { createdAfter: new Date(Date.now() - lookbackMs) }
    : { createdAfter: new Date(at - lookbackMs), createdBefore: new Date(at + lookbackMs) };
  let failure: unknown;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    try {
      const order = await orders.create(body, requestOptions);
      return { order, outcome: 'created', differences: [] };
    } catch (error) {
      // Refused as already taken, or a failure after which it may or may not be stored (a timeout too).
      const existing =
        error instanceof UnprocessableEntityError &&
        error.errors.some((m) => /merchant.?order/i.test(m) && /taken/i.test(m)); // linear on any message
      const ambiguous =
        error instanceof APIConnectionError || (error instanceof APIError && error.status >= 500);
      if (!existing && !ambiguous) throw error; // an invalid body too: refused before sending
      const lookup = existing ? requestOptions : { ...requestOptions, ...window };
      const found = await orders.findByMerchantOrderId(body.merchant_order_id, lookup);
      const outcome = existing ? 'existing' : 'recovered';
      if (found) return { order: found, outcome, differences: differences(body, found) };
      if (existing) throw error;
      failure = error; // not stored: sending again is safe (a copy stored meanwhile would be refused as taken)
    }
  }
  throw failure;
}

/** Where the order differs from the submitted body (sent, so valid): its items (SKU and quantity) and address. */
export function differences(body: OrderCreateParams, order: Order): string[] {
  const held = new Map(order.items.map((item) => [String(item.merchant_item_id), item]));
  const itemDiffers = (item: OrderCreateParams['items'][number]) => {
    const other = held.get(String(item.merchant_item_id));
    if (!other || other.quantity !== item.quantity) return true;
    if (item.sku_id !== undefined && other.sku_id !== item.sku_id) return true;
    return item.merchant_sku_id !== undefined && other.merchant_sku_id !== item.merchant_sku_id;
  };
  const out = body.items.length !== order.items.length || body.items.some(itemDiffers) ? ['items'] : [];
  const stored = order.shipping_address as unknown as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : v);
  for (const [field, value] of Object.entries(body.shipping_address)) {
    if (value !== undefined && text(value) !== text(stored[field])) out.push(`shipping_address.${field}`);
  }
  return out;
}
