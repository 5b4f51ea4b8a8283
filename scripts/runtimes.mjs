#!/usr/bin/env node
/**
 * Runtime smoke tests: runs scripts/runtime-smoke/ on the BUILT and PACKED package (what
 * `npm install merchant-fulfillment` gives) under Node 22.0.0 (the `engines` floor), the newest
 * Node 22, Node 24, Node 26, Bun and Deno. `npm run test:runtimes`.
 *
 *   node scripts/runtimes.mjs [--only=node22.0,node22,node24,node26,bun,deno] [--build] [--reinstall]
 *                             [--timeout=SECONDS] [--keep] [--verbose]
 *
 * - `--only` picks runtimes by id (`node22`, `bun`) or by name (`node` is all three Node versions).
 *   `--build` rebuilds dist/ first (by default it is built only when missing). `--reinstall`
 *   installs the cached runtimes again (their newest version in range). `--timeout` bounds each
 *   smoke run (default 60 s). `--keep` keeps the consumer project and prints its path. `--verbose`
 *   prints the output of every run, not only of the failing ones.
 * - Prints one line per runtime (`ok` / `FAIL` / `skip`, its version, how long the smoke took), the
 *   total time, then `N passed, M failed, K skipped`; exits with 1 when anything failed.
 *
 * The runtimes: Node 24 is the project's own (`node_modules/.bin/node`, a devDependency); the others
 * are the registry's `node`, `bun` and `deno` packages, installed on first use into
 * `node_modules/.cache/merchant-fulfillment/runtimes/<id>/` (not devDependencies: several `node`
 * packages in one `node_modules` would fight over the `node` command). A runtime with no build for
 * this platform is skipped; one that fails to install or to start is a failure.
 *
 * The consumer project is one `os.tmpdir()` folder (removed at the end, also on Ctrl-C): the tarball
 * of `npm pack --ignore-scripts` installed with its dependencies from the registry, and the smoke
 * files. Each runtime runs `smoke.mjs` there (the client over the mock, in-process and over a real
 * server; webhook signing, verification and `createWebhookHandler(...).fetch` from both builds; the
 * client's events; the error classes; `connectMock` and CORS against the real server), which loads
 * `require.cjs` for the CommonJS side:
 * - node: `node smoke.mjs`;
 * - bun: `bun run smoke.mjs`;
 * - deno: `deno run --node-modules-dir=manual --allow-net=127.0.0.1 --allow-read=<project>`, and no
 *   other permission: no environment access, as every client option is passed.
 * The FULFILLMENT_* variables the SDK reads when an option is missing are set to wrong values for
 * every run, so a client that read one instead of its option would fail.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runMain, seconds } from './lib/cli.mjs';
import {
  cacheDir,
  ensureBuilt,
  exportedFiles,
  NPM,
  packPackage,
  prepareCacheInstall,
  ROOT,
} from './lib/package.mjs';
import { runProcess, WINDOWS, withTempDir } from './lib/process.mjs';

const SMOKE = path.join(ROOT, 'scripts', 'runtime-smoke');
const SMOKE_FILES = ['smoke.mjs', 'require.cjs'];
const CACHE = cacheDir('runtimes');
/** Bound of one `npm install` (a runtime, or the consumer's dependencies). */
const INSTALL_TIMEOUT_MS = 300_000;
/** Time a stopped child gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 3_000;
/** Most output kept per child (the end of it). */
const OUTPUT_LIMIT = 64 * 1024;

/** Where a runtime's registry package has builds (`process.platform-process.arch`, `linux-x64-musl`). */
const BUN_PLATFORMS = [
  'linux-x64',
  'linux-arm64',
  'linux-x64-musl',
  'linux-arm64-musl',
  'darwin-x64',
  'darwin-arm64',
  'win32-x64',
];
const DENO_PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];

/**
 * The runtimes. `spec`: the registry package installed into the cache (none: the project's own
 * Node). `major`: the major version the run must report. `platforms`: where the package has a build
 * (any platform when absent). `args`: the command line, given the consumer project's folder.
 */
