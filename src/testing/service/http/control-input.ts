/**
 * What control input (a `failNext` fault, any `/__mock/` body) may hold, checked when it is given
 * so a bad value is a 400 (or a TypeError in-process) naming the field, never a dropped connection
 * or a surprise on a later call.
 */
import type { Issue } from './responses';

/** The deepest a control body nests: a fault's JSON body or match needs a handful of levels. */
export const MAX_CONTROL_DEPTH = 32;

/** Keys that would reach an object's prototype if a later step copied them naively. */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A header name HTTP carries: a token (RFC 9110). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value HTTP carries: tab, space and visible characters (no CR, LF or other controls). */
const HEADER_VALUE = /^[\t\x20-\x7E\x80-\xFF]*$/;
/** Headers the server owns for the answer's framing: a fault that set them would break the connection. */
const FRAMING_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The first issue of a JSON value's shape: a key in `PROTOTYPE_KEYS` anywhere, or nesting past
 * `MAX_CONTROL_DEPTH` (a cycle too); `field` names where it is (`body`, `headers.x`, …).
 */
export function shapeIssue(value: unknown, field: string, depth = 0): Issue | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= MAX_CONTROL_DEPTH) {
    return { field, message: `must not nest deeper than ${MAX_CONTROL_DEPTH} levels` };
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  for (const [key, member] of entries) {
    const at = Array.isArray(value) ? `${field}[${key}]` : `${field}.${key}`;
    if (!Array.isArray(value) && PROTOTYPE_KEYS.has(key)) {
      return { field: at, message: 'is a key the mock refuses (it names a prototype)' };
    }
    const issue = shapeIssue(member, at, depth + 1);
    if (issue) return issue;
  }
  return undefined;
}

/** The issues of extra response headers: names and values HTTP carries, none of the framing. */
export function headerIssues(headers: Record<string, unknown>, field = 'headers'): Issue[] {
  const issues: Issue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const at = `${field}.${name}`;
    if (!HEADER_NAME.test(name)) {
      issues.push({
        field: at,
        message: "is not a header name (letters, digits and !#$%&'*+-.^_`|~ only)",
      });
    } else if (FRAMING_HEADERS.has(name.toLowerCase())) {
      issues.push({ field: at, message: 'is set by the mock itself (it frames the answer)' });
    } else if (typeof value !== 'string') {
      issues.push({ field: at, message: 'must be a string' });
    } else if (!HEADER_VALUE.test(value)) {
      issues.push({ field: at, message: 'must hold no CR, LF or other control character' });
    }
  }
  return issues;
}

/** Whether a header value HTTP carries (`retryAfter` as a string, say). */
export function isHeaderValue(value: string): boolean {
  return HEADER_VALUE.test(value);
}
