import type { ValidationIssue } from './base';
import { MerchantGatewayError } from './base';

/**
 * Error codes the service's published contract names (2026-02-18 and its preview: the shared list
 * of the payment operations and the merchant API's own). Others are surfaced as they come.
 */
export type KnownErrorCode =
  // Validation and request shape
  | 'invalid_params'
  | 'params_validation'
  | 'missing_idempotency_key'
  | 'header_not_ascii'
  | 'invalid_api_version'
  | 'unknown_api_version'
  | 'api_version_downgrade'
  // Authentication and authorization
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'missing_merchant_api_key'
  | 'missing_merchant_id'
  | 'not_sandbox_api_key'
  | 'api_key_not_found'
  | 'unauthorized'
  | 'forbidden'
  | 'conflicting_auth_headers'
  | 'missing_auth_headers'
  | 'missing_app_id'
  | 'missing_client_id'
  | 'invalid_app_id'
  | 'sanctioned_user'
  // Not found
  | 'not_found'
  | 'merchant_not_found'
  | 'payment_not_found'
  | 'partner_not_found'
  | 'customer_not_found'
  | 'wallet_not_found'
  | 'executor_not_found'
  // State and conflicts
  | 'idempotency_conflict'
  | 'settlement_asset_conflict'
  | 'version_conflict'
  | 'merchant_exists'
  | 'invalid_state'
  | 'payment_expired'
  | 'quote_expired'
  | 'payment_not_succeeded'
  | 'already_refunded'
  // Rate limiting and failures
  | 'rate_limited'
  | 'internal_error'
  | 'bad_gateway';

/** The `code` of an error response: a known one, or any other string the service sends. */
export type ErrorCode = KnownErrorCode | (string & {});

/** @internal What an ApiError is built from (failure.ts builds it from a response). */
export interface ApiErrorInit {
  method: string;
  path: string;
  status: number;
  code: ErrorCode | undefined;
  message: string;
  details: Record<string, unknown> | undefined;
  issues: ValidationIssue[] | undefined;
  requestId: string | undefined;
  headers: Record<string, string>;
  body: unknown;
  retryAfterMs: number | undefined;
  bodyTruncated?: boolean | undefined;
}

/** The service answered with an error status. Subclasses narrow it by code and status. */
export class ApiError extends MerchantGatewayError {
  /** @internal */
  static override readonly '~brand': string = 'ApiError';
  override readonly name: string = 'ApiError';
  readonly method: string;
  /** Request path, without the base URL or query. */
  readonly path: string;
  readonly status: number;
  /** The service's error code; undefined when the body carried none (e.g. an HTML proxy page). */
  readonly code: ErrorCode | undefined;
  readonly details?: Record<string, unknown>;
  readonly issues?: ValidationIssue[];
  /** From the `x-request-id` response header. Quote it when contacting support. */
  readonly requestId?: string;
  /** Response headers, lower-case names, credentials redacted. */
  readonly headers: Record<string, string>;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  readonly body: unknown;
  /**
   * True when the body was longer than 64 KiB (or `maxResponseBytes`, if smaller): `body` is its
   * text up to that point, and the rest was never read.
   */
  readonly bodyTruncated?: true;

  /** @internal */
  constructor(init: ApiErrorInit) {
    super(init.message);
    if (init.bodyTruncated === true) this.bodyTruncated = true;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.code = init.code;
    if (init.details !== undefined) this.details = init.details;
    if (init.issues !== undefined) this.issues = init.issues;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    this.headers = init.headers;
    this.body = init.body;
  }
}

/** 429, or code `rate_limited` under any status. The service did not act; always safe to retry. */
export class RateLimitedError extends ApiError {
  /** @internal */
  static override readonly '~brand': string = 'RateLimitedError';
  override readonly name: string = 'RateLimitedError';
  /** How long the service asked to wait, from `retry-after-ms` or `Retry-After`. */
  readonly retryAfterMs?: number;

  /** @internal */
  constructor(init: ApiErrorInit) {
    super(init);
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }
}

/** 401: a key is missing or not valid. */
export class AuthenticationError extends ApiError {
  /** @internal */
  static override readonly '~brand': string = 'AuthenticationError';
  override readonly name: string = 'AuthenticationError';
}

/** 400: the service rejected the request's parameters. */
export class InvalidRequestError extends ApiError {
  /** @internal */
  static override readonly '~brand': string = 'InvalidRequestError';
  override readonly name: string = 'InvalidRequestError';
}

/** 404: the merchant or payment does not exist (for this partner). */
export class NotFoundError extends ApiError {
  /** @internal */
  static override readonly '~brand': string = 'NotFoundError';
  override readonly name: string = 'NotFoundError';
}

/** 409: an idempotency key reused with another body, or a settlement asset already registered. */
export class ConflictError extends ApiError {
  /** @internal */
  static override readonly '~brand': string = 'ConflictError';
  override readonly name: string = 'ConflictError';
}

/** 5xx: the service or a proxy in front of it failed. */
export class ServerError extends ApiError {
  /** @internal */
  static override readonly '~brand': string = 'ServerError';
  override readonly name: string = 'ServerError';
}

/**
 * Milliseconds the service asked to wait: `retry-after-ms`, else `Retry-After` in seconds or as an
 * HTTP date. An HTTP date is the server's clock, so it is read against the response's own `Date`
 * header when that is valid (a server 30 s ahead asking for "now + 1 s" means 1 s, not 31 s), and
 * against `now` (this machine's clock) only when the response has no usable `Date`.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.ceil(value);
  }
  const header = headers.get('retry-after');
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.ceil(seconds * 1000) : undefined;
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  const served = Date.parse(headers.get('date') ?? '');
  return Math.max(0, date - (Number.isNaN(served) ? now : served));
}

/**
 * The most of an error response's body the SDK reads and keeps, in decoded bytes (64 KiB),
 * whatever `maxResponseBytes` allows a success: a hundred calls failing at once against large
 * 5xx pages hold a few MiB, not a gigabyte. Past it the rest is not read and `bodyTruncated` is set.
 */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Whether an error means "rate limited": the class, which covers 429 and code `rate_limited`. */
export function isRateLimited(error: unknown): error is RateLimitedError {
  return error instanceof RateLimitedError;
}
