// Step "map an error" of a call: whatever an attempt met becomes one of the SDK's errors.
import { ApiError, AuthenticationError, createApiError, RateLimitedError } from './api-error';
import { ConnectionError, TimeoutError } from './errors';
import type { Redactor } from './redact';
import { markPermanent } from './retry';

/** No response, a timeout or a 5xx: the service may or may not have acted. */
export function isUnknownOutcome(error: unknown): boolean {
  if (error instanceof RateLimitedError) return false;
  if (error instanceof ApiError) return error.status >= 500;
  return error instanceof ConnectionError || error instanceof TimeoutError;
}

/** Error codes (anywhere in a cause chain) of failures that a retry cannot change. */
const PERMANENT_CODES =
  /^(UND_ERR_HEADERS_OVERFLOW|HPE_HEADER_OVERFLOW|HPE_INVALID_.*|ERR_INVALID_URL|ERR_TLS_CERT_ALTNAME_INVALID|CERT_.*|.*_CERT_.*|.*CERTIFICATE.*|ERR_SSL_.*|UNABLE_TO_.*)$/;
const PERMANENT_MESSAGES = /headers overflow|header.*too large|invalid url|certificate/i;

/** The innermost message of an error's cause chain (undici's "fetch failed" names its reason there), and whether any link says a retry cannot help. */
function diagnose(error: unknown): { reason: string; permanent: boolean } {
  let current = error;
  let permanent = false;
  for (let depth = 0; depth < 8; depth++) {
    if (current instanceof Error) {
      const { code } = current as { code?: unknown };
      if (typeof code === 'string' && PERMANENT_CODES.test(code)) permanent = true;
      if (PERMANENT_MESSAGES.test(current.message)) permanent = true;
    }
    const cause: unknown = current instanceof Error ? current.cause : undefined;
    if (!(cause instanceof Error) && typeof cause !== 'string') break;
    current = cause;
  }
  return { reason: current instanceof Error ? current.message : String(current), permanent };
}

/**
 * What an attempt that got no usable response throws: a TimeoutError when its timer fired, else a
 * ConnectionError naming the innermost reason (redacted), marked permanent when no retry can help.
 */
export function connectionFailure(
  error: unknown,
  label: string,
  timedOut: boolean,
  timeoutMs: number,
  redactor: Redactor,
): ConnectionError {
  if (timedOut) return new TimeoutError(`${label}: no complete response within ${timeoutMs} ms`);
  const { reason, permanent } = diagnose(error);
  const failure = new ConnectionError(`${label}: connection failed: ${redactor.string(reason)}`, {
    cause: redactor.error(error),
  });
  return permanent ? markPermanent(failure) : failure;
}

/** An error response as its ApiError; a 401 names the setting to check (`authHint`). */
export function responseFailure(init: {
  method: string;
  path: string;
  response: Response;
  text: string;
  cut: boolean;
  redactor: Redactor;
  authHint: string | undefined;
}): ApiError {
  const error = createApiError({
    method: init.method,
    path: init.path,
    status: init.response.status,
    headers: init.response.headers,
    text: init.text,
    cut: init.cut,
    redactor: init.redactor,
  });
  if (error instanceof AuthenticationError && init.authHint !== undefined) {
    retell(error, `${error.message}. ${init.authHint}`);
  }
  return error;
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
function retell(error: Error, message: string): void {
  const before = error.message;
  error.message = message;
  if (typeof error.stack === 'string' && error.stack.includes(before)) {
    error.stack = error.stack.replace(before, () => message);
  }
}
