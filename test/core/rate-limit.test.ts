import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLimiter } from '../../src/core/rate-limit.js';
import { APIUserAbortError } from '../../src/index.js';
import { BASE, testClient, useMsw } from '../helpers/msw.js';

const server = useMsw();

describe('RateLimiter (fake timers)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets `requests` start at once, then one more each time the oldest leaves the window', async () => {
    vi.useFakeTimers({ now: 0 });
    const limiter = new RateLimiter({ requests: 3, perMs: 1000 });
    const started: number[] = [];
    const all = Array.from({ length: 7 }, () => limiter.acquire().then(() => started.push(Date.now())));
    await vi.advanceTimersByTimeAsync(5000);
    await Promise.all(all);
    expect(started).toEqual([0, 0, 0, 1000, 1000, 1000, 2000]);
  });

  it('never allows more than `requests` in any window, with requests spread out', async () => {
    vi.useFakeTimers({ now: 0 });
    const limiter = new RateLimiter({ requests: 4, perMs: 1000 });
    const started: number[] = [];
    for (let i = 0; i < 20; i++) {
      setTimeout(() => limiter.acquire().then(() => started.push(Date.now())), i * 150);
    }
    await vi.advanceTimersByTimeAsync(10_000);
    expect(started).toHaveLength(20);
    expect(started.slice(0, 6)).toEqual([0, 150, 300, 450, 1000, 1150]);
    for (const t of started) {
      expect(started.filter((s) => s >= t && s < t + 1000).length).toBeLessThanOrEqual(4);
    }
  });

  it('after the server says the budget is spent, the next request waits a full window', async () => {
    vi.useFakeTimers({ now: 10_000 });
    const limiter = new RateLimiter({ requests: 100, perMs: 60_000 });
    await limiter.acquire();
    limiter.exhausted();
    let granted = false;
    const next = limiter.acquire().then(() => {
      granted = true;
    });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(granted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await next;
    expect(Date.now()).toBe(70_000);
  });

  it('an abort while waiting rejects and frees the queue for the next caller', async () => {
    vi.useFakeTimers({ now: 0 });
    const limiter = new RateLimiter({ requests: 1, perMs: 1000 });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    const after = limiter.acquire();
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(APIUserAbortError);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(after).resolves.toBeTypeOf('function');
  });
});

describe('rateLimit client option', () => {
  it('is validated', () => {
    expect(() => testClient({ rateLimit: { requests: 0, perMs: 1000 } })).toThrow(/rateLimit.requests/);
    expect(() => testClient({ rateLimit: { requests: 1, perMs: -1 } })).toThrow(/rateLimit.perMs/);
  });

  it('spaces the requests of a whole pagination run', async () => {
    const starts: number[] = [];
    server.use(
      http.get(`${BASE}/merchant_api/v1/warehouses`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
        return HttpResponse.json({ data: [{ id: page }], pagination: { current_page: page, page_count: 5 } });
      }),
    );
    const client = testClient({
      rateLimit: { requests: 2, perMs: 120 },
      fetch: (input, init) => {
        starts.push(performance.now()); // when the request leaves the client
        return fetch(input, init);
      },
    });
    const all = await client.warehouses.list().toArray({ max: 10 });
    expect(all).toHaveLength(5);
    // 5 requests at 2 per 120 ms: the 3rd waits for the 1st to leave the window, the 5th for the 3rd.
    expect(starts[2]! - starts[0]!).toBeGreaterThanOrEqual(110);
    expect(starts[4]! - starts[0]!).toBeGreaterThanOrEqual(230);
  });

  it('pauses when X-Rate-Limit-Used reaches X-Rate-Limit-Max', async () => {
    const starts: number[] = [];
    server.use(
      http.get(`${BASE}/merchant_api/v1/warehouses`, () => {
        starts.push(performance.now());
        return HttpResponse.json([], { headers: { 'x-rate-limit-used': '100', 'x-rate-limit-max': '100' } });
      }),
    );
    const client = testClient({ rateLimit: { requests: 100, perMs: 150 } });
    await client.warehouses.list();
    await client.warehouses.list();
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(140);
  });

  it('is off by default', async () => {
    const starts: number[] = [];
    server.use(
      http.get(`${BASE}/merchant_api/v1/warehouses`, () => {
        starts.push(performance.now());
        return HttpResponse.json([], { headers: { 'x-rate-limit-used': '100', 'x-rate-limit-max': '100' } });
      }),
    );
    const client = testClient();
    expect(client.toJSON().rateLimit).toBe(false);
    await client.warehouses.list();
    await client.warehouses.list();
    // The server says its budget is spent: a limiter would pause here; none does, so no second passes.
    expect(starts[1]! - starts[0]!).toBeLessThan(1000);
  });
});

describe('RateLimiter slot timing', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts a slot from when its answer came in, so a slow request pushes the next window back', async () => {
    vi.useFakeTimers({ now: 0 });
    const limiter = new RateLimiter({ requests: 2, perMs: 1000 });
    const done1 = await limiter.acquire(); // sent at 0
    await limiter.acquire(); // sent at 0, answered at once
    await vi.advanceTimersByTimeAsync(300);
    done1(); // the first answer arrives at 300: the server may have counted it as late as that
    let granted = -1;
    const third = limiter.acquire().then(() => {
      granted = Date.now();
    });
    await vi.advanceTimersByTimeAsync(2000);
    await third;
    expect(granted).toBe(1300);
  });
});
