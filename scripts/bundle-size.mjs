#!/usr/bin/env node
/**
 * What an app's bundle gets from the package, measured on the PACKED tarball (what
 * `npm install merchant-fulfillment` gives) in a temporary consumer, bundled with esbuild
 * (minified, ESM, `platform: 'neutral'`) and gzipped.
 *
 *   node scripts/bundle-size.mjs [--json]
 *
 * Run by `npm test` (after the build) as a check: an app that imports only `verifyWebhook` must get
 * no byte of ky and no module of the client, the resources or pagination; an app that imports only
 * the schemas must get no ky either. Sizes are printed as figures, never asserted (they are the
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
  clientOnly: "export { FulfillmentClient } from 'merchant-fulfillment';",
  schemasOnly: "export * from 'merchant-fulfillment/schemas';",
};

/** Modules of the package that a webhook-only app must not contain. */
const NOT_IN_VERIFY_ONLY = [
  /\/client\.js$/,
  /\/resources\//,
  /\/core\/pagination\.js$/,
  /\/core\/transport\.js$/,
];

/**
 * Packs the package, installs it into a temporary consumer (its dependencies linked from this
 * repository) and bundles each app. Returns per app: gzip and raw bytes, bytes per dependency and
 * the package's own modules that ended up in the output.
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
      const output = Object.values(result.metafile.outputs)[0];
      const dependencies = {};
      const modules = [];
      for (const [file, info] of Object.entries(output.inputs)) {
        if (info.bytesInOutput === 0) continue;
        const dep = /node_modules\/(ky|zod)\//.exec(file)?.[1];
        if (dep) dependencies[dep] = (dependencies[dep] ?? 0) + info.bytesInOutput;
        else if (file.includes('merchant-fulfillment/'))
          modules.push(file.replace(/.*merchant-fulfillment\//, ''));
      }
      results[name] = {
        gzip: gzipSync(code).length,
        raw: code.length,
        dependencies,
        modules: modules.sort(),
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
  const verify = results.verifyOnly;
  if (verify.dependencies.ky) problems.push(`verifyWebhook only: ${verify.dependencies.ky} bytes of ky`);
  for (const file of verify.modules) {
    if (NOT_IN_VERIFY_ONLY.some((re) => re.test(file))) problems.push(`verifyWebhook only: bundles ${file}`);
  }
  if (results.schemasOnly.dependencies.ky) problems.push('schemas only: bundles ky');
  return problems;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

if (isMain(import.meta.url)) {
  const results = await measureBundles();
  if (process.argv.includes('--json')) console.log(JSON.stringify(results, null, 2));
  for (const [name, r] of Object.entries(results)) {
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
  console.log('tree-shaking: verifyWebhook alone bundles no ky, client, resources or pagination');
}