export const RUNTIMES = [
  // The floor of package.json "engines" (>=22), and the newest 22.x.
  { id: 'node22.0', name: 'node', major: 22, spec: 'node@22.0.0', bin: 'node', args: () => ['smoke.mjs'] },
  { id: 'node22', name: 'node', major: 22, spec: 'node@22', bin: 'node', args: () => ['smoke.mjs'] },
  { id: 'node24', name: 'node', major: 24, bin: 'node', args: () => ['smoke.mjs'] },
  { id: 'node26', name: 'node', major: 26, spec: 'node@26', bin: 'node', args: () => ['smoke.mjs'] },
  {
    id: 'bun',
    name: 'bun',
    major: 1,
    spec: 'bun@^1',
    bin: 'bun',
    platforms: BUN_PLATFORMS,
    args: () => ['run', '--no-install', 'smoke.mjs'],
  },
  {
    id: 'deno',
    name: 'deno',
    major: 2,
    spec: 'deno@^2',
    bin: 'deno',
    platforms: DENO_PLATFORMS,
    args: (dir) => [
      'run',
      '--node-modules-dir=manual',
      '--no-prompt',
      '--no-lock',
      '--allow-net=127.0.0.1',
      `--allow-read=${dir}`,
      'smoke.mjs',
    ],
  },
];

/** Values the client must never use: every option is passed, so these variables must go unread. */
const WRONG_ENV = {
  FULFILLMENT_API_TOKEN: 'wrong-token-from-the-environment',
  FULFILLMENT_BASE_URL: 'http://127.0.0.1:9/from-the-environment',
  FULFILLMENT_LOG: 'off',
};

