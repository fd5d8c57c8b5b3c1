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

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
