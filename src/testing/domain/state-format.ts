/**
 * The saved state's format (`api.exportState()`, `createMockApi({ initialState })`, the CLI's
 * `--state` file), version 1: its types and the zod schema its shape is checked with. Records by
 * id, references such as an order item's SKU or a batch taken as ids. `persist.ts` writes and
 * reads it.
 */
import * as z from 'zod/mini';
import type { Fields } from '../../schemas/common.js';
import type { JsonObject } from '../engine/json.js';
import { isObject } from '../engine/validation.js';
import { ORDER_TOTALS } from './orders.js';
import type {
  MockOrder,
  MockRestockingShipmentV1,
  MockRestockingShipmentV2,
  MockReturn,
  MockShipment,
  MockSku,
  MockWarehouse,
} from './resources.js';
import { RESTOCKING_STATUSES, type RestockingStatusV1 } from './restocking-status.js';
import { fromKeys, SUB_RECORDS } from './state.js';

/** The `format` of a saved state. */
export const MOCK_STATE_FORMAT = 'merchant-fulfillment-mock-state';

/**
 * The last id handed out for each collection and each kind of sub-record: the next record of a
 * kind gets this id + 1, so ids continue where the saved mock left off.
 */
export interface MockStateLastIds {
  /** SKUs. */
  skus: number;
  /** Orders. */
  orders: number;
  /** Restocking shipments. */
  restockingShipments: number;
  /** Outbound shipments. */
  shipments: number;
  /** Returns. */
  returns: number;
  /** Order items. */
  orderItem: number;
  /** Restocking shipment items. */
  restockingItem: number;
  /** Outbound shipment items. */
  shipmentItem: number;
  /** Return items. */
  returnItem: number;
  /** Inventory batches. */
  batch: number;
}

/** The stock of a SKU in one warehouse. */
export interface MockStateStock extends Fields<typeof StockSchema> {}

/** An inventory batch of a SKU. */
export interface MockStateBatch extends Fields<typeof BatchSchema> {}

/** A SKU: its fields, its stock per warehouse and its batches. */
export interface MockStateSku
  extends Pick<
    MockSku,
    | 'id'
    | 'merchant_sku_id'
    | 'name'
    | 'barcode'
    | 'batch_tracking_enabled'
    | 'cost_in_cents'
    | 'country_code_of_origin'
    | 'hs_code'
    | 'image_url'
    | 'weight_in_kg'
    | 'created_at'
    | 'status'
  > {
  /** Creation time in ms (orders the collection). */
  createdMs: number;
  /** Stock per warehouse (warehouses never used are absent). */
  stock: MockStateStock[];
  /** Inventory batches, oldest first. */
  batches: MockStateBatch[];
}

/** Units of one batch taken by an order item. */
export interface MockStateBatchTake extends Fields<typeof TakeSchema> {}

/** An order item. */
export interface MockStateOrderItem extends Fields<typeof OrderItemSchema> {}

/** An order. */
export interface MockStateOrder extends Omit<MockOrder, 'items'> {
  /** Creation time in ms. */
  createdMs: number;
  /** Cancelled through `PUT /orders/{id}/cancel`. */
  cancelled: boolean;
  /** Line items. */
  items: MockStateOrderItem[];
}

/** An item of a restocking shipment. */
export interface MockStateRestockingItem extends Fields<typeof RestockingItemSchema> {}

/** A restocking shipment (the fields of both views). */
export interface MockStateRestockingShipment
  extends Omit<MockRestockingShipmentV1, 'restocking_shipment_items'>,
    Pick<
      MockRestockingShipmentV2,
      'priority' | 'created_at' | 'updated_at' | 'arrived_at' | 'reopened_at' | 'completed_reopens_count'
    > {
  /** Creation time in ms. */
  createdMs: number;
  /** Left `restocked` and not restocked again yet. */
  reopened: boolean;
  /** Items. */
  items: MockStateRestockingItem[];
}

/** An outbound shipment: its body is fixed once created. */
export interface MockStateShipment {
  /** Shipment id. */
  id: number;
  /** Creation time in ms. */
  createdMs: number;
  /** The body the API answers. */
  view: MockShipment;
}

