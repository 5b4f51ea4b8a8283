/**
 * `connectMock` when the other side misbehaves or the arguments cannot be sent: a 2xx answer that
 * is not a JSON object, or lacks the key the call reads (`invalid_response`), time-outs a timer cannot hold, a token that is not a valid
 * header value (refused up front, never quoted), arguments JSON cannot serialize
 * (`invalid_argument` before anything is sent), and a custom `fetch` rejecting with its own
 * `TimeoutError` (its failure, `unreachable`, not the connection's time-out). No network: a stub
 * `fetch`.
 */
import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import { connectMock, type MockConnection, MockControlError } from '../../src/testing/index.js';

const URL_ = 'http://127.0.0.1:9';
const TOKEN = 'tok_hardening_secret';

/** What `promise` rejects with (a MockControlError), or a failure when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<MockControlError> {
  const error = await promise.then(
    (value) => {
      throw new Error(`resolved with ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MockControlError);
  return error as MockControlError;
}

/** A connection whose every call gets `body` with `status`. */
function answering(body: string, status = 200): MockConnection {
  // A 204 cannot carry a body, not even an empty one.
  return connectMock(URL_, {
    token: TOKEN,
    fetch: async () => new Response(status === 204 ? null : body, { status }),
  });
}

describe('time-outs a timer cannot hold are refused', () => {
  test.each([2 ** 31, 1e20, Number.MAX_SAFE_INTEGER])('timeoutMs %d', async (timeoutMs) => {
    expect(() => connectMock(URL_, { token: TOKEN, timeoutMs })).toThrow(
      expect.objectContaining({ code: 'invalid_argument', argument: 'timeoutMs' }),
    );
    const error = await rejection(
      connectMock(URL_, { token: TOKEN }).flushWebhooks(undefined, { timeoutMs }),
    );
    expect(error).toMatchObject({ code: 'invalid_argument', argument: 'options.timeoutMs' });
    expect(error.message).toMatch(
      /^flushWebhooks: options\.timeoutMs: Too big: expected (number to be <=2147483647|int to be <=9007199254740991)$/,
    );
  });

  test('the largest one is accepted', () => {
    expect(connectMock(URL_, { token: TOKEN, timeoutMs: 2 ** 31 - 1 }).toJSON().timeoutMs).toBe(2 ** 31 - 1);
  });
});

