/**
 * `merchant-fulfillment/testing`: a stateful in-memory mock of the whole Merchant API, to test an
 * integration offline — as msw handlers (`api.handlers`, needs the optional peer `msw`), as a real
 * HTTP server (`api.listen()`, or the `merchant-fulfillment-mock` command), or as an in-process
 * `fetch` (`api.fetch`). Tests drive it with control methods (`api.advanceRestockingShipment`,
 * `api.fulfillOrder`, `api.injectFault`, `api.reset`, ...) or, from any language, with the same
 * actions as HTTP control routes under `/__mock/` (see `control.ts`).
 *
 * @packageDocumentation
 */
export { CLI_USAGE, type CliIo, CliUsageError, type RunningCli, runCli } from './cli.js';
export { createMockApi, type MockApi } from './mock-api.js';
export { DEFAULT_BASE_URL, DEFAULT_WAREHOUSES } from './options.js';
export type {
  JsonObject,
  JsonValue,
  MockAddress,
  MockApiOptions,
  MockFault,
  MockFaultHandle,
  MockInventory,
  MockItemBatch,
  MockListenOptions,
  MockOrder,
  MockOrderItem,
  MockQuantities,
  MockRateLimit,
  MockRequestLogEntry,
  MockRestockingItemBatch,
  MockRestockingItemV1,
  MockRestockingItemV2,
  MockRestockingShipmentV1,
  MockRestockingShipmentV2,
  MockRestockQuantities,
  MockReturn,
  MockReturnItem,
  MockReturnOptions,
  MockReturnReason,
  MockServer,
  MockShipment,
  MockShipmentItem,
  MockSku,
  MockSkuBatch,
  MockStateSnapshot,
  MockWarehouse,
  MockWebhookDelivery,
  MockWebhookRetry,
  RestockingStatusV1,
  RestockingStatusV2,
} from './types.js';
