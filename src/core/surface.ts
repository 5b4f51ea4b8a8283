/** The request surface resources depend on (types): defined with pagination, which fetches every next page through it. */
export type { ClientListInit, ClientRequestInit, RequestSurface } from './pagination.js';
