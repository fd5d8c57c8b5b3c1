import { isCredentialHeader, REDACTED } from '../rules/headers';

/** Stands in for every secret the SDK holds, wherever it would otherwise appear. */
export { REDACTED };

/** Longest error message or log line, in characters; the full body stays on the error. */
export const MAX_MESSAGE_LENGTH = 2_000;

/** `text` cut to `max` characters, saying how much was left out. Cut after redacting, never before. */
export function clip(text: string, max = MAX_MESSAGE_LENGTH): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * Keys shorter than this are replaced only where a whole value equals them (a header, a field):
 * as substrings they would match ordinary text (a key `v1` would hide the `v1` of every path).
 * No real key is this short.
 */
export const MIN_SUBSTRING_SECRET_LENGTH = 8;

/** Deepest nesting kept in a value the SDK stores on an error: deeper parts become a marker, so `JSON.stringify` never overflows. */
export const MAX_VALUE_DEPTH = 200;

/** Whether a header carries a credential, whatever its value. */
export const isSensitiveHeader = isCredentialHeader;

/**
 * Replaces the client's secrets in strings, nested values and headers. Built once per client from
 * its keys; a service message that echoes a key back is scrubbed before it reaches an error or log.
 */
export class Redactor {
  readonly #secrets: readonly string[];

  constructor(secrets: readonly (string | undefined)[]) {
    // Longest first, so a key that contains another is replaced whole.
    this.#secrets = secrets
      .filter((s): s is string => typeof s === 'string' && s.length > 0)
      .sort((a, b) => b.length - a.length);
  }

  string(text: string): string {
    let out = text;
    for (const secret of this.#secrets) {
      if (secret.length < MIN_SUBSTRING_SECRET_LENGTH) {
        if (out === secret) return REDACTED;
      } else if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
  }

  /**
   * A deep copy of a JSON-like value with every secret replaced, in keys and values alike. It
   * walks with its own stack rather than recursion: JSON.parse takes any depth, and a secret
   * nested deeper than a recursion limit must not slip through.
   */
  value(value: unknown, maxDepth = Number.POSITIVE_INFINITY): unknown {
    const holder: Record<string, unknown> = {};
    const stack: [unknown, Record<string | number, unknown>, string | number, number][] = [
      [value, holder, 'value', 0],
    ];
    const seen = new WeakSet<object>();
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      const [item, parent, key, depth] = next;
      let copy: unknown = item;
      if (typeof item === 'string') copy = this.string(item);
      else if (typeof item === 'object' && item !== null) {
        if (seen.has(item)) copy = '[Circular]';
        else if (depth >= maxDepth) copy = `[nested deeper than ${maxDepth}]`;
        else if (Array.isArray(item)) {
          seen.add(item);
          const array: unknown[] = new Array(item.length);
          item.forEach((child, i) => {
            stack.push([child, array as unknown as Record<number, unknown>, i, depth + 1]);
          });
          copy = array;
        } else {
          seen.add(item);
          const object: Record<string, unknown> = {};
          for (const [name, child] of Object.entries(item)) {
            stack.push([child, object, this.string(name), depth + 1]);
          }
          copy = object;
        }
      }
      // A defined property, so a key named `__proto__` stays data and sets no prototype.
      Object.defineProperty(parent, key, {
        value: copy,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return holder.value;
  }

  /**
   * An error safe to attach as a `cause`: the same name, message, code and cause chain, with
   * every secret replaced. A fetch or proxy error may quote the request, keys included, and
   * `util.inspect` prints a cause in full.
   */
  error(error: unknown, depth = 0): unknown {
    // Anything can be thrown; what is not an Error is copied like data.
    if (!(error instanceof Error)) return this.value(error);
    // A cause chain can loop back on itself: eight links say enough.
    const cause =
      depth < 8 && error.cause !== undefined ? this.error(error.cause, depth + 1) : undefined;
    const copy = new Error(this.string(error.message), cause === undefined ? {} : { cause });
    copy.name = this.string(error.name);
    copy.stack = this.string(error.stack ?? '');
    const { code } = error as { code?: unknown };
    if (typeof code === 'string') Object.assign(copy, { code: this.string(code) });
    return copy;
  }

  /** Headers as a plain object with lower-case names, credentials shown as `***`. */
  headers(headers: Headers | Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
    for (const [name, value] of entries) {
      const key = name.toLowerCase();
      out[key] = isSensitiveHeader(key) ? REDACTED : this.string(value);
    }
    return out;
  }
}
