/**
 * `npm run bench`: the SDK's overhead over the network it wraps, as ratios against baselines
 * measured in the same run (interleaved A/B rounds; medians with min–max). Prints a table, writes
 * bench/results.json and, in a full run, BENCHMARKS.md. `--quick` runs every row briefly so the
 * harness cannot rot; it asserts nothing about speed. `--only=B1,B5` runs those rows and writes
 * nothing.
 *
 * The measured package is the built one (`npm run build` first): `merchant-fulfillment` resolves to
 * dist/ through the package's own exports. Servers run in child processes on 127.0.0.1 so that
 * their CPU and memory stay out of the client's figures.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import ky from 'ky';
import { createWebhookHeaders, FulfillmentClient, signWebhook, verifyWebhook } from 'merchant-fulfillment';
import { createMockApi } from 'merchant-fulfillment/testing';
import { REDIS_SERVER, startRedis } from '../test/helpers/redis-server.ts';
import { deliver } from '../test/helpers/webhook-provider.mjs';
import { formatEditorCost, measureEditorCost } from './types.mjs';

const quick = process.argv.includes('--quick');
const root = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'bench-token';

interface Row {
  id: string;
  what: string;
  baseline: string;
  goal: string;
  /** The headline figure, e.g. "1.12× (1.08–1.19)". */
  result: string;
  met: boolean | null;
  details: Record<string, unknown>;
}

