#!/usr/bin/env node
/**
 * Documentation code that cannot rot: every ```ts block of README.md and of the guides (docs/*.md)
 * is type-checked against the BUILT and PACKED package, and every block that can run is then run
 * against a fresh mock of the API (`merchant-fulfillment/testing`), offline. `npm run test:readme`.
 *
 *   node scripts/readme-blocks.mjs [--keep] [--verbose] [--readme=FILE]
 *
 * Prints one line per block (`ok   run`, `ok   typecheck`, or `FAIL` and why, with its file and
 * line), one per configuration table, then a summary; exits with 1 when anything failed. `--keep`
 * keeps the temporary project and prints its path; `--verbose` prints every block's output;
 * `--readme` checks that one Markdown file instead (to try the checker itself).
 *
 * How a block is checked
 * - Each block becomes its own module (`readme-<file>-<line>.ts`) in a consumer project under
 *   `os.tmpdir()` (removed at the end): the packed tarball unpacked as
 *   node_modules/merchant-fulfillment, this repository's dependencies symlinked beside it (see
 *   scripts/consumer-types.mjs). One `tsc` (strict, nodenext, exactOptionalPropertyTypes,
 *   noUncheckedIndexedAccess, Node's globals without the DOM lib) checks them all and emits
 *   JavaScript. Errors are reported at their Markdown file and line.
 * - Each block that compiled is then run by scripts/readme-blocks/run.ts, in its own process with a
 *   time limit: a fresh mock answers on `FULFILLMENT_BASE_URL` (https://fulfillment.example.com,
 *   the service root the README names) for the token `FULFILLMENT_API_TOKEN`, both set in the
 *   environment; `fetch` reaches the mock, 127.0.0.1 and nothing else. A block passes when it
 *   resolves and its process exits by itself.
 *
 * Conventions: an HTML comment as the last non-blank line before the fence (invisible when
 * rendered), holding one or more of, separated by spaces:
 *   <!-- readme: uses=client,order -->  the block is a fragment using names an earlier block or the
 *                                       reader's own code defines: they are imported from
 *                                       scripts/readme-blocks/prelude.ts (add new ones there).
 *   <!-- readme: with=returns -->       a fixture of scripts/readme-blocks/run.ts prepares the mock
 *                                       or checks what the block did: `order-taken` (the order
 *                                       exists: the block logs the API's 422), `returns` (the provider
 *                                       shipped an order and recorded its return), `express-webhook`
 *                                       (serves the block's `app` and sends it signed calls),
 *                                       `endpoint` (answers http://localhost:3000, verifying).
 *   <!-- readme: runner=vitest -->      the block is a vitest test file: run with vitest.
 *   <!-- readme: typecheck-only -->     compiled, never run (say why in the block's prose).
 * A block without a comment must compile and run as it stands. Other fenced languages are ignored.
 *
 * Also checked: every client options table (the rows of a `## Configuration` or `## Client options`
 * section) lists exactly the keys of `ClientOptions`, as the built declarations have them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createConsumer, parseDiagnostics } from './consumer-types.mjs';
import { cliArgs, runMain } from './lib/cli.mjs';
import { ensureBuilt, linkDependencies, packWithRetry, ROOT } from './lib/package.mjs';
import { cores, pool, runProcess, withTempDir } from './lib/process.mjs';

const SUPPORT = path.join(ROOT, 'scripts', 'readme-blocks');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** Symlinked into the consumer project besides what createConsumer links (zod, ky, msw). */
const LINKED = ['express', 'vitest', '@types/express', '@types/node', 'redis'];
/** Fixtures of run.ts, with the names each needs the block to export. */
const FIXTURES = { 'order-taken': [], returns: [], 'express-webhook': ['app'], endpoint: [] };
const RUNNERS = ['node', 'vitest'];
const TIMEOUT_MS = { node: 15_000, vitest: 40_000, tsc: 120_000 };
/** The environment of every run: the mock's service root and token (run.ts reads them too). */
const RUN_ENV = {
  FULFILLMENT_BASE_URL: 'https://fulfillment.example.com',
  FULFILLMENT_API_TOKEN: 'readme-token',
  OLD_TOKEN: 'readme-old-token',
  NEW_TOKEN: 'readme-token',
};
/**
 * What a careful Node.js consumer compiles with. `skipLibCheck`: the package's own declarations are
 * checked without it by scripts/consumer-types.mjs; msw's need the DOM lib, which these blocks must
 * not lean on.
 */
const COMPILER_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2023'],
  module: 'nodenext',
  moduleResolution: 'nodenext',
  moduleDetection: 'force',
  types: ['node'],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  rootDir: '.',
  outDir: 'out',
  sourceMap: true,
};

// ---------------------------------------------------------------------------------------------
// Reading the Markdown files
// ---------------------------------------------------------------------------------------------