describe('the token', () => {
  test.each([
    ['a NUL', 'SECRETTOKEN\0x'],
    ['a line break', 'SECRET\r\nx'],
    ['a character over U+00FF', 'SECRET\u0100x'],
    ['a non-ASCII letter', 'SECRETé'],
    ['a tab', 'SECRET\tx'],
  ])('holding %s is refused up front, without quoting it', (_, token) => {
    let thrown: unknown;
    try {
      connectMock(URL_, { token });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MockControlError);
    expect(thrown).toMatchObject({ code: 'invalid_argument', argument: 'token' });
    expect(inspect(thrown, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain('SECRET');
  });
});

describe('a 4xx answer of any shape is a `rejected` MockControlError', () => {
  test('errors that are not strings are shown as JSON', async () => {
    const error = await rejection(answering('{"success":false,"errors":[{"toString":1},7]}', 422).reset());
    expect(error.code).toBe('rejected');
    expect(error.errors).toEqual(['{"toString":1}', '7']);
  });
});

describe('a 2xx answer of the wrong shape is `invalid_response`', () => {
  const calls: [string, (c: MockConnection) => Promise<unknown>][] = [
    ['faults', (c) => c.faults()],
    ['clearFaults', (c) => c.clearFaults()],
    ['routes', (c) => c.routes()],
    ['flushWebhooks', (c) => c.flushWebhooks()],
    ['flushWebhooks(query)', (c) => c.flushWebhooks({ status: 'failed' })],
    ['readDeliveries', (c) => c.readDeliveries()],
    ['deliveries(query)', (c) => c.deliveries({ page: 1 })],
    ['redeliverWebhooks', (c) => c.redeliverWebhooks()],
    ['injectFault', (c) => c.injectFault({ path: '/x' })],
    ['readState', (c) => c.readState()],
    ['readState(query)', (c) => c.readState({ collection: 'skus' })],
    ['fulfillOrder', (c) => c.fulfillOrder(1)],
    ['createReturn', (c) => c.createReturn(1)],
    ['advanceRestockingShipment', (c) => c.advanceRestockingShipment(1, 'shipped')],
  ];
  test.each(['', 'null', '42', '"text"', '[]'])('body %j', async (body) => {
    const connection = answering(body);
    for (const [name, call] of calls) {
      const error = await rejection(call(connection));
      expect(error.code, name).toBe('invalid_response');
      expect(error.status, name).toBe(200);
    }
  });

  test('an object without the key the call reads its result under', async () => {
    const connection = answering('{"other":1}');
    const keyed = [
      'faults',
      'clearFaults',
      'routes',
      'flushWebhooks',
      'readDeliveries',
      'redeliverWebhooks',
      'injectFault',
    ];
    for (const [name, call] of calls.filter(([name]) => keyed.includes(name))) {
      expect((await rejection(call(connection))).code, name).toBe('invalid_response');
    }
  });

  test('reset() still takes its empty 204', async () => {
    await expect(answering('', 204).reset()).resolves.toBeUndefined();
  });
});

describe('arguments JSON cannot serialize are refused before sending', () => {
  test.each([
    [
      'injectFault BigInt body',
      (c: MockConnection) => c.injectFault({ path: '/x', body: 1n as never }),
      'fault',
    ],
    [
      'injectFault throwing toJSON',
      (c: MockConnection) =>
        c.injectFault({
          path: '/x',
          body: {
            toJSON() {
              throw new Error('no');
            },
          } as never,
        }),
      'fault',
    ],
    [
      'cyclic quantities',
      (c: MockConnection) => {
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        return c.advanceRestockingShipment(1, 'restocked', cyclic as never);
      },
      'quantities',
    ],
  ])('%s', async (_, call, argument) => {
    const { connection, sent } = counting();
    const error = await rejection(call(connection));
    expect(error).toMatchObject({ code: 'invalid_argument', argument });
    expect(error.message).toMatch(/cannot be sent as JSON/);
    expect(sent()).toBe(0);
  });
});

/** A connection whose `fetch` counts the requests it is asked to send. */
function counting(): { connection: MockConnection; sent: () => number } {
  let sent = 0;
  const connection = connectMock(URL_, {
    token: TOKEN,
    fetch: async () => {
      sent += 1;
      return new Response('{}');
    },
  });
  return { connection, sent: () => sent };
}

describe("only the connection's own time-out is a `timeout`", () => {
  test.each([
    ['a TimeoutError', () => new DOMException('the fetch gave up', 'TimeoutError'), 'TimeoutError'],
    [
      'an error caused by a TimeoutError',
      () => new TypeError('fetch failed', { cause: new DOMException('the fetch gave up', 'TimeoutError') }),
      'TypeError',
    ],
  ])(
    'a custom fetch rejecting at once with %s: `unreachable`, that error as the cause',
    async (_, thrown, name) => {
      const connection = connectMock(URL_, {
        token: TOKEN,
        timeoutMs: 60_000,
        fetch: async () => {
          throw thrown();
        },
      });
      const error = await rejection(connection.faults());
      expect(error).toMatchObject({ code: 'unreachable', route: 'GET /__mock/faults', status: null });
      expect(error.message).toMatch(
        /^Cannot reach the mock at http:\/\/127\.0\.0\.1:9 \(GET \/__mock\/faults\): .*the fetch gave up/,
      );
      expect(error.message).not.toMatch(/did not answer/);
      expect(error.cause).toMatchObject({ name });
    },
  );
});