interface Spread {
  median: number;
  min: number;
  max: number;
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

const fmt = (s: Spread, digits = 2, unit = '×') =>
  `${s.median.toFixed(digits)}${unit} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;

/** Starts bench/server.mjs in a child process and resolves with its URL. */
async function collectionServer(env: Record<string, string>): Promise<{ url: string; stop: () => void }> {
  const child: ChildProcess = spawn(process.execPath, [`${root}bench/server.mjs`], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

const client = (baseUrl: string, extra: ConstructorParameters<typeof FulfillmentClient>[0] = {}) =>
  new FulfillmentClient({ apiToken: TOKEN, baseUrl, logLevel: 'off', maxRetries: 0, ...extra });

/** Time per operation (ms) of `op` run `n` times back to back. */
async function perOp(n: number, op: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await op();
  return (performance.now() - start) / n;
}

/** Median latency of `a` and `b` over `n` interleaved calls (a, b, a, b, …), in ms. */
async function interleaved(
  n: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number, number]> {
  const la: number[] = [];
  const lb: number[] = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    await a();
    la.push(performance.now() - t);
    t = performance.now();
    await b();
    lb.push(performance.now() - t);
  }
  return [spread(la).median, spread(lb).median];
}

/** B1: first page of 100 SKUs, validated, against fetch + res.json(). */
async function b1(): Promise<Row> {
  const server = await collectionServer({ PAGES: '10' });
  try {
    const url = `${server.url}/merchant_api/v1/skus?limit=100`;
    const sdk = client(server.url);
    const baseline = () =>
      fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.json());
    const ours = () => sdk.skus.list({ limit: 100 }).then((p) => p.data);
    const n = quick ? 30 : 400;
    const rounds = quick ? 3 : 11;
    await interleaved(n, baseline, ours); // warm-up: JIT, connection pool, schema compilation
    const ratios: number[] = [];
    const base: number[] = [];
    const mine: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const [a, b] = await interleaved(n, baseline, ours);
      base.push(a);
      mine.push(b);
      ratios.push(b / a);
    }
    const ratio = spread(ratios);
    return {
      id: 'B1',
      what: '`skus.list({ limit: 100 })` first page, validated',
      baseline: '`fetch` + `res.json()` of the same page',
      goal: '≤ 1.20×',
      result: `${fmt(ratio)} (p50 ${(spread(mine).median * 1000).toFixed(0)} µs vs ${(spread(base).median * 1000).toFixed(0)} µs)`,
      met: ratio.median <= 1.2,
      details: {
        ratio,
        baselineMsP50: spread(base).median,
        sdkMsP50: spread(mine).median,
        callsPerRound: n,
        rounds,
      },
    };
  } finally {
    server.stop();
  }
}

/**
 * B1k: what the SDK adds on top of ky, its HTTP layer: the same first page through `skus.list`
 * against one ky instance (created once, as the SDK does) doing `get(…).json()`. Measured twice:
 * with response validation off (the request machinery alone: options, headers, redaction, limiter,
 * pagination) and with the default validation (what a user gets).
 */
async function b1k(): Promise<Row> {
  const server = await collectionServer({ PAGES: '10' });
  try {
    const api = ky.create({
      prefix: server.url,
      headers: { authorization: `Bearer ${TOKEN}` },
      retry: 0,
      timeout: 60_000,
    });
    const baseline = () => api.get('merchant_api/v1/skus', { searchParams: { limit: 100 } }).json();
    const plain = client(server.url, { validateResponses: 'off' });
    const validated = client(server.url);
    const off = () => plain.skus.list({ limit: 100 }).then((p) => p.data);
    const on = () => validated.skus.list({ limit: 100 }).then((p) => p.data);
    const n = quick ? 30 : 400;
    const rounds = quick ? 3 : 11;
    await interleaved(n, baseline, off);
    await interleaved(n, baseline, on);
    const offRatios: number[] = [];
    const onRatios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const [a, b] = await interleaved(n, baseline, off);
      offRatios.push(b / a);
      const [c, d] = await interleaved(n, baseline, on);
      onRatios.push(d / c);
    }
    const machinery = spread(offRatios);
    const withValidation = spread(onRatios);
    return {
      id: 'B1k',
      what: '`skus.list({ limit: 100 })` first page: the SDK on top of ky',
      baseline: 'one `ky` instance: `get(…).json()` of the same page',
      goal: '≤ 1.05× (request machinery, validation off)',
      result: `${fmt(machinery)} validation off; ${fmt(withValidation)} validated`,
      met: machinery.median <= 1.05,
      details: { machinery, withValidation, callsPerRound: n, rounds },
    };
  } finally {
    server.stop();
  }
}

/** Peak RSS growth (bytes) while `run` executes, sampled by `sample()` calls and a timer. */
async function peakRss(
  run: (sample: () => void) => Promise<number>,
): Promise<{ items: number; ms: number; rssGrowth: number }> {
  globalThis.gc?.();
  const start = process.memoryUsage().rss;
  let peak = start;
  const sample = () => {
    const rss = process.memoryUsage().rss;
    if (rss > peak) peak = rss;
  };
  const timer = setInterval(sample, 20);
  const t0 = performance.now();
  try {
    const items = await run(sample);
    return { items, ms: performance.now() - t0, rssGrowth: peak - start };
  } finally {
    clearInterval(timer);
  }
}

/** B2: 100 000 SKUs over 1 000 pages with for await, against a hand-written fetch loop. */
async function b2(): Promise<Row> {
  const pages = quick ? 20 : 1000;
  const server = await collectionServer({ PAGES: String(pages) });
  try {
    const sdk = client(server.url);
    const handLoop = (sample: () => void) => async () => {
      let count = 0;
      for (let page = 1; ; page++) {
        const res = await fetch(`${server.url}/merchant_api/v1/skus?limit=100&page=${page}`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        const body = (await res.json()) as {
          data: unknown[];
          pagination: { current_page: number; page_count: number };
        };
        count += body.data.length;
        if (page % 10 === 0) sample();
        if (body.pagination.current_page >= body.pagination.page_count) return count;
      }
    };
    const sdkLoop = (sample: () => void) => async () => {
      let count = 0;
      for await (const _sku of sdk.skus.list({ limit: 100 })) {
        if (++count % 1000 === 0) sample();
      }
      return count;
    };
    const rounds = quick ? 1 : 5;
    const throughput: number[] = [];
    const growth: number[] = [];
    const baseGrowth: number[] = [];
    let expected = 0;
    await peakRss((s) => handLoop(s)()); // warm-up: JIT, connection pool
    await peakRss((s) => sdkLoop(s)());
    for (let r = 0; r < rounds; r++) {
      // Alternate which loop goes first, so that neither always runs on a warmer process.
      let base: Awaited<ReturnType<typeof peakRss>>;
      let mine: Awaited<ReturnType<typeof peakRss>>;
      if (r % 2) {
        mine = await peakRss((s) => sdkLoop(s)());
        base = await peakRss((s) => handLoop(s)());
      } else {
        base = await peakRss((s) => handLoop(s)());
        mine = await peakRss((s) => sdkLoop(s)());
      }
      if (mine.items !== base.items)
        throw new Error(`B2: ${mine.items} items through the SDK, ${base.items} by hand`);
      expected = mine.items;
      throughput.push(mine.items / mine.ms / (base.items / base.ms));
      growth.push(mine.rssGrowth / 2 ** 20);
      baseGrowth.push(base.rssGrowth / 2 ** 20);
    }
    const ratio = spread(throughput);
    const rss = spread(growth);
    return {
      id: 'B2',
      what: `iterate ${expected.toLocaleString('en')} SKUs over ${pages} pages with \`for await\``,
      baseline: 'a hand-written `fetch` page loop',
      goal: '≥ 0.90× throughput; peak RSS growth ≤ 50 MB',
      result: `${fmt(ratio)} throughput; peak RSS growth ${rss.median.toFixed(1)} MB (hand loop ${spread(baseGrowth).median.toFixed(1)} MB)`,
      met: ratio.median >= 0.9 && rss.median <= 50,
      details: { throughputRatio: ratio, rssGrowthMB: rss, baselineRssGrowthMB: spread(baseGrowth), rounds },
    };
  } finally {
    server.stop();
  }
}

