/**
 * Child processes of the test scripts: each one tracked, bounded in time and stopped by its pid or,
 * when it leads a process group of its own, by that group; jobs run a few at a time; and the
 * temporary folder of a run, removed at the end and on Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const WINDOWS = process.platform === 'win32';

/** The children started by runProcess and not yet ended, each with whether it leads a process group. */
const live = new Map();

/**
 * Sends `signal` to `child`: to its whole process group when it leads one (what its own children,
 * npm's scripts or vitest's workers, get too), else to it alone while it runs. Never throws.
 */
function stop(child, group, signal) {
  try {
    if (group) process.kill(-child.pid, signal);
    else if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, signal);
  } catch {
    // already gone
  }
}

/** Sends `signal` to every child runProcess started that has not ended yet. */
export function stopAll(signal) {
  for (const [child, group] of live) stop(child, group, signal);
}

/**
 * Runs `command args` in `cwd` (with `env`, else this process's environment); resolves with
 * `{ code, signal, output, stdout, stderr, timedOut, ms }`, `output` being stdout and stderr as they
 * came. Never rejects: a child that cannot start has code null and the error's message at the end of
 * `output`.
 * - `timeoutMs` (none when omitted): then the child is sent `stopSignal` and, when `graceMs` is
 *   given, SIGKILL `graceMs` later if it has not ended by then.
 * - `group`: the child leads a process group of its own and is stopped with it (by `-pid`); not on
 *   Windows, where it is stopped alone.
 * - `outputLimit`: only the last `outputLimit` characters of each output are kept.
 */
export function runProcess(
  command,
  args,
  {
    cwd,
    env,
    shell = false,
    timeoutMs,
    group = false,
    stopSignal = 'SIGTERM',
    graceMs,
    outputLimit = Number.POSITIVE_INFINITY,
  } = {},
) {
  const started = performance.now();
  const detached = group && !WINDOWS;
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, shell, stdio: ['ignore', 'pipe', 'pipe'], detached });
    live.set(child, detached);
    let output = '';
    let stdout = '';
    let stderr = '';
    const keep = (text, chunk) => {
      const all = text + chunk;
      return all.length > outputLimit ? all.slice(-outputLimit) : all;
    };
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout = keep(stdout, chunk);
      output = keep(output, chunk);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr = keep(stderr, chunk);
      output = keep(output, chunk);
    });
    let timedOut = false;
    let killer;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            stop(child, detached, stopSignal);
            if (graceMs !== undefined) {
              killer = setTimeout(() => stop(child, detached, 'SIGKILL'), graceMs);
              killer.unref();
            }
          }, timeoutMs);
    let settled = false;
    const done = (code, signal, error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killer);
      live.delete(child);
      if (error) output += `\n${error.message}`;
      resolve({ code, signal, output, stdout, stderr, timedOut, ms: performance.now() - started });
    };
    child.on('error', (error) => done(null, null, error));
    child.on('close', (code, signal) => done(code, signal));
  });
}

/** Runs `jobs` (functions returning promises) at most `limit` at a time; their results, in order. */
export async function pool(jobs, limit) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

/** The number of CPUs this process may use. */
export const cores = () => os.availableParallelism?.() ?? os.cpus().length;

/**
 * Runs `fn(dir)` with a new folder of `os.tmpdir()` named `prefix…`, and removes it when `fn` settles
 * (with `keep`, prints `kept(dir)` instead) and on Ctrl-C: SIGINT or SIGTERM removes it (unless
 * `keepOnInterrupt`) and exits with 130 or 143. `stopSignal`, when given, is first sent to the
 * children runProcess started that still run, on Ctrl-C as when `fn` settles.
 */
export async function withTempDir(
  prefix,
  fn,
  { keep = false, keepOnInterrupt = false, stopSignal, kept } = {},
) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const interrupted = (signal) => {
    if (stopSignal) stopAll(stopSignal);
    if (!keepOnInterrupt) remove();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    return await fn(dir);
  } finally {
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
    if (stopSignal) stopAll(stopSignal);
    if (!keep) remove();
    else if (kept) console.log(kept(dir));
  }
}
