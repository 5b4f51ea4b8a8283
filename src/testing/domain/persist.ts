/**
 * Saving and restoring the mock's state: `exportState` turns every record, index order and id
 * counter into one JSON-serializable value (records by id, references such as an order item's SKU
 * or a batch taken as ids); `importState` checks such a value field by field and rebuilds the
 * records, their links and indexes. A problem is a {@link MockStateError} naming the path of the
 * field at fault, e.g. `orders[3].items[0].sku_id: no SKU with id 9`.
 */
import { type JsonValue, MAX_BODY_BYTES } from '../engine/json.js';
import { isObject, jsonCopier } from '../engine/validation.js';
import { ORDER_TOTALS } from './orders.js';
import {
  MAX_WAREHOUSE_VALUES,
  type MockOrder,
  type MockRestockingShipmentV1,
  type MockRestockingShipmentV2,
  type MockReturn,
  type MockShipment,
  type MockSku,
  type MockWarehouse,
} from './resources.js';
import { RESTOCKING_STATUSES, type RestockingStatusV1 } from './restocking-status.js';
import {
  type BatchRecord,
  type BatchTake,
  MockState,
  type OrderItemRecord,
  type OrderRecord,
  type RestockingItemRecord,
  type RestockingRecord,
  type SkuRecord,
  SUB_RECORDS,
  type SubRecord,
} from './state.js';

/** The `format` of a saved state. */
export const MOCK_STATE_FORMAT = 'merchant-fulfillment-mock-state';

/** The collections of the state, each with its own id sequence (in `lastIds` order). */
const COLLECTIONS = ['skus', 'orders', 'restockingShipments', 'shipments', 'returns'] as const;

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
export interface MockStateStock {
  /** The warehouse. */
  warehouse_id: number;
  /** Units physically in storage, reserved ones included. */
  onHand: number;
  /** Units reserved for fulfillable orders. */
  reserved: number;
}

/** An inventory batch of a SKU. */
export interface MockStateBatch {
  /** Batch id. */
  id: number;
  /** The warehouse it lives in. */
  warehouse_id: number;
  /** Batch name. */
  name: string;
  /** Lot or tracking code. */
  tracking_code: string | null;
  /** Expiry date (`YYYY-MM-DD`). */
  expiry_date: string | null;
  /** Units of the batch in storage, reserved ones included. */
  onHand: number;
  /** Units of the batch reserved for fulfillable orders. */
  reserved: number;
}

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
export interface MockStateBatchTake {
  /** The batch (a batch of the item's SKU). */
  batch_id: number;
  /** Units taken. */
  quantity: number;
}

/** An order item. */
export interface MockStateOrderItem {
  /** Item id. */
  id: number;
  /** The merchant's item id. */
  merchant_item_id: string;
  /** The SKU ordered. */
  sku_id: number;
  /** Units ordered. */
  quantity: number;
  /** Price per unit. */
  price_per_unit_in_cents: number;
  /** Discounted price per unit. */
  price_per_unit_in_cents_with_discount: number | null;
  /** Stock held while the order is fulfillable; `null` otherwise. */
  reservation: { warehouse_id: number; quantity: number; batches: MockStateBatchTake[] } | null;
  /** Batches of the latest reservation (kept after fulfilment). */
  batches: MockStateBatchTake[];
}

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
export interface MockStateRestockingItem {
  /** Item id. */
  id: number;
  /** The SKU announced. */
  sku_id: number;
  /** Units announced. */
  announced_quantity: number;
  /** Remarks. */
  remarks: string | null;
  /** Total cost. */
  total_cost_in_cents: number | null;
  /** The batch the item was announced for. */
  inventory_batch_id: number | null;
  /** Units arrived (`null` until restocked). */
  arrived_quantity: number | null;
  /** Units damaged (`null` until restocked). */
  damaged_quantity: number | null;
  /** Units missing (`null` until restocked). */
  missing_quantity: number | null;
  /** Units this item has added to stock so far. */
  applied: number;
  /** The batch that received the units (batch-tracked SKUs), once restocked. */
  batch_id: number | null;
}

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

/** A saved state that cannot be loaded: the message starts with the path of the field at fault. */
export class MockStateError extends Error {
  override readonly name = 'MockStateError';
  /** Path of the field at fault, e.g. `orders[3].items[0].sku_id` (empty for the whole value). */
  readonly path: string;