/** The Markdown files checked by default: README.md, then every docs/*.md, as paths relative to the root. */
export function markdownFiles(root = ROOT) {
  const guides = readdirSync(path.join(root, 'docs'), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => `docs/${entry.name}`)
    .sort();
  return ['README.md', ...guides];
}

/**
 * The ```ts blocks of a Markdown text: `{ file, line, heading, code, directives }`, `line` being the
 * 1-based line of the opening fence, `heading` the nearest heading above it, `file` the `name`
 * given (for messages). Throws on an unknown directive or an unclosed fence.
 */
export function extractBlocks(markdown, name = 'README.md') {
  const lines = markdown.split(/\r?\n/);
  const blocks = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]);
    if (!open) {
      const h = /^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(lines[i]);
      if (h) heading = h[1];
      continue;
    }
    const fence = open[1];
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end])) end++;
    if (end >= lines.length) throw new Error(`${name}:${i + 1}: the code fence is never closed`);
    const lang = open[2].toLowerCase();
    if (lang === 'ts' || lang === 'typescript') {
      let previous = i - 1;
      while (previous >= 0 && lines[previous].trim() === '') previous--;
      blocks.push({
        file: name,
        line: i + 1,
        heading,
        code: lines.slice(i + 1, end).join('\n'),
        directives: parseDirectives(previous >= 0 ? lines[previous] : '', i + 1, name),
      });
    }
    i = end;
  }
  return blocks;
}

/** Parses `<!-- readme: … -->` (or any other line: no directives). */
export function parseDirectives(line, where, name = 'README.md') {
  const directives = { uses: [], with: undefined, runner: 'node', typecheckOnly: false };
  const m = /^\s*<!--\s*readme:(.*?)-->\s*$/.exec(line);
  if (!m) return directives;
  for (const token of m[1].trim().split(/\s+/).filter(Boolean)) {
    const [key, value] = token.split('=', 2);
    if (key === 'typecheck-only' && value === undefined) directives.typecheckOnly = true;
    else if (key === 'uses' && value) directives.uses = value.split(',').filter(Boolean);
    else if (key === 'with' && value && Object.hasOwn(FIXTURES, value)) directives.with = value;
    else if (key === 'runner' && RUNNERS.includes(value)) directives.runner = value;
    else {
      throw new Error(
        `${name}:${where}: unknown readme directive ${token} (known: uses=a,b with=${Object.keys(FIXTURES).join('|')} runner=${RUNNERS.join('|')} typecheck-only)`,
      );
    }
  }
  if (directives.runner === 'vitest' && directives.with) {
    throw new Error(`${name}:${where}: a fixture (with=) does not apply to runner=vitest`);
  }
  return directives;
}

/**
 * The option names of the client options table (the first column of the rows under a
 * `## Configuration` or `## Client options` heading, up to the next `## ` heading).
 */
export function configurationTableOptions(markdown) {
  const section =
    /^## (?:Configuration|Client options)\s*$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown)?.[1] ?? '';
  return [...section.matchAll(/^\|\s*`(\w+)`\s*\|/gm)].map((m) => m[1]);
}

// ---------------------------------------------------------------------------------------------
// The consumer project
// ---------------------------------------------------------------------------------------------

/** The module of one block: line 1 imports its `uses` (so line n+1 is the Markdown line fence+n). */
export function blockModule(block) {
  const head =
    block.directives.uses.length > 0
      ? `import { ${block.directives.uses.join(', ')} } from './prelude.js';`
      : `// ${block.file}:${block.line}`;
  const exports = block.directives.with ? FIXTURES[block.directives.with] : [];
  const tail = exports.length > 0 ? `\nexport { ${exports.join(', ')} };\n` : '\n';
  return `${head}\n${block.code}${tail}`;
}

/** `README.md` → `README`, `docs/errors-and-retries.md` → `errors-and-retries`. */
const slugOf = (file) => path.basename(file, '.md').replace(/[^\w-]/g, '_');

const fileOf = (block) =>
  `readme-${slugOf(block.file)}-${String(block.line).padStart(3, '0')}${block.directives.runner === 'vitest' ? '.test' : ''}.ts`;

/**
 * A module that compiles only when the table lists exactly the keys of `ClientOptions`; the error
 * of line 3 names the options the table lacks, that of line 4 the names that are no option.
 */
function configTableModule(documented) {
  const union = documented.map((name) => `'${name}'`).join(' | ') || 'never';
  const check = (set) => `[${set}] extends [never] ? true : \`\${${set}}\``;
  return `import type { ClientOptions } from 'merchant-fulfillment';
type Documented = ${union};
export const missingFromTheTable: ${check('Exclude<keyof ClientOptions, Documented>')} = true;
export const notAClientOption: ${check('Exclude<Documented, keyof ClientOptions>')} = true;
`;
}

