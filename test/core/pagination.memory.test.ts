import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { FulfillmentClient } from '../../src/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** WeakRef targets stay alive until the current job ends: let the event loop turn before collecting. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const PAGES = 1000;
const PER_PAGE = 100;

/** A fetch that serves PAGES pages of PER_PAGE warehouses, built on demand (no server state). */
function collectionFetch(): typeof fetch {
  return async (input, init) => {
    const url = new URL(new Request(input, init).url);
    const page = Number(url.searchParams.get('page') ?? '1');
    const data = Array.from({ length: PER_PAGE }, (_, i) => ({
      id: (page - 1) * PER_PAGE + i + 1,
      name: `Warehouse ${i}`,
      address: { city: 'Berlin', line1: 'Street 1', country_code: 'DE' },
    }));
    return Response.json({
      data,
      pagination: {
        current_page: page,
        page_count: PAGES,
        item_count: PAGES * PER_PAGE,
        items_per_page: PER_PAGE,
      },
    });
  };
}

describe('pagination memory', () => {
  it('iterating 100 000 items over 1 000 pages keeps no reference to earlier pages', async () => {
    const client = new FulfillmentClient({
      apiToken: 't',
      baseUrl: 'https://fulfillment.test',
      fetch: collectionFetch(),
      logLevel: 'off',
    });
    const refs: WeakRef<object>[] = [];
    let count = 0;
    let aliveAtCheck = -1;
    let heapAtPage100 = 0;
    let heapGrowth = 0;
    for await (const page of client.warehouses.list({ limit: PER_PAGE }).pages()) {
      refs.push(new WeakRef(page.data));
      count += page.data.length;
      if (refs.length === 100) {
        await settle();
        gc();
        heapAtPage100 = process.memoryUsage().heapUsed;
      }
      if (refs.length === 900) {
        await settle();
        gc();
        heapGrowth = process.memoryUsage().heapUsed - heapAtPage100;
        // Pages 2..898 must be collectable: only the first page (cached by the PagePromise, which
        // answers `await` with it) and the current one may still be alive.
        aliveAtCheck = refs.slice(1, 898).filter((r) => r.deref() !== undefined).length;
      }
    }
    expect(count).toBe(PAGES * PER_PAGE);
    expect(aliveAtCheck).toBe(0);
    // 800 pages of ~100 objects each would be tens of MB if they were kept.
    expect(heapGrowth).toBeLessThan(8 * 1024 * 1024);
  });
});
