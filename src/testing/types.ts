/**
 * Public types of the testing kit: the options of `createMockApi`, the records the mock answers with,
 * and the arguments and results of its control methods.
 */
import type {
  RESTOCKING_SHIPMENT_V1_STATUSES,
  RESTOCKING_SHIPMENT_V2_STATUSES,
} from '../schemas/restocking-shipments.js';

/** A JSON value, as the mock reads it from request bodies and writes it in responses. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** A warehouse of the mock. Only `id` is required; every other field is answered as given. */
export interface MockWarehouse {
  /** Warehouse id (the `warehouse_id` of inventory and restocking shipments). */
  id: number;
  /** Display name. */
  name?: string;
  /** Any other field, answered as given by `GET /warehouses`. */
  [key: string]: JsonValue | undefined;
}

/** The per-token rate limit of the mock (a sliding window). */
export interface MockRateLimit {
  /** Requests allowed per token within `perMs`. */
  requests: number;
  /** Window length in milliseconds (e.g. `60_000`). */
  perMs: number;
}

/**
 * A failure injected for matching requests, to test retry handling. A fault with only `latency`
 * slows the request down and then lets it through; any other fault answers instead of the API
 * (`status` 503 unless given) or, with `reset: true`, drops the connection.
 */
export interface MockFault {
  /** HTTP method to match (any case); every method when omitted. */
  method?: string;
  /**
   * Path to match: a string is compared with the request path (query excluded), e.g.
   * `'/merchant_api/v1/orders'`; a RegExp is tested against it.
   */
  path: string | RegExp;
  /** Status to answer with. Default 503 (unless the fault only has `latency`). */
  status?: number;
  /** How many matching requests the fault applies to; unlimited when omitted. */
  times?: number;
  /** `Retry-After` header value in seconds (may be fractional, e.g. `0.05`). */
  retryAfter?: number;
  /** Milliseconds to wait before answering (or before letting the request through). */
  latency?: number;
  /**
   * Drop the connection instead of answering: the HTTP server destroys the socket, the msw
   * handler answers with a network error, `api.fetch` rejects with a `TypeError`.
   */
  reset?: boolean;
  /** JSON body to answer with. Default `{ success: false, errors: ['<status text>'] }`. */
  body?: JsonValue;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** An injected fault, as returned by `api.injectFault`. */
export interface MockFaultHandle {
  /** The fault's id (as `GET /__mock/faults` lists it and `DELETE /__mock/faults/{id}` removes it). */
  readonly id: number;
  /** Matching requests the fault has answered (or delayed) so far. */
  readonly hits: number;
  /** Matching requests it will still apply to (`Infinity` when unlimited, 0 once used up or removed). */
  readonly remaining: number;
  /** Removes the fault. */
  remove(): void;
}

/** Retry policy of webhook deliveries. */
export interface MockWebhookRetry {
  /** Attempts per delivery, the first included. Default 5. */
  attempts?: number;
  /** Delay before the first retry, doubled for each later one. Default 50 ms. */
  initialDelayMs?: number;
  /** Time-out of one attempt. Default 5000 ms. */
  timeoutMs?: number;
}

/** Options of `createMockApi`. Every option is optional. */
export interface MockApiOptions {
  /**
   * Root of the mocked service, matched by the msw handlers and used by `api.fetch`. Default
   * `https://fulfillment.mock`. The HTTP server face answers on its own URL.
   */
  baseUrl?: string;
  /**
   * Accepted API tokens, oldest first. The oldest (`tokens[0]`) signs webhooks. Default: one random
   * token, exposed as `api.token`.
   */
  tokens?: readonly string[];
  /** Warehouses of the merchant. Default: three warehouses, ids 1, 2 and 3. */
  warehouses?: readonly MockWarehouse[];
  /**
   * 2-letter country codes the shop does not ship to: an order to one of them is created
   * `unfulfillable`. Default `[]`.
   */
  blockedCountries?: readonly string[];
  /** Default page size of collections (when no `limit` is sent). Default 20. */
  pageSize?: number;
  /**
   * Milliseconds added to every API response (the control routes under `/__mock/` answer at once).
   * Default 0.
   */
  latency?: number;
  /** Faults active from the start (see {@link MockFault}). */
  faults?: readonly MockFault[];
  /** Receiver URLs of the "restocking shipment status updated" webhook. Default none. */
  webhooks?: readonly string[];
  /** Retry policy of webhook deliveries. */
  webhookRetry?: MockWebhookRetry;
  /** The clock of the mock (timestamps, `created_at` filters, rate-limit windows). Default `() => new Date()`. */
  now?: () => Date;
  /**
   * Per-token rate limit (sliding window): over it, requests get 429 with a fractional
   * `Retry-After`. Off by default: nothing is refused, and the headers report `X-Rate-Limit-Max: 100`
   * and the token's requests of the last 60 s as `X-Rate-Limit-Used` (which may then exceed 100).
   */
  rateLimit?: MockRateLimit;
  /** `merchant_id` of restocking shipments. Default 1. */
  merchantId?: number;
  /**
   * `fetch` used to deliver webhooks. Default: the global `fetch`, looked up at each delivery (so
   * an msw server in the same process sees the deliveries).
   */
  webhookFetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/**
 * Inventory figures of a SKU (over all warehouses, or in one), as spec section 2.1 defines them.
 * The mock keeps the units on hand and the units reserved; it shows:
 * - `reserved`: units reserved for fulfillable orders;
 * - `stocked`: units available for sale = on hand − reserved (never below 0; no buffer);
 * - `total`: units available, equal to `stocked` (the mock has no buffer).
 *
 * An order moves units from `stocked` to `reserved` (cancelling moves them back); `fulfillOrder`
 * ships them, so `reserved` goes down and nothing else changes; a restocked shipment adds the
 * arrived units to `stocked`. E.g. 10 restocked, then an order of 2: `{ reserved: 2, stocked: 8,
 * total: 8 }`; once fulfilled: `{ reserved: 0, stocked: 8, total: 8 }`.
 */
export interface MockInventory {
  /** Units reserved for fulfillable orders (not yet shipped). */
  reserved: number;
  /** Units available for sale: on hand minus reserved (never below 0). */
  stocked: number;
  /** Units available; equals `stocked` (the mock has no buffer). */
  total: number;
}

/** A SKU as the mock answers it (`GET /skus`, `POST /skus`, ...). */
export interface MockSku {
  id: number;
  merchant_sku_id: string;
  name: string;
  barcode: string | null;
  batch_tracking_enabled: boolean;
  cost_in_cents: number | null;
  /** Same value as `cost_in_cents` (the provider's sample responses carry both). */
  cost_in_cent: number | null;
  country_code_of_origin: string | null;
  hs_code: string | null;
  image_url: string | null;
  weight_in_kg: number | null;
  created_at: string;
  status: 'active' | 'deleted';
  fulfilled_by: 'service';
  dangerous_good: boolean;
  hazardous_good: boolean;
  h_codes: string[];
  un_names: string[];
  inventory: MockInventory;
  /** One row per warehouse of the mock. */
  inventory_per_warehouse: (MockInventory & { warehouse_id: number })[];
  inventory_batches: MockSkuBatch[];
}

/** An inventory batch of a SKU. A batch lives in one warehouse. */
export interface MockSkuBatch {
  id: number;
  name: string;
  tracking_code: string | null;
  expiry_date: string | null;
  /** Units of the batch available for sale in its warehouse (on hand − reserved, as `stocked`). */
  stocked_quantities: { warehouse_id: number; quantity: number };
}

/** A shipping address as the mock answers it (every documented field, `null` when not given). */
export interface MockAddress {
  full_name: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  line1: string;
  line2: string | null;
  city: string;
  postal_code: string;
  province_or_state_code: string | null;
  country_code: string;
  email: string | null;
  phone: string | null;
  parcel_point_id: string | null;
}

/** A batch allocated to an order item or a shipment item. */
export interface MockItemBatch {
  name: string;
  tracking_code: string | null;
  expiry_date: string | null;
  quantity: number;
}

/** An order line item as the mock answers it. */
export interface MockOrderItem {
  id: number;
  merchant_item_id: string;
  sku_id: number;
  merchant_sku_id: string;
  quantity: number;
  price_per_unit_in_cents: number;
  price_per_unit_in_cents_with_discount: number | null;
  /** Only with `include=batches`: the batches reserved for the item. */
  batches?: MockItemBatch[];
}

/** An order as the mock answers it. */
export interface MockOrder {
  id: number;
  merchant_order_id: string;
  customer_order_number: string | null;
  status: 'fulfillable' | 'unfulfillable' | 'fulfilled';
  items: MockOrderItem[];
  shipping_address: MockAddress;
  carrier_preference: string | null;
  tags: string[];
  custom_metadata: JsonObject | null;
  created_at: string;
  currency: string;
  financial_status: string | null;
  payment_method: string | null;
  total_price_in_cents: number | null;
  total_net_revenue_in_cents: number | null;
  total_tax_in_cents: number | null;
  total_net_refunds_in_cents: number | null;
  total_tax_refunds_in_cents: number | null;
}

/** A batch received for a restocking shipment item (once restocked). */
export interface MockRestockingItemBatch {
  id: number;
  name: string;
  tracking_code: string | null;
  expiry_date: string | null;
  arrived_quantity: number;
}

/** A version 1 restocking shipment item. */
export interface MockRestockingItemV1 {
  id: number;
  sku_id: number;
  announced_quantity: number;
  /** `null` until the shipment is restocked. */
  arrived_quantity: number | null;
  /** `null` until the shipment is restocked. */
  damaged_quantity: number | null;
  /** `null` until the shipment is restocked. */
  missing_quantity: number | null;
  inventory_batches: MockRestockingItemBatch[];
}

/** A version 2 restocking shipment item. */
export interface MockRestockingItemV2 extends MockRestockingItemV1 {
  sku_code: string;
  remarks: string | null;
  total_cost_in_cents: number | null;
  inventory_batch_id: number | null;
}

/** Version 1 status of a restocking shipment. */
export type RestockingStatusV1 = (typeof RESTOCKING_SHIPMENT_V1_STATUSES)[number];

/** Version 2 status of a restocking shipment (`received` for v1 `delivered`; v1 `on_hold` shows as `processing`). */
export type RestockingStatusV2 = (typeof RESTOCKING_SHIPMENT_V2_STATUSES)[number];

/** A restocking shipment in its version 1 view (also the webhook body). */
export interface MockRestockingShipmentV1 {
  id: number;
  merchant_id: number;
  warehouse_id: number;
  estimated_arrival_date: string | null;
  delivery_option: string | null;
  tracking_code: string | null;
  po_number: string | null;
  supplier_name: string | null;
  status: RestockingStatusV1;
  barcode: string;
  restocking_shipment_items: MockRestockingItemV1[];
}

/** A restocking shipment in its version 2 view. */
export interface MockRestockingShipmentV2 {
  id: number;
  warehouse_id: number;
  delivery_option: string | null;
  estimated_arrival_date: string | null;
  po_number: string | null;
  supplier_name: string | null;
  tracking_code: string | null;
  priority: boolean;
  restocking_shipment_items: MockRestockingItemV2[];
  barcode: string;
  status: RestockingStatusV2;
  created_at: string;
  updated_at: string;
  arrived_at: string | null;
  reopened_at: string | null;
  completed_reopens_count: number;
}

/** An outbound shipment (`GET /shipments`), created by `api.fulfillOrder`. */
export interface MockShipment {
  id: number;
  order_id: number;
  merchant_order_id: string;
  created_at: string;
  shipped_at: string;
  delivered_at: string | null;
  shipment_provider: string;
  status: string;
  delivery_status: string;
  items: MockShipmentItem[];
}

/** An item of an outbound shipment. */
export interface MockShipmentItem {
  id: number;
  merchant_item_id: string | null;
  quantity: number;
  sku: { id: number; sku_code: string };
  batches: MockItemBatch[];
  serial_numbers: { serial_number: string }[];
}

/** A return (`GET /returns`), created by `api.createReturn`. */
export interface MockReturn {
  id: number;
  status: 'on_the_way' | 'arrived' | 'processing' | 'action_required' | 'handling_completed';
  carrier: string | null;
  tracking_code: string | null;
  tracking_url: string | null;
  created_at: string;
  received_at: string | null;
  started_processing_at: string | null;
  completed_handling_at: string | null;
  order: { id: number; merchant_order_id: string; customer_order_number: string | null };
  photos: { id: number; image_url: string; photo_type: string }[];
  return_reason: MockReturnReason | null;
  return_reason_type: 'active' | 'passive' | null;
  return_items: MockReturnItem[];
  return_line_items: JsonObject[];
}

/** Reasons of a return. */
export type MockReturnReason =
  | 'customer_return'
  | 'not_picked_up'
  | 'invalid_address'
  | 'rejected_by_customer'
  | 'customs_documents_missing'
  | 'other';

/** An announced item of a return. */
export interface MockReturnItem {
  id: number;
  quantity: number;
  sku: { id: number; sku_code: string };
  customer_return_reason: string | null;
  customer_return_message: string | null;
}

/**
 * Quantities of `api.advanceRestockingShipment(id, 'restocked', ...)`: one number for every item, or
 * a record keyed by `sku_id` (items of SKUs not in the record get the default).
 */
export type MockQuantities = number | { readonly [skuId: number]: number };

/** What arrived, per item, when a restocking shipment is restocked. */
export interface MockRestockQuantities {
  /** Arrived quantity. Default: announced − damaged − missing (never below 0). */
  arrived?: MockQuantities;
  /** Damaged quantity. Default 0. */
  damaged?: MockQuantities;
  /** Missing quantity. Default: announced − arrived − damaged when `arrived` is given (never below 0), else 0. */
  missing?: MockQuantities;
}

/** Options of `api.createReturn`. */
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

/** A request the mock answered (for assertions on what your code sent). */
export interface MockRequestLogEntry {
  /** Upper-case method. */
  method: string;
  /** Path without query, e.g. `/merchant_api/v1/orders`. */
  path: string;
  /** Query string without `?` (empty when none). */
  query: string;
  /** Parsed JSON body, or `undefined` (no body, or not JSON). */
  body: JsonValue | undefined;
  /** Status the mock answered with (0 for a dropped connection). */
  status: number;
  /** Time of the request (ISO 8601, from the mock's clock). */
  at: string;
}

/** One webhook delivery: one event to one receiver URL, with its attempts. */
export interface MockWebhookDelivery {
  /** The `x-service-event-id` (the same on every attempt). */
  eventId: string;
  /** Receiver URL. */
  url: string;
  /** Id of the restocking shipment the event is about. */
  restockingShipmentId: number;
  /** Version 1 status the shipment moved to. */
  status: RestockingStatusV1;
  /** The exact body sent (JSON of the version 1 shipment). */
  body: string;
  /** The `x-service-signature` sent. */
  signature: string;
  /** Attempts made so far. */
  attempts: number;
  /** Status code of each attempt; `null` for a connection error or time-out. */
  statusCodes: (number | null)[];
  /**
   * Why the delivery is not (yet) delivered: while retrying, the last failure (`receiver answered
   * 503`, or the connection error); once out of attempts, e.g. `gave up after 3 attempts (last
   * status 503)`; when abandoned by `close()`, `abandoned: …`. `null` once delivered.
   */
  error: string | null;
  /** A 2xx answer was received (a 3xx is not followed: it counts as a failed attempt). */
  delivered: boolean;
  /** No attempt is pending: delivered, out of attempts, or abandoned by `close()` / `reset()`. */
  finished: boolean;
}

/** A read-only snapshot of the mock's records, each list in creation order (oldest first). */
export interface MockStateSnapshot {
  /** SKUs, deleted ones included. */
  readonly skus: MockSku[];
  /** Orders, with `batches` on their items. */
  readonly orders: MockOrder[];
  /** Restocking shipments in their version 1 view. */
  readonly restockingShipments: MockRestockingShipmentV1[];
  /** Restocking shipments in their version 2 view. */
  readonly restockingShipmentsV2: MockRestockingShipmentV2[];
  /** Outbound shipments. */
  readonly shipments: MockShipment[];
  /** Returns. */
  readonly returns: MockReturn[];
  /** Warehouses. */
  readonly warehouses: MockWarehouse[];
  /** The last 1000 requests answered, oldest first. */
  readonly requests: MockRequestLogEntry[];
}

/** Options of `api.listen`. */
export interface MockListenOptions {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Interface; default `127.0.0.1`. */
  host?: string;
}

/** A running HTTP server of the mock. */
export interface MockServer {
  /**
   * Root URL, e.g. `http://127.0.0.1:4010` (API paths start with `/merchant_api/`, control routes
   * with `/__mock/`).
   */
  url: string;
  /** Port listened on. */
  port: number;
  /**
   * Stops the server: closes every connection, cancels pending response delays, and abandons the
   * mock's webhook deliveries in flight (their records stay, marked `abandoned`), so nothing keeps
   * the process alive. `api.close()` closes every server of the mock at once.
   */
  close(): Promise<void>;
}
