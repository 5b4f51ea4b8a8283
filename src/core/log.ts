/**
 * Levelled, structured logging with redaction. Every line is a message plus a details object of
 * stable fields ({@link LogDetails}), handed to the logger in the order it expects: message first
 * (`console`, winston) or object first (pino, bunyan). The SDK never logs a token, a cookie or a body.
 */
import type { RateLimitInfo } from './headers.js';
import type { Redactor } from './redact.js';

/** How much the SDK logs, from nothing to every request. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * The details of a log line: stable field names, present where they apply. With a message-first
 * logger they are the argument after the message; with an object-first logger (pino) they become
 * the fields of the JSON line.
 * @inline
 */
export interface LogDetails {
  /** The HTTP method of the request the line is about. */
  method?: string | undefined;
  /** Its URL, without credentials. */
  url?: string | undefined;
  /** The attempt, from 1. */
  attempt?: number | undefined;
  /** The HTTP status of the answer. */
  status?: number | undefined;
  /** Milliseconds the attempt took until its answer's headers arrived. */
  durationMs?: number | undefined;
  /** Milliseconds waited before the next attempt (a retry) or before sending (a rate-limit wait). */
  delayMs?: number | undefined;
  /**
   * Why a retry or a wait happens: `'status'`, `'rate_limited'`, `'connection'`, `'timeout'` (a
   * retry), `'client_rate_limit'` or `'server_rate_limit'` (a wait for the client-side rate limit).
   */
  reason?: string | undefined;
  /** The answer's `X-Rate-Limit-Used` / `X-Rate-Limit-Max`, when it carries them. */
  rateLimit?: RateLimitInfo | undefined;
  /** Request headers, credentials masked as `***`. */
  headers?: Record<string, string> | undefined;
  /** Any other field a line carries (`retryAfterSeconds`, `event`, `error`, …). */
  [field: string]: unknown;
}

/**
 * Anything console-like: `console`, pino, bunyan, winston, … Each method is called either
 * `(message, details?)` (message-first: `console`, winston) or `(details, message)` (object-first:
 * pino, bunyan), as the client's `loggerStyle` option says.
 */
export interface Logger {
  /** Failures the SDK reports (a listener of a client event that failed). */
  error(message: string | LogDetails, ...args: unknown[]): void;
  /** Things that deserve attention (a `Retry-After` longer than `maxRetryAfter`). */
  warn(message: string | LogDetails, ...args: unknown[]): void;
  /** One line per retry, and one per rate-limit wait longer than a second. */
  info(message: string | LogDetails, ...args: unknown[]): void;
  /** One line per attempt and per answer (headers redacted). */
  debug(message: string | LogDetails, ...args: unknown[]): void;
}

/**
 * The order a logger takes its arguments in: `'message-first'` (`logger.info(message, details)`,
 * as `console` and winston take them) or `'object-first'` (`logger.info(details, message)`, as
 * pino and bunyan take them, so that the details become fields of the line).
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

/**
 * The style a logger takes its arguments in, guessed from its shape: a pino logger (a `child` and
 * a `bindings` method) or a bunyan logger (a `child` method, `fields` and `streams`) is
 * object-first; anything else (`console`, winston, a plain object) is message-first.
 */
export function detectLoggerStyle(logger: Logger): LoggerStyle {
  const l = logger as unknown as Record<string, unknown>;
  const pinoOrBunyan =
    typeof l.child === 'function' &&
    (typeof l.bindings === 'function' ||
      (Array.isArray(l.streams) && typeof l.fields === 'object' && l.fields !== null));
  return pinoOrBunyan ? 'object-first' : 'message-first';
}

/** Levels of pino, bunyan and winston that the SDK names differently. */
const FOREIGN_LEVELS: Readonly<Record<string, LogLevel>> = {
  silent: 'off',
  fatal: 'error',
  http: 'debug',
  verbose: 'debug',
  trace: 'debug',
  silly: 'debug',
};

/**
 * The level a logger filters at, as one of the SDK's levels, when it has one: pino and winston
 * expose it as a string `level` (`'debug'`, `'trace'`, `'silent'`, …); bunyan's numeric levels
 * and loggers without a level (`console`) give `undefined`.
 */
export function loggerLevel(logger: Logger): LogLevel | undefined {
  const level = (logger as unknown as { level?: unknown }).level;
  if (typeof level !== 'string') return undefined;
  if (Object.hasOwn(FOREIGN_LEVELS, level)) return FOREIGN_LEVELS[level];
  return level !== 'off' && isLogLevel(level) ? level : undefined;
}

/** The SDK's logger: drops what is below its level, prefixes each line, keeps details as structure. */
export class LevelledLogger {
  readonly #rank: number;
  readonly #sink: Logger;
  readonly #objectFirst: boolean;
  readonly #redactor: Redactor | undefined;

  /**
   * `style`: the order the sink takes its arguments in (default `'message-first'`); `redactor`
   * removes the client's secrets from every message and detail, as a last line of defence.
   */
  constructor(level: LogLevel, sink: Logger, options: { style?: LoggerStyle; redactor?: Redactor } = {}) {
    this.#rank = LEVELS.indexOf(level);
    this.#sink = sink;
    this.#objectFirst = options.style === 'object-first';
    this.#redactor = options.redactor;
  }

  /** Whether a line at `level` would be written (to skip building it otherwise). */
  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return LEVELS.indexOf(level) <= this.#rank;
  }

  /** Writes a line at `level` (nothing when the level is below the logger's). */
  write(level: Exclude<LogLevel, 'off'>, message: string, details?: LogDetails): void {
    if (!this.enabled(level)) return;
    const redactor = this.#redactor;
    const line = `[merchant-fulfillment] ${redactor ? redactor.text(message) : message}`;
    const fields = redactor && details ? (redactor.value(details) as LogDetails) : details;
    if (fields === undefined) this.#sink[level](line);
    else if (this.#objectFirst) this.#sink[level](fields, line);
    else this.#sink[level](line, fields);
  }
}
