// Issue 37 item 4: `payments create` took currencies ISO 4217 does not have (`XYZ`, `USS`) with
// two decimals assumed, and amounts the service cannot hold; both created a payment and exited 0.
// The command as its users run it (a real process) and in this process for the rest of the table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISO_4217_MINOR_UNITS } from '../src/currencies';
import { MAX_MINOR_UNITS, toMinorUnits } from '../src/money';
import { cli, type MockService, spawnCli, startMockService } from './helpers';

let service: MockService;
beforeAll(async () => {
  service = await startMockService();
});
afterAll(async () => {
  await service.close();
});

const create = (amount: string, currency: string) => [
  'payments',
  'create',
  '--amount',
  amount,
  '--currency',
  currency,
  '--reference',
  `amounts-${currency}-${amount}`,
  '--json',
];

describe('payments create: currencies and amounts', () => {
  it('refuses a currency ISO 4217 does not have, as a process: exit 2, the flag and the value named, nothing sent', async () => {
    const before = service.mock.requests.length;
    const child = spawnCli(create('1', 'XYZ'), service.env);
    expect(await child.exited).toBe(2);
    expect(child.stderr()).toMatch(/^merchant-gateway: --currency XYZ: not an active ISO 4217/);
    expect(child.stdout()).toBe('');
    expect(service.mock.requests.length).toBe(before);
  }, 60_000);

  it('refuses USS, zero and amounts over the service limit in process too, and sends nothing', async () => {
    const before = service.mock.requests.length;
    for (const [amount, currency, message] of [
      ['1', 'USS', '--currency USS'],
      ['1', 'XAU', '--currency XAU'],
      ['0', 'USD', '--amount 0: must be more than zero'],
      ['0.000', 'KWD', '--amount 0.000: must be more than zero'],
      ['21474836.48', 'USD', '--amount 21474836.48: over the largest amount'],
      ['2147483648', 'JPY', '--amount 2147483648: over the largest amount'],
      ['1.5', 'JPY', 'JPY has 0 decimal places'],
      ['1.2345', 'KWD', 'KWD has 3 decimal places'],
    ] as const) {
      const run = await cli(create(amount, currency), service.env);
      expect({ amount, currency, code: run.code }).toEqual({ amount, currency, code: 2 });
      expect(run.stderr).toContain(message);
      expect(run.stdout).toBe('');
    }
    expect(service.mock.requests.length).toBe(before);
  });

  it('takes the largest amount the service holds, and each exponent of the standard', async () => {
    const largest = await cli(create('21474836.47', 'USD'), service.env);
    expect(largest.code).toBe(0);
    expect(JSON.parse(largest.stdout)).toHaveProperty('paymentId');
    const sent = service.mock.requests.at(-1);
    expect(JSON.stringify(sent)).toContain(`"value":"${MAX_MINOR_UNITS}"`);

    expect(toMinorUnits('1500', 'JPY')).toBe('1500');
    expect(toMinorUnits('1.234', 'BHD')).toBe('1234');
    expect(toMinorUnits('1.5', 'TND')).toBe('1500');
    expect(toMinorUnits('1.0001', 'CLF')).toBe('10001');
    expect(toMinorUnits('2.5', 'UYW')).toBe('25000');
    for (const code of ['KWD', 'BHD', 'JOD', 'OMR', 'TND', 'IQD', 'LYD']) {
      expect({ code, units: ISO_4217_MINOR_UNITS[code] }).toEqual({ code, units: 3 });
    }
  });
});
