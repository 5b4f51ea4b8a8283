/**
 * The base of every resource namespace: it holds the request surface its methods call. Also the
 * ids the resource helpers show in labels. (Options that are not an object are refused by
 * `checkOptionsObject` in `core/options.ts`.)
 */
import type { RequestSurface } from '../core/surface.js';

/** Base of every resource namespace. */
export abstract class APIResource {
  /** @internal */
  protected readonly _client: RequestSurface;

  constructor(client: RequestSurface) {
    this._client = client;
  }
}

/**
 * An id as a message label shows it, without converting what is not a string or a number (a
 * `Symbol`, or an object without a primitive value, would throw). Labels are built before the
 * request checks the id; they are only shown once it has been accepted.
 */
export function idLabel(id: unknown): string {
  return typeof id === 'number' || typeof id === 'string' ? String(id) : '{id}';
}
