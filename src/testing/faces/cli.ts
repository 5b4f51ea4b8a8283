/**
 * The command line of the mock (`npx merchant-fulfillment-mock`): parses the arguments, starts the
 * HTTP server, prints its URL and token and one line per request, and keeps the state in a file
 * (`--state`). The bin script is a thin wrapper around `runCli`. A message about a word, an option
 * or an option value refused never shows it as typed (it may be a token pasted in the wrong place):
 * it is described as the kit describes text, a short run of digits as it is (`--port 70000`),
 * anything else by its length; only names the command knows (its options, its commands) are shown.
 * The `--state` / `--seed` file and the `--host` of a server that cannot start are named as given.
 */
import type { ParseArgsOptionsConfig } from 'node:util';
import { VERSION } from '../../version.js';
import { MockStateError } from '../domain/persist.js';
import { type MockSeed, MockSeedError } from '../domain/seed.js';
import type { MockStateFile } from '../domain/state-format.js';
import type { MockRequestEvent } from '../engine/request-log.js';
import { describeText } from '../engine/validation.js';
import type { MockApi } from '../mock-api.js';
import { createMockApi } from '../mock-api.js';
import type { MockApiOptions } from '../options.js';
import { type CliIo, CliUsageError, ioOf, readArgs } from './args.js';
import { COMMANDS_USAGE, unknownCommand } from './commands.js';
import type { MockServer } from './listen.js';
import { readJsonFile, stateSaver } from './state-file.js';

export { type CliIo, CliUsageError } from './args.js';

/**
 * The help text of the server. The `parseArgs` configuration is read from its list of options (an
 * option followed by a `<value>` takes one; one said "repeatable" can be given again).
 */
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

const PARSE: ParseArgsOptionsConfig = {};
for (const [, name, value, help] of SERVER_USAGE.matchAll(
  /^ {2}(?:-\w, )?--([\w-]+)( <)?(.*(?:\n {30}.*)*)/gm,
))
  PARSE[name!] = { type: value ? 'string' : 'boolean', multiple: help!.includes('repeatable') };

/** The options that take an integer, and its range. */
const INTEGERS: Record<string, [min: number, max?: number]> = {
  port: [0, 65_535],
  'webhook-attempts': [1],
  'webhook-backoff': [0],
  'webhook-timeout': [1],
  'page-size': [1],
  latency: [0],
};

/** The help text of the command: the server's options, then the subcommands. */
export const CLI_USAGE = `${SERVER_USAGE}\n\n${COMMANDS_USAGE}`;

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

