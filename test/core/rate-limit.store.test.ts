/** `rateLimit.store`: the limiter takes its slots from a store shared by several processes. */
import { describe, expect, it } from 'vitest';
import {
  FulfillmentClient,
  FulfillmentError,
  type RateLimitStore,
  RateLimitStoreError,
} from '../../src/index.js';

const TOKEN = 'tok_store_secret';

/** A store in memory that records every call; `waits` are answered to the first acquires. */
function recordingStore(waits: number[] = []) {
  const calls: string[] = [];
  const slots: string[] = [];
  const store: RateLimitStore = {
    async acquire(slot, requests, perMs) {
      calls.push(`acquire ${requests}/${perMs}`);
      slots.push(slot);
      return waits.shift() ?? 0;
    },
    async release(slot, perMs) {
      calls.push(`release ${perMs}`);
      slots.push(slot);
    },
    async pause(perMs) {
      calls.push(`pause ${perMs}`);
    },
  };
  return { store, calls, slots };
}

function client(store: RateLimitStore, fetch: typeof globalThis.fetch = async () => Response.json([])) {
  return new FulfillmentClient({
    apiToken: TOKEN,
    baseUrl: 'http://127.0.0.1:9',
    logLevel: 'off',
    maxRetries: 0,
    rateLimit: { requests: 5, perMs: 1000, store },
    fetch,
  });
}

describe('rateLimit.store', () => {
  it('takes a slot before the request and releases that same slot once the answer is in', async () => {
    const { store, calls, slots } = recordingStore();
    const c = client(store);
    await c.warehouses.list();
    await c.warehouses.list();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual(['acquire 5/1000', 'release 1000', 'acquire 5/1000', 'release 1000']);
    // One slot per request, named by a fresh random id and released under that name.
    expect(slots[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(slots).toEqual([slots[0], slots[0], slots[2], slots[2]]);
    expect(slots[2]).not.toBe(slots[0]);
  });

  it('waits as long as the store says, then asks again', async () => {
    const { store, calls } = recordingStore([60, 30]);
    const started = performance.now();
    await client(store).warehouses.list();
    expect(performance.now() - started).toBeGreaterThanOrEqual(80);
    expect(calls.filter((c) => c.startsWith('acquire'))).toHaveLength(3);
  });

  it("records the server's spent budget in the store (every process pauses)", async () => {
    const { store, calls } = recordingStore();
    const spent = async () =>
      Response.json([], { headers: { 'x-rate-limit-used': '5', 'x-rate-limit-max': '5' } });
    await client(store, spent).warehouses.list();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toContain('pause 1000');
  });

  it('a store that rejects fails the request with RateLimitStoreError, the token out of its cause, nothing sent', async () => {
    let sent = 0;
    const failing: RateLimitStore = {
      acquire: async () => {
        throw new Error(`connection to redis lost (auth ${TOKEN})`);
      },
      release: async () => {},
      pause: async () => {},
    };
    const error = await client(failing, async () => {
      sent++;
      return Response.json([]);
    })
      .warehouses.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitStoreError);
    expect(error).toBeInstanceOf(FulfillmentError);
    expect((error as Error).message).toMatch(/rate-limit store \(rateLimit\.store\) failed/);
    expect(String((error as Error).cause)).toMatch(/connection to redis lost/);
    expect(JSON.stringify((error as Error).cause) + String((error as Error).cause)).not.toContain(TOKEN);
    expect(sent).toBe(0);
  });

  it('a store that never answers is bounded by the timeout; the signal aborts the wait', async () => {
    const hanging: RateLimitStore = {
      acquire: () => new Promise(() => {}),
      release: async () => {},
      pause: async () => {},
    };
    const error = await client(hanging)
      .warehouses.list({}, { timeout: 50 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitStoreError);
    expect((error as Error).message).toMatch(/did not answer within 50 ms/);
    const aborted = await client(hanging)
      .warehouses.list({}, { signal: AbortSignal.timeout(30) })
      .catch((e: unknown) => e);
    expect((aborted as Error).name).toBe('APIUserAbortError');
  });

  it('each of several waiting requests is bounded by its own timeout (not one after the other)', async () => {
    const hanging: RateLimitStore = {
      acquire: () => new Promise(() => {}),
      release: async () => {},
      pause: async () => {},
    };
    const c = client(hanging);
    const started = performance.now();
    const errors = await Promise.all(
      [1, 2, 3, 4].map(() => c.warehouses.list({}, { timeout: 200 }).catch((e: unknown) => e)),
    );
    for (const error of errors) expect(error).toBeInstanceOf(RateLimitStoreError);
    expect(performance.now() - started).toBeLessThan(700); // one after the other: 800 ms or more
  });

  it('waits for a full window longer than the timeout, as the in-memory limiter does', async () => {
    const { store, calls } = recordingStore([150]);
    await client(store).warehouses.list({}, { timeout: 50 });
    expect(calls.filter((c) => c.startsWith('acquire'))).toHaveLength(2);
  });

  it('refuses a store without acquire, release and pause, naming rateLimit.store', () => {
    expect(
      () =>
        new FulfillmentClient({
          apiToken: TOKEN,
          baseUrl: 'http://127.0.0.1:9',
          rateLimit: { requests: 5, perMs: 1000, store: { acquire: async () => 0 } as never },
        }),
    ).toThrow(/rateLimit\.store: expected an object with acquire, release and pause methods/);
  });
});