/** A return: its body is fixed once created. */
export interface MockStateReturn {
  /** Return id. */
  id: number;
  /** Creation time in ms. */
  createdMs: number;
  /** The body the API answers. */
  view: MockReturn;
}

/**
 * The whole state of a mock as one JSON-serializable value (`api.exportState()`), to save and to
 * start a mock from (`createMockApi({ initialState })`). The request log, faults and webhook
 * deliveries are not part of it.
 */
export interface MockStateFile {
  /** Always `merchant-fulfillment-mock-state`. */
  format: typeof MOCK_STATE_FORMAT;
  /** Version of the layout: 1. */
  version: 1;
  /** The warehouses of the mock. */
  warehouses: MockWarehouse[];
  /** The last id handed out per collection and per kind of sub-record. */
  lastIds: MockStateLastIds;
  /** SKUs, oldest first, deleted ones included. */
  skus: MockStateSku[];
  /**
   * Every SKU id, in the order the mock's index of SKU codes keeps them: which deleted SKU a code
   * reactivates depends on it.
   */
  skuCodeOrder: number[];
  /** Orders, oldest first. */
  orders: MockStateOrder[];
  /** Restocking shipments, oldest first. */
  restockingShipments: MockStateRestockingShipment[];
  /** Outbound shipments, oldest first. */
  shipments: MockStateShipment[];
  /** Returns, oldest first. */
  returns: MockStateReturn[];
}

/** The collections of the state, each with its own id sequence (in `lastIds` order). */
export const COLLECTIONS = ['skus', 'orders', 'restockingShipments', 'shipments', 'returns'] as const;

/** The shape of fields `keys`, each of `schema`. */
const each = <const K extends string, S>(keys: readonly K[], schema: S) => fromKeys(keys, () => schema);

const Id = z.int().check(z.minimum(1));
const Count = z.int().check(z.minimum(0));
const Cents = z.nullable(z.int());
const Text = z.string();
const TextOrNull = z.nullable(z.string());
const Time = z.string().check(z.refine((v) => !Number.isNaN(Date.parse(v)), 'must be a date-time'));
const TimeOrNull = z.nullable(Time);
const TakeSchema = z.object({
  /** The batch (a batch of the item's SKU). */
  batch_id: Id,
  /** Units taken. */
  quantity: Count,
});
const Takes = z.array(TakeSchema);
/** Objects with ids (the items of a stored shipment or return). */
const WithIds = z.array(z.looseObject({ id: Id }));

/** The fields every record has: its id and creation time. */
const RECORD = { id: Id, createdMs: z.number(), created_at: Time };

/** Warehouses: at least one, each with an integer `id` >= 1 and, when given, a string `name`. */
export const WarehousesSchema = z
  .array(z.looseObject({ id: Id, name: z.optional(z.string()) }))
  .check(z.minLength(1, 'must hold at least one warehouse'));

const StockSchema = z.object({
  /** The warehouse. */
  warehouse_id: Id,
  /** Units physically in storage, reserved ones included. */
  onHand: Count,
  /** Units reserved for fulfillable orders. */
  reserved: Count,
});

const BatchSchema = z.object({
  /** Batch id. */
  id: Id,
  /** The warehouse it lives in. */
  warehouse_id: Id,
  /** Batch name. */
  name: Text,
  /** Lot or tracking code. */
  tracking_code: TextOrNull,
  /** Expiry date (`YYYY-MM-DD`). */
  expiry_date: TextOrNull,
  /** Units of the batch in storage, reserved ones included. */
  onHand: Count,
  /** Units of the batch reserved for fulfillable orders. */
  reserved: Count,
});

const SkuSchema = z.object({
  ...RECORD,
  ...each(['barcode', 'country_code_of_origin', 'hs_code', 'image_url'], TextOrNull),
  merchant_sku_id: Text,
  name: Text,
  batch_tracking_enabled: z.boolean(),
  cost_in_cents: Cents,
  weight_in_kg: z.nullable(z.number()),
  status: z.enum(['active', 'deleted']),
  stock: z.array(StockSchema),
  batches: z.array(BatchSchema),
});

