import { EMAIL_PATTERN, isIconUrl, MERCHANT_NAME_LENGTH } from '../../../rules/merchants';
import { FIAT_UNIT_PATTERN, MINOR_UNITS_PATTERN } from '../../../rules/payments';
import {
  CAIP10_PATTERN,
  CAIP19_PATTERN,
  isOnAssetChain,
  offChainMessage,
  SETTLEMENT_FIELD_LENGTH,
  SETTLEMENTS_PER_CALL,
} from '../../../rules/settlements';
import { type Bounds, hasLengthWithin } from '../../../rules/text';
import type { Issue } from './responses';

/** Field checks of the request bodies, each adding to `issues` what is wrong with one field. */

export function checkName(issues: Issue[], field: string, value: unknown): void {
  checkLength(issues, field, value, MERCHANT_NAME_LENGTH);
}

/** A string of `bounds` characters (code points, as the service counts); false when it is not. */
function checkLength(issues: Issue[], field: string, value: unknown, bounds: Bounds): boolean {
  if (typeof value === 'string' && hasLengthWithin(value, bounds)) return true;
  issues.push({ field, message: `must be a string of ${bounds.min} to ${bounds.max} characters` });
  return false;
}

export function checkEmail(issues: Issue[], field: string, value: unknown): void {
  if (typeof value !== 'string' || !EMAIL_PATTERN.test(value)) {
    issues.push({ field, message: 'must be a valid email address' });
  }
}

/** An HTTPS URL, or null (no logo). */
export function checkIconUrl(issues: Issue[], field: string, value: unknown): void {
  if (value !== null && (typeof value !== 'string' || !isIconUrl(value))) {
    issues.push({ field, message: 'must be an https URL or null' });
  }
}

function checkIdentifier(
  issues: Issue[],
  field: string,
  value: unknown,
  pattern: RegExp,
  what: string,
): void {
  if (
    checkLength(issues, field, value, SETTLEMENT_FIELD_LENGTH) &&
    !pattern.test(value as string)
  ) {
    issues.push({ field, message: `must be a ${what}` });
  }
}

/** `settlements`: 1 to 50 entries of `{ asset: CAIP-19, destination: CAIP-10 }`. */
export function checkSettlements(issues: Issue[], value: unknown): void {
  const { min, max } = SETTLEMENTS_PER_CALL;
  if (!Array.isArray(value) || value.length < min || value.length > max) {
    issues.push({ field: 'settlements', message: `must be an array of ${min} to ${max} entries` });
    return;
  }
  value.forEach((entry: unknown, i) => {
    const field = `settlements[${i}]`;
    if (!entry || typeof entry !== 'object') {
      issues.push({ field, message: 'must be an object { asset, destination }' });
      return;
    }
    const { asset, destination } = entry as Record<string, unknown>;
    const before = issues.length;
    checkIdentifier(issues, `${field}.asset`, asset, CAIP19_PATTERN, 'CAIP-19 asset id');
    checkIdentifier(
      issues,
      `${field}.destination`,
      destination,
      CAIP10_PATTERN,
      'CAIP-10 account id',
    );
    if (issues.length === before) {
      checkSameChain(issues, `${field}.destination`, asset as string, destination as string);
    }
  });
}

/** A destination on its asset's chain (create and update alike, from the one rule). */
export function checkSameChain(
  issues: Issue[],
  field: string,
  asset: string,
  destination: string,
): void {
  if (!isOnAssetChain(asset, destination)) issues.push({ field, message: offChainMessage(asset) });
}

/** `amount`: `{ unit: 'iso4217/XXX', value: '<digits in minor units>' }`. */
export function checkAmount(issues: Issue[], value: unknown): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    issues.push({ field: 'amount', message: 'must be an object { unit, value }' });
    return;
  }
  const { unit, value: minor } = value as Record<string, unknown>;
  if (typeof unit !== 'string' || !FIAT_UNIT_PATTERN.test(unit)) {
    issues.push({ field: 'amount.unit', message: 'must be iso4217/<currency code>' });
  }
  if (typeof minor !== 'string' || !MINOR_UNITS_PATTERN.test(minor)) {
    issues.push({ field: 'amount.value', message: 'must be a string of digits (minor units)' });
  }
}

/** `expiresAt`: null, absent, or integer epoch seconds after `nowMs`. */
export function checkExpiresAt(issues: Issue[], value: unknown, nowMs: number): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    issues.push({
      field: 'expiresAt',
      message: 'must be integer seconds since the epoch, or null',
    });
  } else if (value * 1000 <= nowMs) {
    issues.push({ field: 'expiresAt', message: 'must be in the future' });
  }
}
