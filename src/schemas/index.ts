/**
 * Every schema and type of the API, re-exported from one place (`merchant-fulfillment/schemas`).
 * Responses: each `XSchema` parses what the interface `X` (in `types/`) describes, proven equal by
 * `test/schemas/interfaces.test-d.ts`. Requests: `XParams` is the input of `XParamsSchema` (strict
 * objects, so a typo is a type error), with the either-or rules written as types.
 *
 * @packageDocumentation
 * @module merchant-fulfillment/schemas
 */
export * from './envelope.js';
export * from './orders.js';
export * from './restocking-shipments.js';
export * from './returns.js';
export * from './shipments.js';
export * from './skus.js';
export type * from './types/index.js';
export * from './warehouses.js';
