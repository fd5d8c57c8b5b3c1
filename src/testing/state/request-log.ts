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

/** The most of a body the log keeps per request: a thousand entries never hold a gigabyte. */
export const RECORDED_BODY_CHARS = 64 * 1024;

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  if (text.length > RECORDED_BODY_CHARS) return text.slice(0, RECORDED_BODY_CHARS);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