function parseArgs(argv) {
  const args = { only: undefined, build: false, reinstall: false, timeout: 60, keep: false, verbose: false };
  for (const arg of argv) {
    const [key, value] = arg.split(/=(.*)/s, 2);
    if (key === '--only' && value) args.only = value.split(',').map((s) => s.trim());
    else if (key === '--timeout' && Number(value) > 0) args.timeout = Number(value);
    else if (key === '--build' && value === undefined) args.build = true;
    else if (key === '--reinstall' && value === undefined) args.reinstall = true;
    else if (key === '--keep' && value === undefined) args.keep = true;
    else if (key === '--verbose' && value === undefined) args.verbose = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (args.only) {
    const known = new Set(RUNTIMES.flatMap((r) => [r.id, r.name]));
    const unknown = args.only.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new Error(`--only: unknown ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
    }
  }
  return args;
}

const firstLine = (text) =>
  String(text ?? '')
    .trim()
    .split('\n')[0];

/** This platform as the runtime tables name it: `linux-x64`, `linux-x64-musl`, `darwin-arm64`. */
function platformId() {
  let id = `${process.platform}-${process.arch}`;
  if (process.platform === 'linux') {
    const glibc = process.report?.getReport?.().header?.glibcVersionRuntime;
    if (!glibc) id += '-musl';
  }
  return id;
}

// ---------------------------------------------------------------------------------------------
// Children: every one tracked, bounded in time, stopped by its pid
// ---------------------------------------------------------------------------------------------

/**
 * Runs `command args` in `cwd` for at most `timeoutMs` (then SIGTERM, and SIGKILL `KILL_GRACE_MS`
 * later): `{ code, signal, timedOut, output, ms }`, the end of the output only.
 */
const run = (command, args, { cwd, env, timeoutMs, shell = false }) =>
  runProcess(command, args, {
    cwd,
    env,
    shell,
    timeoutMs,
    graceMs: KILL_GRACE_MS,
    outputLimit: OUTPUT_LIMIT,
  });

// ---------------------------------------------------------------------------------------------
// Runtimes: the project's Node, the others installed into the cache on first use
// ---------------------------------------------------------------------------------------------

function binPath(runtime) {
  const modules = runtime.spec
    ? path.join(CACHE, runtime.id, 'node_modules')
    : path.join(ROOT, 'node_modules');
  return path.join(modules, '.bin', WINDOWS ? `${runtime.bin}.cmd` : runtime.bin);
}

/** The version a runtime binary reports, or throws with what it printed. */
async function probeVersion(runtime, bin) {
  const result = await run(bin, ['--version'], {
    cwd: ROOT,
    env: process.env,
    timeoutMs: 30_000,
    shell: WINDOWS,
  });
  const version = /(\d+\.\d+\.\d+)/.exec(result.output)?.[1];
  if (result.code !== 0 || !version) {
    throw new Error(`${runtime.bin} --version failed: ${firstLine(result.output) || `exit ${result.code}`}`);
  }
  return version;
}

async function install(runtime) {
  const dir = path.join(CACHE, runtime.id);
  rmSync(dir, { recursive: true, force: true });
  const result = await run(NPM, prepareCacheInstall(dir, runtime.spec), {
    cwd: dir,
    env: process.env,
    timeoutMs: INSTALL_TIMEOUT_MS,
    shell: WINDOWS,
  });
  if (result.code !== 0) {
    const why = result.timedOut ? 'timed out' : firstLine(result.output.replace(/^npm warn .*\n/gm, ''));
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not install ${runtime.spec}: ${why}`);
  }
  writeFileSync(specMarker(runtime), `${runtime.spec}\n`);
  return result.ms;
}

/** Written once an install is complete: the spec installed (a changed spec installs again). */
const specMarker = (runtime) => path.join(CACHE, runtime.id, 'installed-spec');

function installedSpec(runtime) {
  try {
    return readFileSync(specMarker(runtime), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * A runtime ready to run: `{ bin, version, installMs }`, or `{ skip }` where it has no build for
 * this platform. Throws when it cannot be installed or does not start.
 */
async function prepare(runtime, { reinstall, log }) {
  if (runtime.platforms && !runtime.platforms.includes(platformId())) {
    return { skip: `no ${runtime.spec} build for ${platformId()}` };
  }
  const bin = binPath(runtime);
  let installMs = 0;
  if (runtime.spec && (reinstall || installedSpec(runtime) !== runtime.spec || !existsSync(bin))) {
    log(`installing ${runtime.spec} into ${path.relative(ROOT, path.join(CACHE, runtime.id))} ...`);
    installMs = await install(runtime);
  } else if (!existsSync(bin)) {
    throw new Error(`${path.relative(ROOT, bin)} is missing: run npm install`);
  }
  let version;
  try {
    version = await probeVersion(runtime, bin);
  } catch (error) {
    if (!runtime.spec || installMs > 0) throw error;
    // A cached install that no longer starts (interrupted, or moved): install it once more.
    log(`${runtime.id}: ${error.message}; installing ${runtime.spec} again ...`);
    installMs = await install(runtime);
    version = await probeVersion(runtime, bin);
  }
  if (Number(version.split('.')[0]) !== runtime.major) {
    throw new Error(`${path.relative(ROOT, bin)} is ${runtime.name} ${version}, expected ${runtime.major}.x`);
  }
  return { bin, version, installMs };
}

// ---------------------------------------------------------------------------------------------
// The packed package and the consumer project
// ---------------------------------------------------------------------------------------------

/** The consumer project in `dir`: the tarball and its dependencies installed, and the smoke files. */
async function createConsumer(dir, tarball) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'runtime-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  for (const file of SMOKE_FILES) copyFileSync(path.join(SMOKE, file), path.join(dir, file));
  const result = await run(
    NPM,
    ['install', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline', tarball],
    { cwd: dir, env: process.env, timeoutMs: INSTALL_TIMEOUT_MS, shell: WINDOWS },
  );
  if (result.code !== 0) {
    throw new Error(
      `npm install of the tarball failed${result.timedOut ? ' (timed out)' : ''}:\n${result.output}`,
    );
  }
  return result.ms;
}

/** The environment of a smoke run: no NODE_OPTIONS, wrong FULFILLMENT_* values, no telemetry. */
function smokeEnv(tmp) {
  const env = { ...process.env, ...WRONG_ENV };
  for (const name of ['NODE_OPTIONS', 'NODE_PATH', 'NODE_DEBUG']) delete env[name];
  return {
    ...env,
    NO_COLOR: '1',
    DO_NOT_TRACK: '1',
    DENO_DIR: path.join(tmp, 'deno-dir'),
    DENO_NO_UPDATE_CHECK: '1',
  };
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main() {
  const started = performance.now();
  const args = parseArgs(process.argv.slice(2));
  const runtimes = RUNTIMES.filter(
    (r) => !args.only || args.only.includes(r.id) || args.only.includes(r.name),
  );
  const warning = ensureBuilt({ force: args.build });
  if (warning) console.log(warning);

  const results = [];
  let installMs = 0;
  const smokeAll = async (tmp) => {
    const dir = path.join(tmp, 'consumer');
    // The whole exports map (JavaScript too: the runtimes run it), not only the declarations.
    const tarball = packPackage(tmp, { check: exportedFiles() });
    const consumerMs = await createConsumer(dir, tarball);
    console.log(
      `packed ${path.basename(tarball)}, installed into a consumer project in ${seconds(consumerMs)}`,
    );
    const env = smokeEnv(tmp);

    for (const runtime of runtimes) {
      let prepared;
      try {
        prepared = await prepare(runtime, {
          reinstall: args.reinstall,
          log: (line) => console.log(`  ${line}`),
        });
      } catch (error) {
        results.push({ runtime, status: 'FAIL' });
        console.log(`FAIL  ${runtime.id}  ${error.message}`);
        continue;
      }
      if (prepared.skip) {
        results.push({ runtime, status: 'skip' });
        console.log(`skip  ${runtime.id}  ${prepared.skip}`);
        continue;
      }
      installMs += prepared.installMs;
      const label = `${runtime.name} ${prepared.version}`;
      const result = await run(prepared.bin, runtime.args(dir), {
        cwd: dir,
        env,
        timeoutMs: args.timeout * 1000,
        shell: WINDOWS,
      });
      const lines = result.output.trim().split('\n');
      const expected = `ok ${label}:`;
      let why;
      if (result.timedOut) why = `timed out after ${args.timeout} s`;
      else if (result.code !== 0) why = `exit ${result.code ?? result.signal}`;
      else if (!lines.some((line) => line.startsWith(expected))) why = `no "${expected}" line`;
      // Every runtime here has node:http: the round trip must have run through a real server too.
      else if (!lines.some((line) => line.includes('mock over fetch+http'))) why = 'no round trip over http';
      // ... and the new surface: the webhook handler everywhere, connectMock over that server.
      else if (!lines.some((line) => line.includes('webhook handler'))) why = 'no webhook handler check';
      else if (!lines.some((line) => line.includes('connectMock, cors'))) why = 'no connectMock round trip';
      const status = why ? 'FAIL' : 'ok';
      results.push({ runtime, status });
      console.log(
        `${status.padEnd(4)}  ${label.padEnd(14)} ${seconds(result.ms).padStart(6)}${why ? `  ${why}` : ''}`,
      );
      if (why || args.verbose) for (const line of lines) console.log(`      ${line}`);
    }
  };
  await withTempDir('mf-runtimes-', smokeAll, {
    keep: args.keep,
    stopSignal: 'SIGTERM',
    kept: (tmp) => `kept the consumer project in ${tmp}`,
  });

  const count = (status) => results.filter((r) => r.status === status).length;
  const installed = installMs > 0 ? ` (runtimes installed in ${seconds(installMs)})` : '';
  console.log(`\ntotal ${seconds(performance.now() - started)}${installed}`);
  console.log(`${count('ok')} passed, ${count('FAIL')} failed, ${count('skip')} skipped`);
  return count('FAIL') === 0 ? 0 : 1;
}

runMain(import.meta.url, main);
