/** The `merchant-gateway-mock` command: the whole mock over HTTP, for services in any language. */

import { WEBHOOK_SECRET_PREFIX } from '../../rules/webhook-secret';
import { generateWebhookSecret, secretKeyBytes } from '../../webhooks/signature';
import { createMockGateway, DEFAULT_REQUEST_LOG_SIZE } from '../mock-gateway';
import type { MockCredentials, MockWebhookChaos } from '../types';

/** The port the command serves on when `--port` is not given (stripe-mock's habit of a fixed port). */
export const DEFAULT_PORT = 4010;

/** The longest period `setInterval` keeps: 2^31 - 1 ms (about 24.8 days). */
const MAX_AUTO_ADVANCE_MS = 2_147_483_647;

/** Each credential flag, its option name and the environment variable it falls back to. */
const CREDENTIAL_FLAGS = {
  'api-key': ['apiKey', 'MERCHANT_GATEWAY_MOCK_API_KEY'],
  'legacy-api-key': ['legacyApiKey', 'MERCHANT_GATEWAY_MOCK_LEGACY_API_KEY'],
  'app-id': ['appId', 'MERCHANT_GATEWAY_MOCK_APP_ID'],
  'client-id': ['clientId', 'MERCHANT_GATEWAY_MOCK_CLIENT_ID'],
} as const satisfies Record<string, readonly [keyof MockCredentials, string]>;
type CredentialFlag = keyof typeof CREDENTIAL_FLAGS;

export const USAGE = `Usage: merchant-gateway-mock [--port N] [--host H] [--seed N] [--auto-advance MS]
                             [--request-log-size N] [--poll-in-ms MS] [--quote-window-ms MS]
                             [--api-key K] [--legacy-api-key K] [--app-id ID] [--client-id ID]
                             [--webhook-url URL]... [--webhook-secret whsec_…] [--settle-after MS]
                             [--webhook-retry-scale F] [--webhook-timeout MS] [--webhook-chaos SPEC]

Serves the stateful merchant-gateway mock over HTTP until SIGINT or SIGTERM: the service's /v1/
routes, a control API under /__mock/ (same Api-Key) and a checkout page at each gatewayUrl.

Options:
  --port N             TCP port, 0 for any free one (default ${DEFAULT_PORT})
  --host H             address to bind; 0.0.0.0 or :: to serve other containers (default 127.0.0.1)
  --seed N             seed of the sample data and ids, 0 to 4294967295: the same seed, the same data (default 1)
  --auto-advance MS    move every open payment one step toward succeeded every MS milliseconds (default off)
  --api-key K          partner key it accepts as Api-Key (env MERCHANT_GATEWAY_MOCK_API_KEY)
  --legacy-api-key K   legacy key it accepts as X-Api-Key (env MERCHANT_GATEWAY_MOCK_LEGACY_API_KEY)
  --app-id ID          App-Id it accepts (env MERCHANT_GATEWAY_MOCK_APP_ID)
  --client-id ID       Client-Id it accepts (env MERCHANT_GATEWAY_MOCK_CLIENT_ID)
  --request-log-size N recorded requests kept, the newest (default 1000): memory stays flat
  --poll-in-ms MS      pollInMs it tells clients; a confirmed payment succeeds this much later (default 1000)
  --quote-window-ms MS how long a buyer's quote can be confirmed, 1 to 300000 (default 300000)
  --webhook-url URL    send the service's payment webhooks to URL (repeat for more endpoints)
  --webhook-secret S   their whsec_ secret (env MERCHANT_GATEWAY_MOCK_WEBHOOK_SECRET; default: one generated and printed)
  --webhook-retry-scale F  scale the retry schedule 5 s, 5 min, … 10 h (default 1; 0.001: ms)
  --webhook-timeout MS how long a receiver has to answer an attempt (default 15000)
  --webhook-chaos SPEC duplicate=0.2,reorder=2000,drop=0.05: doubled, held (ms), never sent (default off)
  --settle-after MS    a succeeded payment settles (payment.settled) MS later (default 1000)
  -h, --help           show this help

A flag wins over its environment variable; a credential left out keeps the mock's default.
`;