/**
 * B4: bulkUpsert against the mock API limited to 100 requests per 2 s: 10 000 SKUs (one window's
 * worth of requests, the issue's figure), and 30 000 SKUs (three windows, where the limiter has to
 * hold requests back).
 */
const b4 = () => bulkRow('B4', quick ? 1000 : 10_000);
const b4b = () => bulkRow('B4b', quick ? 20_000 : 30_000);

async function bulkRow(id: string, skus: number): Promise<Row> {
  const limit = { requests: 100, perMs: quick ? 200 : 2000 };
  const api = createMockApi({ tokens: [TOKEN], rateLimit: limit });
  const server = await api.listen({ port: 0 });
  try {
    let received429 = 0;
    const catalogue = Array.from({ length: skus }, (_, i) => ({
      name: `Product ${i}`,
      merchant_sku_id: `B4-${i}`,
    }));
    const runs = quick ? 1 : 5;
    const times: number[] = [];
    let requests = 0;
    let written = 0;
    for (let run = 0; run < runs; run++) {
      api.reset(); // a fresh mock: empty catalogue, new rate-limit windows
      // A fresh client per run: its limiter starts with an empty window too.
      const sdk = client(server.url, {
        rateLimit: limit,
        maxRetries: 5,
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          if (res.status === 429) received429++;
          return res;
        },
      });
      const t0 = performance.now();
      const result = await sdk.skus.bulkUpsert(catalogue, { concurrency: 4 });
      times.push(performance.now() - t0);
      requests = result.chunks.length;
      written = result.written;
    }
    // The fastest any client may go: the first `requests` of a window at once, then one window per
    // further `requests` requests.
    const minimumMs = Math.max(0, Math.ceil(requests / limit.requests) - 1) * limit.perMs;
    const tail = Math.ceil(requests / limit.requests) * limit.perMs; // requests ÷ rate
    const ms = spread(times);
    const overTail = spread(times.map((t) => t / tail));
    const overMinimum = minimumMs === 0 ? null : spread(times.map((t) => t / minimumMs));
    const burst =
      overMinimum === null
        ? ''
        : `; ${fmt(overMinimum)} the burst-aware minimum (${(minimumMs / 1000).toFixed(1)} s)`;
    return {
      id,
      what: `\`bulkUpsert\` ${skus.toLocaleString('en')} SKUs (${requests} requests) against the mock limited to ${limit.requests} requests per ${limit.perMs / 1000} s, ${runs} runs`,
      baseline: 'the theoretical minimum (requests ÷ rate)',
      goal: '0 × 429 with the client limiter on; ≤ 1.10× the minimum',
      result: `${received429} × 429; ${(ms.median / 1000).toFixed(2)} s = ${fmt(overTail)} requests ÷ rate (${(tail / 1000).toFixed(1)} s)${burst}`,
      met: received429 === 0 && overTail.median <= 1.1,
      details: {
        ms,
        runs,
        requests,
        received429,
        requestsOverRateMs: tail,
        burstAwareMinimumMs: minimumMs,
        overTail,
        overMinimum,
        written,
      },
    };
  } finally {
    await server.close();
  }
}

