import ky, { type KyInstance } from 'ky';
import pRetry from 'p-retry';
import * as z from 'zod/mini';
import { IDEMPOTENCY_KEY_PATTERN, isSafeHeaderValue } from '../schemas/primitives';
import { ApiError, createApiError, RateLimitedError } from './api-error';
import { ApiPromise, type WithResponse } from './api-promise';
import {
  ConnectionError,
  MerchantGatewayError,
  RequestValidationError,
  ResponseValidationError,
  TimeoutError,
  type ValidationIssue,
} from './errors';
import type { LevelLogger } from './logger';
import { type NumericOption, numericOptionProblem } from './options';
import type { Redactor } from './redact';
import { retryDelay, sleep } from './retry';
import { uuidv4 } from './uuid';
import { toIssues } from './validate';

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

/** What the client hands its transport: resolved once, shared by every call. */
export interface TransportConfig {
  baseUrl: string;
  authHeaders: Record<string, string>;
  legacyAuthHeaders: Record<string, string>;
  headers: Record<string, string>;
  timeoutMs: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  fetch: typeof fetch | undefined;
  redactor: Redactor;
  logger: LevelLogger;
}

/** One call, as a resource describes it. */
export interface RequestSpec<S extends z.ZodMiniType, T> {
  /** Public method name, e.g. `merchants.create`: named in validation errors. */
  operation: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Encoded path from `path()`. */
  path: string;
  query?: URLSearchParams | undefined;
  body?: unknown;
  headers?: Record<string, string> | undefined;
  /** `legacy` sends the legacy key as X-Api-Key (the deprecated list). */
  auth?: 'partner' | 'legacy';
  /** `always`: a key is generated when the caller gives none. `optional`: sent only when given. */
  idempotency?: 'always' | 'optional';
  response: S;
  select: (body: z.output<S>) => T;
  options?: CreateRequestOptions | undefined;
  /**
   * For calls that can act only once without a key (a refund, a delete): once an attempt's outcome
   * is unknown (no response, a timeout or a 5xx), a later attempt's error this maps to a value
   * means the earlier attempt acted, so the call resolves with that value.
   */
  recoverAfterUnknownOutcome?: ((error: ApiError) => T | undefined) | undefined;
}

/** No response, a timeout or a 5xx: the service may or may not have acted. */
function isUnknownOutcome(error: unknown): boolean {
  if (error instanceof RateLimitedError) return false;
  if (error instanceof ApiError) return error.status >= 500;
  return error instanceof ConnectionError || error instanceof TimeoutError;
}

function checkHeaders(operation: string, headers: Record<string, string>): void {
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      issues.push({ field: 'headers', message: 'a header name is not a valid token' });
    } else if (typeof value !== 'string' || !isSafeHeaderValue(value)) {
      // The value is never quoted: it may be a key.
      issues.push({
        field: `headers.${name}`,
        message: 'must be printable ASCII (no CR, LF, other control or non-ASCII characters)',
      });
    }
  }
  if (issues.length > 0) throw new RequestValidationError(operation, issues);
}

/**
 * Later sources win, whatever the case of a name: fetch joins `api-key` and `Api-Key` into one
 * `a, b` value, so a custom header must replace the SDK's auth, Merchant-Id or Idempotency-Key
 * outright or not at all (the SDK's own come last).
 */
function mergeHeaders(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
  const byName = new Map<string, [string, string]>();
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {})) {
      byName.set(name.toLowerCase(), [name, value]);
    }
  }
  return Object.fromEntries(byName.values());
}

