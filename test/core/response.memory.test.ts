/**
 * The client's response parsers are held per schema, weakly: an app that builds its schema per
 * call (`client.get(path, { response: z.object(…) })`) does not grow the client's memory.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { FulfillmentClient } from '../../src/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** WeakRef targets stay alive until the current job ends: let the event loop turn before collecting. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const CALLS = 2000;

describe('response parser memory', () => {
  it('keeps no schema given per call once the call is done', async () => {
    const client = new FulfillmentClient({
      apiToken: 't',
      baseUrl: 'https://fulfillment.test',
      fetch: async (input, init) =>
        new Request(input, init).url.endsWith('/skus')
          ? Response.json({ data: [{ id: 1 }], pagination: { current_page: 1, page_count: 1 } })
          : Response.json({ id: 1, name: 'x' }),
      logLevel: 'off',
    });
    const refs: WeakRef<object>[] = [];
    for (let i = 0; i < CALLS; i++) {
      const response = z.looseObject({ id: z.number(), name: z.string() });
      refs.push(new WeakRef(response));
      const result = await client.get('/merchant_api/v1/skus/1', { response });
      expect(result.id).toBe(1);
      // A list takes the same path for its items.
      if (i % 10 === 0) {
        const item = z.looseObject({ id: z.number() });
        refs.push(new WeakRef(item));
        await client.getAPIList('/merchant_api/v1/skus', item);
      }
    }
    await settle();
    gc();
    await settle();
    gc();
    const alive = refs.filter((ref) => ref.deref() !== undefined).length;
    // The last few may still be referenced by the event loop's bookkeeping; not thousands.
    expect(alive).toBeLessThan(10);
    // The client itself is still in use (were it collected, so would be whatever it held).
    await expect(client.get('/merchant_api/v1/skus/1', { response: () => 'still here' })).resolves.toBe(
      'still here',
    );
  });
});
