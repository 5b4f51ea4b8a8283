/**
 * The command line of the mock (`npx merchant-fulfillment-mock`): parses the arguments, starts the
 * HTTP server and prints its URL and token. The bin script is a thin wrapper around `runCli`.
 */
import { createMockApi, type MockApi } from './mock-api.js';
import type { MockApiOptions, MockServer } from './types.js';

/** The help text of the command. */
export const CLI_USAGE = `Usage: merchant-fulfillment-mock [options]

Starts an in-memory mock of the Merchant Fulfillment API on a local HTTP server.

Options:
  --port <n>              port to listen on (default 4010; 0 picks a free one)
  --host <host>           interface to listen on (default 127.0.0.1)
  --token <token>         accepted API token, repeatable (default: a random one)
  --webhook <url>         receiver of restocking shipment webhooks, repeatable
  --blocked-country <cc>  country orders cannot be shipped to, repeatable
  --page-size <n>         default page size of collections (default 20)
  --latency <ms>          delay added to every response (default 0)
  --rate-limit <n>        requests per minute per token (default: no limit)
  -h, --help              show this help`;

/** A usage mistake on the command line (the bin prints the message and exits with status 2). */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** Where the command writes (defaults: `console.log` and `console.error`). */
export interface CliIo {
  /** Receives each line of normal output. */
  out?: (line: string) => void;
}

/** A running mock started by {@link runCli}. */
export interface RunningCli {
  /** The mock (control methods included). */
  api: MockApi;
  /** Its HTTP server. */
  server: MockServer;
  /** Stops the server. */
  close(): Promise<void>;
}

const REPEATABLE = new Set(['token', 'webhook', 'blocked-country']);
const SINGLE = new Set(['port', 'host', 'page-size', 'latency', 'rate-limit']);

function parseArgs(argv: readonly string[]): Map<string, string[]> | 'help' {
  const values = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return 'help';
    if (!arg.startsWith('--')) throw new CliUsageError(`Unexpected argument '${arg}'\n\n${CLI_USAGE}`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (!REPEATABLE.has(name) && !SINGLE.has(name))
      throw new CliUsageError(`Unknown option '--${name}'\n\n${CLI_USAGE}`);
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i += 1;
    }
    if (value === undefined || value === '')
      throw new CliUsageError(`Option '--${name}' needs a value\n\n${CLI_USAGE}`);
    const list = values.get(name) ?? [];
    if (SINGLE.has(name) && list.length > 0) throw new CliUsageError(`Option '--${name}' is given twice`);
    list.push(value);
    values.set(name, list);
  }
  return values;
}

function integer(values: Map<string, string[]>, name: string, min: number): number | undefined {
  const raw = values.get(name)?.[0];
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new CliUsageError(`Option '--${name}' must be an integer >= ${min}, got '${raw}'`);
  }
  return Number(raw);
}

/**
 * Runs the command: starts the mock's HTTP server and prints its URL and token. Resolves with the
 * running mock, or `undefined` after printing the help. Throws {@link CliUsageError} for bad
 * arguments. Signals are the caller's business (the bin closes the server on SIGINT / SIGTERM).
 */
export async function runCli(argv: readonly string[], io: CliIo = {}): Promise<RunningCli | undefined> {
  const out = io.out ?? ((line: string) => console.log(line));
  const values = parseArgs(argv);
  if (values === 'help') {
    out(CLI_USAGE);
    return undefined;
  }
  const options: MockApiOptions = {};
  const tokens = values.get('token');
  if (tokens) options.tokens = tokens;
  const webhooks = values.get('webhook');
  if (webhooks) options.webhooks = webhooks;
  const blocked = values.get('blocked-country');
  if (blocked) options.blockedCountries = blocked;
  const pageSize = integer(values, 'page-size', 1);
  if (pageSize !== undefined) options.pageSize = pageSize;
  const latency = integer(values, 'latency', 0);
  if (latency !== undefined) options.latency = latency;
  const rate = integer(values, 'rate-limit', 1);
  if (rate !== undefined) options.rateLimit = { requests: rate, perMs: 60_000 };
  let api: MockApi;
  try {
    api = createMockApi(options);
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  const server = await api.listen({
    port: integer(values, 'port', 0) ?? 4010,
    host: values.get('host')?.[0] ?? '127.0.0.1',
  });
  out(`Merchant Fulfillment mock API listening on ${server.url}`);
  out(`API token: ${api.token}`);
  out(`Try: curl -H "Authorization: Bearer ${api.token}" ${server.url}/merchant_api/v1/warehouses`);
  return { api, server, close: () => server.close() };
}
