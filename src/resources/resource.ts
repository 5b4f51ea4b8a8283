import type { FulfillmentClient } from '../client.js';

/** Base of every resource namespace: holds the client it sends through. */
export abstract class APIResource {
  /** @internal */
  protected readonly _client: FulfillmentClient;

  constructor(client: FulfillmentClient) {
    this._client = client;
  }
}
