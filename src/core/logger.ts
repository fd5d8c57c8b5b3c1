import { jsonSafeCopy } from './safety/json-safe-copy';
import { clip, type Redactor } from './safety/redact';
import { traceFields } from './telemetry/option';

/**
 * Where log lines go: `console`, pino and winston fit as they are. Each method is called as
 * `logger[level](data, message)` (pino's order), and `data.message` repeats the message, so
 * a logger that keeps only its first argument (winston) still has both. The console (the default)
 * is the exception: it gets one line, the message first, then the data as compact JSON.
 */
export interface Logger {
  /** Every attempt, at `logLevel: 'debug'`. */
  debug(data: LogData, message: string): void;
  /** Informational lines. */
  info(data: LogData, message: string): void;
  /** Retries and deprecations. */
  warn(data: LogData, message: string): void;
  /** Failures. */
  error(data: LogData, message: string): void;
}

/** The structured part of a log line: its fields, and the message again as `message`. */
export interface LogData {
  /** The same text as the second argument. */
  message: string;
  [field: string]: unknown;
}

/** The least severe level logged; `off` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}

/** Emits lines at or above `level`, every one scrubbed of the client's secrets. */
export class LevelLogger {
  readonly #sink: Logger;
  readonly #rank: number;
  readonly #redactor: Redactor;
  /** Whether the sink is the caller's own logger rather than the console default. */
  readonly custom: boolean;
  /** Whether debug lines are written: read on every attempt, so a field rather than a call. */
  readonly debug: boolean;

  constructor(sink: Logger, level: LogLevel, redactor: Redactor, custom = false) {
    this.#sink = sink;
    this.#rank = RANK[level];
    this.#redactor = redactor;
    this.custom = custom;
    this.debug = this.enabled('debug');
  }

  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return RANK[level] >= this.#rank;
  }

  log(level: Exclude<LogLevel, 'off'>, message: string, data?: Record<string, unknown>): void {
    if (!this.enabled(level)) return;
    this.#write(level, message, data);
  }

  /** A warning written whatever the level: for one-off notices, such as a deprecation. */
  notice(message: string): void {
    this.#write('warn', message, undefined);
  }

  #write(
    level: Exclude<LogLevel, 'off'>,
    message: string,
    data: Record<string, unknown> | undefined,
  ): void {
    const line = `[merchant-gateway] ${clip(this.#redactor.string(message))}`;
    const fields = {
      // telemetry: the active span's ids, so logs and traces join.
      ...traceFields(),
      ...(data === undefined ? {} : (this.#redactor.value(data) as Record<string, unknown>)),
    };
    if (this.#sink === globalThis.console) {
      // console prints every argument: pino's (data, message) would show the message twice, the
      // data first. One line instead, readable in a terminal, the data compact after it.
      const extra =
        Object.keys(fields).length === 0 ? '' : ` ${JSON.stringify(jsonSafeCopy(fields))}`;
      globalThis.console[level](`${line}${extra}`);
      return;
    }
    this.#sink[level]({ ...fields, message: line }, line);
  }
}
