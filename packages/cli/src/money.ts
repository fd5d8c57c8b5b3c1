/** Major units as people type them (`12.50 USD`) to the minor units the service takes (`1250`), and back. */
import { minorUnitsOf } from './currencies';

/**
 * The largest amount a payment may have, in minor units: the service keeps a payment's fiat amount
 * in a signed 32-bit integer field (`fiat_amount`, up to 2147483647), so a larger one cannot be
 * recorded as asked (USD 21,474,836.47; JPY 2,147,483,647).
 */
export const MAX_MINOR_UNITS = 2_147_483_647n;

/**
 * `'12.50'` in `USD` → `'1250'`, exactly (string arithmetic, no floating point). Throws a message
 * naming the flag, the value and the rule for anything else: a currency not in ISO 4217, a sign,
 * an exponent, more decimals than the currency has, zero, more than the service can hold.
 */
export function toMinorUnits(amount: string, currency: string): string {
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw new Error(
      `--currency ${currency}: must be a three-letter ISO 4217 code in capitals, e.g. USD`,
    );
  }
  const exponent = minorUnitsOf(currency);
  if (exponent === undefined) {
    throw new Error(
      `--currency ${currency}: not an active ISO 4217 currency with minor units (e.g. USD, EUR, JPY)`,
    );
  }
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (match === null) {
    throw new Error(`--amount must be a positive decimal number in ${currency}, e.g. 12.50`);
  }
  const whole = match[1] as string;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > exponent) {
    throw new Error(
      `--amount ${amount}: ${currency} has ${exponent} decimal place${exponent === 1 ? '' : 's'}`,
    );
  }
  const minor = `${whole}${fraction.padEnd(exponent, '0')}`.replace(/^0+(?=\d)/, '');
  if (minor === '0') throw new Error(`--amount ${amount}: must be more than zero`);
  if (BigInt(minor) > MAX_MINOR_UNITS) {
    throw new Error(
      `--amount ${amount}: over the largest amount the service holds, ${formatMinor(MAX_MINOR_UNITS.toString(), exponent)} ${currency} (${MAX_MINOR_UNITS} minor units)`,
    );
  }
  return minor;
}

/** `'2020'` with 2 decimals → `'20.20'`; digits only, else `undefined`. */
export function formatMinor(value: string, decimals: number): string {
  if (decimals === 0) return value.replace(/^0+(?=\d)/, '');
  const padded = value.padStart(decimals + 1, '0');
  const cut = padded.length - decimals;
  return `${padded.slice(0, cut).replace(/^0+(?=\d)/, '')}.${padded.slice(cut)}`;
}

/**
 * An amount as a person reads it: `{ unit: 'iso4217/USD', value: '2020' }` → `20.20 USD`. A crypto
 * amount (`caip19/…`) in its token's decimals with its symbol when the service gave them
 * (`display.decimals`, `display.assetSymbol`: `1.5 USDC`), else its raw value with its CAIP-19
 * asset. A currency this command does not know, or a value that is not digits, stays raw.
 */
export function formatAmount(amount: {
  unit: string;
  value?: string | undefined;
  display?: { decimals?: unknown; assetSymbol?: unknown } | null | undefined;
}): string {
  const { unit, value } = amount;
  if (value === undefined) return unit;
  if (!/^\d+$/.test(value)) return `${value} ${unit}`;
  if (unit.startsWith('iso4217/')) {
    const currency = unit.slice('iso4217/'.length);
    const exponent = minorUnitsOf(currency);
    return exponent === undefined
      ? `${value} ${unit}`
      : `${formatMinor(value, exponent)} ${currency}`;
  }
  const decimals = amount.display?.decimals;
  const symbol = amount.display?.assetSymbol;
  if (
    typeof decimals === 'number' &&
    Number.isInteger(decimals) &&
    decimals >= 0 &&
    decimals <= 36 &&
    typeof symbol === 'string' &&
    symbol !== ''
  ) {
    return `${formatMinor(value, decimals)} ${symbol}`;
  }
  return `${value} ${unit}`;
}