/**
 * B8: `orders.createMany` of 1,000 orders against the mock's rate limit (100 requests per 2 s),
 * with one in eight sends failing ambiguously after the order is stored (a 5xx): wall time against
 * the fastest any client may go for the requests it sent, and the requests spent on recovery.
 */
async function b8(): Promise<Row> {
  const orders = quick ? 200 : 1000;
  const limit = { requests: 100, perMs: quick ? 200 : 2000 };
  const api = createMockApi({ tokens: [TOKEN], rateLimit: limit });
  const server = await api.listen({ port: 0 });
  try {
    let seed = 8;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let requests = 0;
    let lookups = 0;
    let received429 = 0;
    const sdk = client(server.url, {
      rateLimit: limit,
      maxRetries: 5,
      fetch: async (input, init) => {
        requests++;
        const method = input instanceof Request ? input.method : init?.method;
        if (method !== 'POST') lookups++;
        if (method === 'POST' && random() < 0.125) {
          api.injectFault({
            method: 'POST',
            path: '/merchant_api/v1/orders',
            status: 502,
            after: true,
            times: 1,
          });
        }
        const res = await fetch(input, init);
        if (res.status === 429) received429++;
        return res;
      },
    });
    const sku = await sdk.skus.create({ name: 'Bench', merchant_sku_id: 'BENCH' });
    requests = 0;
    received429 = 0;
    const address = {
      full_name: 'Ada Lovelace',
      last_name: 'Lovelace',
      line1: 'Unter den Linden 1',
      city: 'Berlin',
      postal_code: '10117',
      country_code: 'DE',
    };
    const bodies = Array.from({ length: orders }, (_, i) => ({
      merchant_order_id: `B8-${i}`,
      shipping_address: address,
      items: [{ merchant_item_id: '1', sku_id: sku.id, quantity: 1, price_per_unit_in_cents: 100 }],
    }));
    const t0 = performance.now();
    const summary = await sdk.orders.createMany(bodies, { concurrency: 8 }).summary();
    const ms = performance.now() - t0;
    if (summary.created + summary.recovered !== orders) {
      throw new Error(`B8: ${JSON.stringify({ ...summary, problems: summary.problems.length })}`);
    }
    // The fastest any client may go for `requests`: a full window at once, then one per window.
    const minimumMs = Math.max(0, Math.ceil(requests / limit.requests) - 1) * limit.perMs;
    // Beyond one POST per order: the recovery lookups, and POSTs sent again (after a 429, or after a
    // lookup that found nothing).
    const extra = requests - orders;
    const resends = extra - lookups;
    const overRateMs = (requests / limit.requests) * limit.perMs; // requests ÷ rate
    return {
      id: 'B8',
      what: `\`orders.createMany\` ${orders.toLocaleString('en')} orders, 1 in 8 sends failing after the order is stored, against the mock limited to ${limit.requests} requests per ${limit.perMs / 1000} s`,
      baseline: 'requests ÷ rate, and the burst-aware minimum, for the requests sent',
      goal: 'reported: 0 × 429; every order created or recovered',
      result: `${received429} × 429; ${summary.created} created, ${summary.recovered} recovered; ${requests} requests (${extra} beyond one per order, ${((extra / orders) * 100).toFixed(1)} %: ${lookups} lookups, ${resends} sent again); ${(ms / 1000).toFixed(2)} s = ${(ms / overRateMs).toFixed(2)}× requests ÷ rate (${(overRateMs / 1000).toFixed(1)} s), ${minimumMs ? (ms / minimumMs).toFixed(2) : '—'}× the burst-aware minimum (${(minimumMs / 1000).toFixed(1)} s)`,
      met: null,
      details: {
        ms,
        requests,
        extra,
        lookups,
        resends,
        received429,
        minimumMs,
        created: summary.created,
        recovered: summary.recovered,
      },
    };
  } finally {
    await server.close();
  }
}

