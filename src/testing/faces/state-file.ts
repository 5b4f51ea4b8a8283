/**
 * Files of the command line: reading a JSON file (`--state`, `--seed`) and saving the mock's state
 * crash-safely (`--state`): each save writes a temporary file in the same directory, flushes it to
 * disk, then renames it over the target, so the file is always either the previous save or the
 * new one. Saves are coalesced: at most one write in flight, changes meanwhile make one more.
 * `node:fs` is looked up when used, never imported, so the kit still bundles for browsers.
 */
import type * as Fs from 'node:fs';
import type * as Path from 'node:path';
import { builtinModule } from '../../core/builtin.js';

interface NodeModules {
  fs: typeof Fs;
  path: typeof Path;
}

const FS: string = 'node:fs';
const PATH: string = 'node:path';

/** `node:fs` and `node:path`, looked up at run time. */
async function node(): Promise<NodeModules> {
  let fs = builtinModule<typeof Fs>(FS);
  let path = builtinModule<typeof Path>(PATH);
  if (
    (!fs || !path) &&
    (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node
  ) {
    fs = await import(/* @vite-ignore */ FS).catch(() => undefined);
    path = await import(/* @vite-ignore */ PATH).catch(() => undefined);
  }
  if (!fs || !path) throw new Error('The state and seed files need node:fs (Node.js 22+, Bun or Deno).');
  return { fs, path };
}

/** A file that cannot be read or is not JSON: the message says why (the caller names the file). */
export class FileProblem extends Error {
  override readonly name = 'FileProblem';
}

/**
 * The parsed JSON content of `file`, or `undefined` when it does not exist. Throws a
 * {@link FileProblem} when it cannot be read or is not JSON.
 */
export async function readJsonFile(file: string): Promise<unknown> {
  const { fs } = await node();
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') return undefined;
    throw new FileProblem(`cannot be read (${typeof code === 'string' ? code : String(error)})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new FileProblem(`is not JSON (${(error as Error).message})`);
  }
}

let sequence = 0;

/** The name of a temporary file of a save of `base`, without its unique part. */
function tempPrefix(base: string): string {
  return `.${base}.`;
}

/**
 * Removes the temporary files that saves of `file` left behind when the process died between the
 * write and the rename (older than `minAgeMs`, so that a save in flight in another process is left
 * alone). Best effort: a file that cannot be listed or removed is left as it is.
 */
export async function removeStaleTemps(file: string, minAgeMs = 60_000): Promise<void> {
  const { fs, path } = await node();
  const dir = path.dirname(file);
  const prefix = tempPrefix(path.basename(file));
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const temp = path.join(dir, name);
    try {
      const { mtimeMs } = await fs.promises.stat(temp);
      if (now - mtimeMs >= minAgeMs) await fs.promises.rm(temp, { force: true });
    } catch {
      // best effort
    }
  }
}

/** Opens `target` (a file written with `text`, or a directory), syncs it to disk and closes it. */
async function synced(fs: typeof Fs, target: string, text?: string): Promise<void> {
  const handle = await fs.promises.open(target, text === undefined ? 'r' : 'w');
  try {
    if (text !== undefined) await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes `text` to `file` crash-safely: a temporary file next to it, flushed, renamed over it. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const { fs, path } = await node();
  const dir = path.dirname(file);
  sequence += 1;
  const temp = path.join(dir, `${tempPrefix(path.basename(file))}${Date.now().toString(36)}-${sequence}.tmp`);
  try {
    await synced(fs, temp, text);
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true }).catch(() => {});
    throw error;
  }
  // Make the rename itself durable where the platform allows (not on Windows: ignored there).
  await synced(fs, dir).catch(() => {}); // best effort
}

/** Settings of a {@link StateSaver}. */
export interface StateSaverOptions {
  /** The file written. */
  file: string;
  /** The value to save, read at each write. */
  read: () => unknown;
  /** Told of a failed save (the next change tries again). */
  onError: (error: unknown) => void;
  /** Wait after a change before writing, so that a burst makes one write. Default 20 ms. */
  debounceMs?: number;
  /** Writes the text to the file. Default {@link writeFileAtomic}. */
  write?: (file: string, text: string) => Promise<void>;
}

/**
 * Saves a value to a file after each change, coalesced: `schedule()` after a change, `close()`
 * for the final save. At most one write is in flight; changes meanwhile make one more write once
 * it is done. A failed save is reported to `onError` and retried at the next change.
 */
export class StateSaver {
  readonly #options: StateSaverOptions;
  readonly #write: (file: string, text: string) => Promise<void>;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #dirty = false;
  #closed = false;

  constructor(options: StateSaverOptions) {
    this.#options = options;
    this.#write = options.write ?? writeFileAtomic;
  }

  /** Something changed: save soon (one write at a time; a burst of changes makes one write). */
  schedule(): void {
    if (this.#closed) return;
    this.#dirty = true;
    if (this.#timer !== undefined || this.#running) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#drain();
    }, this.#options.debounceMs ?? 20);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  async #drain(): Promise<void> {
    while (this.#dirty && !this.#closed) {
      this.#dirty = false;
      try {
        await this.#save();
      } catch (error) {
        this.#options.onError(error);
      }
    }
    this.#running = undefined;
  }

  #save(): Promise<void> {
    return this.#write(this.#options.file, `${JSON.stringify(this.#options.read(), null, 2)}\n`);
  }

  /**
   * Stops saving on change and makes the final save, after the write in flight if any. Rejects
   * when the final save fails.
   */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
    await this.#save();
  }
}
