import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import * as main from '../src/index.js';
import * as redis from '../src/redis/index.js';
import * as testing from '../src/testing/index.js';

/**
 * docs/api.md lists every public method, one line each. The methods are read from the real
 * objects (a client, a mock, a connection, a handler, the Redis stores) and from the prototypes of
 * the exported classes, so a method added to the SDK or the kit fails this test until it is listed.
 */
const apiMd = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
const listLines = apiMd.split('\n').filter((line) => line.startsWith('- '));

/** The methods of an object: its own function-valued properties and those of its prototypes. */
function methodsOf(value: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = value; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      const descriptor = Object.getOwnPropertyDescriptor(o, name);
      if (typeof descriptor?.value === 'function' && isPublic(name)) names.add(name);
    }
  }
  return [...names];
}

/** Promise's own protocol (`then`, `catch`, `finally`) is not the SDK's to document. */
const isPublic = (name: string) =>
  name !== 'constructor' && !name.startsWith('_') && !['then', 'catch', 'finally'].includes(name);

const isClass = (value: unknown): value is new (...args: never[]) => object =>
  typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));

/** How api.md names an instance of an exported class. */
const INSTANCE_NAMES: Record<string, string> = {
  APIPromise: 'apiPromise',
  FulfillmentClient: 'client',
  InMemoryWebhookDeduplicator: 'deduplicator',
};
const instanceName = (cls: string) => INSTANCE_NAMES[cls] ?? cls[0]!.toLowerCase() + cls.slice(1);

const client = new main.FulfillmentClient({
  apiToken: 'docs-token',
  baseUrl: 'https://fulfillment.example.com',
  fetch: () => Promise.reject(new Error('no request is sent')),
});
const api = testing.createMockApi();
afterAll(() => api.close());
const fakeRedis: redis.RedisEval = { eval: () => Promise.resolve(null) };

/** Every call api.md must list, as it is written there: `client.skus.list(`, `api.reset(`, `signWebhook(`. */
function expectedCalls(): string[] {
  const calls: string[] = [];
  const add = (prefix: string, value: object) => {
    for (const name of methodsOf(value)) calls.push(`${prefix}.${name}(`);
  };
  add('client', client);
  for (const [key, namespace] of Object.entries(client)) {
    if (!isPublic(key) || typeof namespace !== 'object' || namespace === null) continue;
    add(`client.${key}`, namespace);
    for (const [version, inner] of Object.entries(namespace)) {
      if (isPublic(version) && typeof inner === 'object' && inner !== null)
        add(`client.${key}.${version}`, inner);
    }
  }
  for (const module of [main, testing, redis]) {
    for (const [name, value] of Object.entries(module)) {
      if (isClass(value)) {
        const own = Object.getOwnPropertyNames(value.prototype).filter(
          (m) =>
            isPublic(m) && typeof Object.getOwnPropertyDescriptor(value.prototype, m)?.value === 'function',
        );
        for (const method of own) calls.push(`${instanceName(name)}.${method}(`);
      } else if (typeof value === 'function') calls.push(`${name}(`);
    }
  }
  add('api', api);
  add('mock', testing.connectMock('http://127.0.0.1:9', { token: 'docs-token' }));
  add('handler', main.createWebhookHandler({ secret: 'docs-token', onEvent: () => {} }));
  add('orderImport', client.orders.createMany([]));
  add('redisDeduplicator', redis.createRedisDeduplicator(fakeRedis));
  add('redisStore', redis.createRedisRateLimitStore(fakeRedis, { key: 'docs' }));
  return [...new Set(calls)];
}

describe('docs/api.md', () => {
  const expected = expectedCalls();

  it('finds the methods of every namespace and face (the derivation itself works)', () => {
    for (const call of [
      'client.skus.bulkUpsert(',
      'client.restockingShipments.v2.replace(',
      'client.on(',
      'client.request(',
      'api.advanceRestockingShipment(',
      'mock.routes(',
      'createRedisDeduplicator(',
      'redisStore.acquire(',
      'pagePromise.toArray(',
    ]) {
      expect(expected).toContain(call);
    }
  });

  it('lists every public method of the client and the testing kit, each on a line of its own, and no other', () => {
    // The call each line is about: its first `name(` (a constructor line, `new X(`, documents X).
    const listed = listLines.flatMap((line) => {
      const call = /^- `(?:new )?([\w.]+)\(/.exec(line)?.[1];
      return call ? [`${call}(`] : [];
    });
    expect(listed.length).toBe(new Set(listed).size); // one line each
    expect(expected.filter((call) => !listed.includes(call))).toEqual([]); // none missing
    // A constructor line documents a class the package exports.
    const exported = { ...main, ...testing, ...redis } as Record<string, unknown>;
    const constructors = new Set(
      listLines
        .flatMap((l) => /^- `new ([\w.]+)\(/.exec(l)?.[1] ?? [])
        .filter((c) => typeof exported[c] === 'function')
        .map((c) => `${c}(`),
    );
    expect(listed.filter((call) => !expected.includes(call) && !constructors.has(call))).toEqual([]); // none stale
  });
});
