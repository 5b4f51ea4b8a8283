/**
 * The subcommands of the mock's command line (`merchant-fulfillment-mock advance 3 delivered`):
 * one table, each entry a synopsis, its help and one call through {@link connectMock} with the
 * readable line it prints (the raw result with `--json`); one runner parses, connects, calls and
 * prints for all, and the help is made from the table. Exit codes: 0 done, 1 the mock refused or
 * could not be reached (the message printed, never the token), 2 a usage mistake. A usage message
 * never shows what was typed unless it is a name the command knows (a command, an option): any
 * other word or option is described as the kit describes text (a short run of digits as it is,
 * anything else by its length), since it may be a token pasted in the wrong place. Values the mock
 * checks (a status, a collection, a page) are sent as typed; its refusal is printed without the query.
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
import { type CliIo, CliUsageError, ioOf, readArgs } from './args.js';
import {
  MOCK_COLLECTIONS,
  type MockCollectionName,
  type MockDeliveriesPage,
  type MockDeliveriesQuery,
  type MockStatePage,
} from './control-methods.js';

/** The mock URL used without `--url` or `FULFILLMENT_MOCK_URL`. */
const DEFAULT_URL = 'http://127.0.0.1:4010';

/** Where {@link runCommand} writes and what it reads: the command line's {@link CliIo}. */
export type CommandIo = CliIo;

/** A parsed command line: the command's arguments (as many as it takes) and its options. */
interface Parsed {
  args: string[];
  /** The first value of each option given. */
  opts: Record<string, string | undefined>;
  /** Every value of each option given (`--item` is repeatable). */
  values: Map<string, string[]>;
  json: boolean;
}

/**
 * A subcommand: its synopsis (the arguments, then from the first `[` the options), its help (a
 * `\n` continues it on the next line), and its call with the line printed.
 */
interface Command {
  synopsis?: string;
  help: string;
  run(mock: MockConnection, p: Parsed): Promise<[result: unknown, line: string]>;
}

function usage(message: string): never {
  throw new CliUsageError(message);
}

/**
 * A record id argument (`<order-id>`): an integer >= 1, worded as the control methods word it;
 * the text refused described as the kit describes text.
 */
function idOf(raw: string, name: string): number {
  if (!isIdText(raw)) usage(`<${name}> must be an integer >= 1, got ${describeText(raw)}`);
  return Number(raw);
}

/** A number option (`--limit`), or `undefined` when not given: checked by what it is sent to. */
const num = (raw: string | undefined) => (raw === undefined ? undefined : Number(raw));

const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

/** `5` (every item) or `12=3,14=2` (per sku_id). */
function quantitiesOf(raw: string, name: string): MockQuantities {
  if (/^\d{1,9}$/.test(raw)) return Number(raw);
  if (!/^[1-9]\d{0,14}=\d{1,9}(,[1-9]\d{0,14}=\d{1,9})*$/.test(raw.replaceAll(' ', '')))
    usage(`--${name} must be a number or <sku_id>=<n>[,<sku_id>=<n>...], got ${describeText(raw)}`);
  return Object.fromEntries(raw.split(',').map((pair) => pair.split('=').map(Number)));
}

/** The deliveries query of the filter options as typed (the mock checks them); none: every delivery. */
function deliveriesQuery({ opts }: Parsed): MockDeliveriesQuery {
  const { status, 'event-id': eventId, receiver: url, page, limit } = opts;
  const query = { status, eventId, url, page: num(page), limit: num(limit) };
  return (Object.values(query).some((v) => v !== undefined) ? query : undefined) as MockDeliveriesQuery;
}

