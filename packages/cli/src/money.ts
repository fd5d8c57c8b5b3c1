/** Major units as people type them (`12.50 USD`) to the minor units the service takes (`1250`). */

/** Digits after the decimal point of a currency (ISO 4217): 2 for USD, 0 for JPY, 3 for KWD. */
function currencyExponent(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits as number;
}

/**
 * `'12.50'` in `USD` → `'1250'`, exactly (string arithmetic, no floating point). Throws a message
 * naming the rule for anything else: a sign, an exponent, more decimals than the currency has.
 */
export function toMinorUnits(amount: string, currency: string): string {
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw new Error(`--currency must be a three-letter ISO 4217 code in capitals, e.g. USD`);
  }
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (match === null) {
    throw new Error(`--amount must be a positive decimal number in ${currency}, e.g. 12.50`);
  }
  const exponent = currencyExponent(currency);
  const whole = match[1] as string;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > exponent) {
    throw new Error(
      `--amount ${amount}: ${currency} has ${exponent} decimal place${exponent === 1 ? '' : 's'}`,
    );
  }
  const minor = `${whole}${fraction.padEnd(exponent, '0')}`.replace(/^0+(?=\d)/, '');
  if (minor === '0') throw new Error('--amount must be more than zero');
  return minor;
}
