#!/usr/bin/env node
/**
 * Consumer type tests: compiles small consumer projects against the BUILT and PACKED package (what
 * `npm install merchant-fulfillment` gives), with several TypeScript versions, with and without the
 * optional peer `msw` installed. `npm run test:types` (part of `npm test`) compiles with the
 * project's TypeScript only, nothing downloaded (`--ts=6.0 --resolution=none`);
 * `npm run test:types:all` (part of `npm run test:ecosystem`) runs the whole matrix: TypeScript 5.5
 * and 7 too, and every `moduleResolution`.
 *
 *   node scripts/consumer-types.mjs [--build] [--ts=5.5,6.0,7] [--variant=with-msw,without-msw]
 *                                   [--resolution=node10,node16-esm,node16-cjs,bundler|none]
 *                                   [--jobs=N] [--keep] [--verbose]
 *
 * - `--build` rebuilds dist/ first (by default it is built only when missing; a dist/ older than
 *   src/ gets a warning). `--ts` / `--variant` / `--resolution` restrict the matrix. `--jobs` sets how many compilers
 *   run at once (default: one per two cores). `--keep` keeps the temporary projects and prints
 *   their path. `--verbose` prints every line of every diagnostic of a failing case.
 * - Prints one line per compiler × variant × case (`ok` / `FAIL` and why), then `N passed, M failed`;
 *   exits with 1 when anything failed. A compiler that is not installed or does not run here is
 *   skipped with a `skip` line.
 *
 * Sources (test/consumer-types/):
 * - `tsconfig.json`: the consumer's compiler options (strict, nodenext, exactOptionalPropertyTypes,
 *   noUncheckedIndexedAccess, skipLibCheck false, types []). Also lets an editor open the files (the
 *   package then resolves to dist/ by its own name). The root tsconfig excludes this folder.
 * - `consumer/*.ts`, `*.cts`: positive files; each must compile with zero errors.
 * - `negative/*.ts`: one expected failure per file. `// @expect-error /regex/` (required): at least
 *   one error reported in the file must match it. Messages are matched as `tsc --pretty false`
 *   prints them: the message and its elaboration lines, not the related information ("The expected
 *   type comes from …"). `// @hint /regex/` (optional): a better message to hope for; when no error
 *   matches it, a note is printed (not a failure).
 * - `// @variant with-msw` (or `without-msw`) at the top of any file restricts it to that variant.
 * - `resolution/esm.ts`, `resolution/cjs.cts`: the resolution matrix's files (below).
 * - `install/`: files of scripts/install-consumers.mjs (real installs beside msw 2 and 3), not used here.
 *
 * Each consumer project is a directory under one `os.tmpdir()` folder (removed at the end, also on
 * Ctrl-C) holding the unpacked tarball as `node_modules/merchant-fulfillment`, symlinks to this
 * repository's `zod`, `ky`, `expect-type`, and `msw` in the "with-msw" variant only (TypeScript
 * follows a symlink to its real path, so msw's own dependencies resolve from this repository's
 * node_modules), and copies of the sources. In the "without-msw" variant no ancestor folder of the
 * project has a node_modules/msw or @types/msw and Node cannot resolve `msw` from it, which the
 * `[setup]` case checks. Every compiler runs its own `bin/tsc -p` (no JS API: TypeScript 7 has none).
 *
 * Besides the files, each compilation has cases for the compiler itself (it ran, no config error),
 * the package's declarations (no error in node_modules/merchant-fulfillment) and the dependencies'
 * declarations. Errors in msw's own declarations under a compiler older than msw's `typescript`
 * peer range are printed as a note, not counted: a consumer on that compiler cannot use msw's types.
 *
 * The resolution matrix (`RESOLUTION_MODES`, with the project's TypeScript only): the entry points
 * (`merchant-fulfillment`, `/schemas`, `/testing`) imported by `resolution/esm.ts` under
 * `moduleResolution` node10, node16 and bundler, and by `resolution/cjs.cts` (a CommonJS file) under
 * node16, in the "with-msw" layout. Per mode: the compiler case, the file, and one
 * `[resolution]` case per entry point, read from `--traceResolution`: it resolved into the package,
 * to declarations of the importer's format (CommonJS for node16's `.cts` and node10's
 * `module: commonjs`, ESM otherwise), except `/testing`, ESM only, always ESM (CommonJS takes
 * its types with `import type … with { 'resolution-mode': 'import' }` and loads it with
 * `await import()`). skipLibCheck is on in these projects (the main matrix checks the declarations,
 * under nodenext) except under node10, the one mode whose resolution of the declarations' own
 * imports nodenext does not cover; msw's declarations do not support node10 (their imports need
 * `exports`), so errors there are a note.
 *
 * The helpers are exported for bench/types.mjs, with those of scripts/lib/package.mjs it uses
 * (building, packing).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { caseReporter, cliArgs, runMain } from './lib/cli.mjs';
import {
  cacheDir,
  ensureBuilt,
  linkDependencies,
  NPM,
  PACKAGE,
  packPackage,
  prepareCacheInstall,
  ROOT,
  unpackPackage,
} from './lib/package.mjs';
import { cores, pool, runProcess, withTempDir } from './lib/process.mjs';

export { declarationFiles, ensureBuilt, packPackage, ROOT } from './lib/package.mjs';
export const SOURCES = path.join(ROOT, 'test', 'consumer-types');
/** Symlinked from this repository into every consumer: the package's runtime deps and the assertion library. */
const LINKED = ['zod', 'ky', 'expect-type'];

