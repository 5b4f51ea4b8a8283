/**
 * Levelled logging with redaction. Every line is a message plus a details object of stable fields:
 * `logger[level](message, details)`. The SDK never logs a token, a cookie or a body.
 */
import type { Redactor } from './redact.js';

/** How much the SDK logs, from nothing to every request. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * The details of a log line: `method`, `url`, `attempt`, `status`, `delayMs`, `reason`, … where they
 * apply; the argument after the message, or the fields of the line for an object-first logger (pino).
 */
export type LogDetails = Record<string, unknown>;

/**
 * Anything with the four methods: each is called `(message, details?)` (`console`, winston) or
 * `(details, message)` (pino, bunyan), as the client's `loggerStyle` option says.
 */
export interface Logger {
  /** Failures the SDK reports (a listener of a client event that failed). */
  error(message: string | Record<string, unknown>, ...args: unknown[]): void;
  /** Things that deserve attention (a `Retry-After` longer than `maxRetryAfter`). */
  warn(message: string | Record<string, unknown>, ...args: unknown[]): void;
  /** One line per retry, and one per rate-limit wait longer than a second. */
  info(message: string | Record<string, unknown>, ...args: unknown[]): void;
  /** One line per attempt and per answer. */
  debug(message: string | Record<string, unknown>, ...args: unknown[]): void;
}

/**
 * The order a logger takes a line's arguments in: `'message-first'` (`logger.info(message, details)`,
 * as `console` and winston take them) or `'object-first'` (`logger.info(details, message)`, as pino
 * and bunyan take them, so that the details become fields of the JSON line).
 * @inline
 */
export type LoggerStyle = 'object-first' | 'message-first';

/** The levels, from nothing to every request. */
export const LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/** True when `value` names a log level. */
export function isLogLevel(value: unknown): value is LogLevel {
  return LEVELS.includes(value as LogLevel);
}

/** True when `value` has the four methods of a {@link Logger}. */
export const isLogger = (value: unknown): value is Logger =>
  LEVELS.slice(1).every((m) => typeof (value as Record<string, unknown> | null)?.[m] === 'function');

/** `'object-first'` for a logger shaped like pino (`child`, `bindings`) or bunyan (`child`, `fields`, `streams`). */
export function detectLoggerStyle(logger: Logger): LoggerStyle {
  const l = logger as unknown as Record<string, unknown>;
  const pinoOrBunyan =
    typeof l.child === 'function' && ('bindings' in l || ('fields' in l && 'streams' in l));
  return pinoOrBunyan ? 'object-first' : 'message-first';
}

/**
 * The level a logger filters at, when it has one of the SDK's: pino and winston expose it as a
 * string `level`. Another name (`'trace'`, `'silent'`), bunyan's numeric levels and loggers
 * without a level (`console`) give `undefined`.
 */
export function loggerLevel(logger: Logger): LogLevel | undefined {
  const level = (logger as unknown as { level?: unknown }).level;
  return level !== 'off' && isLogLevel(level) ? level : undefined;
}

/** The SDK's logger: drops what is below its level, prefixes each line, removes the client's secrets. */
export class LevelledLogger {
  readonly #rank: number;
  /** Whether `debug` lines are written (the transport builds them only then). */
  readonly debug: boolean;
  readonly #sink: Logger;
  readonly #redactor: Redactor | undefined;
  readonly #objectFirst: boolean;

  /** `redactor` removes the client's secrets from every message and detail, as a last line of defence. */
  constructor(level: LogLevel, sink: Logger, options: { style?: LoggerStyle; redactor?: Redactor } = {}) {
    this.#rank = LEVELS.indexOf(level);
    this.debug = this.#rank >= LEVELS.indexOf('debug');
    this.#sink = sink;
    this.#redactor = options.redactor;
    this.#objectFirst = options.style === 'object-first';
  }

  /** Writes a line at `level` (nothing when the level is below the logger's). */
  write(level: Exclude<LogLevel, 'off'>, message: string, details?: LogDetails): void {
    if (LEVELS.indexOf(level) > this.#rank) return;
    const r = this.#redactor;
    const line = `[merchant-fulfillment] ${r ? r.text(message) : message}`;
    const fields = (r ? r.value(details) : details) as LogDetails | undefined;
    if (fields === undefined) this.#sink[level](line);
    else if (this.#objectFirst) this.#sink[level](fields, line);
    else this.#sink[level](line, fields);
  }
}
