/**
 * What the `merchant-gateway` command reads and writes, so it runs the same in a process (bin.ts)
 * and in a test; and the shared pieces of every subcommand: usage errors, the client from flags
 * and environment (the API key from a file, stdin or the environment, never from the command
 * line itself), and how results and errors are printed.
 */
import { readFile } from 'node:fs/promises';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import {
  ApiError,
  ConfigurationError,
  MerchantGateway,
  RequestValidationError,
} from 'merchant-gateway';

/** The longest delay a Node.js timer keeps (2^31 - 1 ms); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** `process.env` for the command. */
  env: Readonly<Record<string, string | undefined>>;
  /** Whether stdout is a terminal: tables and a live status line, else plain lines. */
  stdoutIsTTY: boolean;
  /** Whether stdin is a terminal: confirmations are asked there, else `--yes` is required. */
  stdinIsTTY: boolean;
  /** The whole of stdin (for `--api-key -`, `relay --secret -`). */
  readStdin(): Promise<string>;
  /** Asks on the terminal and resolves with the line typed. */
  ask(question: string): Promise<string>;
  /** Settles with the signal's name when the command is to stop (SIGINT, SIGTERM). */
  stop: Promise<string>;
}

/** A command line that cannot run: exit 2, the message naming the flag and the rule. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Exit codes of the command: the contract's. */
export const EXIT = { ok: 0, apiError: 1, usage: 2 } as const;

/** The flags every subcommand that calls the service takes. */
export const CLIENT_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'merchant-id': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export const CLIENT_HELP = `Connection (every command that calls the service):
  --base-url URL        the service (env MERCHANT_GATEWAY_BASE_URL)
  --api-key FILE|-      read the API key from FILE, or from stdin with -
                        (default env MERCHANT_GATEWAY_API_KEY; never the key itself: it would stay in shell history)
  --merchant-id ID      default merchant of payment calls (env MERCHANT_GATEWAY_MERCHANT_ID)
  --json                print JSON (one document, or one per line for streams) instead of tables
  -h, --help            this help`;

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** `parseArgs` (strict) whose errors are usage errors. */
export function parse<O extends OptionsConfig>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional.*$/s, ''));
  }
}

