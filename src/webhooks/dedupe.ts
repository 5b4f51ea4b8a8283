/**
 * Webhooks: remember which calls were already handled, by event id, so that retries and duplicate
 * deliveries are processed once.
 */
import { describe } from '../core/describe.js';
import { LruMap } from '../core/lru.js';
import { type WebhookDeduplicator, WebhookVerificationError } from './types.js';

/** One remembered id: its state and when it entered it. */
interface Entry {
  readonly state: 'done' | 'in_progress';
  readonly at: number;
}

/**
 * A {@link WebhookDeduplicator} in process memory: a least-recently-used set of event ids, bounded
 * by `maxEntries`, each remembered for `ttlMs` after it was last seen or completed (a claim in
 * progress for `inProgressTtlMs`). Expired ids are dropped lazily on use (no timer keeps the process
 * alive). Suits a single process; it forgets everything on restart. Implements both the one-phase
 * (`seen`, `forget`) and the two-phase (`claim`, `complete`, `release`) protocols.
 *
 * If handling an event fails, call {@link InMemoryWebhookDeduplicator.forget | forget(id)} and
 * answer with a 5xx status, so that the provider's retry is processed.
 *
 * @example
 * ```ts
 * const dedup = new InMemoryWebhookDeduplicator();
 * const event = await verifyWebhook({ body, headers, secret });
 * if (await dedup.seen(event.id)) return new Response(null, { status: 200 }); // a retry: already done
 * try {
 *   await handle(event.data);
 * } catch (err) {
 *   dedup.forget(event.id);
 *   return new Response(null, { status: 500 });
 * }
 * return new Response(null, { status: 200 });
 * ```
 */
export class InMemoryWebhookDeduplicator implements WebhookDeduplicator {
  readonly #ttlMs: number;
  readonly #inProgressTtlMs: number;
  readonly #now: () => number;
  /** id → state and time; least recently used first. */
  readonly #entries: LruMap<string, Entry>;

