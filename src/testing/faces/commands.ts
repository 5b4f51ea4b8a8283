/**
 * The subcommands of the mock's command line (`merchant-fulfillment-mock advance 3 delivered`):
 * each drives a running mock through {@link connectMock} and prints one readable line (or the raw
 * result with `--json`). Exit codes: 0 done, 1 the mock refused or could not be reached (the
 * message printed, never the token), 2 a usage mistake. A usage message never shows what was
 * typed unless it is a name the command knows (a command, an option): any other word or option is
 * described as the kit describes text (a short run of digits as it is, anything else by its
 * length), since it may be a token pasted in the wrong place. Values the mock checks (a status, a
 * collection, a page) are sent as typed; its refusal is printed without the query.
 */
import type * as Util from 'node:util';
import { connectMock, type MockConnection, MockControlError } from '../connect.js';
import type { MockReturnOptions } from '../domain/outbound.js';
import { type MockQuantities, RESTOCK_FIGURES } from '../domain/restocking.js';
import type { RestockingStatusV1 } from '../domain/restocking-status.js';
import type { MockWebhookDelivery } from '../domain/webhook-event.js';
import { isIdText } from '../engine/router.js';
import { describeText } from '../engine/validation.js';
import type { MockRedeliverFilter } from '../engine/webhook-delivery.js';
import { processEnv, readArgs } from './args.js';
import {
  MOCK_COLLECTIONS,
  type MockCollectionName,
  type MockDeliveriesPage,
  type MockDeliveriesQuery,
  type MockStatePage,
} from './control-methods.js';

/** The mock URL used without `--url` or `FULFILLMENT_MOCK_URL`. */
const DEFAULT_URL = 'http://127.0.0.1:4010';

/** The help text of the subcommands. */
export const COMMANDS_USAGE = `Usage: merchant-fulfillment-mock <command> [arguments] [options]

Drives a running mock through its control routes (/__mock/).

Commands:
  advance <shipment-id> <status>    move a restocking shipment (v1 or v2 status name)
      [--arrived <q>] [--damaged <q>] [--missing <q>]
                                    quantities when moving to restocked: a number for every
                                    item, or <sku_id>=<n>[,<sku_id>=<n>...]
  fulfil <order-id>                 fulfil an order (alias: fulfill)
  return <order-id>                 record a return of a fulfilled order
      [--reason <reason>] [--carrier <name>] [--item <sku_id>=<quantity>]...
  flush-webhooks [filters] [--timeout <ms>]
                                    wait until no webhook delivery is in flight
                                    (--timeout: how long to wait, default 30000)
  deliveries [filters]              list the webhook deliveries
      filters: [--status delivered|failed|pending] [--event-id <id>] [--receiver <url>]
               [--page <n>] [--limit <n>] (a page of 50 by default once one is given)
  redeliver [--event-id <id>] [--receiver <url>]
                                    send again the deliveries that were given up
                                    (with --event-id: that delivery, even if delivered)
  faults                            list the faults in force
  clear-faults                      remove every fault in force
  reset                             back to the initial state
  state [--collection <name> | --collections <a,b>] [--page <n>] [--limit <n>]
                                    read the records (names: ${MOCK_COLLECTIONS.join(', ')})
  routes                            list the control routes

Options:
  --url <url>       the mock's URL (default FULFILLMENT_MOCK_URL, else ${DEFAULT_URL})
  --token <token>   an API token of the mock (default FULFILLMENT_MOCK_TOKEN)
  --json            print the raw result as JSON
  -h, --help        show this help

Exit status: 0 done, 1 the mock refused or could not be reached, 2 a usage mistake.`;

/**
 * Where {@link runCommand} writes and what it reads (the command line's `CliIo` fits): each
 * default is the process's own.
 */