/** The line of a list of deliveries, or of a page of them. */
function deliveriesLine(answer: MockWebhookDelivery[] | MockDeliveriesPage): string {
  const list = Array.isArray(answer) ? answer : answer.data;
  const delivered = list.filter((d) => d.delivered).length;
  const pending = list.filter((d) => !d.finished).length;
  const given = list.length - delivered - pending;
  const line = `${plural(list.length, 'webhook delivery', 'webhook deliveries')}: ${delivered} delivered, ${given} given up, ${pending} in flight`;
  if (Array.isArray(answer)) return line;
  return `Page ${pageOf(answer)} (${list.length} of ${answer.pagination.item_count} matching): ${line}`;
}

const pageOf = ({ pagination: p }: { pagination: MockDeliveriesPage['pagination'] }) =>
  `${p.current_page}/${Math.max(p.page_count, 1)}`;

const pageLine = (name: string, page: MockStatePage<MockCollectionName>) =>
  `${name} page ${pageOf(page)} (${page.data.length} of ${page.pagination.item_count})`;

const FILTERS =
  '[--status delivered|failed|pending] [--event-id <id>] [--receiver <url>]\n[--page <n>] [--limit <n>]';

/** The subcommands (`fulfill` is an alias of `fulfil`). */
const TABLE: Readonly<Record<string, Command>> = {
  advance: {
    synopsis: `<shipment-id> <status> ${RESTOCK_FIGURES.map((f) => `[--${f} <q>]`).join(' ')}`,
    help: 'move a restocking shipment (v1 or v2 status name); the quantities when moving to\nrestocked: a number for every item, or <sku_id>=<n>[,<sku_id>=<n>...]',
    async run(mock, { args, opts }) {
      // The status name is checked by the mock's route, as in-process.
      const shipment = await mock.advanceRestockingShipment(
        idOf(args[0]!, 'shipment-id'),
        args[1] as RestockingStatusV1,
        Object.fromEntries(RESTOCK_FIGURES.map((f) => [f, opts[f] && quantitiesOf(opts[f], f)])),
      );
      return [shipment, `Restocking shipment ${shipment.id} is now ${shipment.status}`];
    },
  },
  fulfil: {
    synopsis: '<order-id>',
    help: 'fulfil an order (alias: fulfill)',
    async run(mock, { args }) {
      const shipment = await mock.fulfillOrder(idOf(args[0]!, 'order-id'));
      return [shipment, `Order ${shipment.order_id} fulfilled: shipment ${shipment.id} (${shipment.status})`];
    },
  },
  return: {
    synopsis: '<order-id> [--reason <reason>] [--carrier <name>] [--item <sku_id>=<quantity>]...',
    help: 'record a return of a fulfilled order',
    async run(mock, { args, opts, values }) {
      const orderId = idOf(args[0]!, 'order-id');
      const items = values.get('item')?.map((raw) => {
        const match =
          /^([1-9]\d{0,14})=(\d{1,9})$/.exec(raw) ??
          usage(`--item must be <sku_id>=<quantity>, got ${describeText(raw)}`);
        return { sku_id: Number(match[1]), quantity: Number(match[2]) };
      });
      const options = { reason: opts.reason, carrier: opts.carrier, items } as MockReturnOptions;
      const record = await mock.createReturn(orderId, options);
      const what = `${record.status}, ${plural(record.return_items.length, 'item')}`;
      return [record, `Return ${record.id} recorded for order ${orderId} (${what})`];
    },
  },
  'flush-webhooks': {
    synopsis: `${FILTERS} [--timeout <ms>]`,
    help: 'wait until no webhook delivery is in flight (--timeout: how long to wait, default 30000)',
    async run(mock, p) {
      const timeoutMs = num(p.opts.timeout);
      const answer = await mock.flushWebhooks(
        deliveriesQuery(p),
        timeoutMs === undefined ? {} : { timeoutMs },
      );
      return [answer, deliveriesLine(answer)];
    },
  },
  deliveries: {
    synopsis: FILTERS,
    help: 'list the webhook deliveries (with a filter: a page of 50 by default)',
    async run(mock, p) {
      const answer = await mock.deliveries(deliveriesQuery(p));
      return [answer, deliveriesLine(answer)];
    },
  },
  redeliver: {
    synopsis: '[--event-id <id>] [--receiver <url>]',
    help: 'send again the deliveries that were given up\n(with --event-id: that delivery, even if delivered)',
    async run(mock, { opts }) {
      const queued = await mock.redeliverWebhooks({
        eventId: opts['event-id'],
        url: opts.receiver,
      } as MockRedeliverFilter);
      return [queued, `Re-queued ${plural(queued.length, 'webhook delivery', 'webhook deliveries')}`];
    },
  },
  faults: {
    help: 'list the faults in force',
    async run(mock) {
      const faults = await mock.faults();
      const list = faults.map((f) => `#${f.id} ${f.method ?? '*'} ${f.path ?? `/${f.pathPattern}/`}`);
      const left = faults.map((f) => (f.remaining === null ? '' : ` (${f.remaining} left)`));
      const line = list.map((fault, i) => fault + left[i]).join(', ');
      return [faults, `${plural(faults.length, 'fault')} in force${line && `: ${line}`}`];
    },
  },
  'clear-faults': {
    help: 'remove every fault in force',
    async run(mock) {
      const removed = await mock.clearFaults();
      return [{ removed }, `Removed ${plural(removed, 'fault')}`];
    },
  },
  reset: {
    help: 'back to the initial state',
    run: async (mock) => [await mock.reset(), 'The mock was reset'],
  },
  state: {
    synopsis: '[--collection <name>] [--collections <a,b>] [--page <n>] [--limit <n>]',
    help: `read the records: one collection or several, a page of each; without one, the counts\n(names: ${MOCK_COLLECTIONS.join(', ')})`,
    async run(mock, { opts, json }) {
      const { collection: one, page, limit } = opts;
      const many = opts.collections?.split(',').map((n) => n.trim() as MockCollectionName);
      const query = { collection: one, collections: many, page: num(page), limit: num(limit) };
      // The names, pages and their combinations are checked by the mock.
      if (Object.values(query).some((v) => v !== undefined)) {
        const answer = await mock.state(query as { collections: MockCollectionName[] });
        const line = one
          ? pageLine(one, answer as never)
          : many!.map((n) => pageLine(n, answer[n])).join('; ');
        return [answer, line];
      }
      // Without a collection: one line of counts, or the whole snapshot with --json.
      if (json) return [await mock.state(), ''];
      const pages = await mock.state({ collections: MOCK_COLLECTIONS, limit: 1 });
      const counts = MOCK_COLLECTIONS.map((n) => `${n} ${pages[n].pagination.item_count}`).join(', ');
      return [pages, counts];
    },
  },
  routes: {
    help: 'list the control routes',
    async run(mock) {
      const routes = await mock.routes();
      return [routes, routes.map((r) => `${r.method} ${r.path}`).join(', ')];
    },
  },
};