  /**
   * @throws {RangeError} when `maxEntries` is not an integer >= 1, or `ttlMs` or `inProgressTtlMs`
   * is not a number > 0 (a value of another type included; `undefined` and `null` give the default).
   * @throws {TypeError} when the options are not an object (or `undefined`), or `now` is not a function.
   */
  constructor(
    options: {
      /** How many ids to remember; the least recently seen is forgotten first. Default 10 000. */
      maxEntries?: number;
      /** How long an id is remembered after it was last seen or completed, in milliseconds. Default 24 hours. */
      ttlMs?: number;
      /**
       * How long a {@link InMemoryWebhookDeduplicator.claim | claim} stays in progress without being
       * completed or released, in milliseconds; after that the id can be claimed again. Default 5 minutes.
       */
      inProgressTtlMs?: number;
      /** Clock in milliseconds (for tests). Default `Date.now`. */
      now?: () => number;
    } = {},
  ) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`InMemoryWebhookDeduplicator options must be an object, got ${describe(options)}`);
    }
    const o = options as Record<string, unknown>;
    const maxEntries = o.maxEntries ?? 10_000;
    const ttlMs = o.ttlMs ?? 24 * 60 * 60 * 1000;
    const inProgressTtlMs = o.inProgressTtlMs ?? 5 * 60 * 1000;
    const now = o.now ?? Date.now;
    const got = (value: unknown) => (typeof value === 'number' ? value : describe(value));
    if (typeof maxEntries !== 'number' || !Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be an integer >= 1, got ${got(maxEntries)}`);
    }
    for (const [name, value] of [
      ['ttlMs', ttlMs],
      ['inProgressTtlMs', inProgressTtlMs],
    ] as const) {
      if (typeof value !== 'number' || !(value > 0))
        throw new RangeError(`${name} must be a number > 0, got ${got(value)}`);
    }
    if (typeof now !== 'function') {
      throw new TypeError(`now must be a function returning milliseconds, got ${describe(now)}`);
    }
    this.#entries = new LruMap(maxEntries);
    this.#ttlMs = ttlMs as number;
    this.#inProgressTtlMs = inProgressTtlMs as number;
    this.#now = now as () => number;
  }

  #live(entry: Entry | undefined, now: number): entry is Entry {
    if (entry === undefined) return false;
    return now - entry.at < (entry.state === 'done' ? this.#ttlMs : this.#inProgressTtlMs);
  }

  /** The live entry of `id` (after dropping expired ids from the least recently used end). */
  #lookup(id: string, now: number): Entry | undefined {
    this.#entries.evictWhile((entry) => !this.#live(entry, now));
    const entry = this.#entries.peek(id);
    return this.#live(entry, now) ? entry : undefined;
  }

  /**
   * Returns `true` when `id` was seen within the last `ttlMs` (or is claimed, in progress); records
   * it as seen now (a claim in progress is left as it is).
   */
  seen(id: string): boolean {
    const now = this.#now();
    const entry = this.#lookup(id, now);
    if (entry?.state === 'in_progress') return true;
    this.#entries.set(id, { state: 'done', at: now });
    return entry !== undefined;
  }

  /** Forgets `id` (e.g. after handling it failed, so that a retry is processed). Returns whether it was known. */
  forget(id: string): boolean {
    return this.#entries.delete(id);
  }

  /**
   * Claims `id`: `done` when it was seen or completed within `ttlMs`, `in_progress` when it was
   * claimed within `inProgressTtlMs` and neither completed nor released, otherwise `new` (and it is
   * now claimed, at once: the promise only carries the answer).
   */
  async claim(id: string): Promise<'new' | 'in_progress' | 'done'> {
    const now = this.#now();
    const entry = this.#lookup(id, now);
    if (entry) return entry.state;
    this.#entries.set(id, { state: 'in_progress', at: now });
    return 'new';
  }

  /** Records `id` as done (handled) now: later claims of it are `done` for `ttlMs`. */
  complete(id: string): void {
    this.#entries.set(id, { state: 'done', at: this.#now() });
  }

  /** Drops the claim of `id` when it is in progress (a done id stays done). Returns whether it dropped one. */
  release(id: string): boolean {
    if (this.#entries.peek(id)?.state !== 'in_progress') return false;
    return this.#entries.delete(id);
  }

  /** Forgets every id. */
  clear(): void {
    this.#entries.clear();
  }

  /** How many ids are remembered (expired ones included until they are dropped). */
  get size(): number {
    return this.#entries.size;
  }
}

/** The two-phase protocol, as `createWebhookHandler` runs it. @internal */
export type ClaimingStore = Required<Pick<WebhookDeduplicator, 'claim' | 'complete' | 'release'>>;

const TWO_PHASES = ['claim', 'complete', 'release'] as const;

/**
 * The `deduplicator` option of `createWebhookHandler`, checked, as the two-phase protocol the
 * handler runs: `undefined` for `false`; a new {@link InMemoryWebhookDeduplicator} when absent; a
 * one-phase store (`seen`, `forget`) as `claim` = `seen` (`done` or `new`) and `release` = `forget`.
 * @internal
 */
export function claimingStore(value: unknown): ClaimingStore | undefined {
  if (value === false) return undefined;
  const store = (value ?? new InMemoryWebhookDeduplicator()) as Record<string, unknown>;
  const invalid = (message: string) =>
    new WebhookVerificationError('invalid_options', `Webhook option 'deduplicator' ${message}`);
  if (typeof store !== 'object' || typeof store.seen !== 'function') {
    throw invalid(
      `must be a WebhookDeduplicator (an object with a seen(id) method) or false, got ${describe(store)}.`,
    );
  }
  const bad = ['forget', ...TWO_PHASES].find((m) => store[m] !== undefined && typeof store[m] !== 'function');
  if (bad) throw invalid(`has a ${bad} property that is not a function (${describe(store[bad])}).`);
  const present = TWO_PHASES.filter((m) => store[m] !== undefined);
  const s = store as unknown as Required<WebhookDeduplicator>;
  if (present.length === TWO_PHASES.length) return s;
  if (present.length > 0) {
    throw invalid(
      `has ${present.join(' and ')} but not ${TWO_PHASES.filter((m) => !present.includes(m)).join(' and ')}: ` +
        'the two-phase protocol needs claim, complete and release together.',
    );
  }
  if (store.forget === undefined) {
    throw invalid(
      'has no forget(id) method (nor claim, complete and release): without it, the retry of an event ' +
        'whose handling failed would be acknowledged as a duplicate and never handled. Add forget(id), ' +
        'or the two-phase methods for a store shared by several processes.',
    );
  }
  return {
    claim: async (id) => ((await s.seen(id)) === true ? 'done' : 'new'),
    complete: () => {},
    release: (id) => s.forget(id),
  };
}
