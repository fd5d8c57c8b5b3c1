import { isCredentialHeader, REDACTED } from '../../rules/headers';
import type { RecordedRequest } from '../types';

/** What a test sees of a request: credentials masked, query and JSON body parsed. */
export function recordRequest(
  request: Request,
  url: URL,
  path: string,
  bodyText: string,
): RecordedRequest {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const seen = query[name];
    query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers)
    headers[name] = isCredentialHeader(name) ? REDACTED : value;
  return { method: request.method, url: url.href, path, query, headers, body: parseBody(bodyText) };
}

/**
 * The most of a body the log keeps per request, in UTF-8 bytes: a thousand entries never hold a
 * gigabyte (1,000 × 64 KiB at most, whatever the characters).
 */
export const RECORDED_BODY_BYTES = 64 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The first `RECORDED_BODY_BYTES` of `text` as a string of its own. `text.slice` would return a
 * V8 sliced string that keeps the whole body (up to 1 MiB) alive behind the 64 KiB it shows;
 * decoding the bytes builds a fresh string that holds nothing else.
 */
function firstBytes(text: string): string {
  // At most 3 bytes per UTF-16 unit: this many units always fill the buffer when the text is longer.
  const head = text.length > RECORDED_BODY_BYTES ? text.slice(0, RECORDED_BODY_BYTES) : text;
  const buffer = new Uint8Array(RECORDED_BODY_BYTES);
  const { written } = encoder.encodeInto(head, buffer);
  return decoder.decode(buffer.subarray(0, written));
}

/** Whether `text` takes more than `RECORDED_BODY_BYTES` in UTF-8, without encoding all of it. */
function overBound(text: string): boolean {
  if (text.length > RECORDED_BODY_BYTES) return true;
  // Each UTF-16 unit is at most 3 bytes: short texts cannot pass the bound.
  if (text.length * 3 <= RECORDED_BODY_BYTES) return false;
  return encoder.encode(text).byteLength > RECORDED_BODY_BYTES;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  if (overBound(text)) return firstBytes(text);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