/** The subcommands {@link runCommand} knows (`fulfill` is an alias of `fulfil`). */
export const COMMANDS: readonly string[] = [...Object.keys(TABLE), 'fulfill'];

/** The help text of the subcommands, made from the table. */
export const COMMANDS_USAGE = `Usage: merchant-fulfillment-mock <command> [arguments] [options]

Drives a running mock through its control routes (/__mock/).

Commands:
${Object.entries(TABLE)
  .map(([name, { synopsis = '', help }]) =>
    `  ${`${name} ${synopsis}`.trimEnd()}\n${help}`.replaceAll('\n', '\n      '),
  )
  .join('\n')}

Options:
  --url <url>       the mock's URL (default FULFILLMENT_MOCK_URL, else ${DEFAULT_URL})
  --token <token>   an API token of the mock (default FULFILLMENT_MOCK_TOKEN)
  --json            print the raw result as JSON
  -h, --help        show this help

Exit status: 0 done, 1 the mock refused or could not be reached, 2 a usage mistake.`;

/**
 * The message for a word where a command goes that is none: the word described (a short run of
 * digits as it is, anything else by its length), never shown, and the commands listed.
 */
export function unknownCommand(word: string): string {
  return `Unknown command, got ${describeText(word)} (expected one of ${COMMANDS.join(', ')})`;
}

