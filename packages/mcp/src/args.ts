// The command line: flags to options, with a clear error (exit 2) for anything it cannot use.
import { type AmountCap, parseCap, WRITE_METHODS, type WriteMethod } from './policy';
import { TOOLS } from './tools';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface CliOptions {
  help: boolean;
  version: boolean;
  /** Serve an embedded mock instead of MERCHANT_GATEWAY_BASE_URL: no credentials needed. */
  mock: boolean;
  /** In --mock, moves open payments one step every this many ms (0: never). */
  mockAdvanceMs: number;
  /** Streamable HTTP instead of stdio. */
  http?: { port: number; host: string };
  /** Writes named by --allow (or all with --allow-writes). */
  allowed: Set<WriteMethod>;
  /** --allow-writes was stated: required for any write with a live-looking key. */
  allowWrites: boolean;
  cap?: AmountCap;
  merchantId?: string;
}

export const HELP = `merchant-gateway-mcp: a safe MCP server for the merchant payment gateway

Usage: merchant-gateway-mcp [--mock] [--http PORT [--host H]] [--allow LIST | --allow-writes]
                            [--max-amount 100.00 --currency USD] [--merchant-id m_…]

  --mock                 an embedded mock service: no credentials, nothing real (try it first)
  --mock-advance-ms MS   in --mock, move open payments one step every MS ms (default 3000; 0: never)
  --http PORT            streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio (0: any free port)
  --host H               the HTTP interface (default 127.0.0.1; anything else is reachable by others)
  --allow LIST           writing tools to expose, comma-separated: ${WRITE_METHODS.join(', ')}
  --allow-writes         every writing tool; required for writes with a live-looking key
  --max-amount A         refuse payments.create above A (major units, e.g. 100.00) ...
  --currency C           ... and in any currency but C (ISO 4217, e.g. USD)
  --merchant-id ID       default merchant (env MERCHANT_GATEWAY_MERCHANT_ID)

Reads MERCHANT_GATEWAY_BASE_URL and MERCHANT_GATEWAY_API_KEY like the SDK. Read-only without
--allow. Refunds and cancellations are confirmed by a human (MCP elicitation). Every write is
keyed and audited as one JSON line on stderr.`;

const byName = new Map<string, WriteMethod>();
for (const method of WRITE_METHODS) {
  byName.set(method, method);
  byName.set(method.replace('.', '_'), method);
}

function port(value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !/^\d+$/.test(value) || n > 65_535) {
    throw new UsageError(`--http needs a port from 0 to 65535, got "${value ?? ''}"`);
  }
  return n;
}

/** Parses the command line; throws UsageError with the flag and the rule. */
export function parseArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): CliOptions {
  const options: CliOptions = {
    help: false,
    version: false,
    mock: false,
    mockAdvanceMs: 3_000,
    allowed: new Set(),
    allowWrites: false,
    ...(env.MERCHANT_GATEWAY_MERCHANT_ID ? { merchantId: env.MERCHANT_GATEWAY_MERCHANT_ID } : {}),
  };
  let maxAmount: string | undefined;
  let currency: string | undefined;
  let host = '127.0.0.1';
  let httpPort: number | undefined;
  const rest = [...argv];
  const value = (flag: string): string => {
    const next = rest.shift();
    if (next === undefined || next.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    return next;
  };
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    if (inline !== undefined) rest.unshift(inline);
    switch (flag) {
      case '--help':
      case '-h':
        options.help = true;
        break;
      case '--version':
        options.version = true;
        break;
      case '--mock':
        options.mock = true;
        break;
      case '--mock-advance-ms': {
        const ms = value(flag);
        if (!/^\d+$/.test(ms))
          throw new UsageError(
            `--mock-advance-ms needs a whole number of milliseconds, got "${ms}"`,
          );
        options.mockAdvanceMs = Number(ms);
        break;
      }
      case '--http':
        httpPort = port(value(flag));
        break;
      case '--host':
        host = value(flag);
        break;
      case '--allow':
        for (const name of value(flag)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)) {
          const method = byName.get(name);
          if (method === undefined) {
            const reading = TOOLS.some(
              (t) => t.kind === 'read' && (t.name === name || t.name === name.replace('.', '_')),
            );
            throw new UsageError(
              reading
                ? `--allow ${name}: reading tools are always on; --allow names writes: ${WRITE_METHODS.join(', ')}`
                : `--allow: unknown write "${name}"; the writes are ${WRITE_METHODS.join(', ')}`,
            );
          }
          options.allowed.add(method);
        }
        break;
      case '--allow-writes':
        options.allowWrites = true;
        break;
      case '--max-amount':
        maxAmount = value(flag);
        break;
      case '--currency':
        currency = value(flag).toUpperCase();
        break;
      case '--merchant-id':
        options.merchantId = value(flag);
        break;
      default:
        throw new UsageError(`unknown argument "${arg}" (see --help)`);
    }
  }
  // --allow narrows --allow-writes when both are given; --allow-writes alone allows every write.
  if (options.allowWrites && options.allowed.size === 0)
    for (const m of WRITE_METHODS) options.allowed.add(m);
  if ((maxAmount === undefined) !== (currency === undefined)) {
    throw new UsageError(
      '--max-amount and --currency go together: the cap is an amount in one currency',
    );
  }
  if (maxAmount !== undefined && currency !== undefined) {
    try {
      options.cap = parseCap(maxAmount, currency);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  if (httpPort !== undefined) options.http = { port: httpPort, host };
  return options;
}
