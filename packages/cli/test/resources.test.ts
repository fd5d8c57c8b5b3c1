// The operators' commands against the mock over HTTP, as a script runs them (`--json`) and as a
// person does (tables, confirmations), with the exit codes and the key handling of the contract.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMinorUnits } from '../src/money';
import { cli, type MockService, startMockService } from './helpers';

let service: MockService;
beforeAll(async () => {
  service = await startMockService();
});
afterAll(async () => {
  await service.close();
});

const json = async (argv: string[], env = service.env) => {
  const run = await cli([...argv, '--json'], env);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
};

const ASSET = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const DESTINATION = `eip155:8453:0x${'1'.repeat(40)}`;

describe('merchant-gateway resource commands', () => {
  it('creates, reads and lists merchants and their settlements', async () => {
    const merchant = await json([
      'merchants',
      'create',
      '--name',
      'Coffee Shop',
      '--email',
      'shop@example.com',
    ]);
    expect(merchant).toMatchObject({ name: 'Coffee Shop', email: 'shop@example.com' });
    const added = await json([
      'settlements',
      'add',
      merchant.id,
      '--asset',
      ASSET,
      '--destination',
      DESTINATION,
    ]);
    expect(added.settlements).toEqual([
      expect.objectContaining({ asset: ASSET, destination: DESTINATION }),
    ]);
    const got = await json(['merchants', 'get', merchant.id]);
    expect(got.settlements.crypto).toEqual(added.settlements);
    const listed = await json(['settlements', 'list', '--merchant-id', merchant.id]);
    expect(listed.crypto).toEqual(added.settlements);
    const page = await json(['merchants', 'list', '--search', 'Coffee', '--limit', '10']);
    expect(page.merchants.map((m: { id: string }) => m.id)).toContain(merchant.id);

    const table = await cli(['merchants', 'list', '--search', 'Coffee'], service.env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^MERCHANT +NAME +EMAIL +STATUS +CREATED\n/);
    expect(table.stdout).toContain(merchant.id);
    const record = await cli(['settlements', 'list', merchant.id], service.env);
    expect(record.stdout).toMatch(/KIND +SETTLEMENT +ASSET/);
  });

  it('creates a payment from major units converted exactly, and reads it every way', async () => {
    const created = await json([
      'payments',
      'create',
      '--amount',
      '12.50',
      '--currency',
      'USD',
      '--reference',
      'order-1',
    ]);
    const details = await json(['payments', 'details', created.paymentId]);
    expect(details).toMatchObject({ paymentId: created.paymentId, referenceId: 'order-1' });
    expect((await json(['payments', 'status', created.paymentId])).status).toBe('requires_action');
    const view = await json(['payments', 'get', created.paymentId]);
    expect(view.paymentId ?? view.id ?? created.paymentId).toBe(created.paymentId);
    const page = await json(['payments', 'list', '--status', 'requires_action', '--limit', '200']);
    const listed = page.data.find((p: { paymentId: string }) => p.paymentId === created.paymentId);
    expect(listed.fiatAmount).toMatchObject({ unit: 'iso4217/USD', value: '1250' });
    const table = await cli(['payments', 'list', '--limit', '5'], service.env);
    expect(table.stdout).toMatch(/^PAYMENT +MERCHANT +STATUS +AMOUNT +REFERENCE +CREATED\n/);
    const human = await cli(['payments', 'status', created.paymentId], service.env);
    expect(human.stdout).toMatch(/^status +requires_action$/m);
  });

  it("converts major units with each currency's exponent, in strings, and refuses what does not fit", () => {
    expect(toMinorUnits('12.50', 'USD')).toBe('1250');
    expect(toMinorUnits('0.01', 'USD')).toBe('1');
    expect(toMinorUnits('1250', 'JPY')).toBe('1250');
    expect(toMinorUnits('1.234', 'KWD')).toBe('1234');
    expect(toMinorUnits('21474836.47', 'USD')).toBe('2147483647');
    expect(toMinorUnits('7.10', 'EUR')).toBe('710');
    expect(() => toMinorUnits('12.505', 'USD')).toThrow('USD has 2 decimal places');
    expect(() => toMinorUnits('12.5', 'JPY')).toThrow('JPY has 0 decimal places');
    expect(() => toMinorUnits('-1', 'USD')).toThrow('--amount must be a positive decimal');
    expect(() => toMinorUnits('1e3', 'USD')).toThrow('--amount must be a positive decimal');
    expect(() => toMinorUnits('0.00', 'USD')).toThrow('more than zero');
    expect(() => toMinorUnits('1', 'usd')).toThrow('--currency usd: must be a three-letter');
  });

  it('exits 2 for bad usage and sends nothing', async () => {
    const before = service.mock.requests.length;
    for (const argv of [
      ['payments', 'create', '--amount', '12.505', '--currency', 'USD', '--reference', 'order-2'],
      ['payments', 'create', '--currency', 'USD', '--reference', 'order-2'],
      [
        'payments',
        'create',
        '--amount',
        '1',
        '--currency',
        'USD',
        '--reference',
        'x',
        '--expires-at',
        'soon',
      ],
      ['payments', 'frobnicate'],
      ['payments', 'details'],
      ['payments', 'details', 'pay_1', '--colour', 'red'],
      ['merchants', 'list', '--limit', 'many'],
      ['refunds', 'create', 'not a payment id', '--yes'],
      ['wat'],
    ]) {
      const run = await cli(argv, service.env);
      expect({ argv, code: run.code }).toEqual({ argv, code: 2 });
      expect(run.stderr).toMatch(/^merchant-gateway: /);
    }
    expect(service.mock.requests.length).toBe(before);
  });

  it('exits 1 on an API error with its class, code and request id on stderr', async () => {
    const run = await cli(['payments', 'details', 'pay_doesnotexist'], service.env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /class: NotFoundError\n {2}code: payment_not_found\n {2}request id: \S+/,
    );
    expect(run.stdout).toBe('');
  });

  it('refuses a refund or a cancel without --yes when not on a terminal, and asks on one', async () => {
    const payment = await json([
      'payments',
      'create',
      '--amount',
      '1',
      '--currency',
      'USD',
      '--reference',
      'order-3',
    ]);
    service.mock.setPaymentStatus(payment.paymentId, 'succeeded');
    const refused = await cli(['refunds', 'create', payment.paymentId], service.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --yes to confirm');
    const declined = await cli(['refunds', 'create', payment.paymentId], service.env, {
      stdinIsTTY: true,
      answer: 'n',
    });
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain(`Refund payment ${payment.paymentId}? [y/N]`);
    expect(service.mock.requests.some((r) => r.path === '/v1/refunds')).toBe(false);
    const asked = await cli(['refunds', 'create', payment.paymentId, '--json'], service.env, {
      stdinIsTTY: true,
      answer: 'yes',
    });
    expect(asked.code).toBe(0);
    expect(JSON.parse(asked.stdout)).toEqual({ paymentId: payment.paymentId });
    const again = await cli(['refunds', 'create', payment.paymentId, '--yes'], service.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('code: already_refunded');

    const open = await json([
      'payments',
      'create',
      '--amount',
      '1',
      '--currency',
      'USD',
      '--reference',
      'order-4',
    ]);
    expect((await cli(['payments', 'cancel', open.paymentId], service.env)).code).toBe(2);
    const cancelled = await json(['payments', 'cancel', open.paymentId, '--yes']);
    expect(JSON.stringify(cancelled)).toContain('cancel');
  });

  it('takes the API key from a file, stdin or the environment, never from the command line, and never prints it', async () => {
    const { MERCHANT_GATEWAY_API_KEY: key, ...rest } = service.env;
    const file = join(mkdtempSync(join(tmpdir(), 'cli-key-')), 'key');
    writeFileSync(file, `${key}\n`);
    const outputs: string[] = [];
    const fromFile = await cli(['merchants', 'list', '--api-key', file, '--json'], rest);
    expect(fromFile.code).toBe(0);
    const fromStdin = await cli(['merchants', 'list', '--api-key', '-', '--json'], rest, {
      stdin: `${key}\n`,
    });
    expect(fromStdin.code).toBe(0);
    const asValue = await cli(['merchants', 'list', '--api-key', key as string], rest);
    expect(asValue.code).toBe(2);
    expect(asValue.stderr).toContain('--api-key takes a file holding the key');
    const none = await cli(['merchants', 'list'], rest);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no API key');
    const wrong = await cli(['merchants', 'list'], {
      ...rest,
      MERCHANT_GATEWAY_API_KEY: `${key}x`,
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('class: AuthenticationError');
    outputs.push(
      ...[fromFile, fromStdin, asValue, none, wrong].flatMap((r) => [r.stdout, r.stderr]),
    );
    for (const text of outputs) expect(text).not.toContain(key);
  });

  it('prints help for every command, and the usage with exit 2 when none is given', async () => {
    expect((await cli(['--help'], {})).stdout).toContain('merchant-gateway <command>');
    expect((await cli([], {})).code).toBe(2);
    for (const argv of [
      ['merchants', '--help'],
      ['payments', 'create', '--help'],
      ['refunds', 'create', '--help'],
      ['payments', 'follow', '--help'],
      ['relay', '--help'],
    ]) {
      const run = await cli(argv, {});
      expect({ argv, code: run.code }).toEqual({ argv, code: 0 });
      expect(run.stdout).toMatch(/Usage/);
    }
    // This package's version, not the SDK's: the one npm installed as merchant-gateway-cli.
    const { version } = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    );
    expect((await cli(['--version'], {})).stdout).toBe(`${version}\n`);
  });
});
