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

/**
 * The forms a secret can take that are not percent- or form-encoding: those are decoded out of the
 * text instead (see `decodeForm`), so an encoder written in any language or style is covered.
 */
const ENCODINGS: readonly ((secret: string) => string[])[] = [
  // As sent.
  (secret) => [secret],
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
  return [...new Set(ENCODINGS.flatMap((forms) => forms(secret)))].filter((form) => form !== '');
}

/** A space and a `+` are one character to the form-decoded match: `+` is a space in a form. */
function plusAsSpace(text: string): string {
  return text.replaceAll('+', ' ');
}

/** One to four percent-escapes: the UTF-8 bytes of at most one character. */
const ESCAPES = /^(?:%[\dA-Fa-f]{2}){1,4}$/;

/**
 * The character a run of escapes at `at` spells in UTF-8 (`%C3%A9` is `é`), and how many
 * characters of `text` it takes; undefined when the escapes are not one whole, valid character.
 */
function escapedChar(text: string, at: number): { char: string; length: number } | undefined {
  for (let length = 3; length <= 12; length += 3) {
    const escapes = text.slice(at, at + length);
    if (escapes.length < length || !ESCAPES.test(escapes)) return undefined;
    try {
      return { char: decodeURIComponent(escapes), length };
    } catch {
      // the first bytes of a character (or bytes of none): one escape more
    }
  }
  return undefined;
}

/** Where each character of a decoded text came from in the encoded one: `[from, to)`. */
interface Origins {
  from: Int32Array;
  to: Int32Array;
}

/**
 * `text` as a form decoder reads it: each percent-escape (UTF-8) decoded and each `+` a space;
 * an escape that is not valid UTF-8 stays as written. With `origins`, it also records the span of
 * `text` each decoded character came from, so a match masks exactly its encoded source.
 */
function decodeForm(text: string, origins?: Origins): string {
  let decoded = '';
  let length = 0; // of `decoded` so far, in UTF-16 units (counted when origins are kept)
  const copy = (start: number, end: number) => {
    decoded += text.slice(start, end);
    for (let at = start; origins !== undefined && at < end; at++, length++) {
      origins.from[length] = at;
      origins.to[length] = at + 1;
    }
  };
  let done = 0;
  for (let at = text.indexOf('%'); at >= 0; at = text.indexOf('%', at + 1)) {
    const escaped = escapedChar(text, at);
    if (escaped === undefined) continue;
    copy(done, at);
    decoded += escaped.char;
    for (let unit = 0; origins !== undefined && unit < escaped.char.length; unit++, length++) {
      origins.from[length] = at;
      origins.to[length] = at + escaped.length;
    }
    done = at + escaped.length;
    at = done - 1;
  }
  copy(done, text.length);
  // One character for one: the origins stay right.
  return plusAsSpace(decoded);
}

/**
 * Replaces the client's secrets in strings, nested values and headers. Built once per client from
 * its keys; a service message that echoes a key back is scrubbed before it reaches an error or log.
 */
export class Redactor {
  readonly #secrets: readonly string[];
  /** The secrets as they read once form-decoded (`+` as a space), longest first. */
  readonly #decodedSecrets: readonly string[];
  /**
   * UTF-8 bytes of the longest form a secret can take (every byte percent-escaped, at most): a
   * text cut this much past a limit, then redacted, then cut at the limit leaves no part of a
   * key (see `redactThenCut`).
   */
  readonly longestForm: number;

  constructor(secrets: readonly (string | undefined)[]) {
    const forms = new Set<string>();
    const decoded = new Set<string>();
    for (const secret of secrets) {
      if (typeof secret !== 'string' || secret === '') continue;
      for (const form of encodings(secret)) forms.add(form);
      decoded.add(plusAsSpace(secret));
    }
    // Longest first, so a key that contains another (or its unpadded base64) is replaced whole.
    this.#secrets = [...forms].sort((a, b) => b.length - a.length);
    this.#decodedSecrets = [...decoded].sort((a, b) => b.length - a.length);
    const encoder = new TextEncoder();
    this.longestForm = Math.max(
      0,
      ...this.#secrets.map((form) => encoder.encode(form).length),
      ...this.#decodedSecrets.map((secret) => 3 * encoder.encode(secret).length),
    );
  }

  string(text: string): string {
    let out = text;
    for (const secret of this.#secrets) {
      if (secret.length < MIN_SUBSTRING_SECRET_LENGTH) {
        if (out === secret) return REDACTED;
      } else if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    // Only a text with an escape or a `+` can hold an encoded key: the common case stops here.
    return out.includes('%') || out.includes('+') ? this.#formDecoded(out) : out;
  }

  /** `text` with every secret found in its form-decoded reading masked over its encoded span. */
  #formDecoded(text: string): string {
    const seen = decodeForm(text);
    const found = this.#decodedSecrets.filter((secret) =>
      secret.length < MIN_SUBSTRING_SECRET_LENGTH ? seen === secret : seen.includes(secret),
    );
    // The common case ends here, without the origins: no key in the text.
    if (found.length === 0) return text;
    if (found.some((secret) => secret.length < MIN_SUBSTRING_SECRET_LENGTH)) return REDACTED;
    // A decoded text is never longer than its source.
    const origins = { from: new Int32Array(text.length), to: new Int32Array(text.length) };
    const decoded = decodeForm(text, origins);
    const spans: [number, number][] = [];
    for (const secret of found) {
      for (let at = decoded.indexOf(secret); at >= 0; at = decoded.indexOf(secret, at + 1)) {
        spans.push([origins.from[at] as number, origins.to[at + secret.length - 1] as number]);
      }
    }
    spans.sort((a, b) => a[0] - b[0]);
    let out = '';
    let done = 0;
    for (const [start, end] of spans) {
      if (end <= done) continue; // inside a span already masked
      out += start >= done ? `${text.slice(done, start)}${REDACTED}` : '';
      done = end;
    }
    return out + text.slice(done);
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