/** B5: verifyWebhook on a 4 KB body against node:crypto createHmac + timingSafeEqual. */
async function b5(): Promise<Row> {
  const items = Array.from({ length: 24 }, (_, i) => ({
    id: 9000 + i,
    sku_id: 48000 + i,
    announced_quantity: 100 + i,
    arrived_quantity: null,
    damaged_quantity: null,
    missing_quantity: null,
    inventory_batches: [],
  }));
  const shipment = {
    id: 4242,
    merchant_id: 7,
    warehouse_id: 3,
    estimated_arrival_date: '2025-03-10',
    delivery_option: 'courier',
    tracking_code: '1Z999AA10123456784',
    po_number: 'PO-2025-044',
    supplier_name: 'Acme Textiles GmbH',
    status: 'arrived',
    barcode: 'RS-4242',
    restocking_shipment_items: items,
  };
  let body = JSON.stringify(shipment);
  body = JSON.stringify({ ...shipment, note: 'x'.repeat(Math.max(0, 4096 - body.length - 10)) });
  const signature = await signWebhook({ body, secret: TOKEN });
  const headers = { 'x-service-signature': signature, 'x-service-event-id': 'evt-1' };
  const expected = Buffer.from(signature, 'hex');
  const baseline = async () => {
    const mac = createHmac('sha256', TOKEN).update(body).digest();
    if (!timingSafeEqual(mac, expected)) throw new Error('mismatch');
    return JSON.parse(body);
  };
  const ours = () => verifyWebhook({ body, headers, secret: TOKEN });
  const n = quick ? 200 : 5000;
  await perOp(n, baseline);
  await perOp(n, ours);
  const ratios: number[] = [];
  for (let r = 0; r < (quick ? 2 : 10); r++) {
    // Alternate which goes first, so that neither always runs on a warmer process.
    let a: number;
    let b: number;
    if (r % 2) {
      b = await perOp(n, ours);
      a = await perOp(n, baseline);
    } else {
      a = await perOp(n, baseline);
      b = await perOp(n, ours);
    }
    ratios.push(a / b); // throughput ratio = time(baseline) / time(ours)
  }
  const ratio = spread(ratios);
  return {
    id: 'B5',
    what: `\`verifyWebhook\` on a ${(body.length / 1024).toFixed(1)} KB body (signature check, JSON parse and schema parse)`,
    baseline: '`node:crypto` `createHmac` + `timingSafeEqual` + `JSON.parse`',
    goal: '≥ 0.8× throughput',
    result: `${fmt(ratio)} throughput`,
    met: ratio.median >= 0.8,
    details: { ratio, bodyBytes: body.length },
  };
}

