// Step "map an error" of a call: whatever an attempt met becomes one of the SDK's errors. What
// builds those errors is in failure-path.ts, loaded on the first failure; this is what every call
// needs at hand.
import { ApiError, RateLimitedError } from './api-error';
import { ConnectionError, TimeoutError } from './base';

/** No response, a timeout or a 5xx: the service may or may not have acted. */
export function isUnknownOutcome(error: unknown): error is Error {
  if (error instanceof RateLimitedError) return false;
  if (error instanceof ApiError) return error.status >= 500;
  return error instanceof ConnectionError || error instanceof TimeoutError;
}

/**
 * A call's last ConnectionError (or TimeoutError) once no attempt is left: its message says how
 * many attempts were made and in how long, and `method`, `path`, `attempts` and `elapsedMs` are
 * set, as on an ApiError.
 */
export function exhausted(
  error: ConnectionError,
  method: string,
  path: string,
  attempts: number,
  elapsedMs: number,
): ConnectionError {
  const fields = error as { -readonly [K in keyof ConnectionError]: ConnectionError[K] };
  fields.method = method;
  fields.path = path;
  fields.attempts = attempts;
  fields.elapsedMs = elapsedMs;
  const label = `${method} ${path}`;
  const said = `${attempts} attempt${attempts === 1 ? '' : 's'} in ${elapsedMs} ms`;
  // `GET /v1/x: connection failed: …` → `GET /v1/x: after 3 attempts in 1503 ms: connection failed: …`
  const rest = error.message.startsWith(`${label}: `)
    ? error.message.slice(label.length + 2)
    : error.message;
  retell(error, `${label}: after ${said}: ${rest}`);
  return error;
}

/** Replaces an error's message, and the message its stack starts with. */
export function retell(error: Error, message: string): void {
  const before = error.message;
  error.message = message;
  if (typeof error.stack === 'string' && error.stack.includes(before)) {
    error.stack = error.stack.replace(before, () => message);
  }
}