  constructor(path: string, problem: string) {
    super(path ? `${path}: ${problem}` : problem);
    this.path = path;
  }
}

// ---------------------------------------------------------------------------------------------
// Export

function takes(list: readonly BatchTake[]): MockStateBatchTake[] {
  return list.map((t) => ({ batch_id: t.batch.id, quantity: t.quantity }));
}

function exportSku(sku: SkuRecord): MockStateSku {
  return {
    id: sku.id,
    createdMs: sku.createdMs,
    created_at: sku.created_at,
    merchant_sku_id: sku.merchant_sku_id,
    name: sku.name,
    barcode: sku.barcode,
    batch_tracking_enabled: sku.batch_tracking_enabled,
    cost_in_cents: sku.cost_in_cents,
    country_code_of_origin: sku.country_code_of_origin,
    hs_code: sku.hs_code,
    image_url: sku.image_url,
    weight_in_kg: sku.weight_in_kg,
    status: sku.status,
    stock: [...sku.stock].map(([warehouse_id, level]) => ({
      warehouse_id,
      onHand: level.onHand,
      reserved: level.reserved,
    })),
    batches: sku.batches.map((b) => ({
      id: b.id,
      warehouse_id: b.warehouseId,
      name: b.name,
      tracking_code: b.tracking_code,
      expiry_date: b.expiry_date,
      onHand: b.onHand,
      reserved: b.reserved,
    })),
  };
}

function exportOrder(order: OrderRecord): MockStateOrder {
  const { items, ...fields } = order;
  return {
    ...structuredClone(fields),
    items: items.map((item) => ({
      id: item.id,
      merchant_item_id: item.merchant_item_id,
      sku_id: item.sku.id,
      quantity: item.quantity,
      price_per_unit_in_cents: item.price_per_unit_in_cents,
      price_per_unit_in_cents_with_discount: item.price_per_unit_in_cents_with_discount,
      reservation: item.reservation && {
        warehouse_id: item.reservation.warehouseId,
        quantity: item.reservation.quantity,
        batches: takes(item.reservation.batches),
      },
      batches: takes(item.batches),
    })),
  };
}

function exportRestocking(record: RestockingRecord): MockStateRestockingShipment {
  const { items, ...fields } = record;
  return {
    ...structuredClone(fields),
    items: items.map(({ sku, batch, ...item }) => ({ ...item, sku_id: sku.id, batch_id: batch?.id ?? null })),
  };
}

/** A stored shipment or return: its id, creation time and a copy of its fixed body. */
function exportStored<V>(record: { id: number; createdMs: number; view: V }): {
  id: number;
  createdMs: number;
  view: V;
} {
  return { id: record.id, createdMs: record.createdMs, view: structuredClone(record.view) };
}

/** The state as one JSON-serializable value (fresh copies: nothing is shared with the state). */
export function exportState(state: MockState): MockStateFile {
  const counters = state.counters();
  return {
    format: MOCK_STATE_FORMAT,
    version: 1,
    warehouses: structuredClone([...state.warehouses]),
    lastIds: {
      skus: state.skus.lastId,
      orders: state.orders.lastId,
      restockingShipments: state.restockingShipments.lastId,
      shipments: state.shipments.lastId,
      returns: state.returns.lastId,
      ...counters,
    },
    skus: state.skus.all().map(exportSku),
    skuCodeOrder: state.skuIndexOrder(),
    orders: state.orders.all().map(exportOrder),
    restockingShipments: state.restockingShipments.all().map(exportRestocking),
    shipments: state.shipments.all().map(exportStored),
    returns: state.returns.all().map(exportStored),
  };
}

// ---------------------------------------------------------------------------------------------
// Import

/** Reads the fields of one object of the saved state, each checked, errors named by path. */
class Reader {
  readonly value: Record<string, unknown>;
  readonly path: string;

  constructor(value: unknown, path: string) {
    if (!isObject(value)) throw new MockStateError(path, 'must be an object');
    this.value = value;
    this.path = path;
  }

  at(key: string): string {
    return this.path ? `${this.path}.${key}` : key;
  }

  fail(key: string, problem: string): never {
    throw new MockStateError(this.at(key), problem);
  }

  int(key: string, min = 0): number {
    const v = this.value[key];
    if (!Number.isSafeInteger(v) || (v as number) < min) this.fail(key, `must be an integer >= ${min}`);
    return v as number;
  }

