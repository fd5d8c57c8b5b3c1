/** Header rules: which headers carry credentials (masked in logs and in the mock's record) and what values may be sent. */

/** Headers that carry a credential, whatever their value: shown as `***` by the SDK's logs and errors and by `mock.requests`. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'api-key',
  'x-api-key',
  'app-id',
  'client-id',
  'authorization',
  'cookie',
  'set-cookie',
]);

/** Stands in for a secret wherever it would otherwise appear. */
export const REDACTED = '***';

/** Whether a header carries a credential, whatever its value. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase());
}

/** Idempotency keys: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

/** Header values the SDK sends: printable ASCII and tab only (no CR, LF or other controls). */
export const SAFE_HEADER_VALUE = /^[\t\x20-\x7E]*$/;

/** Whether `value` may be sent as a header's value (SAFE_HEADER_VALUE). */
export function isSafeHeaderValue(value: string): boolean {
  return SAFE_HEADER_VALUE.test(value);
}
