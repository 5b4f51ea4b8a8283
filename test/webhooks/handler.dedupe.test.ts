/**
 * createWebhookHandler and its deduplicator: the two-phase protocol over a store shared by several
 * processes (an event is never acknowledged while unhandled), the deduplicators it refuses, what
 * happens when the store fails, and a concurrent duplicate in one process.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createWebhookHandler,
  type RestockingShipmentStatusUpdatedEvent,
  type RestockingShipmentV1,
  type WebhookDeduplicator,
} from '../../src/index.js';
import { TOKEN } from './fixtures.js';
import { deferred, delivery, quiet, read, settle } from './helpers.js';

/** Lets callbacks run (one macrotask turn at a time) until `condition` holds; fails past `turns`. */
async function until(condition: () => boolean, turns = 5000) {
  for (let i = 0; i < turns && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

/**
 * A fake shared store (think Redis) reached asynchronously by several processes: a claim stores its
 * token (set if absent), complete sets done, release deletes only the claim under its token, with an
 * in-progress TTL on a clock the test moves.
 */
function sharedStore() {
  let now = 0;
  const keys = new Map<string, { value: 'in_progress' | 'done'; token?: string; expiresAt: number }>();
  const log: string[] = [];
  const get = (id: string) => {
    const entry = keys.get(id);
    if (entry && entry.expiresAt <= now) keys.delete(id);
    return keys.get(id);
  };
  /** The view of one process: every command is a network round trip. */
  const client = (): WebhookDeduplicator => ({
    async claim(id, token) {
      await settle(1);
      log.push(`claim ${id}`);
      const previous = get(id);
      if (previous) return previous.value;
      keys.set(id, { value: 'in_progress', token, expiresAt: now + 300_000 });
      return 'new';
    },
    async complete(id) {
      await settle(1);
      log.push(`complete ${id}`);
      keys.set(id, { value: 'done', expiresAt: now + 86_400_000 });
    },
    async release(id, token) {
      await settle(1);
      log.push(`release ${id}`);
      const entry = get(id);
      if (entry?.value === 'in_progress' && entry.token === token) keys.delete(id);
    },
  });
  const advance = (ms: number) => {
    now += ms;
  };
  return { client, log, advance };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('createWebhookHandler: two phases over a shared store', () => {
  it('a retry reaching process B while A is still handling is not acknowledged; after A fails, B handles it', async () => {
    const store = sharedStore();
    const gate = deferred();
    /** Whether the event was handled (successfully) by anyone, when each answer was given. */
    let handled = false;
    const aHandler = vi.fn(async () => {
      await gate.promise; // slow...
      throw new Error('A failed'); // ...then failing
    });
    const bHandler = vi.fn((_s: RestockingShipmentV1, _e: RestockingShipmentStatusUpdatedEvent) => {
      handled = true;
    });
    const a = createWebhookHandler({
      secret: TOKEN,
      deduplicator: store.client(),
      onEvent: aHandler,
      ...quiet,
    });
    const b = createWebhookHandler({
      secret: TOKEN,
      deduplicator: store.client(),
      onEvent: bHandler,
      ...quiet,
    });
    const answers: { process: string; status: number; json: Record<string, unknown>; handled: boolean }[] =
      [];
    const send = async (process: 'A' | 'B') => {
      const answer = await read(await (process === 'A' ? a : b).fetch(await delivery()));
      answers.push({ process, ...answer, handled });
      return answer;
    };

    const first = send('A'); // the provider's first delivery reaches A, which is slow
    await until(() => aHandler.mock.calls.length === 1);
    // The provider timed out and retries: the retry reaches B while A still holds the claim.
    expect(await send('B')).toEqual({
      status: 409,
      type: 'application/json',
      json: { error: 'in_progress' },
    });
    expect(bHandler).not.toHaveBeenCalled();
    gate.resolve(); // A's handler fails
    expect(await first).toEqual({ status: 500, type: 'application/json', json: { error: 'handler_failed' } });
    // The provider keeps retrying; the claim was released, so B handles the event.
    expect(await send('B')).toEqual({ status: 200, type: 'application/json', json: { received: true } });
    expect(await send('A')).toEqual({
      status: 200,
      type: 'application/json',
      json: { received: true, duplicate: true },
    });
    expect(bHandler).toHaveBeenCalledOnce();
    // Never acknowledged (2xx) while unhandled.
    expect(answers.map((a) => [a.process, a.status, a.handled])).toEqual([
      ['B', 409, false],
      ['A', 500, false],
      ['B', 200, true],
      ['A', 200, true],
    ]);
    expect(store.log).toEqual([
      'claim evt-1',
      'claim evt-1',
      'release evt-1',
      'claim evt-1',
      'complete evt-1',
      'claim evt-1',
    ]);
  });

  it('one fresh token per delivery attempt, passed to its claim and then its complete or release', async () => {
    const calls: [method: string, id: string, token: string][] = [];
    const states = new Map<string, 'in_progress' | 'done'>();
    const deduplicator: WebhookDeduplicator = {
      async claim(id, token) {
        calls.push(['claim', id, token]);
        const state = states.get(id);
        if (state) return state;
        states.set(id, 'in_progress');
        return 'new';
      },
      complete(id, token) {
        calls.push(['complete', id, token]);
        states.set(id, 'done');
      },
      release(id, token) {
        calls.push(['release', id, token]);
        states.delete(id);
      },
    };
    let fail = true;
    const onEvent = vi.fn(() => {
      if (fail) throw new Error('first attempt fails');
    });
    const handler = createWebhookHandler({ secret: TOKEN, deduplicator, onEvent, ...quiet });
    expect((await handler.fetch(await delivery())).status).toBe(500);
    fail = false;
    expect((await handler.fetch(await delivery())).status).toBe(200);
    expect((await handler.fetch(await delivery())).status).toBe(200);
    expect(calls.map(([method, id]) => `${method} ${id}`)).toEqual([
      'claim evt-1',
      'release evt-1',
      'claim evt-1',
      'complete evt-1',
      'claim evt-1',
    ]);
    const tokens = calls.map(([, , token]) => token);
    expect(tokens[1]).toBe(tokens[0]);
    expect(tokens[3]).toBe(tokens[2]);
    expect(new Set([tokens[0], tokens[2], tokens[4]]).size).toBe(3);
    for (const token of tokens) expect(typeof token === 'string' && token.length > 0).toBe(true);
  });

  it("a slow attempt whose claim expired cannot release the retry's claim (tokens over a shared store)", async () => {
    const store = sharedStore();
    const gate = deferred();
    const slow = vi.fn(async () => {
      await gate.promise;
      throw new Error('slow and failing');
    });
    const a = createWebhookHandler({ secret: TOKEN, deduplicator: store.client(), onEvent: slow, ...quiet });
    const retryGate = deferred();
    const retry = vi.fn(() => retryGate.promise);
    const b = createWebhookHandler({ secret: TOKEN, deduplicator: store.client(), onEvent: retry, ...quiet });
    const first = a.fetch(await delivery());
    await until(() => slow.mock.calls.length === 1);
    store.advance(300_000); // A's claim expires while its handler still runs
    const second = b.fetch(await delivery());
    await until(() => retry.mock.calls.length === 1);
    gate.resolve(); // A fails and releases under its own token: B's claim stays
    expect((await first).status).toBe(500);
    const c = createWebhookHandler({
      secret: TOKEN,
      deduplicator: store.client(),
      onEvent: vi.fn(),
      ...quiet,
    });
    expect(await read(await c.fetch(await delivery()))).toEqual({
      status: 409,
      type: 'application/json',
      json: { error: 'in_progress' },
    });
    retryGate.resolve();
    expect((await second).status).toBe(200);
  });

  it('a claim left by a crashed process expires: the retry is then handled', async () => {
    const store = sharedStore();
    const crashed = store.client();
    expect(await crashed.claim?.('evt-1', 'crashed-token')).toBe('new'); // claimed, then the process died
    const onEvent = vi.fn();
    const b = createWebhookHandler({ secret: TOKEN, deduplicator: store.client(), onEvent, ...quiet });
    expect((await b.fetch(await delivery())).status).toBe(409);
    store.advance(300_000);
    expect(await read(await b.fetch(await delivery()))).toEqual({
      status: 200,
      type: 'application/json',
      json: { received: true },
    });
    expect(onEvent).toHaveBeenCalledOnce();
  });

  it('claim that throws: 500 deduplicator_failed, the handler is not called, release is tried', async () => {
    const onError = vi.fn();
    const onEvent = vi.fn();
    const release = vi.fn((_id: string, _token: string) => Promise.reject(new Error('still down')));
    const claim = vi.fn((_id: string, _token: string) => Promise.reject<'new'>(new Error('redis down')));
    const handler = createWebhookHandler({
      secret: TOKEN,
      deduplicator: {
        claim,
        complete: () => {},
        release,
      },
      onEvent,
      onError,
    });
    expect(await read(await handler.fetch(await delivery()))).toEqual({
      status: 500,
      type: 'application/json',
      json: { error: 'deduplicator_failed' },
    });
    expect(onEvent).not.toHaveBeenCalled();
    expect(release).toHaveBeenCalledWith('evt-1', claim.mock.calls[0]![1]);
    expect(claim.mock.calls[0]![1]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(onError.mock.calls.map(([, c]) => c)).toEqual([
      { stage: 'deduplicator', responseStatus: 500, eventId: 'evt-1', shipmentStatus: 'arrived' },
    ]);
  });

  it('claim that returns something else than new, in_progress or done: 500 deduplicator_failed', async () => {
    const onError = vi.fn();
    const onEvent = vi.fn();
    const handler = createWebhookHandler({
      secret: TOKEN,
      deduplicator: {
        claim: async () => 'OK' as never,
        complete: () => {},
        release: () => {},
      },
      onEvent,
      onError,
    });
    expect((await handler.fetch(await delivery())).status).toBe(500);
    expect(onEvent).not.toHaveBeenCalled();
    expect(String(onError.mock.calls[0]![0].message)).toContain("not 'new', 'in_progress' or 'done'");
  });

  it('complete that throws: still 200 (the event was handled), reported by default on console.error', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onEvent = vi.fn();
    const handler = createWebhookHandler({
      secret: TOKEN,
      deduplicator: {
        claim: async () => 'new',
        complete: () => {
          throw new Error('redis down');
        },
        release: () => {},
      },
      onEvent,
    });
    expect(await read(await handler.fetch(await delivery()))).toEqual({
      status: 200,
      type: 'application/json',
      json: { received: true },
    });
    expect(onEvent).toHaveBeenCalledOnce();
    expect(error).toHaveBeenCalledOnce();
    expect(String(error.mock.calls[0]![0])).toContain('webhook call failed at deduplicator (event evt-1');
  });
});

describe('createWebhookHandler: deduplicators it refuses', () => {
  const fn = () => {};
  it.each([
    ['claim without complete and release', { claim: fn }, /without complete, release as functions/],
    ['complete and release without claim', { complete: fn, release: fn }, /without claim as functions/],
    ['a claim that is not a function', { claim: 1, complete: fn, release: fn }, /without claim as/],
    [
      'the one-phase seen and forget (no longer supported)',
      { seen: fn, forget: fn },
      /without claim, complete/,
    ],
    ['no method at all', {}, /without claim, complete, release as functions/],
    ['true', true, /got boolean/],
  ])('%s: invalid_options naming deduplicator', (_name, deduplicator, message) => {
    let thrown: unknown;
    try {
      createWebhookHandler({ secret: TOKEN, deduplicator: deduplicator as unknown as WebhookDeduplicator });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ name: 'WebhookVerificationError', reason: 'invalid_options' });
    expect((thrown as Error).message).toMatch(
      /^Webhook option 'deduplicator' must be a WebhookDeduplicator or false/,
    );
    expect((thrown as Error).message).toMatch(message);
  });

  it('accepts claim + complete + release, with other members too', () => {
    const store = { claim: async () => 'new' as const, complete: fn, release: fn };
    expect(() => createWebhookHandler({ secret: TOKEN, deduplicator: store })).not.toThrow();
    const withMore: WebhookDeduplicator = Object.assign({ size: 3 }, store);
    expect(() => createWebhookHandler({ secret: TOKEN, deduplicator: withMore })).not.toThrow();
  });
});

describe('createWebhookHandler: a concurrent duplicate in one process', () => {
  it('is answered 409 in_progress at once, never waiting; after the first fails, the retry is handled', async () => {
    const gate = deferred();
    let calls = 0;
    const onEvent = vi.fn(() => (++calls === 1 ? gate.promise : undefined));
    const handler = createWebhookHandler({ secret: TOKEN, onEvent, ...quiet });
    const first = handler.fetch(await delivery());
    await until(() => onEvent.mock.calls.length === 1);
    expect(await read(await handler.fetch(await delivery()))).toEqual({
      status: 409,
      type: 'application/json',
      json: { error: 'in_progress' },
    });
    gate.reject(new Error('failed'));
    expect((await first).status).toBe(500);
    expect(await read(await handler.fetch(await delivery()))).toEqual({
      status: 200,
      type: 'application/json',
      json: { received: true },
    });
    expect(onEvent).toHaveBeenCalledTimes(2);
  });

  it('after the first succeeds, the retry is acknowledged as a duplicate', async () => {
    const gate = deferred();
    const onEvent = vi.fn(() => gate.promise);
    const handler = createWebhookHandler({ secret: TOKEN, onEvent });
    const first = handler.fetch(await delivery());
    await until(() => onEvent.mock.calls.length === 1);
    expect((await handler.fetch(await delivery())).status).toBe(409);
    gate.resolve();
    expect((await first).status).toBe(200);
    expect(await read(await handler.fetch(await delivery()))).toMatchObject({
      status: 200,
      json: { received: true, duplicate: true },
    });
    expect(onEvent).toHaveBeenCalledOnce();
  });
});
