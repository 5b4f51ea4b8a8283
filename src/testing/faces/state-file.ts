/**
 * Files of the command line: reading a JSON file (`--state`, `--seed`) and saving the mock's state
 * crash-safely (`--state`): each save writes a temporary file next to the target, flushes it to
 * disk, then renames it over the target, so the file is always either the previous save or the
 * new one. Saves are coalesced: at most one write in flight, changes meanwhile make one more.
 * `node:fs` is looked up when used, never imported, so the kit still bundles for browsers.
 */
import type * as Fs from 'node:fs';
import type * as Path from 'node:path';
import { CliUsageError, nodeBuiltin } from './args.js';

const NEEDS = 'The state and seed files need';
const fsPromises = async () => (await nodeBuiltin<typeof Fs>('node:fs', NEEDS)).promises;

/**
 * The parsed JSON content of the `--${option}` file, or `undefined` when it does not exist (unless
 * `required`). A file that cannot be read or is not JSON is a {@link CliUsageError} naming it.
 */
export async function readJsonFile(option: string, file: string, required = false): Promise<unknown> {
  const fail = (why: string) => new CliUsageError(`The ${option} file '${file}' ${why}`);
  const text = await (await fsPromises()).readFile(file, 'utf8').catch(({ code }: { code?: string }) => {
    if (code === 'ENOENT' && !required) return undefined;
    throw fail(code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`);
  });
  try {
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch (error) {
    throw fail(`is not JSON (${(error as Error).message})`);
  }
}

let sequence = 0;

/** Writes `text` to `file` crash-safely: a temporary file next to it, synced to disk, renamed over it. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const fs = await fsPromises();
  const temp = `${file}.${Date.now().toString(36)}-${++sequence}.tmp`;
  try {
    await fs.writeFile(temp, text, { flush: true }); // `flush`: synced to disk before it resolves
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  // Make the rename itself durable where the platform allows (not on Windows): best effort.
  const path = await nodeBuiltin<typeof Path>('node:path', NEEDS);
  const dir = await fs.open(path.dirname(file), 'r').catch(() => undefined);
  await dir
    ?.sync()
    .catch(() => {})
    .finally(() => dir?.close());
}

/**
 * Saves the value `read` returns to `file` (with `write`) after each change, coalesced:
 * `schedule()` after a change, `close()` to stop and make the final save (after the write in flight
 * if any; it rejects when that save fails). A burst of changes within 20 ms makes one write, at
 * most one write is in flight, and changes meanwhile make one more write once it is done. A failed
 * save is reported to `onError` and retried at the next change.
 */
export function stateSaver(
  file: string,
  read: () => unknown,
  onError: (error: unknown) => void,
  write = writeFileAtomic,
) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let dirty = false;
  let closed = false;
  const save = () => write(file, `${JSON.stringify(read(), null, 2)}\n`);
  const drain = async () => {
    while (dirty && !closed) {
      dirty = false;
      await save().catch(onError);
    }
    running = undefined;
  };
  return {
    schedule() {
      if (closed) return;
      dirty = true;
      if (timer !== undefined || running) return;
      timer = setTimeout(() => {
        timer = undefined;
        running = drain();
      }, 20);
      (timer as { unref?: () => void }).unref?.();
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
      await save();
    },
  };
}