/** The names in a "Type 'true' is not assignable to type '"a" | "b"'" message. */
const namesIn = (message) => [...message.matchAll(/"(\w+)"/g)].map((m) => m[1]).sort();

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

/**
 * Runs a command in its own process group, stopped as a whole (vitest's workers too) by SIGKILL at
 * `timeoutMs`: `{ code, signal, timedOut, output, ms }`.
 */
const runInGroup = (command, args, { cwd, env, timeoutMs }) =>
  runProcess(command, args, { cwd, env, timeoutMs, group: true, stopSignal: 'SIGKILL' });

function runBlock(block, dir) {
  const file = fileOf(block);
  const env = { ...process.env, ...RUN_ENV };
  delete env.NODE_OPTIONS;
  delete env.FULFILLMENT_LOG;
  if (block.directives.runner === 'vitest') {
    const vitest = path.join(dir, 'node_modules', 'vitest', 'vitest.mjs');
    return runInGroup(process.execPath, [vitest, 'run', '--root', dir, file], {
      cwd: dir,
      env: { ...env, CI: '1', NO_COLOR: '1' },
      timeoutMs: TIMEOUT_MS.vitest,
    });
  }
  const args = [
    '--enable-source-maps',
    path.join('out', 'run.js'),
    path.join('out', file.replace(/\.ts$/, '.js')),
  ];
  if (block.directives.with) args.push(block.directives.with);
  return runInGroup(process.execPath, args, { cwd: dir, env, timeoutMs: TIMEOUT_MS.node });
}

/**
 * Rewrites `…/readme-README-061.ts:12:3` in an output to the Markdown file and line it comes from;
 * `names` maps a slug to its file's name.
 */
function toReadmeLines(text, names) {
  return text.replace(
    /(?:[\w./\\-]*[\\/])?readme-([\w-]+?)-(\d+)(?:\.test)?\.[jt]s:(\d+)(:\d+)?/g,
    (match, slug, fence, line, column) =>
      names.has(slug) ? `${names.get(slug)}:${Number(fence) + Number(line) - 1}${column ?? ''}` : match,
  );
}

/** `text` indented under a report line, only its last `max` lines when given; '' when empty. */
const indent = (text, max) => {
  if (text.trim() === '') return '';
  const lines = text.trim().split('\n');
  const shown = max === undefined ? lines : lines.slice(-max);
  const cut = lines.length - shown.length;
  return [...(cut > 0 ? [`… ${cut} earlier lines`] : []), ...shown].map((l) => `       ${l}`).join('\n');
};

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

