/**
 * The command line of the mock (`npx merchant-fulfillment-mock`): parses the arguments, starts the
 * HTTP server, prints its URL and token and one line per request, and keeps the state in a file
 * (`--state`). The bin script is a thin wrapper around `runCli`. A message about a word, an option
 * or an option value refused never shows it as typed (it may be a token pasted in the wrong place):
 * it is described as the kit describes text, a short run of digits as it is (`--port 70000`),
 * anything else by its length; only names the command knows (its options, its commands) are shown.
 * The `--state` / `--seed` file and the `--host` of a server that cannot start are named as given.
 * The arguments are read by `node:util`'s `parseArgs` (not strict: its refusals would echo them).
 */
import type { ParseArgsOptionsConfig } from 'node:util';
import { VERSION } from '../../version.js';
import { MockStateError } from '../domain/persist.js';
import { type MockSeed, MockSeedError } from '../domain/seed.js';
import type { MockStateFile } from '../domain/state-format.js';
import type { MockRequestEvent } from '../engine/request-log.js';
import { describeText } from '../engine/validation.js';
import { createMockApi, type MockApi } from '../mock-api.js';
import type { MockApiOptions } from '../options.js';
import { processEnv, readArgs } from './args.js';
import { COMMANDS_USAGE, unknownCommand } from './commands.js';
import { corsPolicy } from './cors.js';
import type { MockServer } from './listen.js';
import { FileProblem, readJsonFile, removeStaleTemps, StateSaver } from './state-file.js';

/** The help text of the server. */
const SERVER_USAGE = `Usage: merchant-fulfillment-mock [options]

Starts an in-memory mock of the Merchant Fulfillment API on a local HTTP server.

Options:
  --port <n>                  port to listen on, 1-65535 (default 4010; 0 picks a free one)
  --host <host>               interface to listen on (default 127.0.0.1)
  --token <token>             accepted API token, repeatable (default: env
                              FULFILLMENT_MOCK_TOKEN, else a random one)
  --webhook <url>             receiver of restocking shipment webhooks, repeatable
  --webhook-attempts <n>      attempts per webhook delivery, the first included (default 5)
  --webhook-backoff <ms>      delay before the first retry, doubled for each later one (default 50)
  --webhook-timeout <ms>      time-out of one delivery attempt (default 5000)
  --blocked-country <cc>      country orders cannot be shipped to, repeatable
  --page-size <n>             default page size of collections (default 20)
  --latency <ms>              delay added to every API response (default 0)
  --rate-limit <n>[/<ms>]     per-token limit: n requests per ms milliseconds
                              (default window 60000; default: no limit)
  --state <file>              keep the state in this JSON file: loaded at start when it exists,
                              saved after every change and on exit (written safely: a crash
                              leaves the previous save or the new one)
  --seed <file>               start from fixtures: {"skus": [...], "restockingShipments": [...],
                              "orders": [...]}, each element the body of the API's create request
                              (a shipment may add "status", e.g. "restocked"); with --state, used
                              only while the state file does not exist yet
  --cors <origin>             let browser pages of this origin call the mock (e.g.
                              http://localhost:5173), repeatable; '*' for any origin
  --quiet                     no log line per request
  --print-url                 print the URL alone as the first line (for a test that reads it)
  -v, --version               print the version and exit
  -h, --help                  show this help

Each request is logged on one line: method, path, status and duration, e.g.
  POST /merchant_api/v1/orders 201 3 ms
Drive the mock over HTTP with the control routes under /__mock/ (same Bearer token;
GET /__mock/ lists them), e.g.
  POST /__mock/restocking_shipments/{id}/advance   {"status":"restocked"}
  POST /__mock/orders/{id}/fulfill    POST /__mock/faults    POST /__mock/reset
POST /__mock/reset goes back to what the mock started from (the state file or seed as loaded).
Stop it with Ctrl-C (SIGINT) or SIGTERM.`;

/** The help text of the command: the server's options, then the subcommands. */
export const CLI_USAGE = `${SERVER_USAGE}\n\n${COMMANDS_USAGE}`;

/**
 * A mistake on the command line, a state or seed file that cannot be used, or a server that cannot
 * start (e.g. its port is in use): the bin prints the message and exits with status 2.
 */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** Where the command writes (defaults: `console.log` and `console.error`). */
export interface CliIo {
  /** Receives each line of normal output (startup lines, one line per request). */
  out?: (line: string) => void;
  /** Receives each line about a problem that does not stop the mock (a failed save). */
  err?: (line: string) => void;
  /** Environment variables (`FULFILLMENT_MOCK_TOKEN`). Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** A running mock started by {@link runCli}. */
export interface RunningCli {
  /** The mock (control methods included). */
  api: MockApi;
  /** Its HTTP server. */
  server: MockServer;
  /**
   * Stops the mock: closes its server, abandons webhook deliveries in flight and cancels its timers
   * (`api.close()`), so the process can exit; with `--state`, then makes the final save.
   */
  close(): Promise<void>;
}

/** The options of the server, as `parseArgs` reads them. */
const OPTIONS: ParseArgsOptionsConfig = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  quiet: { type: 'boolean' },
  'print-url': { type: 'boolean' },
};
for (const name of ['token', 'webhook', 'blocked-country', 'cors'])
  OPTIONS[name] = { type: 'string', multiple: true };