/**
 * The compilers, each run through its own `bin/tsc`: the project's TypeScript 6.0, and the other
 * versions installed on first use into a cache folder (`node_modules/.cache/`), not as
 * devDependencies: several `typescript` packages in one `node_modules` would fight over the `tsc`
 * command. `optional`: a compiler that cannot be installed or run here is skipped with a note
 * instead of failing the run (TypeScript 7 is a native binary).
 */
export const COMPILERS = [
  { id: '5.5', spec: 'typescript@~5.5.4' },
  { id: '6.0' },
  { id: '7', spec: 'typescript@^7.0.2', optional: true },
];
const CACHE = cacheDir('typescript');

/** The `tsc` of a compiler, installing a cached one on first use; `{ bin }` or `{ skip }`. */
function compilerBin(compiler) {
  if (!compiler.spec) return { bin: path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc') };
  const dir = path.join(CACHE, compiler.id);
  const bin = path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
  if (existsSync(bin)) return { bin };
  const args = prepareCacheInstall(dir, compiler.spec);
  try {
    execFileSync(NPM, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
  } catch (error) {
    return {
      bin,
      skip: `could not install ${compiler.spec}: ${
        String(error.stderr ?? error)
          .trim()
          .split('\n')[0]
      }`,
    };
  }
  return existsSync(bin) ? { bin } : { bin, skip: `${compiler.spec} installed without bin/tsc` };
}

export const VARIANTS = [
  { id: 'with-msw', msw: true },
  { id: 'without-msw', msw: false },
];

/**
 * The resolution matrix: `cjs` when the importing file is CommonJS. TypeScript 6 deprecates node10
 * (`ignoreDeprecations` is what such a consumer must set too).
 */
export const RESOLUTION_MODES = [
  {
    id: 'node10',
    file: 'resolution/esm.ts',
    cjs: true,
    options: {
      module: 'commonjs',
      moduleResolution: 'node10',
      ignoreDeprecations: '6.0',
      skipLibCheck: false,
    },
  },
  {
    id: 'node16-esm',
    file: 'resolution/esm.ts',
    cjs: false,
    options: { module: 'node16', moduleResolution: 'node16' },
  },
  {
    id: 'node16-cjs',
    file: 'resolution/cjs.cts',
    cjs: true,
    options: { module: 'node16', moduleResolution: 'node16' },
  },
  {
    id: 'bundler',
    file: 'resolution/esm.ts',
    cjs: false,
    options: { module: 'esnext', moduleResolution: 'bundler' },
  },
];
/** The entry points the resolution matrix checks, and whether each is ESM only. */
const ENTRY_POINTS = [
  { specifier: PACKAGE, esmOnly: false },
  { specifier: `${PACKAGE}/schemas`, esmOnly: false },
  { specifier: `${PACKAGE}/redis`, esmOnly: false },
  { specifier: `${PACKAGE}/testing`, esmOnly: true },
];

// ---------------------------------------------------------------------------------------------
// Laying out a consumer project
// ---------------------------------------------------------------------------------------------

/** Reads the consumer compiler options from test/consumer-types/tsconfig.json. */
export function consumerCompilerOptions() {
  return JSON.parse(readFileSync(path.join(SOURCES, 'tsconfig.json'), 'utf8')).compilerOptions;
}

/** Parses the `// @…` directives at the top of a source file. */
export function readDirectives(file) {
  const directives = { variant: undefined, expect: undefined, hint: undefined };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^\/\/\s*@(variant|expect-error|hint)\s+(.+?)\s*$/.exec(line);
    if (!m) {
      if (line.startsWith('//') || line.trim() === '') continue;
      break;
    }
    if (m[1] === 'variant') directives.variant = m[2];
    else {
      const re = /^\/(.+)\/([a-z]*)$/.exec(m[2]);
      if (!re) throw new Error(`${file}: @${m[1]} needs a /regex/, got ${m[2]}`);
      directives[m[1] === 'expect-error' ? 'expect' : 'hint'] = new RegExp(re[1], re[2]);
    }
  }
  return directives;
}

/** Every source of test/consumer-types/ (`consumer/`, `negative/`), as paths relative to it. */
export function listSources(kinds = ['consumer', 'negative']) {
  return kinds.flatMap((kind) =>
    readdirSync(path.join(SOURCES, kind))
      .filter((name) => /\.(c|m)?ts$/.test(name) && !name.endsWith('.d.ts'))
      .sort()
      .map((name) => `${kind}/${name}`),
  );
}

/**
 * Creates a consumer project in `dir`: the unpacked `tarball` as node_modules/merchant-fulfillment,
 * symlinked deps (msw only when `msw`), `files` copied from test/consumer-types/ (plus `extraFiles`,
 * a map of relative path → contents), and a tsconfig.json listing them. Returns the files compiled.
 */
export function createConsumer({ dir, tarball, msw, files, extraFiles = {}, compilerOptions }) {
  unpackPackage(tarball, dir);
  linkDependencies(dir, msw ? [...LINKED, 'msw'] : LINKED);
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    copyFileSync(path.join(SOURCES, file), path.join(dir, file));
  }
  for (const [file, text] of Object.entries(extraFiles)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const all = [...files, ...Object.keys(extraFiles)];
  const tsconfig = { compilerOptions: compilerOptions ?? consumerCompilerOptions(), files: all };
  writeFileSync(path.join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  return all;
}

/**
 * Where `msw` would resolve from `dir`, for TypeScript or Node, or `undefined`: every ancestor's
 * node_modules/msw and node_modules/@types/msw, then Node's own resolution.
 */
export function findMsw(dir) {
  for (let d = dir; ; d = path.dirname(d)) {
    for (const candidate of ['msw', '@types/msw']) {
      const p = path.join(d, 'node_modules', candidate);
      if (existsSync(p)) return p;
    }
    if (path.dirname(d) === d) break;
  }
  try {
    return createRequire(path.join(dir, 'package.json')).resolve('msw');
  } catch {
    return undefined;
  }
}

/**
 * The lowest TypeScript version msw's declarations support (its `typescript` peer range, e.g.
 * `>=5.9.x` → `[5, 9]`), or `undefined` when it states none.
 */
export function mswTypeScriptFloor() {
  try {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'msw', 'package.json'), 'utf8'));
    const m = /^>=\s*(\d+)\.(\d+)/.exec(pkg.peerDependencies?.typescript ?? '');
    return m ? { range: pkg.peerDependencies.typescript, floor: [Number(m[1]), Number(m[2])] } : undefined;
  } catch {
    return undefined;
  }
}

