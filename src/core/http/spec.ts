import type { AfterResponseHook, BeforeRequestHook } from 'ky';
import type * as z from 'zod/mini';
import type { ApiError } from '../errors/api-error';
import type { AuthSources } from '../errors/failure';
import type { LevelLogger } from '../logger';
import type { Redactor } from '../safety/redact';
import type { TelemetryHandle } from '../telemetry/option';

/** Per-call options, the last argument of every method. */
export interface RequestOptions {
  /** Aborts the call at once, also during a retry wait; the call rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Per-attempt timeout in milliseconds, including reading the body. Overrides the client's. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt. Overrides the client's. */
  maxRetries?: number | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
}

/** Options of the calls that create something: an idempotency key of your own may be given. */
export interface CreateRequestOptions extends RequestOptions {
  /**
   * 1 to 255 visible ASCII characters. Reuse the same key when you repeat a logical operation
   * (e.g. after a crash) and the service returns the original result instead of acting twice.
   */
  idempotencyKey?: string | undefined;
}

/**
 * ky's hooks, run on every attempt (retries included). A `beforeRequest` hook may add headers
 * (e.g. `traceparent`); the SDK's auth, `Merchant-Id` and `Idempotency-Key` are set again after it.
 * `state.options.context.attempt` is the attempt's number, from 1.
 *
 * @example
 * ```ts
 * const hooks: RequestHooks = {
 *   beforeRequest: [({ request }) => { request.headers.set('traceparent', traceparent()); }],
 *   afterResponse: [({ response }) => { metrics.count(response.status); }],
 * };
 * ```
 */
export interface RequestHooks {
  /** Called with the request about to be sent; may change its headers (not the SDK's own). */
  beforeRequest?: BeforeRequestHook[] | undefined;
  /** Called with each response (a clone of it), errors included, before the SDK reads it. */
  afterResponse?: AfterResponseHook[] | undefined;
}

/** What the client hands its transport: resolved once, shared by every call. */
export interface TransportConfig {
  baseUrl: string;
  authHeaders: Record<string, string>;
  legacyAuthHeaders: Record<string, string>;
  headers: Record<string, string>;
  timeoutMs: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  /** Longest body read, in decoded bytes. */
  maxResponseBytes: number;
  fetch: typeof fetch | undefined;
  hooks?: RequestHooks | undefined;
  redactor: Redactor;
  logger: LevelLogger;
  /**
   * Where the client's keys came from, for what a 401's message tells the caller to check per
   * auth scheme: the setting's name (and its environment variable), never its value.
   */
  authSources?: AuthSources | undefined;
  /** Spans and metrics; undefined (the default) costs nothing. */
  telemetry?: TelemetryHandle | undefined;
}

/** One call, as a resource describes it. */
export interface RequestSpec<S extends z.ZodMiniType, T> {
  /** Public method name, e.g. `merchants.create`: named in validation errors. */
  operation: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Encoded path: a literal without parameters, or spread from `path()` with the two below. */
  path: string;
  /** The template `path()` built `path` from (`/v1/payments/{paymentId}`); else `path` is its own. */
  template?: string | undefined;
  /** The payment the path names, from `path()`: telemetry's `merchant_gateway.payment.id`. */
  paymentId?: string | undefined;
  query?: URLSearchParams | undefined;
  body?: unknown;
  headers?: Record<string, string> | undefined;
  /** `legacy` sends the legacy key as X-Api-Key (the deprecated list). */
  auth?: 'partner' | 'legacy';
  /** `always`: a key is generated when the caller gives none. `optional`: sent only when given. */
  idempotency?: 'always' | 'optional';
  response: S;
  /** The result, from the parsed body; without it, the body itself, with `adds` when given. */
  select?: ((body: z.output<S>) => T) | undefined;
  /**
   * Fields the SDK adds to the parsed body (the merchant a payment was created for): data, not a
   * callback, so the transport never calls back into the resource.
   */
  adds?: Partial<T> | undefined;
  options?: CreateRequestOptions | undefined;
  /**
   * For calls that can act only once without a key (a refund, a delete): once an attempt's outcome
   * is unknown (no response, a timeout or a 5xx), a later attempt's error this maps to a value
   * means the earlier attempt acted, so the call resolves with that value.
   */
  recoverAfterUnknownOutcome?: ((error: ApiError) => T | undefined) | undefined;
  /** Added to the attempt timeout: a held (long-polling) read may rightly take this long. */
  extraTimeoutMs?: number | undefined;
  /** A POST that changes nothing (a quote, a build): retried after an unknown outcome like a GET. */
  readOnly?: boolean | undefined;
}
