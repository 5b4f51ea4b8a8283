#!/usr/bin/env node
/**
 * Editor cost of the SDK's types: `tsc --extendedDiagnostics` (TypeScript 6.0) on a consumer of the
 * built, packed package — the same temporary consumer project as `npm run test:types`
 * (scripts/consumer-types.mjs) — compiling
 *
 *   (a) baseline: one file that imports nothing;
 *   (b) usage: the positive consumer files (test/consumer-types/consumer/), which call every public
 *       method and assert its types with expect-type;
 *   (c) usage, assertions stubbed (full run only): the same files with `expect-type` replaced by a stub
 *       whose `expectTypeOf` returns `any`, so only the SDK's own types are paid for.
 *
 * each under the consumer tsconfig (`skipLibCheck: false`: what a CI type check pays) and, in a full
 * run, with `skipLibCheck: true` (closer to what an editor computes: it checks the open files, not
 * every declaration file). Instantiation and type counts are deterministic; times are the median of
 * `runs` runs.
 *
 *   node bench/types.mjs [--quick] [--runs=N]
 *
 * From the benchmark runner:
 *
 *   import { measureEditorCost } from './types.mjs';
 *   const cost = await measureEditorCost({ quick });
 *   // cost.result: the headline, e.g. "usage 2.71× the baseline's instantiations (+366 k), check +3.2 s"
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  consumerCompilerOptions,
  createConsumer,
  ensureBuilt,
  listSources,
  packPackage,
  probeCompilers,
  readDirectives,
  runTsc,
  SOURCES,
} from '../scripts/consumer-types.mjs';

const BASELINE_FILE = 'bench/baseline.ts';
const BASELINE =
  '/** Imports nothing: the cost of the compiler options and default libraries alone. */\nexport const answer: number = 42;\n';
const STUB_FILE = 'bench/expect-type-stub.d.cts';
/** Every member of expect-type's `expectTypeOf(…)` chain. */
const EXPECT_TYPE_MEMBERS = [
  ...['asserts', 'branded', 'constructorParameters', 'exclude', 'extract', 'guards', 'instance', 'items'],
  ...['map', 'not', 'omit', 'parameter', 'parameters', 'pick', 'resolves', 'returns', 'thisParameter'],
  ...['toBeAny', 'toBeArray', 'toBeBigInt', 'toBeBoolean', 'toBeCallableWith', 'toBeConstructibleWith'],
  ...['toBeFunction', 'toBeNever', 'toBeNull', 'toBeNullable', 'toBeNumber', 'toBeObject', 'toBeString'],
  ...['toBeSymbol', 'toBeUndefined', 'toBeUnknown', 'toBeVoid', 'toEqualTypeOf', 'toExtend'],
  ...['toHaveProperty', 'toMatchObjectType', 'toMatchTypeOf'],
];
const STUB = `/** expect-type with every assertion free: any chain of its members and calls type-checks. */
type Member = ${EXPECT_TYPE_MEMBERS.map((m) => `'${m}'`).join(' | ')};
interface Free extends Record<Member, Free> {
  <T = unknown>(...args: unknown[]): Free;
}
export declare function expectTypeOf<T>(value?: T): Free;
`;

/**
 * Reads the figures of `--extendedDiagnostics` output: files, types, instantiations, memory (KB),
 * check and total time (ms).
 */
