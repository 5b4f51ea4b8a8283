/**
 * The state snapshot (`api.state`, `GET /__mock/state`): every record of the mock in its API view,
 * each list built as fresh copies when read.
 */
import type { MockRequestLogEntry } from '../engine/request-log.js';
import type {
  MockOrder,
  MockRestockingShipmentV1,
  MockRestockingShipmentV2,
  MockReturn,
  MockShipment,
  MockSku,
  MockWarehouse,
} from './resources.js';
import type { MockState } from './state.js';
import { orderView, restockingV1View, restockingV2View, skuView } from './views.js';

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

/** A snapshot of `state` whose lists are built (as fresh copies) when read; `requests` reads the log. */
export function snapshot(state: MockState, requests: () => MockRequestLogEntry[]): MockStateSnapshot {
  const lists: { [K in keyof MockStateSnapshot]: () => MockStateSnapshot[K] } = {
    skus: () => state.skus.all().map((s) => skuView(s, state)),
    orders: () => state.orders.all().map((o) => orderView(o, true)),
    restockingShipments: () => state.restockingShipments.all().map(restockingV1View),
    restockingShipmentsV2: () => state.restockingShipments.all().map(restockingV2View),
    shipments: () => structuredClone(state.shipments.all().map((s) => s.view)),
    returns: () => structuredClone(state.returns.all().map((r) => r.view)),
    warehouses: () => structuredClone([...state.warehouses]),
    requests,
  };
  const getters = Object.entries(lists).map(([key, get]) => [key, { get, enumerable: true }]);
  return Object.defineProperties({}, Object.fromEntries(getters)) as MockStateSnapshot;
}
