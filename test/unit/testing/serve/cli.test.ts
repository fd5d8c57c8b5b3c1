import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MerchantGateway } from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CommandIo,
  DEFAULT_PORT,
  parseArgs,
  runCommand,
  USAGE,
} from '../../../../src/testing/serve/command';
import { bundleForNode } from '../../../support/node-bundle';

const CLI = fileURLToPath(new URL('../../../../src/testing/serve/cli.ts', import.meta.url));

let cli: string;
beforeAll(async () => {
  cli = await bundleForNode(CLI);
});

/** The command from source, as `merchant-gateway-mock` runs it once built. */
function startCli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const output = () => ({ stdout, stderr });
  const banner = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (stdout.includes('Stop with')) resolve(stdout);
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  // A run that is meant to fail never prints the banner; only a test that awaits it cares.
  banner.catch(() => {});
  return { child, exited, output, banner };
}

function read(banner: string, pattern: RegExp): string {
  const value = pattern.exec(banner)?.[1];
  if (value === undefined) throw new Error(`no ${pattern} in:\n${banner}`);
  return value;
}

// Each spawns the command: seconds on a loaded machine, hence the longer bound.
describe('merchant-gateway-mock (child process)', { timeout: 30_000 }, () => {
  it('prints its URL and credentials, serves the whole mock to the SDK, and exits 0 on SIGTERM', async () => {
    const cli = startCli(['--port', '0', '--seed', '7']);
    const banner = await cli.banner;
    const url = read(banner, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const apiKey = read(banner, /Api-Key +(\S+)/);
    const merchantId = read(banner, /Sample merchant: +(\S+)/);
    const expected = createMockGateway({ seed: 7 });
    expect(apiKey).toBe(expected.credentials.apiKey);
    expect(merchantId).toBe(expected.sample.merchantId);

    const gateway = new MerchantGateway({ baseUrl: url, apiKey, merchantId });
    const merchant = await gateway.merchants.get(merchantId);
    expect(merchant.id).toBe(merchantId);
    const page = await gateway.payments.list({ limit: 5 });
    expect(page.data).toHaveLength(5);
    const created = await gateway.payments.create({
      referenceId: 'sidecar-1',
      amount: { unit: 'iso4217/USD', value: '1250' },
    });
    expect((await gateway.payments.get(created.paymentId)).status).toBe('requires_action');

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.output().stdout).toContain('stopped (SIGTERM)');
    await expect(fetch(`${url}/v1/merchants/${merchantId}`)).rejects.toBeInstanceOf(TypeError);
  });

  it('accepts the credentials of its flags and environment, and finishes payments by itself with --auto-advance', async () => {
    const cli = startCli(
      ['--port', '0', '--api-key', 'sk_test_from_flag', '--auto-advance', '100'],
      {
        MERCHANT_GATEWAY_MOCK_API_KEY: 'sk_test_from_env',
        MERCHANT_GATEWAY_MOCK_CLIENT_ID: 'client_from_env',
      },
    );
    try {
      const banner = await cli.banner;
      const url = read(banner, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
      expect(read(banner, /Api-Key +(\S+)/)).toBe('sk_test_from_flag');
      expect(banner).toContain('App-Id, Client-Id  app_test_mock, client_from_env');
      expect(banner).toContain('every 100 ms');
      const merchantId = read(banner, /Sample merchant: +(\S+)/);
      const refused = new MerchantGateway({ baseUrl: url, apiKey: 'sk_test_from_env', merchantId });
      await expect(refused.merchants.get(merchantId)).rejects.toMatchObject({ status: 401 });
      const gateway = new MerchantGateway({
        baseUrl: url,
        apiKey: 'sk_test_from_flag',
        merchantId,
      });
      const payment = await gateway.payments.create({
        referenceId: 'auto-advance-1',
        amount: { unit: 'iso4217/USD', value: '1250' },
      });
      const final = await gateway.payments.waitForFinal(payment, { timeoutMs: 10_000 });
      expect(final.status).toBe('succeeded');
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });

  it('exits 0 on SIGINT (Ctrl+C)', async () => {
    const cli = startCli(['--port=0']);
    await cli.banner;
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
    expect(cli.output().stdout).toContain('stopped (SIGINT)');
  });

  it('rejects a bad credential from the environment with exit code 2, naming the variable', async () => {
    const cli = startCli(['--port', '0'], { MERCHANT_GATEWAY_MOCK_APP_ID: 'app id' });
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toContain(
      'MERCHANT_GATEWAY_MOCK_APP_ID must be 1 to 255 visible ASCII characters',
    );
  });

  it('rejects a bad flag with a message on stderr and exit code 2', async () => {
    const cli = startCli(['--port', '70000']);
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toContain('--port must be an integer from 0 to 65535');
    expect(cli.output().stdout).toBe('');
  });
});

function fakeIo(stop: Promise<string> = new Promise(() => {})) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    stop,
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

describe('merchant-gateway-mock command line', () => {
  it('defaults to port 4010 on 127.0.0.1 with seed 1, keeping the last 1,000 requests', () => {
    expect(parseArgs([])).toStrictEqual({
      port: DEFAULT_PORT,
      host: '127.0.0.1',
      seed: 1,
      requestLogSize: 1000,
      credentials: {},
    });
    expect(DEFAULT_PORT).toBe(4010);
  });

  it('reads the buyer’s timings: --poll-in-ms and --quote-window-ms (1 ms to five minutes)', () => {
    expect(parseArgs(['--poll-in-ms', '50', '--quote-window-ms=1000'])).toMatchObject({
      pollInMs: 50,
      quoteWindowMs: 1000,
    });
    expect(() => parseArgs(['--quote-window-ms', '0'])).toThrow(/--quote-window-ms must be/);
    expect(() => parseArgs(['--quote-window-ms', '300001'])).toThrow(/--quote-window-ms must be/);
  });

  it('reads each flag as "--flag value" or "--flag=value"', () => {
    expect(
      parseArgs(['--port', '8080', '--host', '0.0.0.0', '--seed', '42', '--request-log-size', '5']),
    ).toEqual({ port: 8080, host: '0.0.0.0', seed: 42, requestLogSize: 5, credentials: {} });
    expect(
      parseArgs(['--port=0', '--host=::', '--seed=4294967295', '--request-log-size=0']),
    ).toEqual({ port: 0, host: '::', seed: 4_294_967_295, requestLogSize: 0, credentials: {} });
    expect(
      parseArgs([
        '--auto-advance',
        '250',
        '--api-key',
        'sk_a',
        '--legacy-api-key=lk_b',
        '--app-id',
        'app_c',
        '--client-id=client_d',
      ]),
    ).toEqual({
      port: DEFAULT_PORT,
      host: '127.0.0.1',
      seed: 1,
      requestLogSize: 1000,
      autoAdvanceMs: 250,
      credentials: { apiKey: 'sk_a', legacyApiKey: 'lk_b', appId: 'app_c', clientId: 'client_d' },
    });
  });

  it('reads each credential from its environment variable, a flag winning over it', () => {
    const env = {
      MERCHANT_GATEWAY_MOCK_API_KEY: 'sk_env',
      MERCHANT_GATEWAY_MOCK_LEGACY_API_KEY: 'lk_env',
      MERCHANT_GATEWAY_MOCK_APP_ID: 'app_env',
      MERCHANT_GATEWAY_MOCK_CLIENT_ID: 'client_env',
    };
    expect(parseArgs([], env)).toMatchObject({
      credentials: {
        apiKey: 'sk_env',
        legacyApiKey: 'lk_env',
        appId: 'app_env',
        clientId: 'client_env',
      },
    });
    expect(parseArgs(['--api-key', 'sk_flag', '--client-id=client_flag'], env)).toMatchObject({
      credentials: {
        apiKey: 'sk_flag',
        legacyApiKey: 'lk_env',
        appId: 'app_env',
        clientId: 'client_flag',
      },
    });
    // An empty variable is unset, as the SDK reads its own.
    expect(parseArgs([], { MERCHANT_GATEWAY_MOCK_API_KEY: '' })).toMatchObject({ credentials: {} });
  });

  it('answers help for -h or --help, wherever it stands', () => {
    expect(parseArgs(['-h'])).toBe('help');
    expect(parseArgs(['--port', '1', '--help'])).toBe('help');
  });

  it.each([
    [['--nope'], 'unknown option "--nope"'],
    [['4010'], 'unknown option "4010"'],
    [['--port'], '--port needs a value'],
    [['--port', '--host', 'x'], '--port needs a value'],
    [['--host='], '--host needs a value'],
    [['--port', '65536'], '--port must be an integer from 0 to 65535'],
    [['--port', '-1'], '--port needs a value'],
    [['--port', '1.5'], '--port must be an integer from 0 to 65535'],
    [['--seed', '4294967296'], '--seed must be an integer from 0 to 4294967295'],
    [['--seed', 'abc'], '--seed must be an integer from 0 to 4294967295'],
    [['--auto-advance', '0'], '--auto-advance must be an integer from 1 to 2147483647'],
    [['--auto-advance', '2147483648'], '--auto-advance must be an integer from 1 to 2147483647'],
    [['--auto-advance'], '--auto-advance needs a value'],
    [['--api-key', 'sk live'], '--api-key must be 1 to 255 visible ASCII characters'],
    [['--legacy-api-key=caf\u00e9'], '--legacy-api-key must be 1 to 255 visible ASCII characters'],
    [['--client-id='], '--client-id needs a value'],
    [['--app-id', '--port'], '--app-id needs a value'],
    [['--request-log-size', '-5'], '--request-log-size needs a value'],
    [['--request-log-size', 'many'], '--request-log-size must be an integer from 0 to 1000000'],
    [['--request-log-size', '1000001'], '--request-log-size must be an integer from 0 to 1000000'],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(message);
  });

  it('prints the usage and returns 0 for --help', async () => {
    const { io, out } = fakeIo();
    expect(await runCommand(['--help'], io)).toBe(0);
    expect(out()).toBe(USAGE);
  });

  it('returns 2 and names the flag for a bad command line', async () => {
    const { io, out, err } = fakeIo();
    expect(await runCommand(['--port', 'x'], io)).toBe(2);
    expect(err()).toMatch(/--port must be .*\nRun merchant-gateway-mock --help/);
    expect(out()).toBe('');
  });

  it('returns 1 and says why when it cannot listen', async () => {
    const taken = await createMockGateway().listen();
    try {
      const { io, err } = fakeIo();
      const port = new URL(taken.url).port;
      expect(await runCommand(['--port', port], io)).toBe(1);
      expect(err()).toContain(`cannot listen on 127.0.0.1:${port}`);
    } finally {
      await taken.close();
    }
  });

  it('serves until stopped, then closes and returns 0', async () => {
    let stop: (signal: string) => void = () => {};
    const { io, out } = fakeIo(new Promise((resolve) => (stop = resolve)));
    const running = runCommand(['--port', '0', '--host', '0.0.0.0'], io);
    await expect.poll(out).toContain('Stop with');
    const url = /listening on (\S+)/.exec(out())?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(out()).toContain('bound to 0.0.0.0');
    stop('SIGTERM');
    expect(await running).toBe(0);
    await expect(fetch(`${url}/v1/merchants`)).rejects.toBeInstanceOf(TypeError);
  });
});