export function parseExtendedDiagnostics(text) {
  const read = (label) => {
    const m = new RegExp(`^${label}:\\s+([\\d.]+)([a-zA-Z]*)\\s*$`, 'm').exec(text);
    if (!m) return undefined;
    const value = Number(m[1]);
    return m[2] === 's' ? value * 1000 : value;
  };
  return {
    files: read('Files'),
    types: read('Types'),
    instantiations: read('Instantiations'),
    memoryKB: read('Memory used'),
    checkMs: read('Check time'),
    totalMs: read('Total time'),
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Compiles `tsconfig` in `dir` `runs` times; figures with median times. */
async function measure(compiler, dir, tsconfig, runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const result = await runTsc(compiler, dir, [
      '-p',
      tsconfig,
      '--extendedDiagnostics',
      '--pretty',
      'false',
    ]);
    const figures = parseExtendedDiagnostics(result.stdout);
    if (figures.instantiations === undefined) {
      throw new Error(`tsc -p ${tsconfig} printed no diagnostics figures:\n${result.stdout}${result.stderr}`);
    }
    samples.push({ ...figures, errors: result.diagnostics.length });
  }
  const [first] = samples;
  return {
    ...first,
    checkMs: median(samples.map((s) => s.checkMs)),
    totalMs: median(samples.map((s) => s.totalMs)),
  };
}

function compare(usage, baseline) {
  return {
    difference: {
      types: usage.types - baseline.types,
      instantiations: usage.instantiations - baseline.instantiations,
      checkMs: usage.checkMs - baseline.checkMs,
      totalMs: usage.totalMs - baseline.totalMs,
    },
    // `null` where the baseline is too small for a ratio to mean anything (no instantiation at all,
    // or a check time under 50 ms, as with skipLibCheck: true).
    ratio: {
      types: usage.types / baseline.types,
      instantiations: baseline.instantiations > 0 ? usage.instantiations / baseline.instantiations : null,
      checkMs: baseline.checkMs >= 50 ? usage.checkMs / baseline.checkMs : null,
      totalMs: usage.totalMs / baseline.totalMs,
    },
  };
}

const thousands = (n) => `${Math.round(n / 1000)} k`;
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const times = (ratio) => (ratio === null ? '—' : `${ratio.toFixed(2)}×`);
const signed = (text, n) => (n >= 0 ? `+${text}` : `−${text.replace(/^-/, '')}`);

/**
 * Measures the editor cost of the SDK's types.
 *
 * @param {object} [options]
 * @param {boolean} [options.quick] Only the consumer tsconfig, rows (a) and (b), one run each.
 * @param {number} [options.runs] Runs per measurement (times are their median). Default 3, quick 1.
 * @param {(line: string) => void} [options.log] Progress lines (default: none).
 * @returns {Promise<EditorCost>} See the `EditorCost` typedef below.
 */
export async function measureEditorCost({ quick = false, runs = quick ? 1 : 3, log = () => {} } = {}) {
  const [compiler] = probeCompilers(['6.0']);
  if (compiler.skip) throw new Error(`TypeScript 6.0: ${compiler.skip}`);
  const warning = ensureBuilt({ log });
  if (warning) log(warning);

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mf-editor-cost-'));
  try {
    const dir = path.join(tmp, 'consumer');
    const usageFiles = listSources(['consumer']).filter(
      (file) => readDirectives(path.join(SOURCES, file)).variant !== 'without-msw',
    );
    createConsumer({
      dir,
      tarball: packPackage(tmp),
      msw: true,
      files: usageFiles,
      extraFiles: { [BASELINE_FILE]: BASELINE, [STUB_FILE]: STUB },
    });
    const base = consumerCompilerOptions();
    const modes = quick
      ? [{ id: 'consumer', label: 'consumer tsconfig (skipLibCheck: false)', skipLibCheck: false }]
      : [
          { id: 'consumer', label: 'consumer tsconfig (skipLibCheck: false)', skipLibCheck: false },
          { id: 'editor', label: 'editor view (skipLibCheck: true)', skipLibCheck: true },
        ];
    const configs = (mode) => {
      const compilerOptions = { ...base, skipLibCheck: mode.skipLibCheck };
      const stubbed = { ...compilerOptions, paths: { 'expect-type': [`./${STUB_FILE}`] } };
      const rows = [
        {
          id: 'baseline',
          what: '(a) baseline: a file that imports nothing',
          files: [BASELINE_FILE],
          compilerOptions,
        },
        {
          id: 'usage',
          what: '(b) every public method, with expect-type assertions',
          files: usageFiles,
          compilerOptions,
        },
      ];
      if (!quick) {
        rows.push({
          id: 'usageStubbed',
          what: '(c) every public method, assertions stubbed',
          files: usageFiles,
          compilerOptions: stubbed,
        });
      }
      return rows;
    };

    const results = [];
    for (const mode of modes) {
      const rows = {};
      for (const row of configs(mode)) {
        const tsconfig = `tsconfig.${mode.id}.${row.id}.json`;
        writeFileSync(
          path.join(dir, tsconfig),
          JSON.stringify({ compilerOptions: row.compilerOptions, files: row.files }, null, 2),
        );
        log(`measuring ${mode.id} / ${row.id} ...`);
        rows[row.id] = { what: row.what, ...(await measure(compiler, dir, tsconfig, runs)) };
      }
      results.push({
        id: mode.id,
        label: mode.label,
        rows,
        usage: compare(rows.usage, rows.baseline),
        usageStubbed: rows.usageStubbed ? compare(rows.usageStubbed, rows.baseline) : undefined,
      });
    }

    const main = results[0];
    const extra = (c) =>
      `${signed(thousands(c.difference.instantiations), c.difference.instantiations)} instantiations, check ${signed(
        seconds(c.difference.checkMs),
        c.difference.checkMs,
      )}`;
    const result =
      `usage ${times(main.usage.ratio.instantiations)} the baseline's instantiations (${extra(main.usage)})` +
      (main.usageStubbed ? `; SDK alone, assertions stubbed: ${extra(main.usageStubbed)}` : '');
    return {
      id: 'T1',
      what: 'type-checking a consumer that calls every public method (TypeScript 6.0, `tsc --extendedDiagnostics`)',
      baseline: 'the same consumer project compiling a file that imports nothing',
      result,
      compiler: compiler.version,
      runs,
      modes: results,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The figures as printable lines. */
export function formatEditorCost(cost) {
  const lines = [`Editor cost, TypeScript ${cost.compiler} (times: median of ${cost.runs} run(s))`];
  const pad = (s, n) => String(s).padStart(n);
  for (const mode of cost.modes) {
    lines.push('', mode.label);
    lines.push(
      `  ${'row'.padEnd(58)}${pad('files', 7)}${pad('types', 10)}${pad('instantiations', 16)}${pad('check', 10)}${pad('total', 10)}`,
    );
    for (const row of Object.values(mode.rows)) {
      lines.push(
        `  ${row.what.padEnd(58)}${pad(row.files, 7)}${pad(row.types, 10)}${pad(row.instantiations, 16)}${pad(seconds(row.checkMs), 10)}${pad(seconds(row.totalMs), 10)}${row.errors ? `  (${row.errors} errors)` : ''}`,
      );
    }
    for (const [key, label] of [
      ['usage', '(b)'],
      ['usageStubbed', '(c)'],
    ]) {
      const c = mode[key];
      if (!c) continue;
      lines.push(
        `  ${`${label} − (a)`.padEnd(58)}${pad('', 7)}${pad(c.difference.types, 10)}${pad(c.difference.instantiations, 16)}${pad(seconds(c.difference.checkMs), 10)}${pad(seconds(c.difference.totalMs), 10)}`,
        `  ${`${label} ÷ (a)`.padEnd(58)}${pad('', 7)}${pad(times(c.ratio.types), 10)}${pad(times(c.ratio.instantiations), 16)}${pad(times(c.ratio.checkMs), 10)}${pad(times(c.ratio.totalMs), 10)}`,
      );
    }
  }
  lines.push('', cost.result);
  return lines;
}

/**
 * @typedef {object} EditorCostFigures
 * @property {string} what
 * @property {number} files
 * @property {number} types
 * @property {number} instantiations
 * @property {number} memoryKB
 * @property {number} checkMs
 * @property {number} totalMs
 * @property {number} errors  Diagnostics reported (the figures stay valid; the consumer tests judge them).
 *
 * @typedef {object} EditorCostComparison
 * @property {{ types: number, instantiations: number, checkMs: number, totalMs: number }} difference
 * @property {{ types: number, instantiations: number | null, checkMs: number | null, totalMs: number }} ratio  `null`: baseline too small
 *
 * @typedef {object} EditorCostMode
 * @property {'consumer' | 'editor'} id
 * @property {string} label
 * @property {{ baseline: EditorCostFigures, usage: EditorCostFigures, usageStubbed?: EditorCostFigures }} rows
 * @property {EditorCostComparison} usage
 * @property {EditorCostComparison | undefined} usageStubbed
 *
 * @typedef {object} EditorCost
 * @property {'T1'} id
 * @property {string} what
 * @property {string} baseline
 * @property {string} result  The headline figure.
 * @property {string} compiler  e.g. "6.0.3"
 * @property {number} runs
 * @property {EditorCostMode[]} modes  `consumer` first; `editor` too in a full run.
 */

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const argv = process.argv.slice(2);
  const runs = argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length);
  measureEditorCost({
    quick: argv.includes('--quick'),
    ...(runs ? { runs: Number(runs) } : {}),
    log: (line) => console.error(line),
  }).then(
    (cost) => {
      for (const line of formatEditorCost(cost)) console.log(line);
    },
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
