import { isCredentialHeader, REDACTED } from '../../rules/headers';

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

/** `bytes` in base64 without padding, and in base64url. */
function base64Pair(bytes: Uint8Array): [string, string] {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const plain = btoa(binary).replace(/=+$/, '');
  return [plain, plain.replace(/\+/g, '-').replace(/\//g, '_')];
}

/**
 * The base64 characters that encode `bytes` wherever they sit in a longer encoded run, for each
 * of the three byte offsets (mod 3) they can start at: a service echoing
 * `Authorization: Basic base64("partner:" + key)` puts the key at offset 8. A character that also
 * takes bits of a neighbouring byte is left out at both ends, so each form is found whatever comes
 * before or after; what stays visible of the key is at most a few bits at each end.
 */
function base64Cores(bytes: Uint8Array): string[] {
  const forms: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const shifted = new Uint8Array(shift + bytes.length);
    shifted.set(bytes, shift);
    const [plain, url] = base64Pair(shifted);
    // The characters made of the zero bytes in front (and the one shared with them) go.
    const head = [0, 2, 3][shift] as number;
    // The last character shares bits with whatever follows unless the run ends on a group.
    const tail = shifted.length % 3 === 0 ? 0 : 1;
    forms.push(plain.slice(head, plain.length - tail), url.slice(head, url.length - tail));
  }
  return forms;
}

/** A percent-encoded text with its hex digits in upper case (as sent) and in lower case. */
function hexCases(encoded: string): string[] {
  return [encoded, encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())];
}

/**
 * Every form a secret can take on its way back to us, in one table: each encoding the SDK itself
 * writes (a path segment, a query built by `URLSearchParams`, a JSON body) and each a service or
 * proxy commonly echoes (a form body, an Authorization header's base64). The redactor scrubs all.
 */
const ENCODINGS: readonly ((secret: string) => string[])[] = [
  // As sent.
  (secret) => [secret],
  // Path segments (the `path` tag) and most echoes: `~ ! ' ( )` stay, the space is %20.
  (secret) => hexCases(encodeURIComponent(secret)),
  // Queries and form bodies: `~ ! ' ( )` are escaped and the space is `+`.
  (secret) => hexCases(new URLSearchParams([['', secret]]).toString().slice(1)),
  // A URL's own serialization (what `url.full` and a proxy's log print of a raw value).
  (secret) => hexCases(new URL(`http://h/?${secret.replaceAll('#', '%23')}`).search.slice(1)),
  // A JSON string's content: `"`, `\` and control characters escaped; `/` too by some servers.
  (secret) => {
    const json = JSON.stringify(secret).slice(1, -1);
    return [json, json.replaceAll('/', '\\/')];
  },
  // Its UTF-8 bytes in base64 (padded, unpadded, base64url) and inside a longer base64 run.
  (secret) => {
    const bytes = new TextEncoder().encode(secret);
    const [unpadded, url] = base64Pair(bytes);
    const padded = unpadded.padEnd(Math.ceil(unpadded.length / 4) * 4, '=');
    return [padded, unpadded, url, ...base64Cores(bytes)];
  },
];

/** Every distinct, non-empty form of `secret`, from the table above. */
function encodings(secret: string): string[] {
  const all = ENCODINGS.flatMap((forms) => {
    try {
      return forms(secret);
    } catch {
      return []; // a lone surrogate has no percent-encoding: that form cannot be sent either
    }
  });
  return [...new Set(all)].filter((form) => form !== '');
}

/**
 * Replaces the client's secrets in strings, nested values and headers. Built once per client from
 * its keys; a service message that echoes a key back is scrubbed before it reaches an error or log.
 */
export class Redactor {
  readonly #secrets: readonly string[];
  /**
   * UTF-8 bytes of the longest form a secret can take: a text cut this much past a limit, then
   * redacted, then cut at the limit leaves no part of a key (see `redactThenCut`).
   */
  readonly longestForm: number;

  constructor(secrets: readonly (string | undefined)[]) {
    const forms = new Set<string>();
    for (const secret of secrets) {
      if (typeof secret !== 'string' || secret === '') continue;
      for (const form of encodings(secret)) forms.add(form);
    }
    // Longest first, so a key that contains another (or its unpadded base64) is replaced whole.
    this.#secrets = [...forms].sort((a, b) => b.length - a.length);
    const encoder = new TextEncoder();
    this.longestForm = Math.max(0, ...this.#secrets.map((form) => encoder.encode(form).length));
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

  /**
   * `error` itself with every own property scrubbed in place: `message`, `stack`, every field
   * (`body`, `requestId`, `headers`, `issues`, `details`, …) and the `cause` chain, whatever the
   * error's class. The one pass every error of a call goes through before the caller sees it, so
   * `JSON.stringify(error)` and `util.inspect(error)` show no key either.
   */
  scrub<E extends Error>(error: E): E {
    for (const name of Object.getOwnPropertyNames(error)) {
      const descriptor = Object.getOwnPropertyDescriptor(error, name);
      if (descriptor === undefined || !('value' in descriptor)) continue;
      const { value } = descriptor;
      const clean =
        name === 'cause'
          ? this.error(value)
          : typeof value === 'string'
            ? this.string(value)
            : this.value(value, MAX_VALUE_DEPTH);
      Object.defineProperty(error, name, { ...descriptor, value: clean });
    }
    return error;
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