/** B6: bundle sizes of the packed tarball in a temp consumer, minified and gzipped with esbuild. */
async function b6(): Promise<Row> {
  const { measureBundles, treeShakingProblems } = await import('../scripts/bundle-size.mjs');
  const results = await measureBundles();
  const { whole, verifyOnly } = results;
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const problems = treeShakingProblems(results);
  return {
    id: 'B6',
    what: 'bundle of the packed tarball, minified + gzip (esbuild)',
    baseline: '—',
    goal: 'whole SDK ≤ 45 KB; `verifyWebhook` only ≤ 10 KB, no ky, client, resources or pagination',
    result:
      `whole SDK ${kb(whole.gzip)} (ky + zod included; ${whole.gzip <= 45 * 1024 ? 'met' : 'not met'}); ` +
      `\`verifyWebhook\` only ${kb(verifyOnly.gzip)} (${verifyOnly.gzip <= 10 * 1024 ? 'met' : 'not met'}), ` +
      `${problems.length ? problems.join('; ') : 'no ky, zod, client, resources or pagination'}; ` +
      `\`createWebhookHandler\` only ${kb(results.handlerOnly.gzip)}`,
    met: whole.gzip <= 45 * 1024 && verifyOnly.gzip <= 10 * 1024 && problems.length === 0,
    details: results,
  };
}

/** B7: cold import of the package against an empty `node -e ""`. */
async function b7(): Promise<Row> {
  const time = (args: string[]) => {
    const t0 = performance.now();
    execFileSync(process.execPath, args, { cwd: root, stdio: 'ignore' });
    return performance.now() - t0;
  };
  const empty = ['-e', ''];
  const load = ['--input-type=module', '-e', "await import('merchant-fulfillment')"];
  time(empty);
  time(load);
  const extra: number[] = [];
  for (let r = 0; r < (quick ? 3 : 21); r++) {
    const a = time(empty);
    const b = time(load);
    extra.push(b - a);
  }
  const ms = spread(extra);
  return {
    id: 'B7',
    what: "cold `import('merchant-fulfillment')`",
    baseline: '`node -e ""`',
    goal: '≤ 40 ms extra',
    result: `${fmt(ms, 1, ' ms')} extra`,
    met: ms.median <= 40,
    details: { extraMs: ms },
  };
}

/**
 * T1: the editor cost of the SDK's types: instantiations and check time of a consumer that calls
 * every public method, against one that imports nothing (bench/types.mjs).
 */
async function t1(): Promise<Row> {
  const cost = await measureEditorCost({ quick });
  if (!quick) for (const line of formatEditorCost(cost)) console.log(line);
  return {
    id: cost.id,
    what: cost.what,
    baseline: cost.baseline,
    goal: 'reported: what exact types cost an editor (no goal set)',
    result: cost.result,
    met: null,
    details: { compiler: cost.compiler, runs: cost.runs, modes: cost.modes },
  };
}

/** Starts a child process running `script`, resolving once it printed its first line. */
async function child(
  script: string,
  env: Record<string, string>,
): Promise<{ proc: ChildProcess; first: string; next: Promise<string> }> {
  const proc = spawn(process.execPath, [`${root}${script}`], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffer = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      const w = waiting.shift();
      if (w) w(line);
      else lines.push(line);
    }
  });
  const line = () =>
    new Promise<string>((resolve, reject) => {
      const l = lines.shift();
      if (l !== undefined) return resolve(l);
      waiting.push(resolve);
      proc.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    });
  const first = await line();
  const next = line();
  next.catch(() => {}); // a process killed on purpose (B10) never prints it
  return { proc, first, next };
}

/**
 * B9: four processes sharing one rate limit through Redis (`createRedisRateLimitStore`) against the
 * mock's limit, against one process sending the same total with its own limiter.
 */
/** A row that needs redis-server, on a machine without it (outside CI, which installs it). */
const noRedis = (id: string): Row => ({
  id,
  what: 'needs redis-server (Debian package redis-server)',
  baseline: '—',
  goal: '—',
  result: 'skipped: no redis-server on this machine',
  met: null,
  details: {},
});

