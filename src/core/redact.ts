/** Stands in for every secret the SDK holds, wherever it would otherwise appear. */
export const REDACTED = '***';

const SENSITIVE_HEADERS = new Set([
  'api-key',
  'x-api-key',
  'app-id',
  'client-id',
  'authorization',
  'cookie',
  'set-cookie',
]);

/** Whether a header carries a credential, whatever its value. */
export function isSensitiveHeader(name: string): boolean {
  return SENSITIVE_HEADERS.has(name.toLowerCase());
}

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
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
  }

  /** A deep copy of a JSON-like value with every secret replaced. */
  value(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.string(value);
    if (value === null || typeof value !== 'object' || depth > 32) return value;
    if (Array.isArray(value)) return value.map((item) => this.value(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[this.string(key)] = this.value(item, depth + 1);
    }
    return out;
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
