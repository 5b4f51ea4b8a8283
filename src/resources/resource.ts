/**
 * The base of every resource namespace: it holds the request surface its methods call.
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
