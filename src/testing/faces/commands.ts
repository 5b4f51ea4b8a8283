/**
 * The subcommands of the mock's command line (`merchant-fulfillment-mock advance 3 delivered`):
 * each drives a running mock through {@link connectMock} and prints one readable line (or the raw
 * result with `--json`). Exit codes: 0 done, 1 the mock refused or could not be reached (the
 * message printed, never the token), 2 a usage mistake. A usage message never shows what was
 * typed unless it is a name the command knows (a command, an option, a status): any other word,
 * option or value is described as the kit describes text (a short run of digits as it is, anything
 * else by its length), since it may be a token pasted in the wrong place.
 */
import type * as Util from 'node:util';
import { builtinModule } from '../../core/builtin.js';
import {
  connectMock,
  type MockConnection,
  MockControlError,
  type MockStateCollectionsQuery,
  type MockStateQuery,
} from '../connect.js';
import type { MockReturnOptions } from '../domain/outbound.js';
import type { MockReturnReason } from '../domain/resources.js';
import type { MockQuantities, MockRestockQuantities } from '../domain/restocking.js';
import type { MockWebhookDelivery } from '../domain/webhook-event.js';
import { isIdText } from '../engine/router.js';
import { describeText } from '../engine/validation.js';
import { MOCK_DELIVERY_STATUSES, type MockRedeliverFilter } from '../engine/webhook-delivery.js';
import {
  checkRestockingStatus,
  MOCK_COLLECTIONS,
  type MockCollectionName,
  type MockDeliveriesPage,
  type MockDeliveriesQuery,
  type MockStatePage,
} from './control.js';

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

/** Which options each command takes (besides the common ones), and whether they repeat. */
const OPTIONS: Readonly<Record<string, readonly string[]>> = {
  advance: ['arrived', 'damaged', 'missing'],
  fulfil: [],
  fulfill: [],
  return: ['reason', 'carrier', 'item'],
  'flush-webhooks': ['status', 'event-id', 'receiver', 'page', 'limit', 'timeout'],
  deliveries: ['status', 'event-id', 'receiver', 'page', 'limit'],
  redeliver: ['event-id', 'receiver'],
  faults: [],
  'clear-faults': [],
  reset: [],
  state: ['collection', 'collections', 'page', 'limit'],
  routes: [],
};

/** The subcommands {@link runCommand} knows (`fulfill` is an alias of `fulfil`). */
export const COMMANDS: readonly string[] = Object.keys(OPTIONS);

/**
 * The message for a word where a command goes that is none: the word described (a short run of
 * digits as it is, anything else by its length), never shown, and the commands listed.
 */
export function unknownCommand(word: string): string {
  return `Unknown command, got ${describeText(word)} (expected one of ${COMMANDS.join(', ')})`;
}

/** One argument as `parseArgs` reads it: `index` is its place in the arguments. */
type ArgToken = NonNullable<ReturnType<typeof Util.parseArgs>['tokens']>[number];

/** The arguments of a command line as `node:util`'s `parseArgs` reads them (Node 22+, Bun, Deno). */
export function argTokens(args: readonly string[], options: Util.ParseArgsOptionsConfig): ArgToken[] {
  const util = builtinModule<typeof Util>('node:util');
  if (!util) throw new Error('The command line needs node:util (Node.js 22+, Bun or Deno).');
  // Not strict: an unknown option or a missing value is reported here, worded as the kit words it.
  return util.parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true })
    .tokens as ArgToken[];
}

/** A parsed command line. */
interface Parsed {
  command: string;
  positionals: string[];
  options: Map<string, string[]>;
  json: boolean;
}

function parse(argv: readonly string[]): Parsed | 'help' {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') return 'help';
  const allowed = OPTIONS[command];
  if (allowed === undefined) usage(unknownCommand(command));
  const table: Util.ParseArgsOptionsConfig = {
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  };
  for (const name of [...allowed, 'url', 'token'])
    table[name] = { type: 'string', multiple: name === 'item' };
  const parsed: Parsed = { command, positionals: [], options: new Map(), json: false };
  let last = -1;
  for (const token of argTokens(rest, table)) {
    const arg = rest[token.index]!;
    if (token.kind === 'positional' || (token.kind === 'option' && !arg.startsWith('--') && arg !== '-h')) {
      // A word, `-3` included (`return -3`): once, though parseArgs reads `-34` as two short options.
      if (token.index !== last) parsed.positionals.push(arg);
      last = token.index;
    } else if (
      token.kind !== 'option' ||
      !Object.hasOwn(table, token.name) ||
      (table[token.name]!.type === 'boolean' && token.inlineValue)
    ) {
      // The argument described, not shown; the options of the command listed.
      const known = [...allowed, 'url', 'token', 'json', 'help'].map((n) => `--${n}`).join(', ');
      usage(`Unknown option for '${command}', got ${describeText(arg)} (expected ${known})`);
    } else if (token.name === 'help') return 'help';
    else if (token.name === 'json') parsed.json = true;
    else {
      const { value } = token;
      if (value === undefined || value === '' || (!token.inlineValue && value.startsWith('--')))
        usage(`Option '--${token.name}' needs a value`);
      const list = parsed.options.get(token.name) ?? [];
      if (list.length > 0 && token.name !== 'item') usage(`Option '--${token.name}' is given twice`);
      parsed.options.set(token.name, [...list, value]);
    }
  }
  return parsed;
}

