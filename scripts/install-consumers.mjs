#!/usr/bin/env node
/**
 * Install tests: the PACKED package installed with a plain `npm install` (no `--legacy-peer-deps`, so
 * a peer conflict fails with ERESOLVE) into temporary consumer projects beside msw 2 and beside msw 3,
 * and used there as a consumer would. `npm run test:install`.
 *
 *   node scripts/install-consumers.mjs [--build] [--msw=2.0.0,^2,^3] [--jobs=N] [--keep] [--verbose]
 *                                      [--try-peer-range='^2.0.0 || ^3.0.0'] [--examples-from=DIR]
 *
 * - The consumers, one per msw version: for each supported msw major (`MSW_MAJORS`), its floor (the
 *   lowest version the packed package.json's `peerDependencies.msw` accepts, e.g. `2.0.0` for
 *   `^2.0.0 || ^3.0.0`) and its newest (`^2`). `--msw` replaces that list: an exact version is a
 *   "floor" consumer, a range a "newest" one.
 * - A floor consumer installs the package and msw only (no test runner, no TypeScript); a newest
 *   consumer also installs vitest (this repository's version), as the examples need.
 * - The examples: every ```ts block of README.md and docs/*.md that imports msw, extracted at
 *   each run and used AS WRITTEN, the same text beside msw 2 and msw 3 (a reader copies one block;
 *   `mswExamples`). A block marked `<!-- readme: runner=vitest -->` is also run with vitest; a
 *   block marked `uses=a,b` imports those names from scripts/readme-blocks/prelude.ts, as the
 *   README block checker does.
 * - Cases, one line each: `[peer range]` (the packed range names every supported major);
 *   per consumer `install` (`npm install --prefer-offline --no-audit --no-fund` exits 0),
 *   `versions` (the wanted msw installed, once, and this package), `<file>:<line> runs` (newest
 *   only: each vitest example), `kit` (test/consumer-types/install/msw-kit.ts run with node: the
 *   msw face beyond the README), and `types` (this repository's `tsc` on those files with the
 *   consumer options of test/consumer-types/tsconfig.json, skipLibCheck false; one case per file,
 *   `types: README.md:<line> as written, with msw <version>` for each example; errors in the
 *   dependencies' own declarations, msw's or vitest's, are printed as notes, not counted).
 * - `--build` rebuilds dist/ first (else it is built only when missing). `--jobs` bounds how many
 *   CPU-heavy steps (vitest, node, tsc) run at once; installs run side by side. `--keep` keeps the
 *   consumers and prints their folder; `--verbose` prints every output line of a failing case.
 *   `--try-peer-range` tries a peer range before package.json has it: the consumers get a copy of
 *   the tarball with that range (a trial, labelled as such; the test is the run without it).
 *   `--examples-from` reads README.md and docs/ from DIR instead (to try an example before
 *   changing the README).
 *
 * The consumers live in one `os.tmpdir()` folder, removed at the end (also on Ctrl-C). Only the
 * npm registry is reached (npm install); the mock answers in-process (msw). Every child process has
 * a timeout and is stopped by its process group id. Node is the one running this script (its folder
 * goes first in the children's PATH, so npm and its lifecycle scripts use it too).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { consumerCompilerOptions, parseDiagnostics, SOURCES } from './consumer-types.mjs';
import { caseReporter, cliArgs, runMain, seconds } from './lib/cli.mjs';
import { ensureBuilt, NPM, PACKAGE, packWithRetry, ROOT } from './lib/package.mjs';
import { cores, runProcess, WINDOWS, withTempDir } from './lib/process.mjs';
import { blockModule, extractBlocks, markdownFiles } from './readme-blocks.mjs';

/** The msw majors the package supports: its peer range must accept each. */
export const MSW_MAJORS = [2, 3];
const KIT_FILE = 'msw-kit.ts';
const MINUTE = 60_000;
const TIMEOUTS = { install: 5 * MINUTE, vitest: 2 * MINUTE, node: MINUTE, tsc: 2 * MINUTE };

