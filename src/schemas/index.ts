/**
 * Every schema and type of the API, re-exported from one place (`merchant-fulfillment/schemas`).
 * Responses: each `XSchema` parses what the interface `X` beside it describes (`X` is derived from
 * it: `Fields<typeof XSchema>`). Requests: `XParams` is the input of `XParamsSchema` (strict
 * objects, so a typo is a type error); the either-or rules are checked before sending.
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
export * from './warehouses.js';