export interface CommandOptions {
  port: number;
  host: string;
  seed: number;
  /** Milliseconds between auto-advance steps; undefined: off. */
  autoAdvanceMs?: number | undefined;
  /** The credentials given by flag or environment; the rest keep the mock's defaults. */
  credentials: Partial<MockCredentials>;
  requestLogSize: number;
  /** `pollInMs` of the mock; undefined: its default. */
  pollInMs?: number | undefined;
  /** `quoteWindowMs` of the mock; undefined: its default. */
  quoteWindowMs?: number | undefined;
  /** `--webhook-url`, in the order given; absent when none is. */
  webhookUrls?: string[] | undefined;
  webhookSecret?: string | undefined;
  webhookRetryScale?: number | undefined;
  webhookTimeoutMs?: number | undefined;
  webhookChaos?: MockWebhookChaos | undefined;
  settleAfterMs?: number | undefined;
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
  /** Where the credential flags fall back to (`process.env` for the command). @default {} */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Reads `--port N`, `--host H`, `--seed N`, `--auto-advance MS`, `--request-log-size N`, `--poll-in-ms MS`, `--quote-window-ms MS` and the credential flags (each
 * also as `--flag=value`), the credentials falling back to `env`; `'help'` for `-h`/`--help`.
 */
export function parseArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): CommandOptions | 'help' {
  const options: CommandOptions = {
    port: DEFAULT_PORT,
    host: '127.0.0.1',
    seed: 1,
    requestLogSize: DEFAULT_REQUEST_LOG_SIZE,
    credentials: {},
  };
  const fromFlags: Partial<MockCredentials> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return 'help';
    const flag =
      /^--(port|host|seed|auto-advance|request-log-size|poll-in-ms|quote-window-ms|api-key|legacy-api-key|app-id|client-id|webhook-url|webhook-secret|webhook-retry-scale|webhook-timeout|webhook-chaos|settle-after)(?:=(.*))?$/s.exec(
        arg,
      );
    if (!flag) throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
    const name = flag[1] as string;
    const value = flag[2] ?? argv[++i];
    if (value === undefined || value === '' || (flag[2] === undefined && value.startsWith('-'))) {
      throw new UsageError(`--${name} needs a value`);
    }
    if (name === 'host') options.host = value;
    else if (name === 'port') options.port = integer(value, name, 65_535);
    else if (name === 'seed') options.seed = integer(value, name, 0xffff_ffff);
    else if (name === 'request-log-size') options.requestLogSize = integer(value, name, 1_000_000);
    else if (name === 'poll-in-ms') options.pollInMs = integer(value, name, 3_600_000);
    else if (name === 'quote-window-ms') options.quoteWindowMs = integer(value, name, 300_000, 1);
    else if (name === 'webhook-url')
      options.webhookUrls = [...(options.webhookUrls ?? []), webhookUrl(value)];
    else if (name === 'webhook-secret') options.webhookSecret = webhookSecret(value);
    else if (name === 'webhook-retry-scale') options.webhookRetryScale = scale(value, name);
    else if (name === 'webhook-timeout')
      options.webhookTimeoutMs = integer(value, name, 3_600_000, 1);
    else if (name === 'webhook-chaos') options.webhookChaos = chaos(value);
    else if (name === 'settle-after')
      options.settleAfterMs = integer(value, name, MAX_AUTO_ADVANCE_MS);
    else if (name === 'auto-advance')
      options.autoAdvanceMs = integer(value, name, MAX_AUTO_ADVANCE_MS, 1);
    else {
      const [key] = CREDENTIAL_FLAGS[name as CredentialFlag];
      fromFlags[key] = credential(value, `--${name}`);
    }
  }
  // A secret in the environment stays out of the process list.
  const envSecret = env.MERCHANT_GATEWAY_MOCK_WEBHOOK_SECRET;
  if (options.webhookSecret === undefined && envSecret !== undefined && envSecret !== '') {
    options.webhookSecret = webhookSecret(envSecret, 'MERCHANT_GATEWAY_MOCK_WEBHOOK_SECRET');
  }
  for (const [key, variable] of Object.values(CREDENTIAL_FLAGS)) {
    const fromEnv = env[variable];
    const value =
      fromFlags[key] ??
      (fromEnv === undefined || fromEnv === '' ? undefined : credential(fromEnv, variable));
    if (value !== undefined) options.credentials[key] = value;
  }
  return options;
}

function webhookUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new UsageError(
      `--webhook-url must be an http: or https: URL, not ${JSON.stringify(value)}`,
    );
  }
  return url.href;
}

