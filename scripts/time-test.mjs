#!/usr/bin/env node
/**
 * Times `npm test` part by part: runs each `npm run <part>` of package.json's "test" script (or of
 * the script named by the first argument, e.g. `test:ecosystem`) in order, as `npm test` does, and
 * prints each part's wall time and CPU time (user + system of all its processes, where the system
 * reports it: Linux), its exit status, then the totals and the load average. Unlike `npm test`, it
 * goes on after a failing part, so every part is timed. Its output is the record to compare before
 * and after a change (the quick loop's budget is 150 s on a 2-core machine).
 *
 *   node scripts/time-test.mjs [script]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NPM, ROOT } from './lib/package.mjs';
import { WINDOWS } from './lib/process.mjs';

/** CPU seconds of the waited-for children of this process so far (Linux), else `undefined`. */
function childrenCpu() {
  try {
    // /proc/self/stat: fields 16 and 17 (cutime, cstime), in clock ticks; the name may hold spaces.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

const script = process.argv[2] ?? 'test';
const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
if (!scripts[script]) throw new Error(`package.json has no script "${script}"`);
const parts = scripts[script].split('&&').map((command) => {
  const m = /^\s*npm run (\S+)\s*$/.exec(command);
  if (!m) throw new Error(`"${script}" has a step that is not \`npm run <part>\`: ${command.trim()}`);
  return m[1];
});

const seconds = (s) => (s === undefined ? '   ?' : `${s.toFixed(1).padStart(6)} s`);
let wall = 0;
let cpu = 0;
let failed = 0;
for (const part of parts) {
  const cpuBefore = childrenCpu();
  const started = performance.now();
  const result = spawnSync(NPM, ['run', '-s', part], { cwd: ROOT, stdio: 'ignore', shell: WINDOWS });
  const ms = performance.now() - started;
  const used = cpuBefore === undefined ? undefined : childrenCpu() - cpuBefore;
  wall += ms / 1000;
  cpu += used ?? 0;
  if (result.status !== 0) failed++;
  const status = result.status === 0 ? 'ok  ' : `FAIL (exit ${result.status ?? result.signal})`;
  console.log(`${status} ${part.padEnd(16)} wall ${seconds(ms / 1000)}  cpu ${seconds(used)}`);
}
const load = os.loadavg()[0].toFixed(1);
console.log(
  `\nnpm run ${script}: wall ${wall.toFixed(1)} s, cpu ${cpu.toFixed(1)} s on ${os.availableParallelism()} cores (load ${load}); ${failed} part(s) failed`,
);
process.exitCode = failed === 0 ? 0 : 1;
