/**
 * `merchant-fulfillment/testing`: a stateful in-memory mock of the whole Merchant API, to test an
 * integration offline — as msw handlers (`api.handlers`, needs the optional peer `msw`), as a real
 * HTTP server (`api.listen()`, or the `merchant-fulfillment-mock` command), or as an in-process
 * `fetch` (`api.fetch`). Tests drive it with control methods (`api.advanceRestockingShipment`,
 * `api.fulfillOrder`, `api.injectFault`, `api.reset`, ...) or, from any language, with the same
 * actions as HTTP control routes under `/__mock/` (see `faces/control.ts`).
 *
 * Layout: `mock-api.ts` composes the kit; `faces/` are the ways in, `engine/` the generic
 * machinery (pipeline, router, faults, timers, rate limit, webhook delivery), `domain/` the API's
 * rules (SKUs, orders, restocking, inventory). This module only re-exports the public names.
 *
 * @packageDocumentation
 * @module merchant-fulfillment/testing
 */

export * from './connect.js';
export type { MockReturnOptions } from './domain/outbound.js';
export { MockStateError } from './domain/persist.js';
export type * from './domain/resources.js';
export type { MockQuantities, MockRestockQuantities } from './domain/restocking.js';
export type { RestockingStatusV1, RestockingStatusV2 } from './domain/restocking-status.js';
export { type MockSeed, MockSeedError } from './domain/seed.js';
export type { MockStateSnapshot } from './domain/snapshot.js';
export {
  MOCK_STATE_FORMAT,
  type MockStateBatch,
  type MockStateBatchTake,
  type MockStateFile,
  type MockStateLastIds,
  type MockStateOrder,
  type MockStateOrderItem,
  type MockStateRestockingItem,
  type MockStateRestockingShipment,
  type MockStateReturn,
  type MockStateShipment,
  type MockStateSku,
  type MockStateStock,
} from './domain/state-format.js';
export type { MockWebhookDelivery } from './domain/webhook-event.js';
export type { FaultSummary as MockFaultSummary, MockFault, MockFaultHandle } from './engine/faults.js';
export type { JsonObject, JsonValue } from './engine/json.js';
export type { MockRateLimit } from './engine/rate-limit.js';
export type { MockRequestEvent, MockRequestLogEntry } from './engine/request-log.js';
export {
  MOCK_DELIVERY_STATUSES,
  type MockDeliveryStatus,
  type MockRedeliverFilter,
  type MockWebhookRetry,
} from './engine/webhook-delivery.js';
export { CLI_USAGE, type CliIo, CliUsageError, type RunningCli, runCli } from './faces/cli.js';
export { COMMANDS, COMMANDS_USAGE, type CommandIo, runCommand } from './faces/commands.js';
export type { MockControlRouteInfo } from './faces/control.js';
export {
  MOCK_COLLECTIONS,
  type MockCollectionName,
  type MockControlAnswer,
  type MockControlMethods,
  type MockDeliveriesPage,
  type MockDeliveriesQuery,
  type MockInjectedFault,
  type MockRemoteFaultHandle,
  type MockStateCollectionsQuery,
  type MockStatePage,
  type MockStatePagination,
  type MockStateQuery,
} from './faces/control-methods.js';
export type { MockListenOptions, MockServer } from './faces/listen.js';
export { createMockApi, type MockApi } from './mock-api.js';
export { DEFAULT_BASE_URL, DEFAULT_WAREHOUSES, type MockApiOptions } from './options.js';