export interface CommandIo {
  /** Receives each line of normal output. Default `console.log`. */
  out?: (line: string) => void;
  /** Receives each line of error output. Default `console.error`. */
  err?: (line: string) => void;
  /** Environment variables (`FULFILLMENT_MOCK_URL`, `FULFILLMENT_MOCK_TOKEN`). Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The line printed after a usage mistake. */
const SEE_HELP = "See 'merchant-fulfillment-mock <command> --help'.";

/** A mistake on the command line: exit status 2. */
class UsageError extends Error {}

function usage(message: string): never {
  throw new UsageError(message);
}

/** A parsed command line. */
interface Parsed {
  command: string;
  /** The command's arguments, checked to be as many as it takes. */
  args: string[];
  values: Map<string, string[]>;
  json: boolean;
}

/** A command's result and its one readable line. */
interface Outcome {
  result: unknown;
  line: string;
}

/** A subcommand: its arguments, its options (besides the common ones) and what it does. */
interface Command {
  args?: readonly string[];
  options?: readonly string[];
  run(mock: MockConnection, parsed: Parsed): Promise<Outcome>;
}

function single(parsed: Parsed, name: string): string | undefined {
  return parsed.values.get(name)?.[0];
}

/**
 * A record id argument (`<order-id>`): an integer >= 1, worded as the control methods word it;
 * the text refused described as the kit describes text (a short run of digits as it is, anything
 * else by its length: it may be a token pasted in the wrong place).
 */
function idOf(raw: string, name: string): number {
  if (!isIdText(raw)) usage(`<${name}> must be an integer >= 1, got ${describeText(raw)}`);
  return Number(raw);
}

/** A number option (`--limit`), or `undefined` when not given: checked by what it is sent to. */
function count(parsed: Parsed, name: string): number | undefined {
  const raw = single(parsed, name);
  return raw === undefined ? undefined : Number(raw);
}

const PAIRS = /^[1-9]\d{0,14}=\d{1,9}(,[1-9]\d{0,14}=\d{1,9})*$/;

/** `5` (every item) or `12=3,14=2` (per sku_id). */
function quantitiesOf(raw: string, name: string): MockQuantities {
  if (/^\d{1,9}$/.test(raw)) return Number(raw);
  if (!PAIRS.test(raw.replaceAll(' ', '')))
    usage(`--${name} must be a number or <sku_id>=<n>[,<sku_id>=<n>...], got ${describeText(raw)}`);
  return Object.fromEntries(raw.split(',').map((pair) => pair.split('=').map(Number)));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The options given among `names`, as `{ name: value }` with each value read by `read` (an option
 * not given is `undefined`: a query string and JSON leave it out).
 */
function given<T>(parsed: Parsed, names: readonly string[], read: (raw: string, name: string) => T) {
  return Object.fromEntries(
    names.map((name) => {
      const raw = single(parsed, name);
      return [name, raw === undefined ? undefined : read(raw, name)];
    }),
  );
}

/** `--event-id` and `--receiver` as a filter (`eventId`, `url`). */
const eventFilter = (parsed: Parsed) =>
  ({ eventId: single(parsed, 'event-id'), url: single(parsed, 'receiver') }) as MockRedeliverFilter;

/**
 * The deliveries query of the filter options as typed (the mock checks them); without one, the
 * call reads every delivery.
 */
function deliveriesQuery(parsed: Parsed): MockDeliveriesQuery {
  const status = single(parsed, 'status') as MockDeliveriesQuery['status'];
  const query = {
    status,
    ...eventFilter(parsed),
    page: count(parsed, 'page'),
    limit: count(parsed, 'limit'),
  };
  return (Object.values(query).some((v) => v !== undefined) ? query : undefined) as MockDeliveriesQuery;
}

function deliverySummary(deliveries: readonly MockWebhookDelivery[]): string {
  const delivered = deliveries.filter((d) => d.delivered).length;
  const pending = deliveries.filter((d) => !d.finished).length;
  const failed = deliveries.length - delivered - pending;
  const total = `${deliveries.length} webhook ${deliveries.length === 1 ? 'delivery' : 'deliveries'}`;
  return `${total}: ${delivered} delivered, ${failed} given up, ${pending} in flight`;
}

/** The outcome of a list of deliveries, or of a page of them. */
function deliveriesOutcome(answer: MockWebhookDelivery[] | MockDeliveriesPage): Outcome {
  if (Array.isArray(answer)) return { result: answer, line: deliverySummary(answer) };
  const p = answer.pagination;
  const matching = `(${answer.data.length} of ${p.item_count} matching)`;
  return {
    result: answer,
    line: `Page ${p.current_page}/${Math.max(p.page_count, 1)} ${matching}: ${deliverySummary(answer.data)}`,
  };
}

function pageLine(name: string, page: MockStatePage<MockCollectionName>): string {
  const p = page.pagination;
  return `${name} page ${p.current_page}/${Math.max(p.page_count, 1)} (${page.data.length} of ${p.item_count})`;
}

/** `state`: the names, pages and their combinations are checked by the mock. */
async function state(mock: MockConnection, parsed: Parsed): Promise<Outcome> {
  const one = single(parsed, 'collection') as MockCollectionName | undefined;
  const many = single(parsed, 'collections')
    ?.split(',')
    .map((n) => n.trim() as MockCollectionName);
  const query = {
    collection: one,
    collections: many,
    page: count(parsed, 'page'),
    limit: count(parsed, 'limit'),
  };
  if (one !== undefined && many === undefined) {
    const answer = await mock.state(query as { collection: MockCollectionName });
    return { result: answer, line: pageLine(one, answer) };
  }
  if (Object.values(query).some((v) => v !== undefined)) {
    const pages = await mock.state(query as { collections: MockCollectionName[] });
    return { result: pages, line: (many ?? []).map((n) => pageLine(n, pages[n])).join('; ') };
  }
  // Without a collection: one line of counts (the whole snapshot only with --json).
  const pages = await mock.state({ collections: MOCK_COLLECTIONS, limit: 1 });
  const counts = MOCK_COLLECTIONS.map((n) => `${n} ${pages[n].pagination.item_count}`).join(', ');
  return { result: parsed.json ? await mock.state() : pages, line: counts };
}

const FILTERS = ['status', 'event-id', 'receiver', 'page', 'limit'];

const fulfil: Command = {
  args: ['order-id'],
  async run(mock, { args }) {
    const shipment = await mock.fulfillOrder(idOf(args[0]!, 'order-id'));
    const line = `Order ${shipment.order_id} fulfilled: shipment ${shipment.id} (${shipment.status})`;
    return { result: shipment, line };
  },
};

/** The subcommands (`fulfill` is an alias of `fulfil`). */
const TABLE: Readonly<Record<string, Command>> = {
  advance: {
    args: ['shipment-id', 'status'],
    options: RESTOCK_FIGURES,
    async run(mock, parsed) {
      const id = idOf(parsed.args[0]!, 'shipment-id');
      // The status name is checked by the mock's route, as in-process.
      const status = parsed.args[1] as RestockingStatusV1;
      const quantities = given(parsed, RESTOCK_FIGURES, quantitiesOf);
      const shipment = await mock.advanceRestockingShipment(id, status, quantities);
      return { result: shipment, line: `Restocking shipment ${shipment.id} is now ${shipment.status}` };
    },
  },
  fulfil,
  fulfill: fulfil,
  return: {
    args: ['order-id'],
    options: ['reason', 'carrier', 'item'],
    async run(mock, parsed) {
      const orderId = idOf(parsed.args[0]!, 'order-id');
      const items = parsed.values.get('item')?.map((raw) => {
        const match = /^([1-9]\d{0,14})=(\d{1,9})$/.exec(raw);
        if (!match) usage(`--item must be <sku_id>=<quantity>, got ${describeText(raw)}`);
        return { sku_id: Number(match[1]), quantity: Number(match[2]) };
      });
      const options = { ...given(parsed, ['reason', 'carrier'], (raw) => raw), items };
      const record = await mock.createReturn(orderId, options as MockReturnOptions);
      const what = `${record.status}, ${plural(record.return_items.length, 'item')}`;
      return { result: record, line: `Return ${record.id} recorded for order ${orderId} (${what})` };
    },
  },
  'flush-webhooks': {
    options: [...FILTERS, 'timeout'],
    async run(mock, parsed) {
      const timeoutMs = count(parsed, 'timeout');
      const options = timeoutMs === undefined ? {} : { timeoutMs };
      return deliveriesOutcome(await mock.flushWebhooks(deliveriesQuery(parsed), options));
    },
  },
  deliveries: {
    options: FILTERS,
    async run(mock, parsed) {
      return deliveriesOutcome(await mock.deliveries(deliveriesQuery(parsed)));
    },
  },
  redeliver: {
    options: ['event-id', 'receiver'],
    async run(mock, parsed) {
      const queued = await mock.redeliverWebhooks(eventFilter(parsed));
      const word = queued.length === 1 ? 'delivery' : 'deliveries';
      return { result: queued, line: `Re-queued ${queued.length} webhook ${word}` };
    },
  },
  faults: {
    async run(mock) {
      const faults = await mock.faults();
      const list = faults.map(
        (f) =>
          `#${f.id} ${f.method ?? '*'} ${f.path ?? `/${f.pathPattern}/`}${f.remaining === null ? '' : ` (${f.remaining} left)`}`,
      );
      const line = `${plural(faults.length, 'fault')} in force${list.length ? `: ${list.join(', ')}` : ''}`;
      return { result: faults, line };
    },
  },
  'clear-faults': {
    run: async (mock) => {
      const removed = await mock.clearFaults();
      return { result: { removed }, line: `Removed ${plural(removed, 'fault')}` };
    },
  },
  reset: { run: (mock) => mock.reset().then(() => ({ result: null, line: 'The mock was reset' })) },
  state: { options: ['collection', 'collections', 'page', 'limit'], run: state },
  routes: {
    async run(mock) {
      const routes = await mock.routes();
      return { result: routes, line: routes.map((r) => `${r.method} ${r.path}`).join(', ') };
    },
  },
};

/** The subcommands {@link runCommand} knows (`fulfill` is an alias of `fulfil`). */
export const COMMANDS: readonly string[] = Object.keys(TABLE);

/**
 * The message for a word where a command goes that is none: the word described (a short run of
 * digits as it is, anything else by its length), never shown, and the commands listed.
 */
export function unknownCommand(word: string): string {
  return `Unknown command, got ${describeText(word)} (expected one of ${COMMANDS.join(', ')})`;
}

function parse(argv: readonly string[]): Parsed | 'help' {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') return 'help';
  const spec = Object.hasOwn(TABLE, command) ? TABLE[command]! : usage(unknownCommand(command));
  const { args = [], options = [] } = spec;
  const table: Util.ParseArgsOptionsConfig = { json: { type: 'boolean' }, help: { type: 'boolean' } };
  for (const name of [...options, 'url', 'token'])
    table[name] = { type: 'string', multiple: name === 'item' };
  const known = [...options, 'url', 'token', 'json', 'help'].map((n) => `--${n}`).join(', ');
  const read = readArgs(
    rest,
    table,
    (arg) => `Unknown option for '${command}', got ${describeText(arg)} (expected ${known})`,
    usage,
  );
  if (read.flags.has('help') || read.positionals.includes('-h')) return 'help';
  const { positionals } = read;
  const names = args.map((n) => `<${n}>`).join(' ');
  if (positionals.length < args.length)
    usage(`'${command}' needs ${names}: missing <${args[positionals.length]}>`);
  if (positionals.length > args.length) {
    const takes = args.length === 0 ? 'takes options only' : `takes ${names}`;
    usage(`Unexpected argument, got ${describeText(positionals[args.length]!)} ('${command}' ${takes})`);
  }
  return { command, args: positionals, values: read.values, json: read.flags.has('json') };
}

/**
 * Runs one subcommand (`argv` without the program name, e.g. `['fulfil', '7', '--json']`) against
 * a running mock and resolves with the exit status: 0 done, 1 the mock refused the call or could
 * not be reached (the message written to `io.err`, never the token), 2 a usage mistake (message
 * and a pointer to `--help` on `io.err`). `--help` prints {@link COMMANDS_USAGE} and resolves 0.
 */
export async function runCommand(argv: readonly string[], io: CommandIo = {}): Promise<number> {
  const out = io.out ?? ((line: string) => console.log(line));
  const err = io.err ?? ((line: string) => console.error(line));
  const env = io.env ?? processEnv();
  try {
    const parsed = parse(argv);
    if (parsed === 'help') {
      out(COMMANDS_USAGE);
      return 0;
    }
    const token = single(parsed, 'token') ?? env.FULFILLMENT_MOCK_TOKEN;
    if (token === undefined || token === '') {
      usage('An API token is needed: --token <token> or the FULFILLMENT_MOCK_TOKEN variable');
    }
    const url = single(parsed, 'url') ?? env.FULFILLMENT_MOCK_URL ?? DEFAULT_URL;
    let mock: MockConnection;
    try {
      mock = connectMock(url, { token });
    } catch (error) {
      usage((error as Error).message.replace(/^connectMock: (\w+): /, '--$1 '));
    }
    const { result, line } = await TABLE[parsed.command]!.run(mock, parsed);
    out(parsed.json ? JSON.stringify(result, null, 2) : line);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      err(error.message);
      err(SEE_HELP);
      return 2;
    }
    if (!(error instanceof MockControlError)) throw error;
    const usageMistake = error.code === 'invalid_argument';
    // The route without its query: a value typed there may be a token pasted in the wrong place.
    const message = error.message.replace(error.route, error.route.replace(/\?.*/, ''));
    err(usageMistake ? message : `Error: ${message}`);
    return usageMistake ? 2 : 1;
  }
}
