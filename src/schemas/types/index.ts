/** The response records of the API as named interfaces (one file per resource). */
export type * from './orders.js';
export type * from './restocking-shipments.js';
export type * from './returns.js';
export type * from './shipments.js';
export type * from './skus.js';
