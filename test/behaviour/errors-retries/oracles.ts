/**
 * The service's published formats, written again from the specs (service-facts.md and
 * service-interface.md) without looking at the SDK's code, so the property tests compare two
 * independent readings of the same rules.
 */

/** service-facts.md, "Email pattern", copied character for character. */
const PUBLISHED_EMAIL =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** service-facts.md, "CAIP-19". */
const PUBLISHED_CAIP19 =
  /^[-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,32}\/[-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,128}$/;

/** service-facts.md, "CAIP-10". */
const PUBLISHED_CAIP10 = /^[-a-zA-Z0-9]{3,8}:[-a-zA-Z0-9]{1,32}:[-a-zA-Z0-9]{1,128}$/;

export const isPublishedEmail = (s: string): boolean => PUBLISHED_EMAIL.test(s);
export const isPublishedCaip19 = (s: string): boolean => PUBLISHED_CAIP19.test(s);
export const isPublishedCaip10 = (s: string): boolean => PUBLISHED_CAIP10.test(s);

// RFC 3986 character classes.
const PCT = '%[0-9A-Fa-f]{2}';
const UNRESERVED = 'A-Za-z0-9\\-._~';
const SUB_DELIMS = "!$&'()*+,;=";
const repeated = (extra: string) =>
  new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}${extra}]|${PCT})*$`);
const USERINFO = repeated(':');
const REG_NAME = repeated('');
const PATH_SEGMENT = repeated(':@');
const QUERY_OR_FRAGMENT = repeated(':@/?');

/**
 * An `https` URL the service takes as `iconUrl`: an RFC 3986 URI (the published contract's
 * `format: uri`) whose scheme is https and which has a non-empty host, and which a browser or
 * `fetch` can load (the WHATWG URL parser takes it: ports up to 65535, well-formed IP hosts).
 */
export function isHttpsUri(s: string): boolean {
  // RFC 3986, appendix B: the generic split, then each part checked against its own grammar.
  const m = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#([\s\S]*))?$/.exec(s);
  if (!m) return false;
  const [, scheme, authority, path = '', query, fragment] = m;
  if (scheme?.toLowerCase() !== 'https' || authority === undefined) return false;
  const at = authority.indexOf('@');
  const userinfo = at === -1 ? '' : authority.slice(0, at);
  const hostPort = at === -1 ? authority : authority.slice(at + 1);
  const hp = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(hostPort);
  if (!hp) return false;
  const [, host = '', port] = hp;
  const hostOk = host.startsWith('[')
    ? /^\[[0-9A-Fa-f:.]+\]$/.test(host)
    : host !== '' && REG_NAME.test(host);
  const portOk = port === undefined || port === '' || (/^\d+$/.test(port) && Number(port) <= 65535);
  const pathOk =
    path === '' ||
    path
      .split('/')
      .slice(1)
      .every((seg) => PATH_SEGMENT.test(seg));
  const syntaxOk =
    USERINFO.test(userinfo) &&
    hostOk &&
    portOk &&
    path.startsWith('/') === (path !== '') &&
    pathOk &&
    (query === undefined || QUERY_OR_FRAGMENT.test(query)) &&
    (fragment === undefined || QUERY_OR_FRAGMENT.test(fragment));
  if (!syntaxOk) return false;
  try {
    return new URL(s).hostname !== '';
  } catch {
    return false;
  }
}

/** Whether year-month-day exists on the proleptic Gregorian calendar, by a `Date` round trip. */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  // Date.UTC maps years 0-99 to 1900-1999, so the year is set on its own with setUTCFullYear.
  const date = new Date(Date.UTC(2000, 0, 1));
  date.setUTCFullYear(year, month - 1, day);
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/**
 * service-interface.md 4.6, `start_ts`: "ISO 8601 date-time with seconds optional and a
 * mandatory Z or numeric offset; calendar-valid date". Read as ISO 8601's extended format
 * `YYYY-MM-DDThh:mm[:ss[.f+]]` with `Z`, `±hh:mm` or the basic `±hhmm`. Not taken: `±hh` alone
 * (RFC 3339, the replacement list's format, has no such form), a lower-case `t`/`z`, a space for
 * `T`, hour 24, and leap second 60.
 */
export function isIsoDateTimeOracle(s: string): boolean {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2})(?::(\d{2})|(\d{2})))$/.exec(
      s,
    );
  if (!m) return false;
  const [year, month, day, hour, minute, second = 0, offH = 0, offM1, offM2] = m
    .slice(1)
    .map((p) => (p === undefined ? undefined : Number(p)));
  const offM = offM1 ?? offM2 ?? 0;
  return (
    isCalendarDate(year as number, month as number, day as number) &&
    (hour as number) < 24 &&
    (minute as number) < 60 &&
    second < 60 &&
    offH < 24 &&
    offM < 60
  );
}