// ---------------------------------------------------------------------------------------------
// The msw examples of README.md and docs/
// ---------------------------------------------------------------------------------------------

const IMPORTS_MSW = /\bfrom\s+['"]msw(\/[^'"]*)?['"]/;

/**
 * The ```ts blocks of README.md and docs/*.md that import msw, read as the block checker reads them
 * (scripts/readme-blocks.mjs: its directives, its module with the `uses` prelude): `{ where, uses,
 * run, file, source }`, `run` for a `runner=vitest` block (a test file, run with vitest here too).
 */
export function mswExamples(root = ROOT) {
  return markdownFiles(root).flatMap((name) =>
    extractBlocks(readFileSync(path.join(root, name), 'utf8'), name)
      .filter((block) => IMPORTS_MSW.test(block.code))
      .map((block) => {
        const base = `example-${name.replace(/\.md$/, '').replace(/[^\w]+/g, '-')}-${block.line}`;
        const run = block.directives.runner === 'vitest';
        // A vitest test file's name must end in .test.ts for vitest to pick it up.
        const file = run ? `${base}.test.ts` : `${base}.ts`;
        return {
          where: `${name}:${block.line}`,
          uses: block.directives.uses,
          run,
          file,
          source: blockModule(block),
        };
      }),
  );
}

// ---------------------------------------------------------------------------------------------
// Versions and ranges (only the forms used here: `^X.Y.Z` parts joined by `||`, `^X`, `X.Y.Z`)
// ---------------------------------------------------------------------------------------------

/** The lowest version of each `^X.Y.Z` part of `range`, by major: `{ 2: '2.0.0', 3: '3.0.0' }`. */
export function caretFloors(range) {
  const floors = {};
  for (const part of range.split('||').map((p) => p.trim())) {
    const m = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(part);
    if (m) floors[Number(m[1])] = `${m[1]}.${m[2]}.${m[3]}`;
  }
  return floors;
}

const isExact = (spec) => /^\d+\.\d+\.\d+$/.test(spec);

/** Whether `version` is what `spec` (`X.Y.Z` or `^X`, `^X.Y.Z`) asked for. */
function matches(version, spec) {
  if (isExact(spec)) return version === spec;
  const m = /^\^(\d+)(?:\.(\d+)\.(\d+))?$/.exec(spec);
  if (!m) return true; // another form: npm resolved it, nothing more to check here
  const [major, minor, patch] = version.split('.').map((n) => Number.parseInt(n, 10));
  if (major !== Number(m[1])) return false;
  if (m[2] === undefined) return true;
  return minor > Number(m[2]) || (minor === Number(m[2]) && patch >= Number(m[3]));
}

// ---------------------------------------------------------------------------------------------
// Child processes: bounded, stopped by process group
// ---------------------------------------------------------------------------------------------

/** The environment of every child: this Node first in PATH, none of a parent `npm run`'s package settings. */
function childEnv() {
  const keep = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_globalconfig']);
  keep.add('npm_config_registry').add('npm_config_cafile').add('npm_config_strict_ssl');
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) && !keep.has(key.toLowerCase())) continue;
    env[key] = value;
  }
  const pathKey = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  env[pathKey] = [path.dirname(process.execPath), env[pathKey]].filter(Boolean).join(path.delimiter);
  return { ...env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0', NO_UPDATE_NOTIFIER: '1' };
}

/**
 * Runs `command args` in `cwd` in a process group of its own, SIGTERM at `timeout` and SIGKILL 5 s
 * later; resolves with `{ code, signal, output, timedOut, ms }`, never rejects.
 */
const run = (command, args, { cwd, timeout }) =>
  runProcess(command, args, {
    cwd,
    env: childEnv(),
    shell: WINDOWS && command === NPM, // npm.cmd is a batch file: it needs a shell on Windows
    timeoutMs: timeout,
    group: true,
    graceMs: 5000,
  });

