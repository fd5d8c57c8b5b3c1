import { clip } from './redact';

/** How deep `toJSON` copies a value: error bodies come from the network and can nest anything. */
const MAX_DEPTH = 8;
/** Entries kept per object or array; the rest are counted, not copied. */
const MAX_ENTRIES = 100;
/** Characters kept per string. */
const MAX_STRING = 4_096;

/**
 * A JSON-safe copy of `value`, cut to a bounded depth, width and string length, so that
 * `JSON.stringify(error)` never throws (deep nesting, cycles, bigints) nor grows without limit.
 */
export function jsonSafeCopy(value: unknown, depth = 0, path: object[] = []): unknown {
  if (typeof value === 'string') {
    return clip(value, MAX_STRING);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value !== 'object') return undefined;
  if (path.includes(value)) return '[Circular]';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Error) {
    return { name: jsonSafeCopy(value.name), message: jsonSafeCopy(value.message) };
  }
  if (depth >= MAX_DEPTH) return '[Truncated: nested too deep]';
  const inner = [...path, value];
  if (Array.isArray(value)) {
    const copy = value
      .slice(0, MAX_ENTRIES)
      .map((item) => jsonSafeCopy(item, depth + 1, inner) ?? null);
    if (value.length > MAX_ENTRIES) copy.push(`… ${value.length - MAX_ENTRIES} more`);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const key of keys.slice(0, MAX_ENTRIES)) {
    const item = jsonSafeCopy((value as Record<string, unknown>)[key], depth + 1, inner);
    // A defined property, so a key named `__proto__` stays data.
    if (item !== undefined) {
      Object.defineProperty(copy, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  if (keys.length > MAX_ENTRIES) copy['…'] = `${keys.length - MAX_ENTRIES} more keys`;
  return copy;
}
