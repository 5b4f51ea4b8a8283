/**
 * Fixtures a mock starts from (`createMockApi({ seed })`, `merchant-fulfillment-mock --seed FILE`):
 * SKUs, restocking shipments and orders written as the bodies of the API's own create requests,
 * applied through the same rules (the same validation and messages as a `POST`). A fixture the
 * API would refuse is a {@link MockSeedError} naming it, e.g. `skus[2]: Merchant sku can't be blank`.
 */
import * as z from 'zod/mini';
import { checkInput } from '../engine/check.js';
import type { JsonObject } from '../engine/json.js';
import { Invalid } from '../engine/validation.js';
import { createOrder } from './orders.js';
import { advanceRestocking, createRestockingShipment } from './restocking.js';
import { RESTOCKING_STATUS_NAMES, toV1Status } from './restocking-status.js';
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

/** Throws the {@link MockSeedError} of the fixture at `path`. */
function fail(path: string, problem: string): never {
  throw new MockSeedError(path, problem);
}

const Bodies = z.optional(z.array(z.looseObject({})));
const SeedSchema = z.strictObject({
  skus: Bodies,
  restockingShipments: z.optional(
    z.array(z.looseObject({ status: z.optional(z.enum(RESTOCKING_STATUS_NAMES as [string])) })),
  ),
  orders: Bodies,
});

function check<T>(outcome: T | Invalid, path: string): T {
  return outcome instanceof Invalid ? fail(path, outcome.errors.join('; ')) : outcome;
}

/**
 * Checks the shape of a seed (an object with only the known lists, each of objects) without
 * applying it, and returns it. Throws a {@link MockSeedError}.
 */
export function checkSeed(seed: unknown): z.output<typeof SeedSchema> {
  return checkInput(SeedSchema, seed, fail);
}

/** Applies a seed to a fresh state, as the API would the same requests at `now`. */
export function applySeed(state: MockState, seed: MockSeed, settings: SeedSettings, now: Date): void {
  const { skus = [], restockingShipments = [], orders = [] } = checkSeed(seed);
  for (const [i, body] of skus.entries()) check(createSku(state, body as JsonObject, now), `skus[${i}]`);
  for (const [i, { status, ...body }] of restockingShipments.entries()) {
    const created = createRestockingShipment(state, body as JsonObject, 1, now, settings.merchantId);
    const record = check(created, `restockingShipments[${i}]`);
    if (status !== undefined) advanceRestocking(state, record, toV1Status(status), undefined, now);
  }
  for (const [i, body] of orders.entries()) {
    check(createOrder(state, body as JsonObject, now, settings.blockedCountries), `orders[${i}]`);
  }
}