for (const name of ['port', 'host', 'page-size', 'latency', 'rate-limit', 'state', 'seed'])
  OPTIONS[name] = { type: 'string' };
for (const name of ['attempts', 'backoff', 'timeout']) OPTIONS[`webhook-${name}`] = { type: 'string' };

type Parsed =
  | { kind: 'run'; values: Map<string, string[]>; flags: Set<string> }
  | { kind: 'help' | 'version' };

/** A usage mistake of the server's command line: the message, then the usage. */
function fail(message: string): never {
  throw new CliUsageError(`${message}\n\n${CLI_USAGE}`);
}

function parseArgs(argv: readonly string[]): Parsed {
  const { positionals, values, flags } = readArgs(
    argv,
    OPTIONS,
    (arg) => `Unknown option, got ${describeText(arg)}`,
    fail,
  );
  const word = positionals.find((arg) => arg !== '-h' && arg !== '-v');
  // A first word is a command mistyped (the bin sends every known one to the subcommands).
  if (word !== undefined) {
    fail(
      word === argv[0] && !word.startsWith('-')
        ? unknownCommand(word)
        : `Unexpected argument, got ${describeText(word)}`,
    );
  }
  if (flags.has('help') || positionals.includes('-h')) return { kind: 'help' };
  if (flags.has('version') || positionals.includes('-v')) return { kind: 'version' };
  return { kind: 'run', values, flags };
}

function integer(values: Map<string, string[]>, name: string, min: number, max?: number): number | undefined {
  const raw = values.get(name)?.[0];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d{1,15}$/.test(raw) || value < min || (max !== undefined && value > max)) {
    const range = max === undefined ? `>= ${min}` : `from ${min} to ${max}`;
    throw new CliUsageError(`Option '--${name}' must be an integer ${range}, got ${describeText(raw)}`);
  }
  return value;
}

/** `--rate-limit 100/60000` (100 requests per 60 s), or `--rate-limit 100` (per minute). */
function rateLimit(raw: string): MockApiOptions['rateLimit'] {
  const match = /^([1-9]\d{0,8})(?:\/([1-9]\d{0,11}))?$/.exec(raw);
  if (!match) {
    throw new CliUsageError(
      `Option '--rate-limit' must be <requests>/<ms> with integers >= 1 (e.g. 100/60000), got ${describeText(raw)}`,
    );
  }
  return { requests: Number(match[1]), perMs: Number(match[2] ?? 60_000) };
}

/** `object` without its `undefined` fields (an option not given is left out). */
function defined<T extends object>(object: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

/** A clean message for a server that cannot listen (no stack trace). */
function listenError(error: unknown, host: string, port: number): CliUsageError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const reasons: Record<string, string> = {
    EADDRINUSE: 'the port is already in use',
    EACCES: 'permission denied (ports below 1024 need privileges)',
    EADDRNOTAVAIL: 'the address is not available on this machine',
    ENOTFOUND: 'unknown host',
    EAI_AGAIN: 'unknown host',
  };
  const reason = reasons[code] ?? (error instanceof Error ? error.message : code);
  const shown = host.includes(':') ? `[${host}]` : host;
  return new CliUsageError(`Cannot listen on ${shown}:${port}: ${reason} (${code})`);
}

/** Reads a JSON file given on the command line (`undefined` when it does not exist). */
async function readOptionFile(option: string, file: string): Promise<unknown> {
  try {
    return await readJsonFile(file);
  } catch (error) {
    if (error instanceof FileProblem)
      throw new CliUsageError(`The ${option} file '${file}' ${error.message}`);
    throw error;
  }
}

/** The log line of an answered request, e.g. `POST /merchant_api/v1/orders 201 3 ms`. */
function requestLine(event: MockRequestEvent): string {
  const target = event.query ? `${event.path}?${event.query}` : event.path;
  const status = event.status === 0 ? 'dropped' : String(event.status);
  return `${event.method} ${target} ${status} ${Math.round(event.durationMs)} ms${event.control ? ' (control)' : ''}`;
}

/** `--cors` checked as `listen` checks it, worded as the command line's (`Option '--cors' …`). */
function corsOption(cors: readonly string[]): void {
  try {
    corsPolicy(cors);
  } catch (error) {
    if (error instanceof TypeError) {
      throw new CliUsageError(error.message.replace(/^listen: cors/, "Option '--cors'"));
    }
    throw error;
  }
}

/**
 * Runs the command: starts the mock's HTTP server, prints its URL and token, then one line per
 * request (unless `--quiet`). Resolves with the running mock, or `undefined` after printing the
 * help or the version. Throws {@link CliUsageError} for bad arguments, a state or seed file that
 * cannot be used (the file is left as it is), and a server that cannot listen (port in use, ...).
 * Signals are the caller's business (the bin calls `close()` on SIGINT / SIGTERM).
 */
