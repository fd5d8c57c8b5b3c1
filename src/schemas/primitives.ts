/**
 * The service's published formats, as plain predicates. The SDK's request schemas and the mock
 * service both check input with these, so the two can never disagree on a rule.
 */

/** Email pattern published by the service: no leading dot, no `..`, a TLD of 2+ letters. */
export const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** CAIP-19 asset id: `<chain_namespace>:<chain_reference>/<asset_namespace>:<asset_reference>`. */
export const CAIP19_PATTERN =
  /^[-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,32}\/[-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,128}$/;

/** CAIP-10 account id: `<chain_namespace>:<chain_reference>:<address>`. */
export const CAIP10_PATTERN = /^[-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,32}:[-a-zA-Z0-9]{1,128}$/;

/** CAIP-2 chain id, as used in the replacement list's `network` filter. */
export const CAIP2_PATTERN = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;

/** Replacement list `referenceId` filter: 3 to 35 characters of this alphabet. */
export const REFERENCE_FILTER_PATTERN = /^[A-Za-z0-9 /:.,+-]{3,35}$/;

/** Idempotency keys: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

/** Payment amount unit: `iso4217/<3-letter currency code>`. */
export const FIAT_UNIT_PATTERN = /^iso4217\/[A-Z]{3}$/;

/** A non-negative integer amount in minor units, as a string of digits. */
export const MINOR_UNITS_PATTERN = /^\d+$/;

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;

/**
 * ISO 8601 date-time with seconds optional, a mandatory `Z` or numeric offset, and a date that
 * exists on the calendar (2024-02-29 passes, 2025-02-29 and 2025-04-31 do not).
 */
export function isIsoDateTime(value: string): boolean {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second, offH, offM] = m
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part))) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1) return false;
  if (day > daysInMonth(year, month)) return false;
  return hour <= 23 && minute <= 59 && second <= 59 && offH <= 23 && offM <= 59;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A `Date` on the wire: ISO 8601 in UTC, to the second (the form every list accepts). */
export function toWireDateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// RFC 3986 (the published `format: uri`) for an https URI with an authority: userinfo, host (a
// registered name or an IP literal), port, path, query and fragment, each in its own characters.
const HTTPS_URI =
  /^https:\/\/(?:(?:[\w\-.~!$&'()*+,;=:]|%[0-9A-F]{2})*@)?(?:\[[0-9A-F:.]+\]|(?:[\w\-.~!$&'()*+,;=]|%[0-9A-F]{2})+)(?::\d*)?(?:\/(?:[\w\-.~!$&'()*+,;=:@]|%[0-9A-F]{2})*)*(?:\?(?:[\w\-.~!$&'()*+,;=:@/?]|%[0-9A-F]{2})*)?(?:#(?:[\w\-.~!$&'()*+,;=:@/?]|%[0-9A-F]{2})*)?$/i;

/**
 * An absolute `https:` URL with a host: an RFC 3986 URI (no spaces, backslashes, raw non-ASCII or
 * stray `%`, and `//` after the scheme) that the WHATWG URL parser also takes (port up to 65535,
 * a well-formed IP host). The parser alone is lenient: it reads `https:example.com` and
 * `https:\\evil.com` as URLs, which the service refuses.
 */
export function isHttpsUrl(value: string): boolean {
  if (!HTTPS_URI.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/** Header values the SDK sends: printable ASCII and tab only (no CR, LF or other controls). */
export function isSafeHeaderValue(value: string): boolean {
  return /^[\t\x20-\x7E]*$/.test(value);
}
