#!/usr/bin/env node
/**
 * What an app's bundle gets from the package, measured on the PACKED tarball (what
 * `npm install merchant-fulfillment` gives) in a temporary consumer, bundled with esbuild
 * (minified, ESM, `platform: 'neutral'`) and gzipped.
 *
 *   node scripts/bundle-size.mjs [--json]
 *
 * Run by `npm test` (after the build) as a check: an app that imports only `verifyWebhook` must get
 * no byte of ky or zod and nothing of the client, the transport, the resources, pagination or the
 * webhook handler; an app that imports only `createWebhookHandler` must get no byte of ky or zod and
 * nothing of the client, the transport, the resources or pagination; an app that imports only the schemas must get
 * no ky either. Sizes are printed as figures, never asserted (they are the
 * bench's job: row B6 of `npm run bench` uses {@link measureBundles}).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { isMain } from './lib/cli.mjs';
import { linkDependencies, packPackage, unpackPackage } from './lib/package.mjs';

/** The apps measured: what each imports. */
export const APPS = {
  whole: "export * from 'merchant-fulfillment';",
  verifyOnly: "export { verifyWebhook } from 'merchant-fulfillment';",
  handlerOnly: "export { createWebhookHandler } from 'merchant-fulfillment';",
  clientOnly: "export { FulfillmentClient } from 'merchant-fulfillment';",
  schemasOnly: "export * from 'merchant-fulfillment/schemas';",
};

/**
 * What a webhook-only app must not contain, found by text only that part of the package carries
 * (the ESM build is a few chunks, so the test reads the bundle, not file names). Each text is
 * checked to be in the whole SDK's bundle, so a renamed message cannot make the check pass.
 */
export const MARKERS = {
  client: 'FULFILLMENT_API_TOKEN', // core/options.ts, read by the client's constructor
  transport: 'is not repeated at another address', // core/url.ts, redirects
  resources: '/merchant_api/v1/orders', // resources/orders.ts
  pagination: 'There is no next page.', // core/pagination.ts
  handler: 'handler_failed', // webhooks/handler.ts, its answer when your handler throws
  options: 'without spaces or line breaks (not shown)', // core/options.ts, the client options' table
  helpers: 'expected milliseconds from 0 up to', // resources/order-submit.ts, submit's options' table
};

/** The parts of the package a webhook-only app must not bundle, per app (keys of {@link MARKERS}). */
export const FORBIDDEN = {
  verifyOnly: ['client', 'options', 'helpers', 'transport', 'resources', 'pagination', 'handler'],
  handlerOnly: ['client', 'options', 'helpers', 'transport', 'resources', 'pagination'],
};

/** How the report names the apps that must stay small. */
const LABELS = { verifyOnly: 'verifyWebhook only', handlerOnly: 'createWebhookHandler only' };

/**
 * Packs the package, installs it into a temporary consumer (its dependencies linked from this
 * repository) and bundles each app. Returns per app: gzip and raw bytes, bytes per dependency, and
 * which of the {@link MARKERS} the output contains.
 */
export async function measureBundles(apps = APPS) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mf-bundle-'));
  try {
    const tarball = packPackage(dir);
    const consumer = path.join(dir, 'consumer');
    unpackPackage(tarball, consumer);
    linkDependencies(consumer, ['ky', 'zod']);
    const results = {};
    for (const [name, contents] of Object.entries(apps)) {
      const result = await build({
        stdin: { contents, resolveDir: consumer, loader: 'js' },
        bundle: true,
        minify: true,
        write: false,
        metafile: true,
        format: 'esm',
        platform: 'neutral',
        mainFields: ['module', 'main'],
        treeShaking: true,
        logLevel: 'silent',
      });
      const code = result.outputFiles[0].contents;
      const text = new TextDecoder().decode(code);
      const output = Object.values(result.metafile.outputs)[0];
      const dependencies = {};
      for (const [file, info] of Object.entries(output.inputs)) {
        const dep = /node_modules\/(ky|zod)\//.exec(file)?.[1];
        if (dep && info.bytesInOutput > 0) dependencies[dep] = (dependencies[dep] ?? 0) + info.bytesInOutput;
      }
      results[name] = {
        gzip: gzipSync(code).length,
        raw: code.length,
        dependencies,
        contains: Object.keys(MARKERS).filter((part) => text.includes(MARKERS[part])),
      };
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The facts `npm test` asserts; returns the problems found. */
export function treeShakingProblems(results) {
  const problems = [];
  for (const part of Object.keys(MARKERS)) {
    if (!results.whole.contains.includes(part)) {
      problems.push(`whole SDK: no ${JSON.stringify(MARKERS[part])}: update the ${part} marker`);
    }
  }
  for (const [app, parts] of Object.entries(FORBIDDEN)) {
    const result = results[app];
    if (!result) {
      problems.push(`${LABELS[app]}: not measured`);
      continue;
    }
    for (const dep of ['ky', 'zod']) {
      if (result.dependencies[dep])
        problems.push(`${LABELS[app]}: ${result.dependencies[dep]} bytes of ${dep}`);
    }
    for (const part of parts) {
      if (result.contains.includes(part)) problems.push(`${LABELS[app]}: bundles the ${part}`);
    }
  }
  if (results.schemasOnly.dependencies.ky) problems.push('schemas only: bundles ky');
  return problems;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

if (isMain(import.meta.url)) {
  const results = await measureBundles();
  const json = process.argv.includes('--json');
  if (json) console.log(JSON.stringify(results, null, 2));
  for (const [name, r] of json ? [] : Object.entries(results)) {
    const deps = Object.entries(r.dependencies)
      .map(([d, b]) => `${d} ${kb(b)} raw`)
      .join(', ');
    console.log(
      `${name.padEnd(12)} ${kb(r.gzip).padStart(8)} gzip  (${kb(r.raw)} minified; ${deps || 'no dependency'})`,
    );
  }
  const problems = treeShakingProblems(results);
  for (const problem of problems) console.error(`FAIL ${problem}`);
  if (problems.length > 0) process.exit(1);
  if (!json) {
    console.log(
      'tree-shaking: verifyWebhook alone bundles no ky, zod, client, transport, resources, pagination or ' +
        'webhook handler; createWebhookHandler alone no ky, zod, client, transport, resources or pagination',
    );
  }
}
