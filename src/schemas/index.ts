/**
 * Every schema and type of the API, re-exported from one place. The schemas are the single source
 * of the types: each `XSchema` has a `type X = z.infer<typeof XSchema>` (responses) or
 * `type XParams = z.input<typeof XParamsSchema>` (requests: the schema's input without the
 * index signature of loose objects, so typos are type errors while unknown keys still pass at
 * runtime) of the same name.
 */
export * from './envelope.js';
export * from './orders.js';
export * from './restocking-shipments.js';
export * from './returns.js';
export * from './shipments.js';
export * from './skus.js';
export type * from './types/index.js';
export * from './warehouses.js';