/** `object` without its `undefined` fields (an option not given is left out). */
function defined<T extends object>(object: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

/** The log line of an answered request, e.g. `POST /merchant_api/v1/orders 201 3 ms`. */
function requestLine(event: MockRequestEvent): string {
  const target = event.query ? `${event.path}?${event.query}` : event.path;
  const status = event.status === 0 ? 'dropped' : String(event.status);
  return `${event.method} ${target} ${status} ${Math.round(event.durationMs)} ms${event.control ? ' (control)' : ''}`;
}

/**
 * Runs the command: starts the mock's HTTP server, prints its URL and token, then one line per
 * request (unless `--quiet`). Resolves with the running mock, or `undefined` after printing the
 * help or the version. Throws {@link CliUsageError} for bad arguments, a state or seed file that
 * cannot be used (the file is left as it is), and a server that cannot listen (port in use, ...).
 * Signals are the caller's business (the bin calls `close()` on SIGINT / SIGTERM).
 */
export async function runCli(argv: readonly string[], io: CliIo = {}): Promise<RunningCli | undefined> {
  const { out, err, env } = ioOf(io);
  const unknown = (arg: string) => `Unknown option, got ${describeText(arg)}`;
  const { positionals, values, flags } = await readArgs(argv, PARSE, unknown, `\n\n${CLI_USAGE}`);
  const word = positionals.find((arg) => arg !== '-h' && arg !== '-v');
  // A first word is a command mistyped (the bin sends every known one to the subcommands).
  if (word !== undefined) {
    const mistake = word === argv[0] && !word.startsWith('-');
    const message = mistake ? unknownCommand(word) : `Unexpected argument, got ${describeText(word)}`;
    throw new CliUsageError(`${message}\n\n${CLI_USAGE}`);
  }
  if (flags.has('help') || positionals.includes('-h')) return void out(CLI_USAGE);
  if (flags.has('version') || positionals.includes('-v')) return void out(VERSION);
  const option = (name: string) => values.get(name)?.[0];
  const refuse = (name: string, expected: string, raw: string) => {
    throw new CliUsageError(`Option '--${name}' must be ${expected}, got ${describeText(raw)}`);
  };
  const n: Record<string, number | undefined> = {};
  for (const [name, [min, max]] of Object.entries(INTEGERS)) {
    const raw = option(name);
    if (raw === undefined) continue;
    n[name] = Number(raw);
    if (!/^\d{1,15}$/.test(raw) || n[name] < min || (max !== undefined && n[name] > max))
      refuse(name, `an integer ${max === undefined ? `>= ${min}` : `from ${min} to ${max}`}`, raw);
  }
  for (const code of values.get('blocked-country') ?? [])
    if (!/^[A-Za-z]{2}$/.test(code)) refuse('blocked-country', 'a 2-letter country code', code);
  // `--rate-limit 100/60000` (100 requests per 60 s), or `--rate-limit 100` (per minute).
  const rate = option('rate-limit');
  const [, requests, perMs = 60_000] = rate?.match(/^([1-9]\d{0,8})(?:\/([1-9]\d{0,11}))?$/) ?? [];
  if (rate !== undefined && !requests)
    refuse('rate-limit', '<requests>/<ms> with integers >= 1 (e.g. 100/60000)', rate);
  // The subcommands read FULFILLMENT_MOCK_TOKEN: a mock started in the same shell accepts it too.
  const envToken = env.FULFILLMENT_MOCK_TOKEN?.trim();
  const retry = defined({
    attempts: n['webhook-attempts'],
    initialDelayMs: n['webhook-backoff'],
    timeoutMs: n['webhook-timeout'],
  });
  const stateFile = option('state');
  const seedFile = option('seed');
  const saved = stateFile === undefined ? undefined : await readJsonFile('state', stateFile);
  const seed =
    saved === undefined && seedFile !== undefined ? await readJsonFile('seed', seedFile, true) : undefined;
  let saver: ReturnType<typeof stateSaver> | undefined;
  let api: MockApi;
  try {
    api = createMockApi({
      ...defined({
        tokens: values.get('token') ?? (envToken ? [envToken] : undefined),
        webhooks: values.get('webhook'),
        blockedCountries: values.get('blocked-country'),
        pageSize: n['page-size'],
        latency: n.latency,
        rateLimit: requests ? { requests: Number(requests), perMs: Number(perMs) } : undefined,
        webhookRetry: Object.keys(retry).length > 0 ? retry : undefined,
        initialState: saved as MockStateFile | undefined,
        seed: seed as MockSeed | undefined,
        onChange: stateFile === undefined ? undefined : () => saver?.schedule(),
      }),
      ...(flags.has('quiet') ? {} : { onRequest: (event: MockRequestEvent) => out(requestLine(event)) }),
    } satisfies MockApiOptions);
  } catch (error) {
    const file =
      error instanceof MockStateError
        ? `The state file '${stateFile}' is invalid: `
        : error instanceof MockSeedError
          ? `The seed file '${seedFile}' is invalid: `
          : '';
    throw new CliUsageError(file + (error instanceof Error ? error.message : String(error)));
  }
  const port = n.port ?? 4010;
  const host = option('host') ?? '127.0.0.1';
  const cors = values.get('cors');
  const server = await api.listen({ port, host, ...(cors && { cors }) }).catch(async (error: unknown) => {
    await api.close(); // its timers
    const code = (error as { code?: unknown }).code;
    const reasons: Record<string, string> = {
      EADDRINUSE: 'the port is already in use',
      EACCES: 'permission denied (ports below 1024 need privileges)',
    };
    const reason = typeof code === 'string' && `${reasons[code] ?? (error as Error).message} (${code})`;
    throw reason
      ? new CliUsageError(`Cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port}: ${reason}`)
      : new CliUsageError((error as Error).message.replace(/^listen: cors/, "Option '--cors'"));
  });
  // --print-url: the URL alone comes first, for a test that starts the command and reads one line.
  out(flags.has('print-url') ? server.url : `Merchant Fulfillment mock API listening on ${server.url}`);
  out(`API token: ${api.token}`);
  out(`Try: curl -H "Authorization: Bearer ${api.token}" ${server.url}/merchant_api/v1/warehouses`);
  out(`Control routes: ${server.url}/__mock/ (see --help)`);
  if (stateFile !== undefined) {
    out(`State file: ${stateFile} (${saved === undefined ? 'new' : 'loaded'}; saved after every change)`);
    const onError = (error: unknown) =>
      err(`Cannot save the state to '${stateFile}': ${(error as Error).message}`);
    saver = stateSaver(stateFile, () => api.exportState(), onError);
    // A new state file is written at once, so that it holds the starting point (the seed).
    if (saved === undefined) saver.schedule();
  }
  if (seedFile !== undefined && saved === undefined) out(`Seed: ${seedFile}`);
  return {
    api,
    server,
    close: async () => {
      try {
        await api.close();
      } finally {
        await saver?.close();
      }
    },
  };
}
