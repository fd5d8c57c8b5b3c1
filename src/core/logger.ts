import { clip, type Redactor } from './redact';

/** Where log lines go. `console` fits; so do pino, winston and most others. */
export interface Logger {
  /** Every attempt, at `logLevel: 'debug'`. */
  debug(message: string, ...rest: unknown[]): void;
  /** Informational lines. */
  info(message: string, ...rest: unknown[]): void;
  /** Retries and deprecations. */
  warn(message: string, ...rest: unknown[]): void;
  /** Failures. */
  error(message: string, ...rest: unknown[]): void;
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

  constructor(sink: Logger, level: LogLevel, redactor: Redactor, custom = false) {
    this.#sink = sink;
    this.#rank = RANK[level];
    this.#redactor = redactor;
    this.custom = custom;
  }

  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return RANK[level] >= this.#rank;
  }

  log(level: Exclude<LogLevel, 'off'>, message: string, data?: Record<string, unknown>): void {
    if (!this.enabled(level)) return;
    const line = `[merchant-gateway] ${clip(this.#redactor.string(message))}`;
    if (data === undefined) this.#sink[level](line);
    else this.#sink[level](line, this.#redactor.value(data));
  }

  /** A warning written whatever the level: for one-off notices, such as a deprecation. */
  notice(message: string): void {
    this.#sink.warn(`[merchant-gateway] ${this.#redactor.string(message)}`);
  }
}
