import type { Redactor } from './redact';

/** Where log lines go. `console` fits; so do pino, winston and most others. */
export interface Logger {
  debug(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  error(message: string, ...rest: unknown[]): void;
}

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

  constructor(sink: Logger, level: LogLevel, redactor: Redactor) {
    this.#sink = sink;
    this.#rank = RANK[level];
    this.#redactor = redactor;
  }

  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return RANK[level] >= this.#rank;
  }

  log(level: Exclude<LogLevel, 'off'>, message: string, data?: Record<string, unknown>): void {
    if (!this.enabled(level)) return;
    const line = `[merchant-gateway] ${this.#redactor.string(message)}`;
    if (data === undefined) this.#sink[level](line);
    else this.#sink[level](line, this.#redactor.value(data));
  }
}
