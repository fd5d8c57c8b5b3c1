// What only a failed attempt runs, in one module that attempt.ts imports on the first failure
// (failure-lazy.ts): an error body's redaction and cut, the error factory, a connection failure's
// diagnosis. A browser bundle loads it as its own chunk; the error classes stay in the entry.

import { createApiError } from './api-error-factory';
import { type AuthSources, authHints } from './auth-hints';
import type { ApiError } from './errors/api-error';
import { AuthenticationError } from './errors/api-error';
import { ConnectionError, TimeoutError } from './errors/base';
import { retell } from './errors/failure';
import type { Body } from './http/body';
import { markPermanent } from './http/retry';
import type { Redactor } from './safety/redact';

const UTF8 = new TextDecoder();

/**
 * An error body as the error may keep it: at most `limit` bytes, redacted BEFORE it is cut, so a
 * key straddling the cut leaves nothing of itself. `body` was read up to `limit` plus the
 * redactor's longest form, so a key that starts before the cut ends within what was read; when
 * even that was cut, what may be the start of a key at its very end is dropped first.
 */
export function redactThenCut(body: Body, limit: number, redactor: Redactor): Body {
  const text = redactor.string(body.text);
  if (body.bytes <= limit && !body.cut) return { text, cut: false, bytes: body.bytes };
  const encoded = new TextEncoder().encode(text);
  const end = Math.min(
    limit,
    body.cut ? encoded.byteLength - Math.max(0, redactor.longestForm - 1) : encoded.byteLength,
  );
  return { text: UTF8.decode(encoded.subarray(0, Math.max(0, end))), cut: true, bytes: end };
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

/** An error response as its ApiError; a 401 names the setting to check (from `authSources`). */
export function responseFailure(init: {
  method: string;
  path: string;
  response: Response;
  text: string;
  cut: boolean;
  redactor: Redactor;
  authSources: AuthSources | undefined;
  /** The call used the legacy scheme (`X-Api-Key`). */
  legacy: boolean;
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
  if (error instanceof AuthenticationError && init.authSources !== undefined) {
    const hints = authHints(init.authSources);
    retell(error, `${error.message}. ${init.legacy ? hints.legacy : hints.partner}`);
  }
  return error;
}
