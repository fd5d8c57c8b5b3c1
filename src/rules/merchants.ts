/** The service's rules for merchant bodies, shared by the SDK's schemas and the mock. */
import type { Bounds } from './text';

/** `merchantName`: 1 to 256 characters (code points, see `codePointLength`). */
export const MERCHANT_NAME_LENGTH: Bounds = { min: 1, max: 256 };

/** Email pattern published by the service: no leading dot, no `..`, a TLD of 2+ letters. */
export const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

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

/**
 * `iconUrl`: an https URL as sent. URL parsing repairs `https:host` and backslashes, but the
 * service sees the string as sent.
 */
export function isIconUrl(value: string): boolean {
  return /^https:\/\/[^/\\]/i.test(value) && !value.includes('\\') && isHttpsUrl(value);
}
