/** ISO 8601 date-times as the service takes them, shared by the SDK's list queries and the mock. */

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:Z|([+-])(\d{2}):?(\d{2}))$/;

/**
 * ISO 8601 date-time with seconds optional, a mandatory `Z` or numeric offset, and a date that
 * exists on the calendar (2024-02-29 passes, 2025-02-29 and 2025-04-31 do not).
 */
export function isIsoDateTime(value: string): boolean {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second, offH, offM] = [1, 2, 3, 4, 5, 6, 9, 10].map((i) =>
    Number(m[i] ?? 0),
  ) as [number, number, number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1) return false;
  if (day > daysInMonth(year, month)) return false;
  return hour <= 23 && minute <= 59 && second <= 59 && offH <= 23 && offM <= 59;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Epoch ms of a date-time `isIsoDateTime` accepted (Date.parse is lax about these forms). */
export function isoDateTimeToMs(value: string): number {
  const [, y, mo, d, h, mi, s, frac, sign, oh, om] = ISO_DATE_TIME.exec(value) ?? [];
  const utc = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s ?? 0),
    Number((frac ?? '0').padEnd(3, '0').slice(0, 3)),
  );
  const offset = sign === undefined ? 0 : (Number(oh) * 60 + Number(om)) * 60_000;
  return sign === '-' ? utc + offset : utc - offset;
}

/** A `Date` on the wire: ISO 8601 in UTC, to the second (the form every list accepts). */
export function toWireDateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