  intOrNull(key: string, min = 0): number | null {
    return this.value[key] === null ? null : this.int(key, min);
  }

  number(key: string): number {
    const v = this.value[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(key, 'must be a finite number');
    return v;
  }

  numberOrNull(key: string): number | null {
    return this.value[key] === null ? null : this.number(key);
  }

  string(key: string): string {
    const v = this.value[key];
    if (typeof v !== 'string') this.fail(key, 'must be a string');
    return v;
  }

  stringOrNull(key: string): string | null {
    return this.value[key] === null ? null : this.string(key);
  }

  /** A date-time string (`created_at`, ...). */
  time(key: string): string {
    const v = this.string(key);
    if (Number.isNaN(Date.parse(v))) this.fail(key, `must be a date-time, got '${v}'`);
    return v;
  }

  timeOrNull(key: string): string | null {
    return this.value[key] === null ? null : this.time(key);
  }

  boolean(key: string): boolean {
    const v = this.value[key];
    if (typeof v !== 'boolean') this.fail(key, 'must be true or false');
    return v;
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T {
    const v = this.value[key];
    if (!values.includes(v as T)) this.fail(key, `must be one of ${values.join(', ')}`);
    return v as T;
  }

  /** The elements of an array, each with its path. */
  list(key: string): { value: unknown; path: string }[] {
    const v = this.value[key];
    if (!Array.isArray(v)) this.fail(key, 'must be an array');
    return v.map((value, i) => ({ value, path: `${this.at(key)}[${i}]` }));
  }

  object(key: string): Reader {
    return new Reader(this.value[key], this.at(key));
  }

  /** A JSON value, copied (functions, `undefined` and the like are refused; see {@link stateCopier}). */
  json<T>(key: string): T {
    return stateCopier(MAX_BODY_BYTES)(this.value[key], this.at(key)) as T;
  }
}

/** How deep a value of a saved state may nest. */
const STATE_JSON_DEPTH = 64;

/**
 * A copier of JSON values of a saved state (see `jsonCopier`): at most {@link STATE_JSON_DEPTH}
 * levels and `maxValues` values, a refusal being a {@link MockStateError}. A field gets
 * {@link MAX_BODY_BYTES} values, more than one request body can carry, so a field made from one
 * request is never refused, while a state built by hand with an object shared at every level
 * cannot make the copy run for hours. (A shipment's view grows with later requests and could in
 * theory pass it; its state would then be too large for `JSON.stringify` already.)
 */
function stateCopier(maxValues: number): (value: unknown, path: string) => JsonValue {
  return jsonCopier({ maxDepth: STATE_JSON_DEPTH, maxValues }, (path, problem) => {
    throw new MockStateError(path, problem);
  });
}

/** Ids seen in one id sequence: each unique and at most the last id handed out. */
class IdSequence {
  readonly #seen = new Set<number>();
  readonly #last: number;
  readonly #what: string;

  constructor(last: number, what: string) {
    this.#last = last;
    this.#what = what;
  }

  take(reader: Reader, key = 'id'): number {
    const id = reader.int(key, 1);
    if (this.#seen.has(id)) reader.fail(key, `${this.#what} id ${id} appears twice`);
    if (id > this.#last) {
      reader.fail(key, `${this.#what} id ${id} is above the last id handed out (lastIds: ${this.#last})`);
    }
    this.#seen.add(id);
    return id;
  }
}

const SKU_STATUSES = ['active', 'deleted'] as const;
const ORDER_STATUSES = ['fulfillable', 'unfulfillable', 'fulfilled'] as const;
const V1_STATUSES = Object.keys(RESTOCKING_STATUSES) as RestockingStatusV1[];

/** What the records being rebuilt refer to. */
class Context {
  readonly state: MockState;
  readonly last: MockStateLastIds;
  readonly skus = new Map<number, SkuRecord>();

  constructor(state: MockState, last: MockStateLastIds) {
    this.state = state;
    this.last = last;
  }

  warehouse(reader: Reader, key: string): number {
    const id = reader.int(key, 1);
    if (!this.state.hasWarehouse(id)) reader.fail(key, `no warehouse with id ${id}`);
    return id;
  }

  sku(reader: Reader, key: string): SkuRecord {
    const id = reader.int(key, 1);
    const sku = this.skus.get(id);
    if (!sku) reader.fail(key, `no SKU with id ${id}`);
    return sku;
  }

  /** A batch of `sku`. */
  batch(reader: Reader, key: string, sku: SkuRecord): BatchRecord {
    const id = reader.int(key, 1);
    const batch = this.state.batches.get(id);
    if (!batch) reader.fail(key, `no batch with id ${id}`);
    if (batch.skuId !== sku.id) reader.fail(key, `batch ${id} belongs to SKU ${batch.skuId}, not ${sku.id}`);
    return batch;
  }

  takes(reader: Reader, key: string, sku: SkuRecord): BatchTake[] {
    return reader.list(key).map(({ value, path }) => {
      const r = new Reader(value, path);
      return { batch: this.batch(r, 'batch_id', sku), quantity: r.int('quantity') };
    });
  }
}

function readWarehouses(root: Reader): MockWarehouse[] {
  const ids = new Set<number>();
  const list = root.list('warehouses');
  if (list.length === 0) root.fail('warehouses', 'must hold at least one warehouse');
  // The limits of the `warehouses` option hold for the warehouses of a saved state too.
  const copy = stateCopier(MAX_WAREHOUSE_VALUES);
  return list.map(({ value, path }) => {
    const r = new Reader(value, path);
    const id = r.int('id', 1);
    if (ids.has(id)) r.fail('id', `warehouse id ${id} appears twice`);
    ids.add(id);
    return copy(value, path) as MockWarehouse;
  });
}

function readLastIds(root: Reader): MockStateLastIds {
  const r = root.object('lastIds');
  const out: Partial<MockStateLastIds> = {};
  for (const key of [...COLLECTIONS, ...SUB_RECORDS]) out[key] = r.int(key);
  return out as MockStateLastIds;
}

function readSkus(root: Reader, ctx: Context): void {
  const ids = new IdSequence(ctx.last.skus, 'SKU');
  const batchIds = new IdSequence(ctx.last.batch, 'batch');
  const activeCodes = new Set<string>();
  for (const { value, path } of root.list('skus')) {
    const r = new Reader(value, path);
    const id = ids.take(r);
    const status = r.oneOf('status', SKU_STATUSES);
    const code = r.string('merchant_sku_id');
    if (status === 'active') {
      if (activeCodes.has(code)) r.fail('merchant_sku_id', `two active SKUs have the code '${code}'`);
      activeCodes.add(code);
    }
    const sku: SkuRecord = {
      id,
      createdMs: r.number('createdMs'),
      created_at: r.time('created_at'),
      merchant_sku_id: code,
      name: r.string('name'),
      barcode: r.stringOrNull('barcode'),
      batch_tracking_enabled: r.boolean('batch_tracking_enabled'),
      cost_in_cents: r.intOrNull('cost_in_cents', Number.MIN_SAFE_INTEGER),
      country_code_of_origin: r.stringOrNull('country_code_of_origin'),
      hs_code: r.stringOrNull('hs_code'),
      image_url: r.stringOrNull('image_url'),
      weight_in_kg: r.numberOrNull('weight_in_kg'),
      status,
      stock: new Map(),
      batches: [],
    };
    for (const entry of r.list('stock')) {
      const s = new Reader(entry.value, entry.path);
      const warehouseId = ctx.warehouse(s, 'warehouse_id');
      if (sku.stock.has(warehouseId)) s.fail('warehouse_id', `warehouse ${warehouseId} appears twice`);
      sku.stock.set(warehouseId, { onHand: s.int('onHand'), reserved: s.int('reserved') });
    }
    for (const entry of r.list('batches')) {
      const b = new Reader(entry.value, entry.path);
      const batch: BatchRecord = {
        id: batchIds.take(b),
        skuId: id,
        warehouseId: ctx.warehouse(b, 'warehouse_id'),
        name: b.string('name'),
        tracking_code: b.stringOrNull('tracking_code'),
        expiry_date: b.stringOrNull('expiry_date'),
        onHand: b.int('onHand'),
        reserved: b.int('reserved'),
      };
      sku.batches.push(batch);
      ctx.state.batches.set(batch.id, batch);
    }
    ctx.skus.set(id, sku);
  }
  // The code index is rebuilt in its saved order.
  const order = root.list('skuCodeOrder');
  const placed = new Set<number>();
  for (const { value, path } of order) {
    const sku = typeof value === 'number' ? ctx.skus.get(value) : undefined;
    if (!sku) throw new MockStateError(path, `no SKU with id ${String(value)}`);
    if (placed.has(sku.id)) throw new MockStateError(path, `SKU ${sku.id} appears twice`);
    placed.add(sku.id);
    ctx.state.addSku(sku);
  }
  if (placed.size !== ctx.skus.size) {
    const missing = [...ctx.skus.keys()].find((id) => !placed.has(id));
    root.fail('skuCodeOrder', `must list every SKU id once (SKU ${missing} is missing)`);
  }
}

function readOrders(root: Reader, ctx: Context): void {
  const ids = new IdSequence(ctx.last.orders, 'order');
  const itemIds = new IdSequence(ctx.last.orderItem, 'order item');
  const merchantIds = new Set<string>();
  for (const { value, path } of root.list('orders')) {
    const r = new Reader(value, path);
    const id = ids.take(r);
    const merchantOrderId = r.string('merchant_order_id');
    if (merchantIds.has(merchantOrderId)) {
      r.fail('merchant_order_id', `two orders have the merchant order id '${merchantOrderId}'`);
    }
    merchantIds.add(merchantOrderId);
    const address = r.object('shipping_address');
    for (const key of Object.keys(address.value)) address.stringOrNull(key);
    address.string('country_code');
    const tags = r.list('tags').map(({ value: tag, path: tagPath }) => {
      if (typeof tag !== 'string') throw new MockStateError(tagPath, 'must be a string');
      return tag;
    });
    const metadata = r.value.custom_metadata === null ? null : r.object('custom_metadata');
    const items = r.list('items').map((entry): OrderItemRecord => {
      const i = new Reader(entry.value, entry.path);
      const sku = ctx.sku(i, 'sku_id');
      let reservation: OrderItemRecord['reservation'] = null;
      if (i.value.reservation !== null) {
        const res = i.object('reservation');
        reservation = {
          warehouseId: ctx.warehouse(res, 'warehouse_id'),
          quantity: res.int('quantity'),
          batches: ctx.takes(res, 'batches', sku),
        };
      }
      return {
        id: itemIds.take(i),
        merchant_item_id: i.string('merchant_item_id'),
        sku,
        quantity: i.int('quantity', 1),
        price_per_unit_in_cents: i.int('price_per_unit_in_cents', Number.MIN_SAFE_INTEGER),
        price_per_unit_in_cents_with_discount: i.intOrNull(
          'price_per_unit_in_cents_with_discount',
          Number.MIN_SAFE_INTEGER,
        ),
        reservation,
        batches: ctx.takes(i, 'batches', sku),
      };
    });
    const order: OrderRecord = {
      id,
      createdMs: r.number('createdMs'),
      created_at: r.time('created_at'),
      merchant_order_id: merchantOrderId,
      customer_order_number: r.stringOrNull('customer_order_number'),
      status: r.oneOf('status', ORDER_STATUSES),
      cancelled: r.boolean('cancelled'),
      items,
      shipping_address: r.json('shipping_address'),
      carrier_preference: r.stringOrNull('carrier_preference'),
      tags,
      custom_metadata: metadata && r.json('custom_metadata'),
      currency: r.string('currency'),
      financial_status: r.stringOrNull('financial_status'),
      payment_method: r.stringOrNull('payment_method'),
      total_price_in_cents: null,
      total_net_revenue_in_cents: null,
      total_tax_in_cents: null,
      total_net_refunds_in_cents: null,
      total_tax_refunds_in_cents: null,
    };
    for (const key of ORDER_TOTALS) order[key] = r.intOrNull(key, Number.MIN_SAFE_INTEGER);
    ctx.state.addOrder(order);
  }
}

function readRestocking(root: Reader, ctx: Context): void {
  const ids = new IdSequence(ctx.last.restockingShipments, 'restocking shipment');
  const itemIds = new IdSequence(ctx.last.restockingItem, 'restocking item');
  for (const { value, path } of root.list('restockingShipments')) {
    const r = new Reader(value, path);
    const id = ids.take(r);
    const items = r.list('items').map((entry): RestockingItemRecord => {
      const i = new Reader(entry.value, entry.path);
      const sku = ctx.sku(i, 'sku_id');
      return {
        id: itemIds.take(i),
        sku,
        announced_quantity: i.int('announced_quantity', 1),
        remarks: i.stringOrNull('remarks'),
        total_cost_in_cents: i.intOrNull('total_cost_in_cents', Number.MIN_SAFE_INTEGER),
        inventory_batch_id: i.intOrNull('inventory_batch_id', 1),
        arrived_quantity: i.intOrNull('arrived_quantity'),
        damaged_quantity: i.intOrNull('damaged_quantity'),
        missing_quantity: i.intOrNull('missing_quantity'),
        applied: i.int('applied'),
        batch: i.value.batch_id === null ? null : ctx.batch(i, 'batch_id', sku),
      };
    });
    const record: RestockingRecord = {
      id,
      createdMs: r.number('createdMs'),
      created_at: r.time('created_at'),
      updated_at: r.time('updated_at'),
      merchant_id: r.int('merchant_id', 1),
      warehouse_id: ctx.warehouse(r, 'warehouse_id'),
      estimated_arrival_date: r.stringOrNull('estimated_arrival_date'),
      delivery_option: r.stringOrNull('delivery_option'),
      tracking_code: r.stringOrNull('tracking_code'),
      po_number: r.stringOrNull('po_number'),
      supplier_name: r.stringOrNull('supplier_name'),
      priority: r.boolean('priority'),
      barcode: r.string('barcode'),
      status: r.oneOf('status', V1_STATUSES),
      arrived_at: r.timeOrNull('arrived_at'),
      reopened_at: r.timeOrNull('reopened_at'),
      completed_reopens_count: r.int('completed_reopens_count'),
      reopened: r.boolean('reopened'),
      items,
    };
    ctx.state.restockingShipments.insert(record);
  }
}

/** Shipments and returns: their bodies are kept as saved, checked against the orders they name. */
function readOutbound(root: Reader, ctx: Context): void {
  const shipmentIds = new IdSequence(ctx.last.shipments, 'shipment');
  const shipmentItemIds = new IdSequence(ctx.last.shipmentItem, 'shipment item');
  for (const { value, path } of root.list('shipments')) {
    const r = new Reader(value, path);
    const id = shipmentIds.take(r);
    const view = r.object('view');
    if (view.int('id', 1) !== id) view.fail('id', `must equal the shipment id ${id}`);
    const orderId = view.int('order_id', 1);
    if (!ctx.state.orders.get(orderId)) view.fail('order_id', `no order with id ${orderId}`);
    view.time('created_at');
    for (const item of view.list('items')) shipmentItemIds.take(new Reader(item.value, item.path));
    ctx.state.shipments.insert({ id, createdMs: r.number('createdMs'), view: r.json<MockShipment>('view') });
  }
  const returnIds = new IdSequence(ctx.last.returns, 'return');
  const returnItemIds = new IdSequence(ctx.last.returnItem, 'return item');
  for (const { value, path } of root.list('returns')) {
    const r = new Reader(value, path);
    const id = returnIds.take(r);
    const view = r.object('view');
    if (view.int('id', 1) !== id) view.fail('id', `must equal the return id ${id}`);
    const order = view.object('order');
    const orderId = order.int('id', 1);
    if (!ctx.state.orders.get(orderId)) order.fail('id', `no order with id ${orderId}`);
    view.time('created_at');
    for (const item of view.list('return_items')) returnItemIds.take(new Reader(item.value, item.path));
    ctx.state.returns.insert({ id, createdMs: r.number('createdMs'), view: r.json<MockReturn>('view') });
  }
}

/**
 * Rebuilds a state from a value made by {@link exportState} (after `JSON.stringify` and
 * `JSON.parse`, typically): every field is checked, references are resolved, indexes and id
 * counters restored. Throws a {@link MockStateError} naming the field at fault.
 */
export function importState(data: unknown): MockState {
  const root = new Reader(data, '');
  if (root.value.format !== MOCK_STATE_FORMAT) root.fail('format', `must be '${MOCK_STATE_FORMAT}'`);
  if (root.value.version !== 1) root.fail('version', `must be 1 (got ${JSON.stringify(root.value.version)})`);
  const state = new MockState(readWarehouses(root));
  const last = readLastIds(root);
  const ctx = new Context(state, last);
  readSkus(root, ctx);
  readOrders(root, ctx);
  readRestocking(root, ctx);
  readOutbound(root, ctx);
  for (const key of COLLECTIONS) state[key].restoreLastId(last[key]);
  const counters = {} as Record<SubRecord, number>;
  for (const kind of SUB_RECORDS) counters[kind] = last[kind];
  state.restoreCounters(counters);
  return state;
}
