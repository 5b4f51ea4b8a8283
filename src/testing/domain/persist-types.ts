/**
 * The saved state's layout (`api.exportState()`, `createMockApi({ initialState })`, the CLI's
 * `--state` file): version 1, records by id, references such as an order item's SKU or a batch
 * taken as ids. `persist.ts` writes and reads it.
 */
import type {
  MockOrder,
  MockRestockingShipmentV1,
  MockRestockingShipmentV2,
  MockReturn,
  MockShipment,
  MockSku,
  MockWarehouse,
} from './resources.js';

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