/** The client the flags and environment describe; the key read from a file, stdin or env. */
export async function clientOf(
  values: {
    'base-url'?: string | undefined;
    'api-key'?: string | undefined;
    'merchant-id'?: string | undefined;
  },
  io: CliIo,
  /** Sees the key read (the relay derives its events' `live` from the key's mode). */
  onKey?: (apiKey: string) => void,
): Promise<MerchantGateway> {
  const baseUrl = values['base-url'] ?? io.env.MERCHANT_GATEWAY_BASE_URL;
  if (baseUrl === undefined || baseUrl === '') {
    throw new UsageError('no service: set MERCHANT_GATEWAY_BASE_URL or pass --base-url URL');
  }
  const apiKey = await apiKeyOf(values['api-key'], io);
  onKey?.(apiKey);
  const merchantId = values['merchant-id'] ?? io.env.MERCHANT_GATEWAY_MERCHANT_ID;
  try {
    return new MerchantGateway({
      baseUrl,
      apiKey,
      ...(merchantId ? { merchantId } : {}),
      // The command's own stderr carries failures; the SDK's logger stays off unless asked.
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
  } catch (error) {
    if (error instanceof ConfigurationError) throw new UsageError(error.message);
    throw error;
  }
}

async function apiKeyOf(source: string | undefined, io: CliIo): Promise<string> {
  return readSecret(source, io, {
    flag: '--api-key',
    env: 'MERCHANT_GATEWAY_API_KEY',
    what: 'key',
    missing:
      'no API key: set MERCHANT_GATEWAY_API_KEY, or pass --api-key FILE (a file holding it) or --api-key - (read from stdin)',
  });
}

/**
 * A secret (the API key, the relay's signing secret) from the environment, a file or stdin (`-`):
 * never from the command line itself, where it would stay in shell history and show in `ps`. A
 * value that cannot be read as a file is refused without being repeated (it may be the secret).
 */
export async function readSecret(
  source: string | undefined,
  io: CliIo,
  how: { flag: string; env: string; what: string; missing: string },
): Promise<string> {
  let secret: string;
  if (source === undefined) {
    secret = io.env[how.env] ?? '';
    if (secret === '') throw new UsageError(how.missing);
    return secret;
  }
  if (source === '-') {
    secret = (await io.readStdin()).trim();
  } else {
    try {
      secret = (await readFile(source, 'utf8')).trim();
    } catch {
      // The value is not repeated: it may be a secret typed where a file name was expected.
      throw new UsageError(
        `${how.flag} takes a file holding the ${how.what}, or - to read it from stdin, and that file cannot be read (a ${how.what} itself is never taken on the command line: it would stay in shell history)`,
      );
    }
  }
  if (secret === '') throw new UsageError(`${how.flag}: the ${how.what} read is empty`);
  return secret;
}

/** Prints an error the way the exit code says: usage (2) or a failed call (1, class, code, request id). */
export function reportError(error: unknown, io: CliIo, command: string): number {
  if (error instanceof UsageError) {
    io.stderr(
      `merchant-gateway: ${error.message}\nRun merchant-gateway ${command}--help for usage.\n`,
    );
    return EXIT.usage;
  }
  if (error instanceof RequestValidationError) {
    // The SDK's own check, before anything was sent: the input is what is wrong.
    io.stderr(`merchant-gateway: ${error.message}\n`);
    return EXIT.usage;
  }
  if (error instanceof ApiError) {
    io.stderr(
      `merchant-gateway: ${error.message}\n  class: ${error.name}\n  code: ${error.code}\n  request id: ${error.requestId ?? '(none)'}\n`,
    );
    return EXIT.apiError;
  }
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`merchant-gateway: ${message}\n  class: ${name}\n`);
  return EXIT.apiError;
}

// ------------------------------------------------------------ output

/** One JSON document on stdout. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** A cell's text: nested objects as compact JSON, absent values as `-`. */
function cell(value: unknown): string {
  if (value === undefined || value === null) return '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Reads `a.b.c` from an object. */
function pick(row: unknown, path: string): unknown {
  let value: unknown = row;
  for (const key of path.split('.')) {
    value =
      typeof value === 'object' && value !== null
        ? (value as Record<string, unknown>)[key]
        : undefined;
  }
  return value;
}

/** A table for people: a header row and aligned columns (`[title, path]` each). */
export function printTable(
  io: CliIo,
  rows: readonly unknown[],
  columns: readonly (readonly [string, string | ((row: never) => unknown)])[],
): void {
  const cells = rows.map((row) =>
    columns.map(([, at]) => cell(typeof at === 'string' ? pick(row, at) : at(row as never))),
  );
  const titles = columns.map(([title]) => title);
  const widths = titles.map((title, i) =>
    Math.max(title.length, ...cells.map((line) => (line[i] as string).length)),
  );
  const line = (values: readonly string[]) =>
    `${values
      .map((value, i) => value.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd()}\n`;
  io.stdout(line(titles));
  for (const values of cells) io.stdout(line(values));
  if (rows.length === 0) io.stdout('(none)\n');
}

/** One object for people: `key  value` lines, nested objects flattened to `a.b`. */
export function printRecord(io: CliIo, record: object): void {
  const lines: [string, string][] = [];
  const walk = (value: unknown, prefix: string) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value))
        walk(inner, prefix ? `${prefix}.${key}` : key);
    } else {
      lines.push([prefix, cell(value)]);
    }
  };
  walk(record, '');
  const width = Math.max(...lines.map(([key]) => key.length));
  for (const [key, value] of lines) io.stdout(`${key.padEnd(width)}  ${value}\n`);
}

/** `--sweep-interval MS` of `payments follow` and `relay`: 100 ms up to the longest timer. */
export function sweepInterval(value: string | undefined): number {
  if (value === undefined) return 5_000;
  const ms = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!(ms >= 100 && ms <= MAX_TIMER_MS)) {
    throw new UsageError(
      `--sweep-interval must be a whole number of milliseconds from 100 to ${MAX_TIMER_MS}`,
    );
  }
  return ms;
}