async function b9(): Promise<Row> {
  if (!REDIS_SERVER) return noRedis('B9');
  const limit = { requests: 100, perMs: quick ? 200 : 2000 };
  const each = quick ? 25 : 200;
  const processes = 4;
  const redis = await startRedis();
  const api = createMockApi({ tokens: [TOKEN], rateLimit: limit });
  const server = await api.listen({ port: 0 });
  const run = async (n: number, requests: number, shared: boolean) => {
    api.reset();
    const kids = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        child('test/helpers/rate-client.mjs', {
          BASE_URL: server.url,
          TOKEN,
          REQUESTS: String(requests),
          LIMIT_REQUESTS: String(limit.requests),
          LIMIT_PER_MS: String(limit.perMs),
          PREFIX: `P${i}`,
          KEY: `b9:${n}`,
          ...(shared ? { REDIS_SOCKET: redis.socket } : {}),
        }),
      ),
    );
    const t0 = performance.now();
    for (const k of kids) k.proc.stdin!.write('go\n');
    const results = (await Promise.all(kids.map((k) => k.next))).map(
      (line) => JSON.parse(line) as { requests: number; received429: number; ms: number },
    );
    const ms = performance.now() - t0;
    return {
      ms,
      requests: results.reduce((a, r) => a + r.requests, 0),
      received429: results.reduce((a, r) => a + r.received429, 0),
    };
  };
  try {
    const one = await run(1, each * processes, false);
    const four = await run(processes, each, true);
    const ratio = four.ms / one.ms;
    return {
      id: 'B9',
      what: `${processes} processes × ${each} bulk requests sharing one \`rateLimit\` through Redis (\`createRedisRateLimitStore\`), against the mock limited to ${limit.requests} requests per ${limit.perMs / 1000} s`,
      baseline: `one process sending all ${each * processes} requests with its own limiter`,
      goal: '0 × 429; wall ≤ 1.10× the baseline',
      result: `${four.received429} × 429 (${four.requests} requests); ${(four.ms / 1000).toFixed(2)} s = ${ratio.toFixed(2)}× one process (${(one.ms / 1000).toFixed(2)} s, ${one.received429} × 429)`,
      met: four.received429 === 0 && ratio <= 1.1,
      details: { one, four, ratio },
    };
  } finally {
    await server.close();
    await redis.stop();
  }
}

/**
 * B10: three webhook receiver processes sharing `createRedisDeduplicator`; 1,000 events delivered
 * 1–3 times (duplicates often at once on two replicas), a tenth of first attempts failing, one
 * replica killed with SIGKILL mid-run and started again, the provider retrying every non-2xx.
 */
