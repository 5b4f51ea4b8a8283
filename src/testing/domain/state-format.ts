/**
 * The saved state's format (`api.exportState()`, `createMockApi({ initialState })`, the CLI's
 * `--state` file), version 2: the in-memory records as JSON, a reference to another record (an
 * item's SKU, a batch taken) as its id. One zod schema checks it; its types are read from the
 * schema, and the records of `state.ts` from them. `persist.ts` writes and reads it.
 */
import * as z from 'zod/mini';
import type { Fields } from '../../schemas/common.js';
import { AddressSchema, FINANCIAL_STATUSES } from '../../schemas/orders.js';
import { DELIVERY_OPTIONS } from '../../schemas/restocking-shipment-records.js';
import type { JsonObject } from '../engine/json.js';
import { isObject } from '../engine/validation.js';
import type { MockReturn, MockShipment } from './resources.js';
import { RESTOCKING_STATUSES, type RestockingStatusV1 } from './restocking-status.js';

/** The `format` of a saved state. */
export const MOCK_STATE_FORMAT = 'merchant-fulfillment-mock-state';

/** The collections of the state, each with its own id sequence (in `lastIds` order). */
export const COLLECTIONS = ['skus', 'orders', 'restockingShipments', 'shipments', 'returns'] as const;

/** The kinds of sub-records with their own id sequence, in a fixed order. */
export const SUB_RECORDS = ['orderItem', 'restockingItem', 'shipmentItem', 'returnItem', 'batch'] as const;

/** A kind of sub-record with its own id sequence. */
export type SubRecord = (typeof SUB_RECORDS)[number];

/** An object with the fields `keys`, each `value(key)`. */
export function fromKeys<const K extends string, V>(keys: readonly K[], value: (key: K) => V): Record<K, V> {
  return Object.fromEntries(keys.map((key) => [key, value(key)])) as Record<K, V>;
}

/** The shape of fields `keys`, each of `schema`. */
const each = <const K extends string, S>(keys: readonly K[], schema: S) => fromKeys(keys, () => schema);

const Id = z.int().check(z.minimum(1));
const Count = z.int().check(z.minimum(0));
const Cents = z.nullable(z.int());
const Text = z.string();
const TextOrNull = z.nullable(z.string());
const Time = z.string().check(z.refine((v) => !Number.isNaN(Date.parse(v)), 'must be a date-time'));
const TimeOrNull = z.nullable(Time);
const AnObject = 'Invalid input: expected object';

/**
 * Issues for the ids of `list` seen twice and, for the collection `key`, above the last id handed
 * out (`last`). Without `key`, `list` is the warehouses.
 */
function checkIds(ctx: z.core.$RefinementCtx, list: { id: number }[], key?: string, last = Infinity) {
  const seen = new Set<number>();
  for (const [i, { id }] of list.entries()) {
    const twice = seen.size === seen.add(id).size;
    if (!twice && id <= last) continue;
    const problem = twice ? 'appears twice' : `is above the last id handed out (lastIds.${key}: ${last})`;
    const path = key ? [key, i, 'id'] : [i, 'id'];
    ctx.issues.push({
      code: 'custom',
      input: id,
      path,
      message: `${key ? '' : 'warehouse '}id ${id} ${problem}`,
    });
  }
}

/** Warehouses: at least one, each with a unique integer `id` >= 1 and, when given, a string `name`. */
export const WarehousesSchema = z.array(z.looseObject({ id: Id, name: z.optional(z.string()) })).check(
  z.minLength(1, 'must hold at least one warehouse'),
  z.superRefine((list, ctx) => checkIds(ctx, list)),
);

/** The fields every record has: its id and creation time. */
const RECORD = {
  id: Id,
  /** Creation time in ms (orders the collection). */
  createdMs: z.number(),
  created_at: Time,
};

const LevelSchema = z.strictObject({
  /** Reserved for fulfillable orders (may exceed `onHand` when an order came before the stock). */
  reserved: Count,
  /** Physically in storage: reserved units included, until their order is fulfilled. */
  onHand: Count,
});

/** `[warehouse id, stock]`. */
const StockSchema = z.tuple([Id, LevelSchema]);

const BatchSchema = z.strictObject({
  id: Id,
  skuId: Id,
  warehouseId: Id,
  name: Text,
  tracking_code: TextOrNull,
  expiry_date: TextOrNull,
  /** Units of the batch in storage, reserved ones included. */
  onHand: Count,
  /** Units of the batch reserved for fulfillable orders. */
  reserved: Count,
});

const SkuSchema = z.strictObject({
  ...RECORD,
  ...each(['barcode', 'country_code_of_origin', 'hs_code', 'image_url'], TextOrNull),
  merchant_sku_id: Text,
  name: Text,
  batch_tracking_enabled: z.boolean(),
  cost_in_cents: Cents,
  weight_in_kg: z.nullable(z.number()),
  status: z.enum(['active', 'deleted']),
  /** Stock per warehouse (warehouses never used are absent). */
  stock: z.array(StockSchema),
  /** Inventory batches, oldest first. */
  batches: z.array(BatchSchema),
});

const TakeSchema = z.strictObject({
  /** The batch (a batch of the item's SKU). */
  batch_id: Id,
  /** Units taken. */
  quantity: Count,
});

const OrderItemSchema = z.strictObject({
  id: Id,
  merchant_item_id: Text,
  quantity: Id,
  price_per_unit_in_cents: z.int(),
  price_per_unit_in_cents_with_discount: Cents,
  /** The SKU ordered. */
  sku_id: Id,
  /** Stock held while the order is fulfillable; `null` otherwise. */
  reservation: z.nullable(z.strictObject({ warehouseId: Id, quantity: Count, batches: z.array(TakeSchema) })),
  /** Batches of the latest reservation (kept after fulfilment, for `include=batches`). */
  batches: z.array(TakeSchema),
});