/** The command line of `command`, or `undefined` for `--help`. */
async function parse(
  name: string,
  { synopsis = '' }: Command,
  rest: readonly string[],
): Promise<Parsed | undefined> {
  const expected = synopsis.split('[')[0]!.match(/<[\w-]+>/g) ?? [];
  const names = [...Array.from(synopsis.matchAll(/--([\w-]+)/g), (m) => m[1]!), 'url', 'token'];
  const options: Util.ParseArgsOptionsConfig = { json: { type: 'boolean' }, help: { type: 'boolean' } };
  for (const option of names) options[option] = { type: 'string', multiple: option === 'item' };
  const known = [...names, 'json', 'help'].map((n) => `--${n}`).join(', ');
  const unknown = (arg: string) =>
    `Unknown option for '${name}', got ${describeText(arg)} (expected ${known})`;
  const { positionals: args, values, flags } = await readArgs(rest, options, unknown);
  if (flags.has('help') || args.includes('-h')) return undefined;
  const takes = expected.length === 0 ? 'takes options only' : `takes ${expected.join(' ')}`;
  if (args.length < expected.length)
    usage(`'${name}' needs ${expected.join(' ')}: missing ${expected[args.length]}`);
  if (args.length > expected.length)
    usage(`Unexpected argument, got ${describeText(args[expected.length]!)} ('${name}' ${takes})`);
  const opts = Object.fromEntries(Array.from(values, ([option, list]) => [option, list[0]]));
  return { args, opts, values, json: flags.has('json') };
}

/**
 * Runs one subcommand (`argv` without the program name, e.g. `['fulfil', '7', '--json']`) against
 * a running mock and resolves with the exit status: 0 done, 1 the mock refused the call or could
 * not be reached (the message written to `io.err`, never the token), 2 a usage mistake (message
 * and a pointer to `--help` on `io.err`). `--help` prints {@link COMMANDS_USAGE} and resolves 0.
 */
export async function runCommand(argv: readonly string[], io: CommandIo = {}): Promise<number> {
  const { out, err, env } = ioOf(io);
  const [name = 'help', ...rest] = argv;
  try {
    const help = ['-h', '--help', 'help'].includes(name);
    if (!help && !COMMANDS.includes(name)) usage(unknownCommand(name));
    const command = TABLE[name === 'fulfill' ? 'fulfil' : name]!;
    const parsed = !help && (await parse(name, command, rest));
    if (!parsed) {
      out(COMMANDS_USAGE);
      return 0;
    }
    const token = parsed.opts.token ?? env.FULFILLMENT_MOCK_TOKEN;
    if (!token) usage('An API token is needed: --token <token> or the FULFILLMENT_MOCK_TOKEN variable');
    const mock = connectMock(parsed.opts.url ?? env.FULFILLMENT_MOCK_URL ?? DEFAULT_URL, { token });
    const [result, line] = await command.run(mock, parsed);
    out(parsed.json ? JSON.stringify(result, null, 2) : line);
    return 0;
  } catch (error) {
    if (error instanceof MockControlError && error.code !== 'invalid_argument') {
      // The route without its query: a value typed there may be a token pasted in the wrong place.
      err(`Error: ${error.message.replace(error.route, error.route.replace(/\?.*/, ''))}`);
      return 1;
    }
    if (!(error instanceof CliUsageError || error instanceof MockControlError)) throw error;
    // A usage mistake, or an argument connectMock refuses (`connectMock: url: …` → `--url …`).
    err(error.message.replace(/^connectMock: (\w+): /, '--$1 '));
    err("See 'merchant-fulfillment-mock <command> --help'.");
    return 2;
  }
}