const OrderItemSchema = z.object({
  /** Item id. */
  id: Id,
  /** The merchant's item id. */
  merchant_item_id: Text,
  /** The SKU ordered. */
  sku_id: Id,
  /** Units ordered. */
  quantity: Id,
  /** Price per unit. */
  price_per_unit_in_cents: z.int(),
  /** Discounted price per unit. */
  price_per_unit_in_cents_with_discount: Cents,
  /** Stock held while the order is fulfillable; `null` otherwise. */
  reservation: z.nullable(z.object({ warehouse_id: Id, quantity: Count, batches: Takes })),
  /** Batches of the latest reservation (kept after fulfilment). */
  batches: Takes,
});

const OrderSchema = z.object({
  ...RECORD,
  ...each(['customer_order_number', 'carrier_preference', 'financial_status', 'payment_method'], TextOrNull),
  ...each(ORDER_TOTALS, Cents),
  merchant_order_id: Text,
  status: z.enum(['fulfillable', 'unfulfillable', 'fulfilled']),
  cancelled: z.boolean(),
  shipping_address: z.catchall(z.object({ country_code: Text }), TextOrNull),
  tags: z.array(Text),
  // Kept as saved (the whole saved state is a fresh JSON copy by then).
  custom_metadata: z.nullable(z.custom<JsonObject>(isObject, 'Invalid input: expected object')),
  currency: Text,
  items: z.array(OrderItemSchema),
});

const RestockingItemSchema = z.object({
  /** Item id. */
  id: Id,
  /** The SKU announced. */
  sku_id: Id,
  /** Units announced. */
  announced_quantity: Id,
  /** Remarks. */
  remarks: TextOrNull,
  /** Total cost. */
  total_cost_in_cents: Cents,
  /** The batch the item was announced for. */
  inventory_batch_id: z.nullable(Id),
  /** Units arrived (`null` until restocked). */
  arrived_quantity: z.nullable(Count),
  /** Units damaged (`null` until restocked). */
  damaged_quantity: z.nullable(Count),
  /** Units missing (`null` until restocked). */
  missing_quantity: z.nullable(Count),
  /** Units this item has added to stock so far. */
  applied: Count,
  /** The batch that received the units (batch-tracked SKUs), once restocked. */
  batch_id: z.nullable(Id),
});

const RestockingSchema = z.object({
  ...RECORD,
  ...each(
    ['estimated_arrival_date', 'delivery_option', 'tracking_code', 'po_number', 'supplier_name'],
    TextOrNull,
  ),
  ...each(['arrived_at', 'reopened_at'], TimeOrNull),
  updated_at: Time,
  merchant_id: Id,
  warehouse_id: Id,
  priority: z.boolean(),
  barcode: Text,
  status: z.enum(Object.keys(RESTOCKING_STATUSES) as [RestockingStatusV1, ...RestockingStatusV1[]]),
  completed_reopens_count: Count,
  reopened: z.boolean(),
  items: z.array(RestockingItemSchema),
});

export const StateSchema = z.object({
  // The layout is checked first: a file of another format or version fails there.
  format: z.literal(MOCK_STATE_FORMAT),
  version: z.literal(1),
  warehouses: WarehousesSchema,
  lastIds: z.object(each([...COLLECTIONS, ...SUB_RECORDS], Count)),
  skus: z.array(SkuSchema),
  skuCodeOrder: z.array(z.int()),
  orders: z.array(OrderSchema),
  restockingShipments: z.array(RestockingSchema),
  shipments: z.array(
    z.object({
      id: Id,
      createdMs: z.number(),
      view: z.looseObject({ id: Id, created_at: Time, order_id: Id, items: WithIds }),
    }),
  ),
  returns: z.array(
    z.object({
      id: Id,
      createdMs: z.number(),
      view: z.looseObject({
        id: Id,
        created_at: Time,
        order: z.looseObject({ id: Id }),
        return_items: WithIds,
      }),
    }),
  ),
});