/** A counting semaphore: `await use(fn)` runs `fn` when one of `limit` slots is free. */
function slots(limit) {
  let free = limit;
  const waiting = [];
  return async (fn) => {
    if (free === 0) await new Promise((resolve) => waiting.push(resolve));
    else free--;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

// ---------------------------------------------------------------------------------------------
// One consumer
// ---------------------------------------------------------------------------------------------

const tail = (text, lines) => text.trim().split(/\r?\n/).slice(-lines);

function failedRun(result, what) {
  if (result.timedOut) return [`${what} timed out (stopped)`, ...tail(result.output, 20)];
  return [`${what} exited with ${result.signal ?? result.code}`, ...tail(result.output, 40)];
}

/** The lines of an npm ERESOLVE report that say who conflicts with whom. */
function eresolve(output) {
  if (!/ERESOLVE/.test(output)) return undefined;
  const lines = output.split(/\r?\n/).filter((l) => /Could not resolve|Found:|peer|While resolving/.test(l));
  return ['ERESOLVE: a peer range refuses this msw', ...lines.slice(0, 12).map((l) => l.trim())];
}

/** Builds, installs and exercises one consumer; returns its cases. */
async function exercise({ consumer, dir, tarball, vitestSpec, examples, cpu }) {
  const cases = [];
  const add = (name, ok, details = [], notes = []) => cases.push({ name, ok, details, notes });
  mkdirSync(dir, { recursive: true });
  const devDependencies = { msw: consumer.spec, ...(consumer.readme ? { vitest: vitestSpec } : {}) };
  const pkg = {
    name: `consumer-${consumer.id}`,
    private: true,
    type: 'module',
    dependencies: { [PACKAGE]: `file:${path.relative(dir, tarball).split(path.sep).join('/')}` },
    devDependencies,
  };
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);

  const install = await run(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: dir,
    timeout: TIMEOUTS.install,
  });
  const installed = install.code === 0 && !install.timedOut;
  add(
    `install (npm install, ${seconds(install.ms)})`,
    installed,
    installed ? [] : (eresolve(install.output) ?? failedRun(install, 'npm install')),
  );
  if (!installed) return cases;

  const modules = path.join(dir, 'node_modules');
  const version = (name, base = modules) => {
    try {
      return JSON.parse(readFileSync(path.join(base, name, 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  const msw = version('msw');
  consumer.installed = msw;
  const nested = path.join(modules, PACKAGE, 'node_modules', 'msw');
  const problems = [];
  if (!msw) problems.push('node_modules/msw is missing');
  else if (!matches(msw, consumer.spec)) problems.push(`msw ${msw} installed, ${consumer.spec} wanted`);
  if (existsSync(nested))
    problems.push(`a second msw under ${PACKAGE}/node_modules (${version('msw', path.dirname(nested))})`);
  if (version(PACKAGE) !== consumer.packageVersion) problems.push(`${PACKAGE} ${version(PACKAGE)} installed`);
  add(`versions (msw ${msw ?? '?'}, ${PACKAGE} ${version(PACKAGE) ?? '?'})`, problems.length === 0, problems);

  const files = [KIT_FILE];
  copyFileSync(path.join(SOURCES, 'install', KIT_FILE), path.join(dir, KIT_FILE));
  // The examples as written, the same text for msw 2 and msw 3: a reader copies one block.
  const shown = consumer.readme ? examples : [];
  for (const example of shown) {
    writeFileSync(path.join(dir, example.file), example.source);
    files.push(example.file);
  }
  if (shown.some((example) => example.uses.length > 0)) {
    copyFileSync(path.join(ROOT, 'scripts', 'readme-blocks', 'prelude.ts'), path.join(dir, 'prelude.ts'));
    files.push('prelude.ts');
  }
  for (const example of shown.filter((e) => e.run)) {
    const vitest = await cpu(() =>
      run(process.execPath, [path.join(modules, 'vitest', 'vitest.mjs'), 'run', example.file], {
        cwd: dir,
        timeout: TIMEOUTS.vitest,
      }),
    );
    const ran = /Tests\s+\d+ passed/.test(vitest.output) && !/Tests\s.*\bfailed\b/.test(vitest.output);
    add(
      `${example.where} runs (vitest ${version('vitest') ?? '?'}, ${seconds(vitest.ms)})`,
      vitest.code === 0 && !vitest.timedOut && ran,
      vitest.code === 0 && !ran
        ? ['vitest passed no test', ...tail(vitest.output, 20)]
        : failedRun(vitest, 'vitest run'),
    );
  }

  const kit = await cpu(() => run(process.execPath, [KIT_FILE], { cwd: dir, timeout: TIMEOUTS.node }));
  const checks = kit.output.split(/\r?\n/).filter((l) => /^(ok|FAIL) /.test(l));
  add(
    `kit under msw (${checks.filter((l) => l.startsWith('ok ')).length}/${checks.length} checks, ${seconds(kit.ms)})`,
    kit.code === 0 && !kit.timedOut && checks.length > 0,
    [...checks.filter((l) => l.startsWith('FAIL ')), ...failedRun(kit, `node ${KIT_FILE}`)],
  );

  const compilerOptions = consumerCompilerOptions();
  writeFileSync(path.join(dir, 'tsconfig.json'), `${JSON.stringify({ compilerOptions, files }, null, 2)}\n`);
  const tscBin = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const tsc = await cpu(() =>
    run(process.execPath, [tscBin, '-p', 'tsconfig.json', '--pretty', 'false'], {
      cwd: dir,
      timeout: TIMEOUTS.tsc,
    }),
  );
  const diagnostics = parseDiagnostics(tsc.output, dir);
  const show = (d) =>
    `${d.file ? `${path.relative(dir, d.file)}(${d.line},${d.column})` : '(global)'}: ${d.code}: ${d.message.split('\n')[0]}`;
  const ours = path.join(modules, PACKAGE) + path.sep;
  const inDependency = (d) => d.file?.startsWith(modules + path.sep) && !d.file.startsWith(ours);
  const foreign = diagnostics.filter(inDependency);
  const crashed = tsc.timedOut || tsc.signal || (tsc.code !== 0 && diagnostics.length === 0);
  const typescript = `tsc ${version('typescript', path.join(ROOT, 'node_modules')) ?? '?'}`;
  add(
    `types (${typescript}, ${seconds(tsc.ms)})`,
    !crashed,
    crashed ? failedRun(tsc, 'tsc') : [],
    foreign.length > 0
      ? [
          `note: ${foreign.length} error(s) in dependencies' own declarations, not counted (first: ${show(foreign[0])})`,
        ]
      : [],
  );
  if (crashed) return cases;
  // One case per file: the kit's, and each example under the Markdown line of its fence.
  const inFile = (file) => diagnostics.filter((d) => d.file === path.join(dir, file));
  add(`types: ${KIT_FILE}`, inFile(KIT_FILE).length === 0, inFile(KIT_FILE).map(show));
  for (const example of shown) {
    const errors = inFile(example.file);
    add(`types: ${example.where} as written, with msw ${msw}`, errors.length === 0, errors.map(show));
  }
  const elsewhere = diagnostics.filter(
    (d) =>
      !inDependency(d) && !files.some((file) => d.file === path.join(dir, file) && file !== 'prelude.ts'),
  );
  if (elsewhere.length > 0) add('types: other files', false, elsewhere.map(show));
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const { flag, value, list, number } = cliArgs(argv);
  return {
    build: flag('build'),
    keep: flag('keep'),
    verbose: flag('verbose'),
    msw: list('msw')?.filter(Boolean),
    tryPeerRange: value('try-peer-range'),
    jobs: number('jobs'),
    examplesFrom: value('examples-from'),
  };
}

/** The package.json inside the tarball (what consumers get), read without unpacking the rest. */
function readPacked(tarball, tmp) {
  const dir = path.join(tmp, 'packed');
  mkdirSync(dir);
  execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1', 'package/package.json'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 30_000,
  });
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
}

/**
 * A copy of `tarball` whose package.json has `peerDependencies.msw` = `range`: to try a range before
 * changing package.json (`--try-peer-range`). A trial, never the test: the run says so.
 */
function withPeerRange(tarball, tmp, range) {
  const dir = path.join(tmp, 'trial');
  mkdirSync(dir);
  const tar = (args) => execFileSync('tar', args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
  tar(['-xzf', tarball, '-C', dir]);
  const file = path.join(dir, 'package', 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  pkg.peerDependencies = { ...pkg.peerDependencies, msw: range };
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
  const trial = tarball.replace(/\.tgz$/, '-trial.tgz');
  tar(['-czf', trial, '-C', dir, 'package']);
  return trial;
}

export async function main(argv = process.argv.slice(2)) {
  const started = performance.now();
  const args = parseArgs(argv);
  const warning = ensureBuilt({ force: args.build });
  if (warning) console.log(warning);
  const examples = mswExamples(args.examplesFrom ? path.resolve(args.examplesFrom) : ROOT);
  if (examples.length === 0) throw new Error('README.md and docs/ have no msw example');
  const vitestSpec = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).devDependencies
    ?.vitest;
  if (!vitestSpec) throw new Error('package.json has no vitest devDependency');

  const report = caseReporter({ verbose: args.verbose, maxDetails: 12, moreHint: ' (--verbose)' });
  const testConsumers = async (tmp) => {
    // A pack missing declarations (a build running meanwhile) is retried twice.
    let tarball = await packWithRetry(tmp, { waitMs: 10_000, onlyIncomplete: true });
    if (args.tryPeerRange) {
      tarball = withPeerRange(tarball, tmp, args.tryPeerRange);
      console.log(`TRIAL: peerDependencies.msw set to "${args.tryPeerRange}" in a copy of the tarball`);
    }
    const packed = readPacked(tarball, tmp);
    const range = packed.peerDependencies?.msw ?? '';
    const floors = caretFloors(range);
    const missing = MSW_MAJORS.filter((major) => !floors[major]);
    report.print('', {
      name: `[peer range] peerDependencies.msw "${range}" accepts msw ${MSW_MAJORS.join(' and ')}`,
      ok: missing.length === 0,
      details: missing.map((major) => `no ^${major}.x.y part: a project on msw ${major} gets ERESOLVE`),
    });

    const specs = args.msw ?? MSW_MAJORS.flatMap((major) => [floors[major], `^${major}`].filter(Boolean));
    const consumers = specs.map((spec) => ({
      spec,
      id: `msw-${spec.replace(/[^\w.]+/g, '')}${isExact(spec) ? '' : '-newest'}`,
      readme: !isExact(spec),
      packageVersion: packed.version,
    }));
    const cpu = slots(args.jobs ?? Math.max(1, Math.floor(cores() / 2)));
    const work = consumers.map((consumer) =>
      exercise({ consumer, dir: path.join(tmp, consumer.id), tarball, vitestSpec, examples, cpu }).catch(
        (error) => [{ name: 'crashed', ok: false, details: String(error.stack ?? error).split('\n') }],
      ),
    );
    for (const [index, consumer] of consumers.entries()) {
      const cases = await work[index];
      const label = `msw@${consumer.spec}${consumer.installed ? ` (${consumer.installed})` : ''} `;
      for (const c of cases) report.print(label, c);
    }
  };
  // With --keep, the consumers stay on Ctrl-C too.
  await withTempDir('mf-install-', testConsumers, {
    keep: args.keep,
    keepOnInterrupt: args.keep,
    stopSignal: 'SIGKILL',
    kept: (tmp) => `\nkept the consumers in ${tmp}`,
  });
  const trial = args.tryPeerRange ? ` (TRIAL with peerDependencies.msw "${args.tryPeerRange}")` : '';
  console.log(
    `\n${report.passed} passed, ${report.failed} failed; ${seconds(performance.now() - started)}${trial}`,
  );
  return report.failed === 0 ? 0 : 1;
}

runMain(import.meta.url, main);