function positionalCount(parsed: Parsed, names: readonly string[]): string[] {
  const { command, positionals } = parsed;
  if (positionals.length < names.length) {
    usage(
      `'${command}' needs ${names.map((n) => `<${n}>`).join(' ')}: missing <${names[positionals.length]}>`,
    );
  }
  if (positionals.length > names.length) {
    const takes = names.length === 0 ? 'takes options only' : `takes ${names.map((n) => `<${n}>`).join(' ')}`;
    usage(`Unexpected argument, got ${describeText(positionals[names.length]!)} ('${command}' ${takes})`);
  }
  return positionals;
}

/**
 * A record id argument (`<order-id>`): an integer >= 1, worded as the control methods word it
 * (`checkRecordId`); the text refused is described as the kit describes text (a short run of digits
 * as it is, anything else by its length: it may be a token pasted in the wrong place).
 */
function idOf(raw: string, name: string): number {
  if (!isIdText(raw)) usage(`<${name}> must be an integer >= 1, got ${describeText(raw)}`);
  return Number(raw);
}

/** An integer option >= `min` (`--limit`); the text refused described as {@link idOf} describes it. */
function count(raw: string, what: string, min: number): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min)
    usage(`${what} must be an integer >= ${min}, got ${describeText(raw)}`);
  return Number(raw);
}

/** `5` (every item) or `12=3,14=2` (per sku_id); the text refused described as {@link idOf} describes it. */
function quantitiesOf(raw: string, name: string): MockQuantities {
  if (/^\d+$/.test(raw)) return count(raw, `--${name}`, 0);
  const out: Record<number, number> = {};
  for (const pair of raw.split(',')) {
    const match = /^([1-9]\d{0,14})=(\d{1,9})$/.exec(pair.trim());
    if (!match) {
      usage(`--${name} must be a number or <sku_id>=<n>[,<sku_id>=<n>...], got ${describeText(raw)}`);
    }
    out[Number(match[1])] = Number(match[2]);
  }
  return out;
}

