// The one factory from an error response to its ApiError class, apart from the classes
// (api-error.ts): only a failed call needs it, so a browser bundle loads it with the failure path
// (failure-path.ts) rather than with the SDK.
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
} from './errors/api-error';
import type { ValidationIssue } from './errors/base';
import { clip, MAX_VALUE_DEPTH, type Redactor } from './safety/redact';

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
