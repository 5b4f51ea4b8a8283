/**
 * Fixtures a mock starts from (`createMockApi({ seed })`, `merchant-fulfillment-mock --seed FILE`):
 * SKUs, restocking shipments and orders written as the bodies of the API's own create requests,
 * applied through the same rules (the same validation and messages as a `POST`). A fixture the
 * API would refuse is a {@link MockSeedError} naming it, e.g. `skus[2]: Merchant sku can't be blank`.
 */
import type { JsonObject, JsonValue } from '../engine/json.js';
import { Invalid, isObject } from '../engine/validation.js';
import { createOrder } from './orders.js';
import { advanceRestocking, createRestockingShipment } from './restocking.js';
import { toV1Status } from './restocking-status.js';
import { createSku } from './skus.js';
import type { MockState } from './state.js';

/**
 * Fixtures of a mock, each list applied in order: `skus` first, then `restockingShipments` (so
 * that a shipment moved to `restocked` puts its units in stock), then `orders` (which reserve that
 * stock). Every element is the JSON body of the matching create request.
 */
export interface MockSeed {
  /** Bodies of `POST /merchant_api/v1/skus`. */
  skus?: readonly JsonObject[];
  /**
   * Bodies of `POST /merchant_api/v1/restocking_shipments` (items may name their SKU by `sku_id`
   * or `sku_code`), each with an optional `status` (a version 1 or version 2 name) the shipment is
   * then moved to, as `api.advanceRestockingShipment` does (`restocked`: everything announced
   * arrives). No webhook is sent for a seed.
   */
  restockingShipments?: readonly JsonObject[];
  /** Bodies of `POST /merchant_api/v1/orders` (items may name their SKU by `merchant_sku_id`). */
  orders?: readonly JsonObject[];
}

/** A seed the mock cannot apply: the message starts with the fixture at fault (`orders[1]`). */
export class MockSeedError extends Error {
  override readonly name = 'MockSeedError';
  /** The fixture at fault, e.g. `skus[2]` (empty for the seed as a whole). */
  readonly path: string;

  constructor(path: string, problem: string) {
    super(path ? `${path}: ${problem}` : problem);
    this.path = path;
  }
}

/** What applying a seed needs of the mock's settings. */
export interface SeedSettings {
  /** The countries an order cannot be shipped to (upper-case codes). */
  readonly blockedCountries: ReadonlySet<string>;
  /** `merchant_id` of restocking shipments. */
  readonly merchantId: number;
}

const LISTS = ['skus', 'restockingShipments', 'orders'] as const;

function list(seed: Record<string, unknown>, key: (typeof LISTS)[number]): JsonValue[] {
  const value = seed[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new MockSeedError(key, 'must be an array');
  return value as JsonValue[];
}

function check<T>(outcome: T | Invalid, path: string): T {
  if (outcome instanceof Invalid) throw new MockSeedError(path, outcome.errors.join('; '));
  return outcome;
}

/**
 * Checks the shape of a seed (an object with only the known lists) without applying it. Throws a
 * {@link MockSeedError}.
 */
export function checkSeed(seed: unknown): void {
  if (!isObject(seed)) throw new MockSeedError('', 'a seed must be a JSON object');
  for (const key of Object.keys(seed)) {
    if (!(LISTS as readonly string[]).includes(key)) {
      throw new MockSeedError(key, `unknown list (expected ${LISTS.join(', ')})`);
    }
  }
  for (const key of LISTS) {
    list(seed, key).forEach((element, index) => {
      if (!isObject(element)) throw new MockSeedError(`${key}[${index}]`, 'must be a JSON object');
    });
  }
}

/** Applies a seed to a fresh state, as the API would the same requests at `now`. */
export function applySeed(state: MockState, seed: MockSeed, settings: SeedSettings, now: Date): void {
  checkSeed(seed);
  const source = seed as Record<string, unknown>;
  list(source, 'skus').forEach((body, index) => {
    check(createSku(state, body, now), `skus[${index}]`);
  });
  list(source, 'restockingShipments').forEach((element, index) => {
    const path = `restockingShipments[${index}]`;
    const { status, ...body } = element as JsonObject;
    let target: string | undefined;
    if (status !== undefined) {
      if (typeof status !== 'string') throw new MockSeedError(`${path}.status`, 'must be a string');
      try {
        target = toV1Status(status);
      } catch (error) {
        throw new MockSeedError(`${path}.status`, (error as Error).message);
      }
    }
    const record = check(createRestockingShipment(state, body, 1, now, settings.merchantId), path);
    if (target !== undefined) advanceRestocking(state, record, target, undefined, now);
  });
  list(source, 'orders').forEach((body, index) => {
    check(createOrder(state, body, now, settings.blockedCountries), `orders[${index}]`);
  });
}
