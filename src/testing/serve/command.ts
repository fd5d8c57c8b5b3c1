/** The `merchant-gateway-mock` command: the whole mock over HTTP, for services in any language. */
import { createMockGateway, DEFAULT_REQUEST_LOG_SIZE } from '../mock-gateway';

/** The port the command serves on when `--port` is not given (stripe-mock's habit of a fixed port). */
export const DEFAULT_PORT = 4010;

export const USAGE = `Usage: merchant-gateway-mock [--port N] [--host H] [--seed N] [--request-log-size N]

Serves the stateful merchant-gateway mock over HTTP until SIGINT or SIGTERM.

Options:
  --port N    TCP port, 0 for any free one (default ${DEFAULT_PORT})
  --host H    address to bind; 0.0.0.0 or :: to serve other containers (default 127.0.0.1)
  --seed N    seed of the sample data and ids, 0 to 4294967295: the same seed, the same data (default 1)
  --request-log-size N
              recorded requests kept, the newest (default 1000); memory stays flat however long it runs
  -h, --help  show this help
`;

export interface CommandOptions {
  port: number;
  host: string;
  seed: number;
  requestLogSize: number;
}

/** A command line the command cannot run: the message says which flag and why. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What the command writes to and waits on; the entry wires them to the process. */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Settles with the signal's name when the command is to stop. */
  stop: Promise<string>;
}

/**
 * Reads `--port N`, `--host H`, `--seed N`, `--request-log-size N` (or `--flag=value`); `'help'`
 * for `-h`/`--help`.
 */
export function parseArgs(argv: readonly string[]): CommandOptions | 'help' {
  const options: CommandOptions = {
    port: DEFAULT_PORT,
    host: '127.0.0.1',
    seed: 1,
    requestLogSize: DEFAULT_REQUEST_LOG_SIZE,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return 'help';
    const flag = /^--(port|host|seed|request-log-size)(?:=(.*))?$/s.exec(arg);
    if (!flag) throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
    const name = flag[1] as 'port' | 'host' | 'seed' | 'request-log-size';
    const value = flag[2] ?? argv[++i];
    if (value === undefined || value === '' || (flag[2] === undefined && value.startsWith('-'))) {
      throw new UsageError(`--${name} needs a value`);
    }
    if (name === 'host') options.host = value;
    else if (name === 'port') options.port = integer(value, name, 65_535);
    else if (name === 'request-log-size') options.requestLogSize = integer(value, name, 1_000_000);
    else options.seed = integer(value, name, 0xffff_ffff);
  }
  return options;
}

function integer(value: string, name: string, max: number): number {
  const n = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n <= max))
    throw new UsageError(
      `--${name} must be an integer from 0 to ${max}, not ${JSON.stringify(value)}`,
    );
  return n;
}

/**
 * Runs the command: serves until `io.stop` settles, then closes. Returns the exit code: 0 after a
 * clean stop or `--help`, 2 for a bad command line, 1 when the server cannot start (port taken).
 */
export async function runCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let options: CommandOptions | 'help';
  try {
    options = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(
      `merchant-gateway-mock: ${error.message}\nRun merchant-gateway-mock --help for usage.\n`,
    );
    return 2;
  }
  if (options === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  const mock = createMockGateway({ seed: options.seed, requestLogSize: options.requestLogSize });
  let server: Awaited<ReturnType<typeof mock.listen>>;
  try {
    server = await mock.listen({ port: options.port, host: options.host });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    io.stderr(
      `merchant-gateway-mock: cannot listen on ${options.host}:${options.port}: ${reason}\n`,
    );
    return 1;
  }
  const { credentials, sample } = mock;
  io.stdout(
    [
      `merchant-gateway mock listening on ${server.url} (bound to ${options.host}, seed ${options.seed})`,
      'Credentials it accepts:',
      `  Api-Key            ${credentials.apiKey}`,
      `  legacy Api-Key     ${credentials.legacyApiKey}`,
      `  App-Id, Client-Id  ${credentials.appId}, ${credentials.clientId}`,
      `Sample merchant:     ${sample.merchantId}`,
      'Stop with Ctrl+C (SIGINT) or SIGTERM.',
      '',
    ].join('\n'),
  );
  const signal = await io.stop;
  await server.close();
  io.stdout(`merchant-gateway mock stopped (${signal})\n`);
  return 0;
}
