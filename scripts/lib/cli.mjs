/**
 * The command line of the test scripts: their options, their entry point, their report lines.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Whether the module at `url` (its `import.meta.url`) is the script node was started with. */
export const isMain = (url) =>
  Boolean(process.argv[1]) && url === pathToFileURL(path.resolve(process.argv[1])).href;

/**
 * Runs `main()` when the module at `url` (its `import.meta.url`) is the script node was started
 * with: the number it resolves with is the exit code; an error is printed, and the exit code is 1.
 */
export function runMain(url, main) {
  if (!isMain(url)) return;
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}

/**
 * Reads the options of `argv`: `flag('keep')` is whether `--keep` is there, `value('ts')` the text
 * after the first `--ts=`, `list('ts')` that text split at commas, `number('jobs')` it as a number
 * (`undefined` when absent or empty).
 */
export function cliArgs(argv) {
  const value = (name) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  return {
    flag: (name) => argv.includes(`--${name}`),
    value,
    list: (name) => value(name)?.split(','),
    number: (name) => (value(name) ? Number(value(name)) : undefined),
  };
}

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Prints cases, `{ name, ok, details, notes }`, and counts them (`passed`, `failed`): one line each,
 * `ok  ` or `FAIL`, then `label` and the name; under it, a failing case's details (the first
 * `maxDetails` unless `verbose`, `moreHint` after the count of the others) and the notes.
 */
export function caseReporter({ verbose = false, maxDetails, moreHint = '' }) {
  const reporter = {
    passed: 0,
    failed: 0,
    print(label, c) {
      if (c.ok) reporter.passed++;
      else reporter.failed++;
      console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${label}${c.name}`);
      const details = c.ok ? [] : c.details;
      const shown = verbose ? details : details.slice(0, maxDetails);
      for (const line of shown) console.log(`       ${line}`);
      if (shown.length < details.length)
        console.log(`       … ${details.length - shown.length} more${moreHint}`);
      for (const note of c.notes ?? []) console.log(`       ${note}`);
    },
  };
  return reporter;
}