export async function main(argv = process.argv.slice(2)) {
  const started = performance.now();
  const { flag, value } = cliArgs(argv);
  const keep = flag('keep');
  const verbose = flag('verbose');
  const given = value('readme');
  const nameOf = (file) => {
    const relative = path.relative(ROOT, path.resolve(ROOT, file)).split(path.sep).join('/');
    return relative.startsWith('../') ? file : relative;
  };
  const files = (given === undefined ? markdownFiles() : [given]).map((file) => ({
    name: nameOf(file),
    markdown: readFileSync(path.resolve(ROOT, file), 'utf8'),
  }));
  const names = new Map(files.map((f) => [slugOf(f.name), f.name]));
  if (names.size !== files.length)
    throw new Error('two Markdown files share a name: their blocks would collide');
  const blocks = files.flatMap((f) => extractBlocks(f.markdown, f.name));
  /** The client options tables: one per file that has one (README's, the configuration guide's). */
  const tables = files
    .map((f) => ({
      name: f.name,
      module: `config-table-${slugOf(f.name)}.ts`,
      options: configurationTableOptions(f.markdown),
    }))
    // README's table is the front page's: it must be there when README is checked.
    .filter((t) => t.options.length > 0 || t.name === 'README.md');
  const label = given === undefined ? `${files.length} Markdown files` : files[0].name;

  const warning = ensureBuilt();
  if (warning) console.log(warning);
  let failed = 0;
  let passed = 0;
  const report = (ok, kind, text, details) => {
    if (ok) passed++;
    else failed++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${kind.padEnd(9)} ${text}`);
    if (details) console.log(details);
  };
  const checkAll = async (tmp) => {
    // The consumer project: the blocks, the support files, the table check.
    const dir = path.join(tmp, 'consumer');
    const support = ['prelude.ts', 'run.ts'];
    const extraFiles = {};
    for (const table of tables) extraFiles[table.module] = configTableModule(table.options);
    for (const file of support) extraFiles[file] = readFileSync(path.join(SUPPORT, file), 'utf8');
    for (const block of blocks) extraFiles[fileOf(block)] = blockModule(block);
    createConsumer({
      dir,
      tarball: await packWithRetry(tmp, { waitMs: 3000 }),
      msw: true,
      files: [],
      extraFiles,
      compilerOptions: COMPILER_OPTIONS,
    });
    linkDependencies(dir, LINKED);

    // One compilation for everything; diagnostics sorted out by file.
    const tsc = await runInGroup(process.execPath, [TSC, '-p', 'tsconfig.json', '--pretty', 'false'], {
      cwd: dir,
      env: process.env,
      timeoutMs: TIMEOUT_MS.tsc,
    });
    tsc.diagnostics = parseDiagnostics(tsc.output, dir);
    const relative = (file) => path.relative(dir, file).split(path.sep).join('/');
    const errorsOf = (file) => tsc.diagnostics.filter((d) => d.file && relative(d.file) === file);
    const stray = tsc.diagnostics.filter((d) => !d.file || !Object.hasOwn(extraFiles, relative(d.file)));
    let supportBroken = false;
    if (tsc.timedOut || tsc.signal || (tsc.code !== 0 && tsc.diagnostics.length === 0) || stray.length > 0) {
      supportBroken = true;
      const text = stray.map((d) => `${d.file ? relative(d.file) : '(global)'}: ${d.code}: ${d.message}`);
      report(false, 'tsc', 'did not compile the project', indent(text.join('\n') || tsc.output));
    }
    for (const file of support) {
      const errors = errorsOf(file);
      if (errors.length === 0) continue;
      supportBroken = true;
      const text = errors.map((d) => `${file}(${d.line},${d.column}): ${d.code}: ${d.message}`);
      report(false, 'support', `scripts/readme-blocks/${file} does not compile`, indent(text.join('\n')));
    }

    for (const table of tables) {
      const tableErrors = errorsOf(table.module);
      const tableProblems = tableErrors.map((d) =>
        d.line === 3
          ? `options of ClientOptions the table lacks: ${namesIn(d.message).join(', ')}`
          : d.line === 4
            ? `rows that are no option of ClientOptions: ${namesIn(d.message).join(', ')}`
            : `${d.code}: ${d.message}`,
      );
      report(
        tableErrors.length === 0,
        'table',
        `${table.name}: the client options table lists the ${table.options.length} options of ClientOptions`,
        tableErrors.length === 0 ? undefined : indent(tableProblems.join('\n')),
      );
    }

    // Every block that compiled is run, a few at a time.
    for (const block of blocks) {
      block.errors = errorsOf(fileOf(block)).map(
        (d) =>
          `${block.file}:${block.line + d.line - 1}:${d.column}: ${d.code}: ${toReadmeLines(d.message, names)}`,
      );
    }
    const toRun = supportBroken
      ? []
      : blocks.filter((block) => block.errors.length === 0 && !block.directives.typecheckOnly);
    const runs = await pool(
      toRun.map((block) => () => runBlock(block, dir)),
      Math.max(2, Math.min(8, cores())),
    );
    const runOf = new Map(toRun.map((block, i) => [block, runs[i]]));

    for (const block of blocks) {
      const where = `${block.file}:${block.line} ${block.heading}`;
      const run = runOf.get(block);
      if (block.errors.length > 0) report(false, 'typecheck', where, indent(block.errors.join('\n')));
      else if (block.directives.typecheckOnly) report(true, 'typecheck', `${where} (typecheck-only)`);
      else if (!run) report(false, 'run', `${where}: not run, the support files do not compile`);
      else {
        const ok = run.code === 0 && !run.timedOut;
        const how = [
          block.directives.runner === 'vitest' ? 'vitest' : undefined,
          block.directives.with ? `with ${block.directives.with}` : undefined,
          `${(run.ms / 1000).toFixed(1)} s`,
        ].filter(Boolean);
        const why = run.timedOut
          ? `: did not end within ${TIMEOUT_MS[block.directives.runner] / 1000} s (a socket or timer left open?)`
          : `: exited with ${run.signal ?? run.code}`;
        const output = toReadmeLines(run.output, names);
        report(
          ok,
          'run',
          `${where} (${how.join(', ')})${ok ? '' : why}`,
          verbose || !ok ? indent(output, verbose ? undefined : 30) : undefined,
        );
      }
    }
  };
  await withTempDir('mf-readme-blocks-', checkAll, {
    keep,
    stopSignal: 'SIGKILL',
    kept: (tmp) => `\nkept the consumer project in ${tmp}`,
  });
  const typecheckOnly = blocks.filter((b) => b.directives.typecheckOnly).length;
  console.log(
    `\n${blocks.length} blocks of ${label}: ${blocks.length - typecheckOnly} type-checked and run, ${typecheckOnly} type-checked only; ${passed} passed, ${failed} failed; ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return failed === 0 ? 0 : 1;
}

runMain(import.meta.url, main);
