// The safety rules on their own: caps in exact minor units, the live-key rule, keys, redaction
// and the command line's refusals.
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../src/args';
import {
  capRefusal,
  idempotencyKeyFor,
  looksLive,
  parseCap,
  redact,
  WRITE_METHODS,
} from '../src/policy';

describe('the amount cap', () => {
  it('converts the cap to minor units exactly, per the currency’s decimals', () => {
    expect(parseCap('100.00', 'USD').minor).toBe(10_000n);
    expect(parseCap('100', 'USD').minor).toBe(10_000n);
    expect(parseCap('0.1', 'USD').minor).toBe(10n);
    expect(parseCap('5000', 'JPY').minor).toBe(5_000n);
    expect(parseCap('1.234', 'KWD').minor).toBe(1_234n);
    expect(parseCap('99999999999999999999.99', 'USD').minor).toBe(9_999_999_999_999_999_999_999n);
  });

  it('rejects a cap with more decimals than the currency has, or not a number', () => {
    expect(() => parseCap('100.001', 'USD')).toThrow(
      /USD has 2 decimal place\(s\), the amount has 3/,
    );
    expect(() => parseCap('10.5', 'JPY')).toThrow(/JPY has 0 decimal/);
    expect(() => parseCap('1e3', 'USD')).toThrow(/--max-amount must be a decimal amount/);
    expect(() => parseCap('100', 'usd')).toThrow(/--currency must be a 3-letter/);
  });

  it('refuses one minor unit over the cap and accepts the cap itself', () => {
    const cap = parseCap('100.00', 'USD');
    expect(capRefusal(cap, { unit: 'iso4217/USD', value: '10000' })).toBeUndefined();
    expect(capRefusal(cap, { unit: 'iso4217/USD', value: 10_000 })).toBeUndefined();
    expect(capRefusal(cap, { unit: 'iso4217/USD', value: '10001' })).toMatch(
      /over this server's cap/,
    );
    expect(capRefusal(cap, { unit: 'iso4217/USD', value: 10_001n })).toMatch(
      /over this server's cap/,
    );
    // Far past a double's precision: still exact.
    expect(capRefusal(cap, { unit: 'iso4217/USD', value: '9007199254740993' })).toMatch(/over/);
  });

  it('refuses another currency and a malformed value when a cap is set, and nothing without one', () => {
    const cap = parseCap('100.00', 'USD');
    expect(capRefusal(cap, { unit: 'iso4217/EUR', value: '1' })).toMatch(/in USD only/);
    expect(capRefusal(cap, { unit: 'iso4217/USD', value: '1.5' })).toMatch(/string of digits/);
    expect(capRefusal(cap, undefined)).toMatch(/in USD only/);
    expect(capRefusal(undefined, { unit: 'iso4217/EUR', value: '1000000' })).toBeUndefined();
  });
});

describe('a live-looking key', () => {
  it('is any key without a test marker, unless the service is on loopback', () => {
    expect(looksLive('sk_live_abc', 'https://api.example')).toBe(true);
    expect(looksLive('0a1b2c3d', 'https://api.example')).toBe(true);
    expect(looksLive('sk_test_abc', 'https://api.example')).toBe(false);
    expect(looksLive('partner_test_abc', 'https://api.example')).toBe(false);
    expect(looksLive('sk_live_abc', 'http://127.0.0.1:4010')).toBe(false);
    expect(looksLive('sk_live_abc', 'http://localhost:4010')).toBe(false);
    expect(looksLive('sk_live_abc', 'not a url')).toBe(true);
    expect(looksLive(undefined, 'https://api.example')).toBe(false);
  });
});

describe('the Idempotency-Key of a write', () => {
  it('is the same for the same call whatever the key order, and differs for another call', () => {
    const a = idempotencyKeyFor('payments_create', {
      referenceId: 'o-1',
      amount: { value: '1', unit: 'iso4217/USD' },
    });
    const b = idempotencyKeyFor('payments_create', {
      amount: { unit: 'iso4217/USD', value: '1' },
      referenceId: 'o-1',
    });
    expect(a).toBe(b);
    expect(a).toMatch(/^mcp_payments_create_[A-Za-z0-9_-]{32}$/);
    expect(
      idempotencyKeyFor('payments_create', {
        referenceId: 'o-2',
        amount: { value: '1', unit: 'iso4217/USD' },
      }),
    ).not.toBe(a);
    expect(idempotencyKeyFor('payments_cancel', { id: 'pay_1', options: {} })).not.toBe(
      idempotencyKeyFor('payments_cancel', { id: 'pay_2', options: {} }),
    );
  });
});

describe('redaction', () => {
  it('scrubs a secret as sent, percent-encoded and base64-encoded', () => {
    const key = 'sk_live_a/b+c=d';
    const text = `${key} ${encodeURIComponent(key)} ${Buffer.from(key).toString('base64')} ${Buffer.from(key).toString('base64url')}`;
    expect(redact(text, [key])).toBe('*** *** *** ***');
  });
});

describe('the command line', () => {
  it('is read-only without flags and allows exactly what --allow names', () => {
    expect(parseArgs([], {}).allowed.size).toBe(0);
    expect([...parseArgs(['--allow', 'payments.create,refunds_create'], {}).allowed]).toEqual([
      'payments.create',
      'refunds.create',
    ]);
    expect([...parseArgs(['--allow-writes'], {}).allowed]).toEqual([...WRITE_METHODS]);
    expect([...parseArgs(['--allow-writes', '--allow=payments.cancel'], {}).allowed]).toEqual([
      'payments.cancel',
    ]);
  });

  it('refuses unknown writes, a lone cap flag and bad ports, naming the flag', () => {
    expect(() => parseArgs(['--allow', 'payments.refund'], {})).toThrow(
      /unknown write "payments.refund"/,
    );
    expect(() => parseArgs(['--allow', 'payments.list'], {})).toThrow(
      /reading tools are always on/,
    );
    expect(() => parseArgs(['--max-amount', '10'], {})).toThrow(
      /--max-amount and --currency go together/,
    );
    expect(() => parseArgs(['--max-amount', '10.001', '--currency', 'USD'], {})).toThrow(
      /decimal place/,
    );
    expect(() => parseArgs(['--http', '70000'], {})).toThrow(/--http needs a port/);
    expect(() => parseArgs(['--http'], {})).toThrow(/--http needs a value/);
    expect(() => parseArgs(['--frobnicate'], {})).toThrow(/unknown argument/);
  });

  it('takes HTTP on loopback by default and the merchant from the environment', () => {
    const options = parseArgs(['--http', '0', '--mock'], { MERCHANT_GATEWAY_MERCHANT_ID: 'm_1' });
    expect(options.http).toEqual({ port: 0, host: '127.0.0.1' });
    expect(options.merchantId).toBe('m_1');
    expect(parseArgs(['--max-amount', '100.00', '--currency', 'usd'], {}).cap?.minor).toBe(10_000n);
  });
});