/** Reads the body, giving up the moment `signal` aborts (not every fetch cancels a body read). */
function readText(response: Response, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      response.body?.cancel().catch(() => {});
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    response
      .text()
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function numericOption(operation: string, name: NumericOption, value: number): number {
  const problem = numericOptionProblem(name, value);
  if (problem !== undefined)
    throw new RequestValidationError(operation, [{ field: name, message: problem }]);
  return value;
}

/**
 * Sends requests with ky, retries them with p-retry, and turns every outcome into either parsed
 * data or one of the SDK's errors. Knows nothing of resources.
 */
export class Transport {
  readonly config: TransportConfig;
  readonly #ky: KyInstance;

  constructor(config: TransportConfig) {
    this.config = config;
    // Retries, timeouts and error mapping are ours: ky only builds and sends the request.
    this.#ky = ky.create({
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      // Never follow a redirect: fetch would resend Api-Key (and a POST body) to whatever host
      // the Location names. A 3xx is an ApiError instead.
      redirect: 'manual',
      ...(config.fetch ? { fetch: config.fetch } : {}),
    });
  }

  /**
   * Runs `build` (which validates the caller's input) and sends what it describes. Every failure,
   * validation included, arrives as a rejection of the returned promise, never as a throw.
   */
  request<S extends z.ZodMiniType, T>(build: () => RequestSpec<S, T>): ApiPromise<T> {
    return new ApiPromise(Promise.resolve().then(() => this.#send(build())));
  }

  async #send<S extends z.ZodMiniType, T>(spec: RequestSpec<S, T>): Promise<WithResponse<T>> {
    const { config } = this;
    const { operation, method, options = {} } = spec;
    const timeoutMs = numericOption(operation, 'timeoutMs', options.timeoutMs ?? config.timeoutMs);
    const maxRetries = numericOption(
      operation,
      'maxRetries',
      options.maxRetries ?? config.maxRetries,
    );

    let idempotencyKey = options.idempotencyKey;
    if (idempotencyKey !== undefined) {
      if (spec.idempotency === undefined) {
        throw new RequestValidationError(operation, [
          { field: 'idempotencyKey', message: 'is only accepted by create calls' },
        ]);
      }
      if (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
        throw new RequestValidationError(operation, [
          { field: 'idempotencyKey', message: 'must be 1 to 255 visible ASCII characters' },
        ]);
      }
    } else if (spec.idempotency === 'always') {
      // Generated once per call, so every attempt carries the same key.
      idempotencyKey = uuidv4();
    }

    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const headers = mergeHeaders(
      { accept: 'application/json' },
      config.headers,
      options.headers,
      spec.headers,
      spec.auth === 'legacy' ? config.legacyAuthHeaders : config.authHeaders,
      idempotencyKey === undefined ? undefined : { 'Idempotency-Key': idempotencyKey },
      body === undefined ? undefined : { 'content-type': 'application/json' },
    );
    checkHeaders(operation, headers);

    const url = `${config.baseUrl}${spec.path}${spec.query?.size ? `?${spec.query}` : ''}`;
    const label = `${method} ${spec.path}`;
    // A POST without an idempotency key may have been acted on: only rate limiting retries it,
    // unless the call can tell from a retry's answer that an earlier attempt acted.
    const repeatable =
      method !== 'POST' ||
      idempotencyKey !== undefined ||
      spec.recoverAfterUnknownOutcome !== undefined;
    const signal = options.signal;
    let outcomeUnknown = false;

    const attempt = async (attemptNumber: number): Promise<WithResponse<T>> => {
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      const started = Date.now();
      if (config.logger.enabled('debug')) {
        config.logger.log('debug', `→ ${label} (attempt ${attemptNumber})`, {
          headers: config.redactor.headers(headers),
        });
      }
      try {
        const response = await this.#ky(url, {
          method,
          headers,
          signal: controller.signal,
          ...(body === undefined ? {} : { body }),
        });
        const text = await readText(response, controller.signal);
        if (config.logger.enabled('debug')) {
          config.logger.log('debug', `← ${label} ${response.status} in ${Date.now() - started} ms`);
        }
        if (!response.ok) {
          const error = createApiError({
            method,
            path: spec.path,
            status: response.status,
            headers: response.headers,
            text,
            redactor: config.redactor,
          });
          const recovered = outcomeUnknown ? spec.recoverAfterUnknownOutcome?.(error) : undefined;
          if (recovered !== undefined) return { data: recovered, response };
          throw error;
        }
        return this.#parse(spec, label, response, text);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (error instanceof MerchantGatewayError) throw error;
        if (timedOut) {
          throw new TimeoutError(`${label}: no complete response within ${timeoutMs} ms`);
        }
        // undici puts the reason (ECONNRESET, …) in the cause; others put a Response or nothing there.
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw new ConnectionError(
          `${label}: connection failed: ${config.redactor.string(reason)}`,
          { cause: config.redactor.error(error) },
        );
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    };

    try {
      return await pRetry(attempt, {
        retries: maxRetries,
        // p-retry's own wait stays zero: the wait is chosen per error (Retry-After or backoff)
        // and slept in shouldRetry, where the caller's signal can cut it short.
        minTimeout: 0,
        ...(signal ? { signal } : {}),
        shouldRetry: async ({ error, retriesConsumed }) => {
          outcomeUnknown ||= isUnknownOutcome(error);
          const wait = retryDelay(error, retriesConsumed + 1, repeatable, config.maxRetryDelayMs);
          if (wait === undefined) return false;
          // Every SDK error message already starts with the method and path.
          config.logger.log(
            'warn',
            `${error.message}; retry ${retriesConsumed + 1} of ${maxRetries} in ${wait} ms`,
          );
          await sleep(wait, signal);
          return true;
        },
      });
    } catch (error) {
      // p-retry wraps non-Error abort reasons; the caller gets exactly the reason it gave.
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
  }

  #parse<S extends z.ZodMiniType, T>(
    spec: RequestSpec<S, T>,
    label: string,
    response: Response,
    text: string,
  ): WithResponse<T> {
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const fail = (issues: ValidationIssue[], body: unknown) =>
      new ResponseValidationError(label, {
        issues,
        body: this.config.redactor.value(body),
        status: response.status,
        requestId,
      });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw fail(
        [{ field: '', message: text === '' ? 'body is empty' : 'body is not JSON' }],
        text,
      );
    }
    const result = z.safeParse(spec.response, json);
    if (!result.success) throw fail(toIssues(result.error), json);
    const data = spec.select(result.data);
    return requestId === undefined ? { data, response } : { data, response, requestId };
  }
}
