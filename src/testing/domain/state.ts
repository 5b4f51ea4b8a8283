/**
 * The in-memory state of the mock: the records of every resource, their indexes and id counters.
 * Records are internal (views turn them into API bodies); only the domain modules change them.
 */
import { Collection } from '../engine/collection.js';
import type { MockWarehouse } from './resources.js';
import {
  COLLECTIONS,
  fromKeys,
  type MockStateBatch,
  type MockStateLastIds,
  type MockStateOrder,
  type MockStateOrderItem,
  type MockStateRestockingItem,
  type MockStateRestockingShipment,
  type MockStateReturn,
  type MockStateShipment,
  type MockStateSku,
  type MockStateStock,
  SUB_RECORDS,
  type SubRecord,
} from './state-format.js';

/**
 * Stock of a SKU in one warehouse. What the API shows as `stocked` (and `total`) is
 * `onHand − reserved`: the units available for sale.
 */
export type StockLevel = MockStateStock[1];

/** An inventory batch of a SKU, in one warehouse (saved as it is). */
export type BatchRecord = MockStateBatch;

/** A SKU (saved as it is, but for its stock). */
export interface SkuRecord extends Omit<MockStateSku, 'stock'> {
  /** Stock per warehouse id. */
  stock: Map<number, StockLevel>;
}

/** Units of one batch taken by an order item. */
export interface BatchTake {
  batch: BatchRecord;
  quantity: number;
}

/** Stock an order item holds in a warehouse. */
export interface Reservation {
  warehouseId: number;
  quantity: number;
  batches: BatchTake[];
}

/** An order line item (saved with the ids of its SKU and batches). */
export interface OrderItemRecord extends Omit<MockStateOrderItem, 'sku_id' | 'reservation' | 'batches'> {
  sku: SkuRecord;
  reservation: Reservation | null;
  batches: BatchTake[];
}

/** An order (saved with its items' references as ids). */
export interface OrderRecord extends Omit<MockStateOrder, 'items'> {
  items: OrderItemRecord[];
}

/** An item of a restocking shipment (saved with the ids of its SKU and batch). */
export interface RestockingItemRecord extends Omit<MockStateRestockingItem, 'sku_id' | 'batch_id'> {
  sku: SkuRecord;
  batch: BatchRecord | null;
}

/**
 * A restocking shipment (one record, seen through a version 1 and a version 2 view): the fields of
 * the version 1 view — `status` is the version 1 status, the finer one — plus those only version 2
 * shows.
 */
export interface RestockingRecord extends Omit<MockStateRestockingShipment, 'items'> {
  items: RestockingItemRecord[];
}

/** A stored outbound shipment: its body is fixed once created. */
export type ShipmentRecord = MockStateShipment;

/** A stored return. */
export type ReturnRecord = MockStateReturn;

/** Every record of the mock, with the indexes the endpoints need. */
export class MockState {
  readonly skus = new Collection<SkuRecord>();
  readonly orders = new Collection<OrderRecord>();
  readonly restockingShipments = new Collection<RestockingRecord>();
  readonly shipments = new Collection<ShipmentRecord>();
  readonly returns = new Collection<ReturnRecord>();
  readonly warehouses: readonly MockWarehouse[];
  readonly batches = new Map<number, BatchRecord>();
  /** SKUs per merchant SKU code (usually one; deleted ones may share a code with an active one). */
  readonly #skusByCode = new Map<string, SkuRecord[]>();
  readonly #ordersByMerchantId = new Map<string, OrderRecord>();
  readonly #counters = fromKeys(SUB_RECORDS, () => 0);

  constructor(warehouses: readonly MockWarehouse[]) {
    this.warehouses = warehouses;
  }

  /** A new id for a sub-record (order item, batch, ...): each kind counts from 1. */
  nextId(kind: SubRecord): number {
    this.#counters[kind] += 1;
    return this.#counters[kind];
  }

  /** The last id handed out per collection and per kind of sub-record (0 before the first). */
  lastIds(): MockStateLastIds {
    return { ...fromKeys(COLLECTIONS, (key) => this[key].lastId), ...this.#counters };
  }

  /** Sets the last id handed out per collection and per kind of sub-record (restoring saved state). */
  restoreLastIds(last: MockStateLastIds): void {
    for (const key of COLLECTIONS) this[key].restoreLastId(last[key]);
    for (const kind of SUB_RECORDS) this.#counters[kind] = last[kind];
  }

  /**
   * Every SKU in the order of the code index: SKUs sharing a code appear in the order the index
   * keeps them (which decides which deleted SKU a code reactivates). Adding the SKUs in this order
   * with {@link addSku} rebuilds the same index.
   */
  skusInIndexOrder(): SkuRecord[] {
    return [...this.#skusByCode.values()].flat();
  }

  /** Whether a warehouse with this id exists. */
  hasWarehouse(id: number): boolean {
    return this.warehouses.some((w) => w.id === id);
  }

  /** Adds a SKU and indexes its code. */
  addSku(sku: SkuRecord): void {
    this.skus.insert(sku);
    this.#indexCode(sku);
  }

  /** Moves a SKU from its old code to its current one in the index. */
  reindexSku(sku: SkuRecord, oldCode: string): void {
    if (oldCode === sku.merchant_sku_id) return;
    const rest = this.#skusByCode.get(oldCode)?.filter((s) => s !== sku) ?? [];
    if (rest.length > 0) this.#skusByCode.set(oldCode, rest);
    else this.#skusByCode.delete(oldCode);
    this.#indexCode(sku);
  }

  /** The active SKU with this code. */
  activeSkuByCode(code: string): SkuRecord | undefined {
    return this.#skusByCode.get(code)?.find((s) => s.status === 'active');
  }

  /** The deleted SKU that most recently took this code. */
  deletedSkuByCode(code: string): SkuRecord | undefined {
    return this.#skusByCode.get(code)?.findLast((s) => s.status === 'deleted');
  }

  /** Every SKU with one of these codes (active and deleted). */
  skusByCodes(codes: Iterable<string>): SkuRecord[] {
    const found = new Set<SkuRecord>();
    for (const code of codes) for (const sku of this.#skusByCode.get(code) ?? []) found.add(sku);
    return [...found];
  }

  /** Adds an order and indexes its merchant order id. */
  addOrder(order: OrderRecord): void {
    this.orders.insert(order);
    this.#ordersByMerchantId.set(order.merchant_order_id, order);
  }

  /** The order with this merchant order id. */
  orderByMerchantId(merchantOrderId: string): OrderRecord | undefined {
    return this.#ordersByMerchantId.get(merchantOrderId);
  }

  /** Updates the index after an order's merchant order id changed. */
  reindexOrder(order: OrderRecord, oldId: string): void {
    if (oldId === order.merchant_order_id) return;
    this.#ordersByMerchantId.delete(oldId);
    this.#ordersByMerchantId.set(order.merchant_order_id, order);
  }

  #indexCode(sku: SkuRecord): void {
    const code = sku.merchant_sku_id;
    this.#skusByCode.set(code, [...(this.#skusByCode.get(code) ?? []), sku]);
  }
}
