/**
 * The package as a consumer gets it: dist/ built, the package packed with `npm pack --ignore-scripts`
 * (no lifecycle scripts: dist/ is already built) and unpacked into a consumer project beside this
 * repository's dependencies; and the cache folder of the tools the scripts install on first use.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WINDOWS } from './process.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const PACKAGE = 'merchant-fulfillment';
/** The npm command (run with `shell: WINDOWS`). */
export const NPM = WINDOWS ? 'npm.cmd' : 'npm';

// ---------------------------------------------------------------------------------------------
// Building
// ---------------------------------------------------------------------------------------------

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Builds dist/ when it is missing (or when `force`). Returns a warning when dist/ is older than
 * src/ (the run then tests stale declarations), else `undefined`.
 */
export function ensureBuilt({ force = false, log = console.log } = {}) {
  const marker = path.join(ROOT, 'dist', 'index.d.ts');
  if (force || !existsSync(marker)) {
    log(force ? 'Building dist/ (--build) ...' : 'dist/ is missing: running npm run build ...');
    execFileSync(NPM, ['run', 'build'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      shell: WINDOWS,
    });
    return undefined;
  }
  if (newestMtime(path.join(ROOT, 'src')) > statSync(marker).mtimeMs) {
    return 'warning: dist/ is older than src/: these results are for the last build (run `npm run build`, or pass --build)';
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Packing
// ---------------------------------------------------------------------------------------------

/**
 * The files package.json "exports" names, e.g. `dist/index.js`, `dist/index.d.cts`; with
 * `typesOnly`, those of its `types` conditions only.
 */
export function exportedFiles({ typesOnly = false } = {}) {
  const files = new Set();
  const walk = (value, key) => {
    if (typeof value === 'string') {
      if (!typesOnly || key === 'types') files.add(value.replace(/^\.\//, ''));
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  walk(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).exports);
  return [...files].sort();
}

/** The declaration files named by package.json "exports" (`types` conditions), e.g. `dist/index.d.ts`. */
export const declarationFiles = () => exportedFiles({ typesOnly: true });

/** How packPackage's error for a package missing files begins its advice. */
const INCOMPLETE = /is a build of dist\/ running/;

/**
 * `npm pack`s the package into `destination`; returns the tarball's path. Every file of `check`
 * (default: the declaration files the exports map names) must be in the tarball: a build running at
 * the same time, which first deletes dist/, would otherwise give a partial package and baffling
 * errors.
 */
export function packPackage(destination, { check = declarationFiles() } = {}) {
  const info = npmPack(destination);
  const packed = new Set(info.files.map((f) => f.path));
  const missing = check.filter((file) => !packed.has(file));
  if (missing.length > 0) {
    throw new Error(
      `the packed package lacks ${missing.join(', ')}: is a build of dist/ running? Retry once it is done.`,
    );
  }
  return path.join(destination, info.filename);
}

/** `npm pack` into `destination`: npm's report of the tarball (`filename`, `files`, sizes). */
export function npmPack(destination) {
  const out = execFileSync(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: WINDOWS,
  });
  return JSON.parse(out.slice(out.indexOf('[')))[0];
}

/**
 * packPackage, tried up to three times, `waitMs` apart (a build of dist/ running meanwhile leaves the
 * package incomplete for a while). With `onlyIncomplete`, any other failure is thrown at once.
 */
export async function packWithRetry(destination, { waitMs, onlyIncomplete = false, log = console.log } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return packPackage(destination);
    } catch (error) {
      const message = String(error.message);
      if (attempt === 3 || (onlyIncomplete && !INCOMPLETE.test(message))) throw error;
      log(`pack failed (${message.split('\n')[0]}); retrying in ${waitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// A consumer project
// ---------------------------------------------------------------------------------------------

/** Unpacks `tarball` as `dir`/node_modules/merchant-fulfillment (where npm installs it); returns that folder. */
export function unpackPackage(tarball, dir) {
  const pkgDir = path.join(dir, 'node_modules', PACKAGE);
  mkdirSync(pkgDir, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1']);
  return pkgDir;
}

/** Symlinks each of `names` (`zod`, `@types/node`) from this repository's node_modules into `dir`/node_modules. */
export function linkDependencies(dir, names) {
  for (const name of names) {
    const target = path.join(ROOT, 'node_modules', name);
    if (!existsSync(target)) throw new Error(`node_modules/${name} is missing: run npm install`);
    const link = path.join(dir, 'node_modules', name);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(target, link, 'dir');
  }
}

// ---------------------------------------------------------------------------------------------
// Tools installed on first use
// ---------------------------------------------------------------------------------------------

/**
 * The cache folder of the tools installed on first use, `node_modules/.cache/merchant-fulfillment/`
 * (`parts` joined under it). Not devDependencies: several `typescript` or `node` packages in one
 * `node_modules` would fight over their command.
 */
export const cacheDir = (...parts) => path.join(ROOT, 'node_modules', '.cache', PACKAGE, ...parts);

/**
 * Readies `dir` (created, with a private package.json) for an install of `spec` alone into it, and
 * returns the arguments of that `npm` command (no save, no lock file, no audit).
 */
export function prepareCacheInstall(dir, spec) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
  return ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', dir, spec];
}