export async function runCli(argv: readonly string[], io: CliIo = {}): Promise<RunningCli | undefined> {
  const out = io.out ?? ((line: string) => console.log(line));
  const err = io.err ?? ((line: string) => console.error(line));
  const parsed = parseArgs(argv);
  if (parsed.kind !== 'run') {
    out(parsed.kind === 'help' ? CLI_USAGE : VERSION);
    return undefined;
  }
  const { values, flags } = parsed;
  for (const code of values.get('blocked-country') ?? []) {
    if (!/^[A-Za-z]{2}$/.test(code)) {
      throw new CliUsageError(
        `Option '--blocked-country' must be a 2-letter country code, got ${describeText(code)}`,
      );
    }
  }
  // The subcommands read FULFILLMENT_MOCK_TOKEN: a mock started in the same shell accepts it too.
  const envToken = (io.env ?? processEnv()).FULFILLMENT_MOCK_TOKEN?.trim();
  const rate = values.get('rate-limit')?.[0];
  const retry = defined({
    attempts: integer(values, 'webhook-attempts', 1),
    initialDelayMs: integer(values, 'webhook-backoff', 0),
    timeoutMs: integer(values, 'webhook-timeout', 1),
  });
  const options: MockApiOptions = defined({
    tokens: values.get('token') ?? (envToken ? [envToken] : undefined),
    webhooks: values.get('webhook'),
    blockedCountries: values.get('blocked-country'),
    pageSize: integer(values, 'page-size', 1),
    latency: integer(values, 'latency', 0),
    rateLimit: rate === undefined ? undefined : rateLimit(rate),
    webhookRetry: Object.keys(retry).length > 0 ? retry : undefined,
    onRequest: flags.has('quiet') ? undefined : (event: MockRequestEvent) => out(requestLine(event)),
  });
  const port = integer(values, 'port', 0, 65_535) ?? 4010;
  const host = values.get('host')?.[0] ?? '127.0.0.1';
  const cors = values.get('cors');
  // Checked before anything is done (a stale temporary file removed, a mock created).
  if (cors) corsOption(cors);

  const stateFile = values.get('state')?.[0];
  const seedFile = values.get('seed')?.[0];
  // Temporary files a crash left behind (a save interrupted before its rename) are removed.
  if (stateFile !== undefined) await removeStaleTemps(stateFile);
  const saved = stateFile === undefined ? undefined : await readOptionFile('state', stateFile);
  if (saved !== undefined) options.initialState = saved as MockStateFile;
  else if (seedFile !== undefined) {
    const seed = await readOptionFile('seed', seedFile);
    if (seed === undefined) throw new CliUsageError(`The seed file '${seedFile}' does not exist`);
    options.seed = seed as MockSeed;
  }
  let api: MockApi | undefined;
  const saver =
    stateFile === undefined
      ? undefined
      : new StateSaver({
          file: stateFile,
          read: () => api?.exportState(),
          onError: (error) =>
            err(
              `Cannot save the state to '${stateFile}': ${error instanceof Error ? error.message : String(error)}`,
            ),
        });
  if (saver) options.onChange = () => saver.schedule();
  try {
    api = createMockApi(options);
  } catch (error) {
    if (error instanceof MockStateError) {
      throw new CliUsageError(`The state file '${stateFile}' is invalid: ${error.message}`);
    }
    if (error instanceof MockSeedError) {
      throw new CliUsageError(`The seed file '${seedFile}' is invalid: ${error.message}`);
    }
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  let server: MockServer;
  try {
    server = await api.listen({ port, host, ...(cors ? { cors } : {}) });
  } catch (error) {
    // The mock that cannot listen is closed (its timers, the state saver) before the refusal.
    try {
      await api.close();
    } finally {
      await saver?.close();
    }
    // `--port` and `--cors` were checked above, as `listen` checks them: what is left is the network's.
    throw listenError(error, host, port) ?? error;
  }
  // A new state file is written at once, so that it holds the starting point (the seed).
  if (saver && saved === undefined) saver.schedule();
  // --print-url: the URL alone comes first, for a test that starts the command and reads one line.
  out(flags.has('print-url') ? server.url : `Merchant Fulfillment mock API listening on ${server.url}`);
  out(`API token: ${api.token}`);
  out(`Try: curl -H "Authorization: Bearer ${api.token}" ${server.url}/merchant_api/v1/warehouses`);
  out(`Control routes: ${server.url}/__mock/ (see --help)`);
  if (stateFile !== undefined) {
    out(`State file: ${stateFile} (${saved === undefined ? 'new' : 'loaded'}; saved after every change)`);
  }
  if (seedFile !== undefined && saved === undefined) out(`Seed: ${seedFile}`);
  const running = api;
  return {
    api: running,
    server,
    close: async () => {
      try {
        await running.close();
      } finally {
        await saver?.close();
      }
    },
  };
}