const OrderSchema = z.strictObject({
  ...RECORD,
  ...each(['customer_order_number', 'carrier_preference', 'payment_method'], TextOrNull),
  financial_status: z.nullable(z.enum(FINANCIAL_STATUSES)),
  ...each(
    [
      'total_price_in_cents',
      'total_net_revenue_in_cents',
      'total_tax_in_cents',
      'total_net_refunds_in_cents',
      'total_tax_refunds_in_cents',
    ],
    Cents,
  ),
  merchant_order_id: Text,
  status: z.enum(['fulfillable', 'unfulfillable', 'fulfilled']),
  /** Cancelled through `PUT /orders/{id}/cancel` (status `unfulfillable`). */
  cancelled: z.boolean(),
  shipping_address: AddressSchema,
  tags: z.array(Text),
  custom_metadata: z.nullable(z.custom<JsonObject>(isObject, AnObject)),
  currency: Text,
  items: z.array(OrderItemSchema),
});

const RestockingItemSchema = z.strictObject({
  id: Id,
  announced_quantity: Id,
  remarks: TextOrNull,
  total_cost_in_cents: Cents,
  /** The batch the item was announced for, if any. */
  inventory_batch_id: z.nullable(Id),
  ...each(['arrived_quantity', 'damaged_quantity', 'missing_quantity'], z.nullable(Count)),
  /** Units this item has added to stock so far (re-restocking adds the difference). */
  applied: Count,
  /** The SKU announced. */
  sku_id: Id,
  /** The batch that received the units (batch-tracked SKUs), once restocked. */
  batch_id: z.nullable(Id),
});

const RestockingSchema = z.strictObject({
  ...RECORD,
  ...each(['estimated_arrival_date', 'tracking_code', 'po_number', 'supplier_name'], TextOrNull),
  delivery_option: z.nullable(z.enum(DELIVERY_OPTIONS)),
  ...each(['arrived_at', 'reopened_at'], TimeOrNull),
  updated_at: Time,
  merchant_id: Id,
  warehouse_id: Id,
  priority: z.boolean(),
  barcode: Text,
  /** The version 1 status (the finer one). */
  status: z.enum(Object.keys(RESTOCKING_STATUSES) as [RestockingStatusV1, ...RestockingStatusV1[]]),
  completed_reopens_count: Count,
  /** Left `restocked` and not restocked again yet. */
  reopened: z.boolean(),
  items: z.array(RestockingItemSchema),
});

/** A record whose body is fixed once created: its id, creation time and the body the API answers. */
const stored = <V>() =>
  z.strictObject({ id: Id, createdMs: z.number(), view: z.custom<V>(isObject, AnObject) });
const ShipmentSchema = stored<MockShipment>();
const ReturnSchema = stored<MockReturn>();

const LastIdsSchema = z.strictObject(each([...COLLECTIONS, ...SUB_RECORDS], Count));

export const StateSchema = z
  .strictObject({
    // The layout is checked first: a file of another format or version fails there.
    format: z.literal(MOCK_STATE_FORMAT),
    version: z.literal(2),
    warehouses: WarehousesSchema,
    /** The last id handed out per collection and per kind of sub-record. */
    lastIds: LastIdsSchema,
    /**
     * SKUs, deleted ones included, in the order of the mock's index of SKU codes: which deleted
     * SKU a code reactivates depends on it.
     */
    skus: z.array(SkuSchema),
    /** Orders, oldest first. */
    orders: z.array(OrderSchema),
    /** Restocking shipments, oldest first. */
    restockingShipments: z.array(RestockingSchema),
    /** Outbound shipments, oldest first. */
    shipments: z.array(ShipmentSchema),
    /** Returns, oldest first. */
    returns: z.array(ReturnSchema),
  })
  .check(
    z.superRefine((file, ctx) => {
      for (const key of COLLECTIONS) checkIds(ctx, file[key], key, file.lastIds[key]);
    }),
  );

/**
 * The last id handed out for each collection and each kind of sub-record: the next record of a
 * kind gets this id + 1, so ids continue where the saved mock left off.
 */
export interface MockStateLastIds extends Fields<typeof LastIdsSchema> {}

/** The stock of a SKU in one warehouse: `[warehouse id, { reserved, onHand }]`. */
export type MockStateStock = MockStateSku['stock'][number];

/** An inventory batch of a SKU, in one warehouse. */
export interface MockStateBatch extends Fields<typeof BatchSchema> {}

/** A SKU: its fields, its stock per warehouse and its batches. */
export interface MockStateSku extends Fields<typeof SkuSchema> {}

/** Units of one batch taken by an order item. */
export interface MockStateBatchTake extends Fields<typeof TakeSchema> {}

/** An order item. */
export interface MockStateOrderItem extends Fields<typeof OrderItemSchema> {}

/** An order. */
export interface MockStateOrder extends Fields<typeof OrderSchema> {}

/** An item of a restocking shipment. */
export interface MockStateRestockingItem extends Fields<typeof RestockingItemSchema> {}

/** A restocking shipment (the fields of both views). */
export interface MockStateRestockingShipment extends Fields<typeof RestockingSchema> {}

/** An outbound shipment: its body is fixed once created. */
export interface MockStateShipment extends Fields<typeof ShipmentSchema> {}

/** A return: its body is fixed once created. */
export interface MockStateReturn extends Fields<typeof ReturnSchema> {}

/**
 * The whole state of a mock as one JSON-serializable value (`api.exportState()`), to save and to
 * start a mock from (`createMockApi({ initialState })`). The request log, faults and webhook
 * deliveries are not part of it.
 */
export interface MockStateFile extends Fields<typeof StateSchema> {}