/** The message never repeats the value: it is a secret. */
function webhookSecret(value: string, source = '--webhook-secret'): string {
  const base64 = value.startsWith(WEBHOOK_SECRET_PREFIX)
    ? value.slice(WEBHOOK_SECRET_PREFIX.length)
    : '';
  if (!/^[A-Za-z0-9+/]{4,}={0,2}$/.test(base64) || secretKeyBytes(value) === undefined) {
    throw new UsageError(`${source} must be whsec_ followed by base64 (the secret is not shown)`);
  }
  return value;
}

function scale(value: string, name: string): number {
  const n = /^\d+(\.\d+)?(e-?\d+)?$/i.test(value) ? Number(value) : Number.NaN;
  if (!(n > 0 && n <= 1000)) {
    throw new UsageError(
      `--${name} must be a number > 0 (e.g. 0.001), not ${JSON.stringify(value)}`,
    );
  }
  return n;
}

const CHAOS_KEYS = {
  duplicate: 'duplicateRate',
  reorder: 'reorderWindowMs',
  drop: 'dropRate',
} as const;

/** `duplicate=0.2,reorder=2000,drop=0.05`, any of the three, in any order. */
function chaos(value: string): MockWebhookChaos {
  const out: MockWebhookChaos = {};
  for (const part of value.split(',')) {
    const [key = '', raw = ''] = part.split('=');
    const field = CHAOS_KEYS[key.trim() as keyof typeof CHAOS_KEYS] as
      | (typeof CHAOS_KEYS)[keyof typeof CHAOS_KEYS]
      | undefined;
    const n = /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : Number.NaN;
    const max = field === 'reorderWindowMs' ? MAX_AUTO_ADVANCE_MS : 1;
    if (!field || !(n >= 0 && n <= max)) {
      throw new UsageError(
        `--webhook-chaos takes duplicate=RATE,reorder=MS,drop=RATE (rates 0 to 1), not ${JSON.stringify(part)}`,
      );
    }
    out[field] = n;
  }
  return out;
}

/** A credential is sent as a header value: visible ASCII, no spaces (so it survives a shell and a proxy). */
function credential(value: string, source: string): string {
  if (!/^[\x21-\x7E]{1,255}$/.test(value)) {
    throw new UsageError(`${source} must be 1 to 255 visible ASCII characters (no spaces)`);
  }
  return value;
}

function integer(value: string, name: string, max: number, min = 0): number {
  const n = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= min && n <= max))
    throw new UsageError(
      `--${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(value)}`,
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
    options = parseArgs(argv, io.env);
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
  const mock = createMockGateway({
    seed: options.seed,
    credentials: options.credentials,
    requestLogSize: options.requestLogSize,
    ...(options.autoAdvanceMs === undefined ? {} : { autoAdvanceMs: options.autoAdvanceMs }),
    ...(options.pollInMs === undefined ? {} : { pollInMs: options.pollInMs }),
    ...(options.quoteWindowMs === undefined ? {} : { quoteWindowMs: options.quoteWindowMs }),
    ...(options.settleAfterMs === undefined ? {} : { settleAfterMs: options.settleAfterMs }),
    ...(options.webhookRetryScale === undefined
      ? {}
      : { webhookRetryScale: options.webhookRetryScale }),
    ...(options.webhookTimeoutMs === undefined
      ? {}
      : { webhookTimeoutMs: options.webhookTimeoutMs }),
    ...(options.webhookChaos === undefined ? {} : { webhookChaos: options.webhookChaos }),
  });
  // One secret for every --webhook-url: the one given, else one generated (printed below).
  const secret = options.webhookSecret ?? generateWebhookSecret();
  const webhookUrls = options.webhookUrls ?? [];
  for (const url of webhookUrls) mock.webhooks.add({ url, secret });
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
      `Control API:         ${server.url}/__mock/ (same Api-Key); checkout pages at ${server.url}/pay/{paymentId}`,
      ...(options.autoAdvanceMs === undefined
        ? []
        : [
            `Auto-advance:        every open payment moves one step every ${options.autoAdvanceMs} ms`,
          ]),
      ...(webhookUrls.length === 0
        ? []
        : [
            `Webhooks to:         ${webhookUrls.join(', ')}`,
            `Webhook secret:      ${options.webhookSecret === undefined ? `${secret} (generated)` : '(the one given)'}`,
          ]),
      'Stop with Ctrl+C (SIGINT) or SIGTERM.',
      '',
    ].join('\n'),
  );
  const signal = await io.stop;
  mock.close();
  await server.close();
  io.stdout(`merchant-gateway mock stopped (${signal})\n`);
  return 0;
}