const below = (version, [major, minor]) => {
  const [a, b] = version.split('.').map(Number);
  return a < major || (a === major && b < minor);
};

// ---------------------------------------------------------------------------------------------
// Running a compiler
// ---------------------------------------------------------------------------------------------

/** The compilers that are installed and run, with their version; the others with the reason. */
export function probeCompilers(ids) {
  return COMPILERS.filter((c) => !ids || ids.includes(c.id)).map((compiler) => {
    const { bin, skip } = compilerBin(compiler);
    if (skip) return { ...compiler, bin, skip };
    try {
      const out = execFileSync(process.execPath, [bin, '--version'], {
        encoding: 'utf8',
        timeout: 30_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const version = /Version (\S+)/.exec(out)?.[1];
      if (!version) return { ...compiler, bin, skip: `unexpected --version output: ${out.trim()}` };
      return { ...compiler, bin, version };
    } catch (error) {
      const detail = `${error.stderr ?? ''}${error.message ?? error}`.trim().split('\n')[0];
      return { ...compiler, bin, skip: `its tsc does not run here: ${detail}` };
    }
  });
}

/**
 * Parses `tsc --pretty false` output: `file(line,col): error TSnnnn: message`, continuation lines
 * (indented) appended to the message; `error TSnnnn: message` without a file for global errors.
 * Files are made absolute against `cwd`.
 */
export function parseDiagnostics(output, cwd) {
  const diagnostics = [];
  let last;
  for (const line of output.split(/\r?\n/)) {
    const located = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/.exec(line);
    const global = located ? undefined : /^(error|warning) (TS\d+): (.*)$/.exec(line);
    if (located) {
      last = {
        file: path.resolve(cwd, located[1]),
        line: Number(located[2]),
        column: Number(located[3]),
        code: located[5],
        message: located[6],
      };
      diagnostics.push(last);
    } else if (global) {
      last = { file: undefined, line: 0, column: 0, code: global[2], message: global[3] };
      diagnostics.push(last);
    } else if (last && /^\s/.test(line) && line.trim() !== '') {
      last.message += `\n${line}`;
    } else if (line.trim() !== '') {
      last = undefined;
    }
  }
  return diagnostics;
}

/** Runs `compiler`'s tsc in `cwd` with `args`; resolves with its output, diagnostics and duration. */
export async function runTsc(compiler, cwd, args) {
  const { code, signal, stdout, stderr, ms } = await runProcess(process.execPath, [compiler.bin, ...args], {
    cwd,
  });
  return { code, signal, stdout, stderr, diagnostics: parseDiagnostics(stdout, cwd), ms };
}

// ---------------------------------------------------------------------------------------------
// Judging one compilation
// ---------------------------------------------------------------------------------------------

const firstLine = (text) => text.split('\n')[0];
const showDiagnostic = (d, dir, verbose) => {
  const where = d.file ? `${path.relative(dir, d.file)}(${d.line},${d.column})` : '(global)';
  const text = verbose ? d.message.replace(/\n/g, '\n        ') : firstLine(d.message);
  return `${where}: ${d.code}: ${text}`;
};

/** Turns one compilation into cases: `{ name, ok, details: string[], notes: string[] }`. */
function judge({ dir, files, sources, result, verbose, compiler, mswRange }) {
  const cases = [];
  const errors = result.diagnostics.filter((d) => d.code && d.file !== undefined);
  const globals = result.diagnostics.filter((d) => d.file === undefined);
  const byFile = new Map(files.map((f) => [f, []]));
  const pkgErrors = [];
  const depErrors = [];
  const otherErrors = [];
  const pkgRoot = path.join(dir, 'node_modules', PACKAGE) + path.sep;
  for (const d of errors) {
    const rel = path.relative(dir, d.file).split(path.sep).join('/');
    if (byFile.has(rel)) byFile.get(rel).push(d);
    else if (d.file.startsWith(pkgRoot)) pkgErrors.push(d);
    else if (d.file.includes(`${path.sep}node_modules${path.sep}`)) depErrors.push(d);
    else otherErrors.push(d);
  }
  // msw's own declarations under a compiler older than msw supports: msw's business, not this
  // package's; reported as a note. (Our declarations and the consumer files still count.)
  const unsupported = mswRange && below(compiler.version, mswRange.floor);
  const isMsw = (d) => /[\\/]node_modules[\\/](msw|@mswjs)[\\/]/.test(d.file);
  const mswNotes = unsupported ? depErrors.filter(isMsw) : [];
  const depFailures = unsupported ? depErrors.filter((d) => !isMsw(d)) : depErrors;
  const crashed = result.signal || (result.code !== 0 && result.diagnostics.length === 0);
  cases.push({
    name: '[compiler] ran, config accepted',
    ok: !crashed && globals.length === 0,
    details: crashed
      ? [
          `tsc exited with ${result.signal ?? result.code}`,
          ...(result.stdout + result.stderr).trim().split('\n'),
        ]
      : globals.map((d) => showDiagnostic(d, dir, verbose)),
  });
  const list = (ds) => ds.map((d) => showDiagnostic(d, dir, verbose));
  cases.push({ name: `[declarations] ${PACKAGE}`, ok: pkgErrors.length === 0, details: list(pkgErrors) });
  cases.push({
    name: '[declarations] dependencies',
    ok: depFailures.length === 0,
    details: list(depFailures),
    notes:
      mswNotes.length > 0
        ? [
            `note: ${mswNotes.length} error(s) in msw's own declarations, not counted: msw supports TypeScript ${mswRange.range} only (first: ${showDiagnostic(mswNotes[0], dir, false)})`,
          ]
        : [],
  });
  if (otherErrors.length > 0) cases.push({ name: '[other files]', ok: false, details: list(otherErrors) });

  for (const file of files) {
    const source = sources.get(file);
    if (!source) continue; // an extra file (bench), not a case
    const fileErrors = byFile.get(file);
    if (source.kind === 'consumer') {
      cases.push({ name: file, ok: fileErrors.length === 0, details: list(fileErrors) });
      continue;
    }
    const { expect, hint } = source.directives;
    if (!expect) {
      cases.push({ name: file, ok: false, details: ['no // @expect-error /regex/ directive'] });
      continue;
    }
    const matching = fileErrors.filter((d) => expect.test(d.message));
    const notes = [];
    if (matching.length > 0 && hint && !fileErrors.some((d) => hint.test(d.message))) {
      notes.push(`note: no error matches the hint ${hint}: ${firstLine(matching[0].message)}`);
    }
    if (fileErrors.length === 0) {
      cases.push({
        name: file,
        ok: false,
        details: [`compiles without error (expected one matching ${expect})`],
      });
    } else if (matching.length === 0) {
      cases.push({
        name: file,
        ok: false,
        details: [`no error matches ${expect}; got:`, ...list(fileErrors)],
      });
    } else {
      cases.push({ name: file, ok: true, details: [], notes });
    }
  }
  return cases;
}

/**
 * The module resolutions `tsc --traceResolution` printed: `{ specifier, from, to }` (absolute paths;
 * `to` undefined when not resolved), in order.
 */
export function parseResolutions(output, cwd) {
  const resolutions = [];
  let pending;
  for (const line of output.split(/\r?\n/)) {
    const start = /^======== Resolving module '(.+)' from '(.+)'\. ========$/.exec(line);
    if (start) {
      pending = { specifier: start[1], from: path.resolve(cwd, start[2]) };
      continue;
    }
    const end = /^======== Module name '(.+?)' was (?:successfully resolved to '(.+?)'|not resolved)/.exec(
      line,
    );
    if (end && pending?.specifier === end[1]) {
      resolutions.push({ ...pending, to: end[2] === undefined ? undefined : path.resolve(cwd, end[2]) });
      pending = undefined;
    }
  }
  return resolutions;
}

/** Turns one compilation of the resolution matrix into cases (see the header). */
function judgeResolution({ dir, mode, result, verbose }) {
  const list = (ds) => ds.map((d) => showDiagnostic(d, dir, verbose));
  const globals = result.diagnostics.filter((d) => d.file === undefined);
  const located = result.diagnostics.filter((d) => d.file !== undefined);
  const pkgRoot = path.join(dir, 'node_modules', PACKAGE) + path.sep;
  const isMsw = (d) => /[\\/]node_modules[\\/](msw|@mswjs)[\\/]/.test(d.file);
  const own = located.filter((d) => !d.file.includes(`${path.sep}node_modules${path.sep}`));
  const pkgErrors = located.filter((d) => d.file.startsWith(pkgRoot));
  const deps = located.filter((d) => !own.includes(d) && !pkgErrors.includes(d));
  const mswNotes = mode.id === 'node10' ? deps.filter(isMsw) : [];
  const depErrors = deps.filter((d) => !mswNotes.includes(d));
  const crashed = result.signal || (result.code !== 0 && result.diagnostics.length === 0);
  const cases = [
    {
      name: '[compiler] ran, config accepted',
      ok: !crashed && globals.length === 0,
      details: crashed
        ? [
            `tsc exited with ${result.signal ?? result.code}`,
            ...(result.stdout + result.stderr).trim().split('\n').slice(-20),
          ]
        : list(globals),
    },
  ];
  if (mode.options.skipLibCheck === false) {
    cases.push({ name: `[declarations] ${PACKAGE}`, ok: pkgErrors.length === 0, details: list(pkgErrors) });
  }
  cases.push({
    name: '[declarations] dependencies',
    ok: depErrors.length === 0,
    details: list(depErrors),
    notes:
      mswNotes.length > 0
        ? [
            `note: ${mswNotes.length} error(s) in msw's own declarations, not counted: msw does not support ${mode.id} (first: ${showDiagnostic(mswNotes[0], dir, false)})`,
          ]
        : [],
  });
  cases.push({ name: mode.file, ok: own.length === 0, details: list(own) });
  const file = path.join(dir, mode.file);
  const resolutions = parseResolutions(result.stdout, dir).filter((r) => r.from === file);
  const pkgType = JSON.parse(readFileSync(path.join(pkgRoot, 'package.json'), 'utf8')).type;
  // A declaration file's format: by extension, and for `.d.ts` by the package's "type".
  const format = (to) =>
    to.endsWith('.d.mts') || (to.endsWith('.d.ts') && pkgType === 'module')
      ? 'ESM'
      : to.endsWith('.d.cts') || to.endsWith('.d.ts')
        ? 'CommonJS'
        : 'not a declaration file';
  for (const entry of ENTRY_POINTS) {
    const found = resolutions.filter((r) => r.specifier === entry.specifier);
    const wanted = entry.esmOnly || !mode.cjs ? 'ESM' : 'CommonJS';
    const problems = [];
    if (found.length === 0)
      problems.push(`${mode.file} has no resolution of '${entry.specifier}' in the trace`);
    for (const r of found) {
      if (!r.to) problems.push('not resolved');
      else if (!r.to.startsWith(pkgRoot)) problems.push(`resolved outside the package: ${r.to}`);
      else if (format(r.to) !== wanted) {
        problems.push(
          `resolved to ${path.relative(pkgRoot, r.to)} (${format(r.to)}), wanted ${wanted} declarations`,
        );
      }
    }
    const targets = [...new Set(found.filter((r) => r.to).map((r) => path.relative(pkgRoot, r.to)))];
    cases.push({
      name: `[resolution] ${entry.specifier} -> ${targets.join(', ') || '?'}`,
      ok: problems.length === 0,
      details: problems,
    });
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const { flag, list, number } = cliArgs(argv);
  return {
    build: flag('build'),
    keep: flag('keep'),
    verbose: flag('verbose'),
    ts: list('ts'),
    variants: list('variant'),
    resolution: list('resolution'),
    jobs: number('jobs'),
  };
}

export async function main(argv = process.argv.slice(2)) {
  const started = performance.now();
  const args = parseArgs(argv);
  const warning = ensureBuilt({ force: args.build });
  if (warning) console.log(warning);

  const compilers = probeCompilers(args.ts);
  const mswRange = mswTypeScriptFloor();
  const variants = VARIANTS.filter((v) => !args.variants || args.variants.includes(v.id));
  const sources = new Map(
    listSources().map((file) => [
      file,
      { kind: file.split('/')[0], directives: readDirectives(path.join(SOURCES, file)) },
    ]),
  );

  const report = caseReporter({ verbose: args.verbose, maxDetails: 6 });
  const consumers = async (tmp) => {
    const tarball = packPackage(tmp);
    const projects = variants.map((variant) => {
      const dir = path.join(tmp, variant.id);
      const files = [...sources.keys()].filter((file) => {
        const wanted = sources.get(file).directives.variant;
        return wanted === undefined || wanted === variant.id;
      });
      createConsumer({ dir, tarball, msw: variant.msw, files });
      const msw = findMsw(dir);
      const setup = {
        name: variant.msw ? '[setup] msw resolvable' : '[setup] msw NOT resolvable',
        ok: variant.msw ? msw !== undefined : msw === undefined,
        details: variant.msw ? ['msw is not resolvable'] : [`msw resolves from ${msw}`],
      };
      return { variant, dir, files, setup };
    });

    // The resolution matrix, with the project's compiler only.
    const project60 = compilers.find((c) => c.id === '6.0' && !c.skip);
    const modes = project60
      ? RESOLUTION_MODES.filter((m) => !args.resolution || args.resolution.includes(m.id))
      : [];
    const resolutionProjects = modes.map((mode) => {
      const dir = path.join(tmp, `resolution-${mode.id}`);
      const compilerOptions = { ...consumerCompilerOptions(), skipLibCheck: true, ...mode.options };
      createConsumer({ dir, tarball, msw: true, files: [mode.file], compilerOptions });
      return { mode, dir };
    });

    const runnable = compilers.filter((c) => !c.skip);
    const jobs = [
      ...runnable.flatMap((compiler) =>
        projects.map(
          (project) => () => runTsc(compiler, project.dir, ['-p', 'tsconfig.json', '--pretty', 'false']),
        ),
      ),
      ...resolutionProjects.map(
        (project) => () =>
          runTsc(project60, project.dir, ['-p', 'tsconfig.json', '--pretty', 'false', '--traceResolution']),
      ),
    ];
    // tsc (node) keeps about two cores busy (GC threads): one job per two cores is fastest.
    const parallel = args.jobs ?? Math.max(1, Math.min(4, Math.floor(cores() / 2)));
    const results = await pool(jobs, parallel);

    for (const compiler of compilers) {
      if (!compiler.skip) continue;
      // Only an optional compiler may be missing; the others must run.
      if (compiler.optional) console.log(`skip ts-${compiler.id}: ${compiler.skip}`);
      else {
        report.failed++;
        console.log(`FAIL ts-${compiler.id} could not run: ${compiler.skip}`);
      }
    }
    const print = (label, cases) => {
      for (const c of cases) report.print(`${label} `, c);
    };
    let index = 0;
    for (const compiler of runnable) {
      for (const project of projects) {
        const result = results[index++];
        const label = `ts-${compiler.version} ${project.variant.id}`;
        console.log(`\n# ${label} (${(result.ms / 1000).toFixed(1)} s)`);
        print(label, [
          project.setup,
          ...judge({ ...project, sources, result, verbose: args.verbose, compiler, mswRange }),
        ]);
      }
    }
    for (const project of resolutionProjects) {
      const result = results[index++];
      const label = `ts-${project60.version} ${project.mode.id}`;
      console.log(
        `\n# ${label}: moduleResolution ${project.mode.options.moduleResolution} (${(result.ms / 1000).toFixed(1)} s)`,
      );
      print(label, judgeResolution({ ...project, result, verbose: args.verbose }));
    }
  };
  await withTempDir('mf-consumer-types-', consumers, {
    keep: args.keep,
    kept: (tmp) => `\nkept the consumer projects in ${tmp}`,
  });
  const skipped = compilers.filter((c) => c.skip).map((c) => `ts-${c.id}`);
  console.log(
    `\nCompilers: ${compilers
      .filter((c) => !c.skip)
      .map((c) => c.version)
      .join(', ')}${skipped.length ? ` (skipped: ${skipped.join(', ')})` : ''}; ${(
      (performance.now() - started) / 1000
    ).toFixed(1)} s`,
  );
  console.log(`${report.passed} passed, ${report.failed} failed`);
  return report.failed === 0 ? 0 : 1;
}

runMain(import.meta.url, main);
