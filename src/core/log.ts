/**
 * Levelled logging with header redaction. The SDK never logs a token, a cookie or a body.
 */

/** How much the SDK logs, from nothing to every request. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Anything console-like: `console`, pino, winston, … */
export interface Logger {
  /** Failures the SDK reports. */
  error(message: string, ...args: unknown[]): void;
  /** Things that deserve attention (a `Retry-After` longer than `maxRetryAfter`). */
  warn(message: string, ...args: unknown[]): void;
  /** One line per retry. */
  info(message: string, ...args: unknown[]): void;
  /** One line per attempt and per answer (headers redacted). */
  debug(message: string, ...args: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** True when `value` names a log level. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

/** The SDK's logger: drops what is below its level, prefixes each line. */
export class LevelledLogger {
  readonly level: LogLevel;
  readonly #rank: number;
  readonly #sink: Logger;

  constructor(level: LogLevel, sink: Logger) {
    this.level = level;
    this.#rank = RANK[level];
    this.#sink = sink;
  }

  /** Whether a line at `level` would be written (to skip building it otherwise). */
  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return RANK[level] <= this.#rank;
  }

  error(message: string, details?: Record<string, unknown>): void {
    if (this.#rank >= 1) this.#write('error', message, details);
  }
  warn(message: string, details?: Record<string, unknown>): void {
    if (this.#rank >= 2) this.#write('warn', message, details);
  }
  info(message: string, details?: Record<string, unknown>): void {
    if (this.#rank >= 3) this.#write('info', message, details);
  }
  debug(message: string, details?: Record<string, unknown>): void {
    if (this.#rank >= 4) this.#write('debug', message, details);
  }

  #write(level: Exclude<LogLevel, 'off'>, message: string, details?: Record<string, unknown>): void {
    const line = `[merchant-fulfillment] ${message}`;
    if (details === undefined) this.#sink[level](line);
    else this.#sink[level](line, details);
  }
}
