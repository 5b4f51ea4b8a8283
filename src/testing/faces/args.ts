/**
 * The command line's argument reader, shared by the server's options (`cli.ts`) and the
 * subcommands (`commands.ts`): `node:util`'s `parseArgs`, not strict, so that each refusal is worded
 * as the kit words it; and the error of a usage mistake.
 */
import type * as Util from 'node:util';
import { builtinModule } from '../../core/builtin.js';

/**
 * A mistake on the command line, a state or seed file that cannot be used, or a server that cannot
 * start (e.g. its port is in use): the bin prints the message and exits with status 2.
 */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** Where the command and the subcommands write and what they read: each default is the process's own. */
export interface CliIo {
  /** Receives each line of normal output (startup lines, one line per request). Default `console.log`. */
  out?: (line: string) => void;
  /** Receives each line about a problem (a failed save, a refusal). Default `console.error`. */
  err?: (line: string) => void;
  /** Environment variables (`FULFILLMENT_MOCK_TOKEN`, `FULFILLMENT_MOCK_URL`). Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** `io` with the process's own output and environment where it gives none. */
export function ioOf(io: CliIo): Required<CliIo> {
  return {
    out: io.out ?? ((line) => console.log(line)),
    err: io.err ?? ((line) => console.error(line)),
    env: io.env ?? globalThis.process?.env ?? {},
  };
}

/**
 * Reads `args` with `node:util`'s `parseArgs` (Node 22+, Bun, Deno), not strict, into the words (and
 * short options such as `-3` or `-h`, each once, in order), the values of each string option and
 * the boolean options given. An unknown option
 * (worded by `unknown`), a boolean given a value, a string option without one or given twice (unless
 * `multiple`) is a {@link CliUsageError} in the kit's words (`suffix` appended), never echoing what
 * was typed.
 */
export async function readArgs(
  args: readonly string[],
  options: Util.ParseArgsOptionsConfig,
  unknown: (arg: string) => string,
  suffix = '',
): Promise<{ positionals: string[]; values: Map<string, string[]>; flags: Set<string> }> {
  function fail(message: string): never {
    throw new CliUsageError(message + suffix);
  }
  // Node 22.0–22.2 have no `process.getBuiltinModule`: `nodeBuiltin` imports it there.
  const util = await nodeBuiltin<typeof Util>('node:util', 'The command line needs');
  const { tokens } = util.parseArgs({
    args: [...args],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const read = { positionals: [] as string[], values: new Map<string, string[]>(), flags: new Set<string>() };
  let last = -1;
  for (const token of tokens) {
    const arg = args[token.index]!;
    if (token.kind === 'positional' || (token.kind === 'option' && !arg.startsWith('--'))) {
      // Once per argument, though parseArgs reads `-34` as two short options.
      if (token.index !== last) read.positionals.push(arg);
      last = token.index;
      continue;
    }
    if (token.kind !== 'option' || !Object.hasOwn(options, token.name)) fail(unknown(arg));
    const { name, value } = token;
    if (options[name]!.type === 'boolean') {
      if (token.inlineValue) fail(`Option '--${name}' takes no value`);
      read.flags.add(name);
      continue;
    }
    if (value === undefined || value === '' || (!token.inlineValue && value.startsWith('--')))
      fail(`Option '--${name}' needs a value`);
    const list = read.values.get(name) ?? [];
    if (list.length > 0 && !options[name]!.multiple) fail(`Option '--${name}' is given twice`);
    read.values.set(name, [...list, value]);
  }
  return read;
}

/**
 * The Node built-in `id`, looked up when it is needed rather than imported: no bundler then meets a
 * `node:*` import in the testing kit, so `createMockApi()` with `api.fetch` bundles for browsers,
 * workers and edge runtimes. Node 22.0–22.2 have no `process.getBuiltinModule`: imported there (the
 * specifier a value, so that no bundler follows it). Where there is none, the error starts with `user`.
 */
export async function nodeBuiltin<T>(id: string, user: string): Promise<T> {
  const found = builtinModule<T>(id) ?? (await import(/* @vite-ignore */ id).catch(() => undefined));
  if (!found) throw new Error(`${user} ${id} (Node.js 22+, Bun or Deno).`);
  return found as T;
}