async function b10(): Promise<Row> {
  if (!REDIS_SERVER) return noRedis('B10');
  const events = quick ? 100 : 1000;
  const secret = 'b10-secret';
  const redis = await startRedis();
  const env = {
    REDIS_SOCKET: redis.socket,
    SECRET: secret,
    PREFIX: 'b10:',
    CLAIM_TTL_MS: '1000',
    HANDLER_MS: '50',
  };
  const replicas = await Promise.all([0, 1, 2].map(() => child('test/helpers/webhook-receiver.mjs', env)));
  const urls = replicas.map((r) => r.first);
  try {
    const t0 = performance.now();
    const run = deliver({ events, replicas: () => urls, secret, createWebhookHeaders, concurrency: 40 });
    // Mid-run: once a third of the events are handled, kill a replica while it handles others.
    const { nodeRedisClient } = await import('../test/helpers/redis-server.ts');
    const reader = await nodeRedisClient(redis.socket);
    const count = async (script: string) => Number(await reader.redis.eval(script, ['b10:handled'], []));
    for (let i = 0; i < 2000 && (await count("return redis.call('LLEN', KEYS[1])")) < events / 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    replicas[1]!.proc.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    replicas[1] = await child('test/helpers/webhook-receiver.mjs', env);
    urls[1] = replicas[1].first;
    const { ids, attempts, gaveUp, unanswered } = await run;
    const ms = performance.now() - t0;
    const handled = (await reader.redis.eval(
      "return redis.call('LRANGE', KEYS[1], 0, -1)",
      ['b10:handled'],
      [],
    )) as string[];
    await reader.close();
    const counts = new Map<string, number>();
    for (const entry of handled) {
      const id = entry.split(' ')[0]!;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const once = ids.filter((id) => counts.get(id) === 1).length;
    const twice = ids.filter((id) => (counts.get(id) ?? 0) > 1).length;
    const lost = ids.filter((id) => !counts.has(id)).length;
    return {
      id: 'B10',
      what: `3 webhook receiver processes sharing \`createRedisDeduplicator\` (claim TTL 1 s); ${events.toLocaleString('en')} events delivered 1–3 times, duplicates often concurrent, 10 % of first attempts failing, one replica killed (SIGKILL) mid-run and restarted, every non-2xx retried up to 10 times 100–300 ms apart`,
      baseline: 'every event handled exactly once',
      goal: `${events.toLocaleString('en')} handled exactly once, 0 twice, 0 lost`,
      result: `${once} exactly once, ${twice} twice or more, ${lost} lost (${attempts} deliveries, ${unanswered} cut off or refused by the killed replica, ${gaveUp} given up; ${(ms / 1000).toFixed(1)} s)`,
      met: once === events && twice === 0 && lost === 0,
      details: { events, once, twice, lost, attempts, unanswered, gaveUp, ms },
    };
  } finally {
    for (const r of replicas) r.proc.kill('SIGKILL');
    await redis.stop();
  }
}

// `--only B1,B5`: those rows alone, printed and not written (a partial run is no record).
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .toUpperCase()
  .split(',');
const all = {
  B1: b1,
  B1K: b1k,
  B2: b2,
  B4: b4,
  B4B: b4b,
  B8: b8,
  B9: b9,
  B10: b10,
  B5: b5,
  B6: b6,
  B7: b7,
  T1: t1,
};
const unknown = only?.filter((id) => !(id in all)) ?? [];
if (unknown.length > 0) {
  console.error(`bench: no row ${unknown.join(', ')} (rows: ${Object.keys(all).join(', ')})`);
  process.exit(2);
}
const rows: Row[] = [];
for (const [id, bench] of Object.entries(all)) {
  if (only && !only.includes(id)) continue;
  const row = await bench();
  rows.push(row);
  // A quick run only proves the harness works: its figures are too short to judge a goal by.
  const verdict = quick ? 'quick ' : row.met === false ? 'MISSED' : 'ok    ';
  console.log(`${row.id.padEnd(3)}  ${verdict}  ${row.result}`);
}

const machine = {
  node: process.version,
  cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  platform: `${process.platform} ${process.arch}`,
  date: new Date().toISOString().slice(0, 10),
  mode: quick ? 'quick' : 'full',
};
if (only) process.exit(0);
writeFileSync(`${root}bench/results.json`, `${JSON.stringify({ machine, rows }, null, 2)}\n`);

const table = [
  '| # | what | baseline | goal | measured | met |',
  '|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.id} | ${r.what} | ${r.baseline} | ${r.goal} | ${r.result} | ${r.met === null ? 'reported' : r.met ? 'yes' : 'no'} |`,
  ),
].join('\n');
if (quick)
  console.log(
    '\nQuick run (part of npm run test:ecosystem): the harness works; run `npm run bench` for figures.',
  );
else console.log(`\n${table}\n`);

if (!quick) {
  const notes = `${root}bench/NOTES.md`;
  let commentary = '';
  try {
    commentary = (await import('node:fs')).readFileSync(notes, 'utf8');
  } catch {}
  writeFileSync(
    `${root}BENCHMARKS.md`,
    `# Benchmarks\n\nMeasured by \`npm run bench\` on ${machine.date}: Node ${machine.node}, ${machine.cpu}, ${machine.memoryGiB} GiB, ${machine.platform}. ` +
      'Every figure is a ratio against a baseline measured in the same run (interleaved rounds; median with min–max), ' +
      'against servers on 127.0.0.1 in separate processes. Raw figures: `bench/results.json`.\n\n' +
      `${table}\n${commentary ? `\n${commentary}` : ''}`,
  );
  console.log('BENCHMARKS.md written.');
}
