/**
 * The restocking shipment status vocabulary, in one table: every version 1 status, its version 2
 * name, whether a PUT may still update the shipment, whether the goods are at the warehouse, and
 * what the status means for inventory. Every other module reads it from here.
 *
 * Spec references: section 2.5 (the status values of both versions and their meanings), 3.3 (the
 * transitions: created through the API as `shipped`; PUT only while `created` or `shipped`), 7.1
 * (a PUT outside that window is 422) and 9.2 (version 2: `received` instead of `delivered`, no
 * `on_hold`). Transitions after creation are "not shown": the mock allows any move.
 */
import type {
  RESTOCKING_SHIPMENT_V1_STATUSES,
  RESTOCKING_SHIPMENT_V2_STATUSES,
} from '../../schemas/restocking-shipments.js';
import { describeValue } from '../engine/validation.js';

/** Version 1 status of a restocking shipment. */
export type RestockingStatusV1 = (typeof RESTOCKING_SHIPMENT_V1_STATUSES)[number];

/** Version 2 status of a restocking shipment (`received` for v1 `delivered`; v1 `on_hold` shows as `processing`). */
export type RestockingStatusV2 = (typeof RESTOCKING_SHIPMENT_V2_STATUSES)[number];

/** What one status means to the mock. */
export interface RestockingStatusRow {
  /** The name version 2 shows for it. */
  readonly v2: RestockingStatusV2;
  /** A PUT (either version) may update the shipment; otherwise the PUT is answered 422. */
  readonly editable: boolean;
  /** The goods are at the warehouse: the first such status reached sets `arrived_at`. */
  readonly atWarehouse: boolean;
  /**
   * Inventory: reaching this status adds what arrived to the stock (`stocked`) of the shipment's
   * warehouse — only the difference with what an earlier restock added. Leaving it reopens the
   * shipment (`reopened_at`); the units stay in stock until it is restocked again. Every other
   * status leaves the stock alone.
   */
  readonly restocks: boolean;
}

/** The statuses, keyed by their version 1 name, in the SDK's order. */
export const RESTOCKING_STATUSES = {
  /** §2.5 "not yet shipped"; §3.3: a PUT may update it. */
  created: { v2: 'created', editable: true, atWarehouse: false, restocks: false },
  /** §2.5 "on the way (initial status of shipments created through the API)"; §3.3: a PUT may update it. */
  shipped: { v2: 'shipped', editable: true, atWarehouse: false, restocks: false },
  /** §2.5 "delivered/received = at the warehouse, content not yet verified"; §9.2: v2 calls it `received`. */
  delivered: { v2: 'received', editable: false, atWarehouse: true, restocks: false },
  /** §2.5 "arrival documentation complete, packing slip checked, pictures uploaded". */
  arrived: { v2: 'arrived', editable: false, atWarehouse: true, restocks: false },
  /** §2.5 "being unpacked and put into storage". */
  processing: { v2: 'processing', editable: false, atWarehouse: true, restocks: false },
  /** §2.5 "fully processed, all items in storage": what arrived is in stock. */
  restocked: { v2: 'restocked', editable: false, atWarehouse: true, restocks: true },
  /** §2.5 "processing on hold (version 1 only)"; §9.2: v2 has no `on_hold`, so it shows `processing`. */
  on_hold: { v2: 'processing', editable: false, atWarehouse: true, restocks: false },
  /** §2.5 "cancelled by the merchant". */
  cancelled: { v2: 'cancelled', editable: false, atWarehouse: false, restocks: false },
} as const satisfies Record<RestockingStatusV1, RestockingStatusRow>;

/** §3.3: a shipment created through the API starts `shipped`. */
export const INITIAL_RESTOCKING_STATUS: RestockingStatusV1 = 'shipped';

const V1_NAMES = Object.keys(RESTOCKING_STATUSES) as RestockingStatusV1[];

/** Every accepted name: the version 1 names, then the version 2 names that are not also version 1 names. */
const BY_NAME = new Map<string, RestockingStatusV1>(V1_NAMES.map((name) => [name, name]));
for (const name of V1_NAMES) {
  const { v2 } = RESTOCKING_STATUSES[name];
  if (!BY_NAME.has(v2)) BY_NAME.set(v2, name);
}

/**
 * Every name a status may be given by, as messages list them: each version 1 name in the table's
 * order, a version 2 name that differs right after its version 1 name (`delivered`, `received`).
 */
export const RESTOCKING_STATUS_NAMES: readonly (RestockingStatusV1 | RestockingStatusV2)[] = [
  ...new Set(V1_NAMES.flatMap((name) => [name, RESTOCKING_STATUSES[name].v2])),
];

/** Whether `value` is a status name of either version (`received` as well as `delivered`). */
export function isRestockingStatusName(value: unknown): value is RestockingStatusV1 | RestockingStatusV2 {
  return typeof value === 'string' && BY_NAME.has(value);
}

/** The message of a PUT outside the edit window (spec section 7.1). */
export const NOT_EDITABLE = `Restocking shipment can only be updated while ${V1_NAMES.filter(
  (name) => RESTOCKING_STATUSES[name].editable,
).join(' or ')}`;

/** The row of a status. */
export function restockingStatus(status: RestockingStatusV1): RestockingStatusRow {
  return RESTOCKING_STATUSES[status];
}

/**
 * The version 1 status for a status of either version (`received` → `delivered`). Throws a
 * TypeError for an unknown name, which it describes by its length, never shows (the ways in check
 * the name first: this is the second line of defence).
 */
export function toV1Status(status: string): RestockingStatusV1 {
  const v1 = BY_NAME.get(status);
  if (v1 !== undefined) return v1;
  throw new TypeError(
    `Unknown restocking shipment status, got ${describeValue(status)} (expected one of ${RESTOCKING_STATUS_NAMES.join(', ')})`,
  );
}

/** The version 2 name of a version 1 status: `delivered` → `received`, `on_hold` → `processing`. */
export function toV2Status(status: RestockingStatusV1): RestockingStatusV2 {
  return RESTOCKING_STATUSES[status].v2;
}