function single(parsed: Parsed, name: string): string | undefined {
  return parsed.options.get(name)?.[0];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function deliverySummary(deliveries: readonly MockWebhookDelivery[]): string {
  const delivered = deliveries.filter((d) => d.delivered).length;
  const pending = deliveries.filter((d) => !d.finished).length;
  const failed = deliveries.length - delivered - pending;
  return `${plural(deliveries.length, 'webhook delivery').replace('deliverys', 'deliveries')}: ${delivered} delivered, ${failed} given up, ${pending} in flight`;
}

/** `--event-id` and `--receiver` as a filter (`eventId`, `url`). */
function eventFilter(parsed: Parsed): MockRedeliverFilter {
  const filter: MockRedeliverFilter = {};
  const eventId = single(parsed, 'event-id');
  if (eventId !== undefined) filter.eventId = eventId;
  const receiver = single(parsed, 'receiver');
  if (receiver !== undefined) filter.url = receiver;
  return filter;
}

/** The deliveries query of the filter options, or `undefined` when none is given. */
function deliveriesQuery(parsed: Parsed): MockDeliveriesQuery | undefined {
  const query: MockDeliveriesQuery = {};
  const status = single(parsed, 'status');
  if (status !== undefined) {
    const known = MOCK_DELIVERY_STATUSES.find((s) => s === status);
    if (known === undefined) usage(`--status must be one of ${MOCK_DELIVERY_STATUSES.join(', ')}`);
    query.status = known;
  }
  Object.assign(query, eventFilter(parsed));
  const page = single(parsed, 'page');
  if (page !== undefined) query.page = count(page, '--page', 1);
  const limit = single(parsed, 'limit');
  if (limit !== undefined) query.limit = count(limit, '--limit', 1);
  return Object.keys(query).length > 0 ? query : undefined;
}

/** The outcome of a list of deliveries, or of a page of them. */
function deliveriesOutcome(answer: MockWebhookDelivery[] | MockDeliveriesPage): Outcome {
  if (Array.isArray(answer)) return { result: answer, line: deliverySummary(answer) };
  const p = answer.pagination;
  return {
    result: answer,
    line: `Page ${p.current_page}/${Math.max(p.page_count, 1)} (${answer.data.length} of ${p.item_count} matching): ${deliverySummary(answer.data)}`,
  };
}

/** A command's result and its one readable line. */
interface Outcome {
  result: unknown;
  line: string;
}

async function advance(mock: MockConnection, parsed: Parsed): Promise<Outcome> {
  const [rawId, rawStatus] = positionalCount(parsed, ['shipment-id', 'status']);
  const id = idOf(rawId!, 'shipment-id');
  // The checker of the control methods and the route (a status name, else described, not shown).
  const status = checkRestockingStatus(rawStatus, '<status>', (field, problem) =>
    usage(`${field} ${problem}`),
  );
  const quantities: { -readonly [K in keyof MockRestockQuantities]: MockRestockQuantities[K] } = {};
  for (const name of ['arrived', 'damaged', 'missing'] as const) {
    const raw = single(parsed, name);
    if (raw !== undefined) quantities[name] = quantitiesOf(raw, name);
  }
  const shipment = await mock.advanceRestockingShipment(
    id,
    status,
    Object.keys(quantities).length > 0 ? quantities : undefined,
  );
  return { result: shipment, line: `Restocking shipment ${shipment.id} is now ${shipment.status}` };
}

async function fulfil(mock: MockConnection, parsed: Parsed): Promise<Outcome> {
  const [rawId] = positionalCount(parsed, ['order-id']);
  const shipment = await mock.fulfillOrder(idOf(rawId!, 'order-id'));
  return {
    result: shipment,
    line: `Order ${shipment.order_id} fulfilled: shipment ${shipment.id} (${shipment.status})`,
  };
}

async function returnOf(mock: MockConnection, parsed: Parsed): Promise<Outcome> {
  const [rawId] = positionalCount(parsed, ['order-id']);
  const orderId = idOf(rawId!, 'order-id');
  const options: { -readonly [K in keyof MockReturnOptions]: MockReturnOptions[K] } = {};
  const reason = single(parsed, 'reason');
  if (reason !== undefined) options.reason = reason as MockReturnReason;
  const carrier = single(parsed, 'carrier');
  if (carrier !== undefined) options.carrier = carrier;
  const items = parsed.options.get('item');
  if (items) {
    options.items = items.map((raw) => {
      const match = /^([1-9]\d{0,14})=(\d{1,9})$/.exec(raw);
      if (!match) usage(`--item must be <sku_id>=<quantity>, got ${describeText(raw)}`);
      return { sku_id: Number(match[1]), quantity: Number(match[2]) };
    });
  }
  const record = await mock.createReturn(orderId, options);
  return {
    result: record,
    line: `Return ${record.id} recorded for order ${orderId} (${record.status}, ${plural(record.return_items.length, 'item')})`,
  };
}

async function redeliver(mock: MockConnection, parsed: Parsed): Promise<Outcome> {
  positionalCount(parsed, []);
  const queued = await mock.redeliverWebhooks(eventFilter(parsed));
  const word = queued.length === 1 ? 'delivery' : 'deliveries';
  return { result: queued, line: `Re-queued ${queued.length} webhook ${word}` };
}

async function state(mock: MockConnection, parsed: Parsed): Promise<Outcome> {
  positionalCount(parsed, []);
  const one = single(parsed, 'collection');
  const many = single(parsed, 'collections');
  const rawPage = single(parsed, 'page');
  const rawLimit = single(parsed, 'limit');
  const paging = {
    ...(rawPage === undefined ? {} : { page: count(rawPage, '--page', 1) }),
    ...(rawLimit === undefined ? {} : { limit: count(rawLimit, '--limit', 1) }),
  };
  const name = (raw: string, option: string): MockCollectionName => {
    const found = MOCK_COLLECTIONS.find((c) => c === raw.trim());
    if (!found) usage(`${option} must name one of ${MOCK_COLLECTIONS.join(', ')}, got ${describeText(raw)}`);
    return found;
  };
  if (one !== undefined && many !== undefined) usage('Give either --collection or --collections, not both');
  const describe = (n: string, page: MockStatePage<MockCollectionName>): string => {
    const p = page.pagination;
    return `${n} page ${p.current_page}/${Math.max(p.page_count, 1)} (${page.data.length} of ${p.item_count})`;
  };
  if (one !== undefined) {
    const query: MockStateQuery<MockCollectionName> = { collection: name(one, '--collection'), ...paging };
    const page = await mock.state(query);
    return { result: page, line: describe(query.collection, page) };
  }
  const names = many === undefined ? MOCK_COLLECTIONS : many.split(',').map((n) => name(n, '--collections'));
  if (many === undefined && Object.keys(paging).length > 0)
    usage('--page and --limit need --collection or --collections');
  const query: MockStateCollectionsQuery<MockCollectionName> = {
    collections: names,
    ...(many === undefined ? { limit: 1 } : paging),
  };
  const pages = await mock.state(query);
  if (many === undefined) {
    // Without a collection: one line of counts (the whole snapshot only with --json).
    const counts = names.map((n) => `${n} ${pages[n].pagination.item_count}`).join(', ');
    return { result: parsed.json ? await mock.state() : pages, line: counts };
  }
  return { result: pages, line: names.map((n) => describe(n, pages[n])).join('; ') };
}

/** Runs one command against `mock`. */
async function run(mock: MockConnection, parsed: Parsed): Promise<Outcome> {
  switch (parsed.command) {
    case 'advance':
      return advance(mock, parsed);
    case 'fulfil':
    case 'fulfill':
      return fulfil(mock, parsed);
    case 'return':
      return returnOf(mock, parsed);
    case 'redeliver':
      return redeliver(mock, parsed);
    case 'state':
      return state(mock, parsed);
  }
  positionalCount(parsed, []);
  switch (parsed.command) {
    case 'flush-webhooks': {
      const query = deliveriesQuery(parsed);
      const rawTimeout = single(parsed, 'timeout');
      const options = rawTimeout === undefined ? {} : { timeoutMs: count(rawTimeout, '--timeout', 1) };
      return deliveriesOutcome(
        query === undefined
          ? await mock.flushWebhooks(undefined, options)
          : await mock.flushWebhooks(query, options),
      );
    }
    case 'deliveries': {
      const query = deliveriesQuery(parsed);
      return deliveriesOutcome(query === undefined ? await mock.deliveries() : await mock.deliveries(query));
    }
    case 'faults': {
      const faults = await mock.faults();
      const list = faults.map(
        (f) =>
          `#${f.id} ${f.method ?? '*'} ${f.path ?? `/${f.pathPattern}/`}${f.remaining === null ? '' : ` (${f.remaining} left)`}`,
      );
      return {
        result: faults,
        line: `${plural(faults.length, 'fault')} in force${list.length ? `: ${list.join(', ')}` : ''}`,
      };
    }
    case 'clear-faults': {
      const removed = await mock.clearFaults();
      return { result: { removed }, line: `Removed ${plural(removed, 'fault')}` };
    }
    case 'reset':
      await mock.reset();
      return { result: null, line: 'The mock was reset' };
    default: {
      const routes = await mock.routes();
      return { result: routes, line: routes.map((r) => `${r.method} ${r.path}`).join(', ') };
    }
  }
}

/** The process's environment, where the runtime has one. */
export function processEnv(): Readonly<Record<string, string | undefined>> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
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
  let parsed: Parsed | 'help';
  let mock: MockConnection;
  try {
    parsed = parse(argv);
    if (parsed === 'help') {
      out(COMMANDS_USAGE);
      return 0;
    }
    const url = single(parsed, 'url') ?? env.FULFILLMENT_MOCK_URL ?? DEFAULT_URL;
    const token = single(parsed, 'token') ?? env.FULFILLMENT_MOCK_TOKEN;
    if (token === undefined || token === '') {
      usage('An API token is needed: --token <token> or the FULFILLMENT_MOCK_TOKEN variable');
    }
    try {
      mock = connectMock(url, { token });
    } catch (error) {
      usage(error instanceof Error ? error.message.replace(/^connectMock: /, '--') : String(error));
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(error.message);
    err(SEE_HELP);
    return 2;
  }
  try {
    const { result, line } = await run(mock, parsed);
    out(parsed.json ? JSON.stringify(result, null, 2) : line);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      err(error.message);
      err(SEE_HELP);
      return 2;
    }
    if (error instanceof MockControlError) {
      err(error.code === 'invalid_argument' ? error.message : `Error: ${error.message}`);
      return error.code === 'invalid_argument' ? 2 : 1;
    }
    throw error;
  }
}
