/**
 * The command line of the mock (`npx merchant-fulfillment-mock`): parses the arguments, starts the
 * HTTP server and prints its URL and token. The bin script is a thin wrapper around `runCli`.
 */
import { createMockApi, type MockApi } from '../mock-api.js';
import type { MockApiOptions } from '../options.js';
import type { MockServer } from './listen.js';

/** The help text of the command. */
export const CLI_USAGE = `Usage: merchant-fulfillment-mock [options]

Starts an in-memory mock of the Merchant Fulfillment API on a local HTTP server.

Options:
  --port <n>                  port to listen on, 1-65535 (default 4010; 0 picks a free one)
  --host <host>               interface to listen on (default 127.0.0.1)
  --token <token>             accepted API token, repeatable (default: a random one)
  --webhook <url>             receiver of restocking shipment webhooks, repeatable
  --blocked-country <cc>      country orders cannot be shipped to, repeatable
  --page-size <n>             default page size of collections (default 20)
  --latency <ms>              delay added to every API response (default 0)
  --rate-limit <n>[/<ms>]     per-token limit: n requests per ms milliseconds
                              (default window 60000; default: no limit)
  -h, --help                  show this help

Drive the mock over HTTP with the control routes under /__mock/ (same Bearer token), e.g.
  POST /__mock/restocking_shipments/{id}/advance   {"status":"restocked"}
  POST /__mock/orders/{id}/fulfill    POST /__mock/faults    POST /__mock/reset
Stop it with Ctrl-C (SIGINT) or SIGTERM.`;

/**
 * A mistake on the command line, or a server that cannot start (e.g. its port is in use): the bin
 * prints the message and exits with status 2.
 */
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
  /**
   * Stops the mock: closes its server, abandons webhook deliveries in flight and cancels its timers
   * (`api.close()`), so the process can exit.
   */
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

function integer(values: Map<string, string[]>, name: string, min: number, max?: number): number | undefined {
  const raw = values.get(name)?.[0];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d{1,15}$/.test(raw) || value < min || (max !== undefined && value > max)) {
    const range = max === undefined ? `>= ${min}` : `from ${min} to ${max}`;
    throw new CliUsageError(`Option '--${name}' must be an integer ${range}, got '${raw}'`);
  }
  return value;
}

/** `--rate-limit 100/60000` (100 requests per 60 s), or `--rate-limit 100` (per minute). */
function rateLimit(values: Map<string, string[]>): MockApiOptions['rateLimit'] {
  const raw = values.get('rate-limit')?.[0];
  if (raw === undefined) return undefined;
  const match = /^(\d{1,9})(?:\/(\d{1,12}))?$/.exec(raw);
  const requests = Number(match?.[1]);
  const perMs = match?.[2] === undefined ? 60_000 : Number(match[2]);
  if (!match || requests < 1 || perMs < 1) {
    throw new CliUsageError(
      `Option '--rate-limit' must be <requests>/<ms> with integers >= 1 (e.g. 100/60000), got '${raw}'`,
    );
  }
  return { requests, perMs };
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

/**
 * Runs the command: starts the mock's HTTP server and prints its URL and token. Resolves with the
 * running mock, or `undefined` after printing the help. Throws {@link CliUsageError} for bad
 * arguments and for a server that cannot listen (port in use, ...). Signals are the caller's
 * business (the bin calls `close()` on SIGINT / SIGTERM).
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
  for (const code of blocked ?? []) {
    if (!/^[A-Za-z]{2}$/.test(code)) {
      throw new CliUsageError(`Option '--blocked-country' must be a 2-letter country code, got '${code}'`);
    }
  }
  if (blocked) options.blockedCountries = blocked;
  const pageSize = integer(values, 'page-size', 1);
  if (pageSize !== undefined) options.pageSize = pageSize;
  const latency = integer(values, 'latency', 0);
  if (latency !== undefined) options.latency = latency;
  const limit = rateLimit(values);
  if (limit) options.rateLimit = limit;
  const port = integer(values, 'port', 0, 65_535) ?? 4010;
  const host = values.get('host')?.[0] ?? '127.0.0.1';
  let api: MockApi;
  try {
    api = createMockApi(options);
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  let server: MockServer;
  try {
    server = await api.listen({ port, host });
  } catch (error) {
    throw listenError(error, host, port) ?? error;
  }
  out(`Merchant Fulfillment mock API listening on ${server.url}`);
  out(`API token: ${api.token}`);
  out(`Try: curl -H "Authorization: Bearer ${api.token}" ${server.url}/merchant_api/v1/warehouses`);
  out(`Control routes: ${server.url}/__mock/ (see --help)`);
  return { api, server, close: () => api.close() };
}
