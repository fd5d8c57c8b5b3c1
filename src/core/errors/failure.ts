// What a failed attempt becomes, in one place: an error response's body redacted then cut, the one
// factory from (status, body) to an ApiError class (a 401 naming the setting to check), a
// connection failure's diagnosis (permanent or worth a retry), and how a call's last failure is
// told (`describeLastConnectionFailure`). The classes themselves are in base.ts and api-error.ts.

import { clip, MAX_VALUE_DEPTH, type Redactor } from '../safety/redact';
import {
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  parseRetryAfter,
  RateLimitedError,
  ServerError,
} from './api-error';
import { ConnectionError, TimeoutError, type ValidationIssue } from './base';

/** A body read: its text, and whether it was cut at the size limit. */
export interface Body {
  text: string;
  cut: boolean;
  /** Decoded bytes read (at most the limit). */
  bytes: number;
}

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
export function describeLastConnectionFailure(
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
  replaceMessage(error, `${label}: after ${said}: ${rest}`);
  return error;
}

/** Replaces an error's message, and the message its stack starts with. */
export function replaceMessage(error: Error, message: string): void {
  const before = error.message;
  error.message = message;
  if (typeof error.stack === 'string' && error.stack.includes(before)) {
    error.stack = error.stack.replace(before, () => message);
  }
}

/** Connection failures that fail the same way however often they are tried. */
const PERMANENT_FAILURES = new WeakSet<Error>();

/** Whether `error` is a connection failure no retry can change (a TLS certificate, an invalid URL, …). */
export function isPermanent(error: Error): boolean {
  return PERMANENT_FAILURES.has(error);
}

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
  return {
    text: new TextDecoder().decode(encoded.subarray(0, Math.max(0, end))),
    cut: true,
    bytes: end,
  };
}

/**
 * Error codes (anywhere in a cause chain) of failures that a retry cannot change: any code naming
 * a certificate (`CERT_HAS_EXPIRED`, `ERR_TLS_CERT_ALTNAME_INVALID`, `DEPTH_ZERO_SELF_SIGNED_CERT`,
 * …), TLS, headers too large, an invalid URL.
 */
const PERMANENT_CODES =
  /^(UND_ERR_HEADERS_OVERFLOW|HPE_HEADER_OVERFLOW|HPE_INVALID_.*|ERR_INVALID_URL|.*CERT.*|ERR_SSL_.*|UNABLE_TO_.*)$/;
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
  if (permanent) PERMANENT_FAILURES.add(failure);
  return failure;
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
    replaceMessage(error, `${error.message}. ${authHint(init.authSources, init.legacy)}`);
  }
  return error;
}

type ApiErrorClass = new (init: ApiErrorInit) => ApiError;

const BY_CODE: Record<string, ApiErrorClass> = {
  rate_limited: RateLimitedError,
  missing_api_key: AuthenticationError,
  invalid_api_key: AuthenticationError,
  unauthorized: AuthenticationError,
  missing_auth_headers: AuthenticationError,
  invalid_params: InvalidRequestError,
  params_validation: InvalidRequestError,
  not_found: NotFoundError,
  merchant_not_found: NotFoundError,
  payment_not_found: NotFoundError,
  idempotency_conflict: ConflictError,
  settlement_asset_conflict: ConflictError,
  internal_error: ServerError,
  bad_gateway: ServerError,
};

function classFor(status: number, code: string | undefined): ApiErrorClass {
  const byCode = code === undefined ? undefined : BY_CODE[code];
  if (byCode) return byCode;
  if (status === 429) return RateLimitedError;
  if (status === 401) return AuthenticationError;
  if (status === 400) return InvalidRequestError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status >= 500) return ServerError;
  return ApiError;
}

const SNIPPET_LENGTH = 160;

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > SNIPPET_LENGTH ? `${flat.slice(0, SNIPPET_LENGTH)}…` : flat;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readIssues(value: unknown): ValidationIssue[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(
    (i): i is ValidationIssue =>
      isRecord(i) && typeof i.field === 'string' && typeof i.message === 'string',
  );
}

/**
 * The one factory from an error response to its class: by the body's `code` first, then by
 * status. Everything that lands on the error passes through the client's redactor.
 */
export function createApiError(init: {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  text: string;
  /** The body was cut at the size limit. */
  cut?: boolean | undefined;
  redactor: Redactor;
}): ApiError {
  const { method, path, status, redactor } = init;
  let parsed: unknown;
  try {
    parsed = init.text === '' ? undefined : JSON.parse(init.text);
  } catch {
    parsed = undefined;
  }
  const json = isRecord(parsed) ? parsed : undefined;
  const code = typeof json?.code === 'string' ? json.code : undefined;
  const serviceMessage = typeof json?.message === 'string' ? json.message : undefined;
  const detail = json
    ? [code, serviceMessage].filter(Boolean).join(': ') || snippet(init.text)
    : snippet(init.text);
  const ErrorClass = classFor(status, code);
  const requestId = init.headers.get('x-request-id') ?? undefined;
  return new ErrorClass({
    method,
    path,
    status,
    code: code === undefined ? undefined : redactor.string(code),
    // Redacted before it is cut: a cut must never leave part of a key behind.
    message: clip(redactor.string(`${method} ${path} → ${status} ${detail}`)),
    details: isRecord(json?.details)
      ? (redactor.value(json.details, MAX_VALUE_DEPTH) as Record<string, unknown>)
      : undefined,
    issues: readIssues(redactor.value(json?.issues, MAX_VALUE_DEPTH)),
    requestId: requestId === undefined ? undefined : redactor.string(requestId),
    headers: redactor.headers(init.headers),
    body: json === undefined ? redactor.string(init.text) : redactor.value(parsed, MAX_VALUE_DEPTH),
    retryAfterMs: parseRetryAfter(init.headers),
    bodyTruncated: init.cut,
  });
}

/** Where a credential came from: the client's option, the environment, or nowhere. */
export type CredentialSource = 'option' | 'env' | undefined;

/** Where each of a client's keys came from (no `apiKey` means the app scheme). */
export interface AuthSources {
  apiKey: CredentialSource;
  legacyApiKey: CredentialSource;
}

/**
 * What a 401 tells the caller to check, for the scheme the call used: the setting's name, and the
 * environment variable when the value came from there; never the value. No `apiKey` means the app
 * scheme; a legacy call without a legacy key of its own used the partner's credentials.
 */
function authHint(from: AuthSources, legacy: boolean): string {
  const own = legacy && from.legacyApiKey !== undefined;
  const source = own ? from.legacyApiKey : from.apiKey;
  const name = own ? 'legacyApiKey' : 'apiKey';
  const what =
    source === undefined
      ? 'appId and clientId'
      : source === 'option'
        ? `the ${name} option`
        : `MERCHANT_GATEWAY_${own ? 'LEGACY_' : ''}API_KEY (the ${name} read from the environment)`;
  return `The service refused the credentials: check ${what}`;
}
