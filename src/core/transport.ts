import type { AfterResponseHook, BeforeRequestHook, Options } from 'ky';
import pRetry from 'p-retry';
import * as z from 'zod/mini';
import { IDEMPOTENCY_KEY_PATTERN, isSafeHeaderValue } from '../rules/headers';
import { ApiError, createApiError, MAX_ERROR_BODY_BYTES, RateLimitedError } from './api-error';
import { ApiPromise, type WithResponse } from './api-promise';
import {
  ConnectionError,
  MerchantGatewayError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  type ValidationIssue,
} from './errors';
import { loadKy } from './ky';
import type { LevelLogger } from './logger';
import { type NumericOption, numericOptionProblem, signalProblem } from './options';
import { own } from './own';
import { MAX_VALUE_DEPTH, type Redactor } from './redact';
import { markPermanent, onAbort, retryDelay, sleep } from './retry';
import type { AttemptScope, CallScope, TelemetryHandle } from './telemetry';
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
  /** Spans and metrics; undefined (the default) costs nothing. */
  telemetry?: TelemetryHandle | undefined;
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
  /** Added to the attempt timeout: a held (long-polling) read may rightly take this long. */
  extraTimeoutMs?: number | undefined;
  /** A POST that changes nothing (a quote, a build): retried after an unknown outcome like a GET. */
  readOnly?: boolean | undefined;
}

/** Headers only the SDK sets: a custom header or a hook never changes them. */
const SDK_OWNED = ['api-key', 'x-api-key', 'app-id', 'client-id', 'merchant-id', 'idempotency-key'];

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
    // Object.entries reads own properties only: nothing inherited becomes a header.
    for (const [name, value] of Object.entries(source ?? {})) {
      byName.set(name.toLowerCase(), [name, value]);
    }
  }
  return Object.fromEntries(byName.values());
}

/** `headers` with lowercase names (the form fetch sends them in), later sources winning. */
function lowercased(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {})) out[name.toLowerCase()] = value;
  }
  return out;
}

/** What every call of one auth scheme starts from, merged and checked once per client. */
interface SchemeHeaders {
  /** `accept`, the client's headers, then the scheme's auth: lowercase name → value. */
  base: Record<string, string>;
  /** The auth headers' lowercase names: a call's own headers never replace them. */
  auth: ReadonlySet<string>;
  /** False when the client's headers break a rule: every call then takes the full check, which names it. */
  clean: boolean;
}

function schemeHeaders(config: TransportConfig, auth: Record<string, string>): SchemeHeaders {
  let clean = true;
  try {
    checkHeaders('', mergeHeaders(config.headers, auth));
  } catch {
    clean = false;
  }
  return {
    base: lowercased({ accept: 'application/json' }, config.headers, auth),
    auth: new Set(Object.keys(auth).map((name) => name.toLowerCase())),
    clean,
  };
}

/**
 * ky reads options a call does not give through the prototype chain of objects it builds itself, so
 * plain data on a polluted `Object.prototype` would reach every request (`headers`, `searchParams`,
 * `json`, `body`, …). Every option ky or the Request it builds reads is given here as an own value.
 */
const OWN_KY_OPTIONS = {
  json: undefined,
  // An empty query, not undefined: ky drops an undefined `searchParams` from what it merges.
  searchParams: '',
  // null, not undefined (dropped likewise): ky then falls back to the target's `signal`, below.
  signal: null,
  parseJson: undefined,
  stringifyJson: undefined,
  onDownloadProgress: undefined,
  onUploadProgress: undefined,
  // p-retry keeps the contract's policy (rate limiting under any status, only safe repeats).
  retry: 0,
  // ky's timeout does not cover reading the body: the attempt's own timer does.
  timeout: false,
  totalTimeout: false,
  // Error statuses are mapped by the SDK, from a body it reads within its own size limit.
  throwHttpErrors: false,
  // What the Request constructor reads besides method, headers, body and signal.
  mode: undefined,
  credentials: undefined,
  cache: undefined,
  redirect: undefined,
  referrer: undefined,
  referrerPolicy: undefined,
  integrity: undefined,
  keepalive: undefined,
  window: undefined,
  priority: undefined,
  dispatcher: undefined,
} as const;

/**
 * Every name ky, or the Request it builds, reads off its options or off objects it builds (hook
 * kinds included). While none of them is on `Object.prototype` (every process that is not
 * polluted), a call hands ky only the options it sets: ky's merge copies its options object once
 * per key, so the full own set above costs a GET about a tenth of its time.
 */
const KY_READS = [
  ...Object.keys(OWN_KY_OPTIONS),
  'method',
  'headers',
  'body',
  'hooks',
  'context',
  'fetch',
  'prefix',
  'prefixUrl',
  'baseUrl',
  'duplex',
  'init',
  'beforeRequest',
  'beforeRetry',
  'beforeError',
  'afterResponse',
];

/** True while nothing ky reads is inherited from `Object.prototype`: checked on every attempt. */
function kyReadsAreClean(): boolean {
  for (const name of KY_READS) if (Object.hasOwn(Object.prototype, name)) return false;
  return true;
}

/** The options of OWN_KY_OPTIONS whose value differs from ky's default for a missing one. */
const KY_CALL_DEFAULTS = { retry: 0, timeout: false, throwHttpErrors: false } as const;

/**
 * The URL of a call under pollution. ky reads `headers`, `signal` and `method` off its input when
 * the options lack them, and off a string that reaches `Object.prototype`: here they are the
 * target's own (none). In a clean process the URL string does the same, without a second parse.
 */
class Target extends URL {
  get headers(): undefined {
    return undefined;
  }
  get signal(): undefined {
    return undefined;
  }
  get method(): undefined {
    return undefined;
  }
}

/** A body read: its text, and whether it was cut at the size limit. */
interface Body {
  text: string;
  cut: boolean;
}

/** How an attempt's abort reaches the body being read: `cancel` is set while a reader is open. */
interface BodyAbort {
  cancel: ((reason: unknown) => void) | undefined;
}

/**
 * Reads the body through a reader of our own, so an abort cancels the stream itself (`text()`
 * would lock it and keep buffering after a timeout: nodejs/node#55428, nodejs/undici#3644), and
 * stops at `maxBytes` of decoded bytes, cancelling the rest. The attempt's abort calls
 * `onAbort.cancel` directly: no listener is added to and removed from the signal on every call.
 */
async function readBody(
  response: Response,
  signal: AbortSignal,
  maxBytes: number,
  onAbort: BodyAbort,
): Promise<Body> {
  const body = response.body;
  if (body === null) return { text: '', cut: false };
  const reader = body.getReader();
  const cancel = (reason: unknown) => {
    reader.cancel(reason).catch(() => {});
  };
  if (signal.aborted) cancel(signal.reason);
  else onAbort.cancel = cancel;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // A cancelled read ends as if the body were complete: the signal says it was not.
      signal.throwIfAborted();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) {
        chunks.push(value.subarray(0, value.byteLength - (bytes - maxBytes)));
        reader.cancel().catch(() => {});
        return { text: decode(chunks), cut: true };
      }
      chunks.push(value);
    }
  } finally {
    onAbort.cancel = undefined;
  }
  return { text: decode(chunks), cut: false };
}

/** One decoder for every body: a whole-input decode keeps no state between calls. */
const UTF8 = new TextDecoder();

/** The bytes as UTF-8 text (a body is decoded once it is whole, not chunk by chunk). */
function decode(chunks: Uint8Array[]): string {
  if (chunks.length === 1) return UTF8.decode(chunks[0]);
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return UTF8.decode(all);
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
  /**
   * The user's hooks as ky takes them: every kind given, an unused one as undefined (ky reads that
   * as none). Replacing, not merged: ky merges into a `{}` of its own, where a polluted
   * `Object.prototype.hooks` would otherwise add hooks to every request.
   */
  readonly #hookSet: Record<string, readonly unknown[] | undefined>;
  /** `#hookSet` marked for ky as replacing, made with the first request (ky may load then). */
  #hooks: NonNullable<Options['hooks']> | undefined;
  /** With a beforeRequest hook, the SDK's own headers are set again after it. */
  readonly #pin: boolean;
  /**
   * Whether the user gave any hook. Without, a clean process hands ky no `hooks` (ky's own are
   * empty); under pollution the replacing empty set is always given.
   */
  readonly #hooked: boolean;
  readonly #partner: SchemeHeaders;
  readonly #legacy: SchemeHeaders;

  constructor(config: TransportConfig) {
    this.config = config;
    const hooks = own(config.hooks);
    const beforeRequest = [...(hooks.beforeRequest ?? [])];
    const afterResponse = [...(hooks.afterResponse ?? [])];
    this.#pin = beforeRequest.length > 0;
    this.#hooked = this.#pin || afterResponse.length > 0;
    this.#hookSet = {
      init: undefined,
      beforeRequest: beforeRequest.length > 0 ? beforeRequest : undefined,
      beforeRetry: undefined,
      beforeError: undefined,
      afterResponse: afterResponse.length > 0 ? afterResponse : undefined,
    };
    this.#partner = schemeHeaders(config, config.authHeaders);
    this.#legacy = schemeHeaders(config, config.legacyAuthHeaders);
  }

  /**
   * The headers a call sends (lowercase names), checked. Without headers of the call's own and
   * with clean client headers, only what changes per call is merged and checked.
   */
  #headers(
    spec: RequestSpec<z.ZodMiniType, unknown>,
    callHeaders: Record<string, string> | undefined,
    idempotencyKey: string | undefined,
  ): Record<string, string> {
    const { config } = this;
    const { operation } = spec;
    const scheme = spec.auth === 'legacy' ? this.#legacy : this.#partner;
    let headers: Record<string, string>;
    if (callHeaders === undefined && scheme.clean) {
      headers = { ...scheme.base };
      if (spec.headers !== undefined) {
        checkHeaders(operation, spec.headers);
        for (const [name, value] of Object.entries(spec.headers)) {
          const lower = name.toLowerCase();
          if (!scheme.auth.has(lower)) headers[lower] = value;
        }
      }
    } else {
      const sent = mergeHeaders(
        config.headers,
        callHeaders,
        spec.headers,
        spec.auth === 'legacy' ? config.legacyAuthHeaders : config.authHeaders,
        idempotencyKey === undefined ? undefined : { 'Idempotency-Key': idempotencyKey },
        spec.body === undefined ? undefined : { 'content-type': 'application/json' },
      );
      checkHeaders(operation, sent);
      return lowercased({ accept: 'application/json' }, sent);
    }
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    return headers;
  }

  /**
   * Runs `build` (which validates the caller's input) and sends what it describes. Every failure,
   * validation included, arrives as a rejection of the returned promise, never as a throw.
   */
  request<S extends z.ZodMiniType, T>(build: () => RequestSpec<S, T>): ApiPromise<T> {
    // Own properties only: a spec leaves out what a call does not use (`headers`, `body`, `query`),
    // and a polluted Object.prototype must not fill those in.
    return new ApiPromise(this.#run(build));
  }

  /** `build` runs at once (it reads the caller's input as it is now); a throw is a rejection. */
  async #run<S extends z.ZodMiniType, T>(build: () => RequestSpec<S, T>): Promise<WithResponse<T>> {
    try {
      const spec = own(build()) as RequestSpec<S, T>;
      // telemetry: the call's span (its attempts under it) and metrics, when the option is on.
      const telemetry = this.config.telemetry;
      return await (telemetry === undefined
        ? this.#send(spec)
        : telemetry.call(spec, (scope) => this.#send(spec, scope)));
    } catch (error) {
      // Every error of the SDK, whatever its class, is scrubbed the same way on its way out;
      // anything else (a caller's abort reason) is passed on untouched.
      throw error instanceof MerchantGatewayError ? this.config.redactor.scrub(error) : error;
    }
  }

  async #send<S extends z.ZodMiniType, T>(
    spec: RequestSpec<S, T>,
    scope?: CallScope,
  ): Promise<WithResponse<T>> {
    const { config } = this;
    const { operation, method } = spec;
    // Own properties only: a polluted Object.prototype must not change what is sent. Without
    // options the client's timeout and retries hold, checked when the client was made.
    const options = spec.options === undefined ? undefined : own(spec.options);
    const badSignal = signalProblem(options?.signal);
    if (badSignal !== undefined) {
      throw new RequestValidationError(operation, [{ field: 'signal', message: badSignal }]);
    }
    // Past 2^31 - 1 ms setTimeout fires at once: a huge maxPollMs must not time out at once.
    const timeoutMs = Math.min(
      (options?.timeoutMs === undefined
        ? config.timeoutMs
        : numericOption(operation, 'timeoutMs', options.timeoutMs)) + (spec.extraTimeoutMs ?? 0),
      2_147_483_647,
    );
    const maxRetries =
      options?.maxRetries === undefined
        ? config.maxRetries
        : numericOption(operation, 'maxRetries', options.maxRetries);

    let idempotencyKey = options?.idempotencyKey;
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

    const headers = this.#headers(spec, options?.headers, idempotencyKey);
    // The SDK's own headers as this call sends them: set again after every beforeRequest hook.
    const pinned = this.#pin
      ? SDK_OWNED.flatMap((name): [string, string][] => {
          // Own names only: an inherited `merchant-id` is no header of this call.
          const value = Object.hasOwn(headers, name) ? headers[name] : undefined;
          return value === undefined ? [] : [[name, value]];
        })
      : undefined;
    const bodyText = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    // The whole URL, query included: ky then joins no prefix and merges no query.
    const url = `${config.baseUrl}${spec.path}${spec.query?.size ? `?${spec.query}` : ''}`;

    const label = `${method} ${spec.path}`;
    // A POST without an idempotency key may have been acted on: only rate limiting retries it,
    // unless the call can tell from a retry's answer that an earlier attempt acted.
    const repeatable =
      method !== 'POST' ||
      spec.readOnly === true ||
      idempotencyKey !== undefined ||
      spec.recoverAfterUnknownOutcome !== undefined;
    const signal = options?.signal;
    let outcomeUnknown = false;
    const send = config.fetch ?? globalThis.fetch;

    const run = async (attemptNumber: number, trace?: AttemptScope): Promise<WithResponse<T>> => {
      const controller = new AbortController();
      let timedOut = false;
      const bodyAbort: BodyAbort = { cancel: undefined };
      const stop = (reason?: unknown) => {
        controller.abort(reason);
        bodyAbort.cancel?.(controller.signal.reason);
      };
      // One listener per signal however many calls share it (see onAbort).
      const off = signal ? onAbort(signal, () => stop(signal.reason)) : undefined;
      const timer = setTimeout(() => {
        timedOut = true;
        stop();
      }, timeoutMs);
      const started = Date.now();
      try {
        // Under pollution every option ky reads is given as an own value; otherwise only what
        // differs from ky's defaults, to the same effect (see KY_READS).
        const clean = kyReadsAreClean();
        const parts = loadKy();
        const { ky, replaceOption } = parts instanceof Promise ? await parts : parts;
        this.#hooks ??= replaceOption(this.#hookSet) as unknown as NonNullable<Options['hooks']>;
        const response = await ky(clean ? url : new Target(url), {
          ...((clean ? KY_CALL_DEFAULTS : OWN_KY_OPTIONS) as unknown as Options),
          method,
          // Replacing, not merged: ky merges into a `{}` of its own, where a polluted
          // `Object.prototype.headers` would otherwise add headers to every request.
          headers: replaceOption(headers),
          // Hooks see the body that is sent; fetch gets the string itself, not a stream copy.
          body: bodyText ?? null,
          // In a clean process without hooks of the user's, ky's own empty set; `context` is
          // what the hooks read.
          ...(this.#hooked || !clean
            ? { hooks: this.#hooks, context: { attempt: attemptNumber } }
            : {}),
          // The attempt's own signal goes straight to fetch with the URL, never inside a Request:
          // a Request's signal can be lost to GC and leave the body downloading (nodejs/node#55428).
          fetch: (input) => {
            const request = input as Request;
            const sent = request.headers;
            if (pinned !== undefined) {
              for (const name of SDK_OWNED) sent.delete(name);
              for (const [name, value] of pinned) sent.set(name, value);
            }
            // telemetry: `traceparent` of the attempt's span, unless a hook or the call set one.
            trace?.inject(sent);
            if (config.logger.enabled('debug')) {
              config.logger.log('debug', `→ ${label} (attempt ${attemptNumber})`, {
                headers: config.redactor.headers(sent),
              });
            }
            // A null prototype: fetch reads nothing inherited into the request.
            const init: RequestInit = Object.create(null);
            init.method = request.method;
            init.headers = sent;
            if (bodyText !== undefined) init.body = bodyText;
            // Never follow a redirect: fetch would resend Api-Key (and a POST body) to whatever
            // host the Location names. A 3xx is an ApiError instead.
            init.redirect = 'manual';
            init.signal = controller.signal;
            return send(request.url, init);
          },
        });
        // An error's body is kept on the error: read no more of it than the error may keep.
        const limit = response.ok
          ? config.maxResponseBytes
          : Math.min(config.maxResponseBytes, MAX_ERROR_BODY_BYTES);
        const body = await readBody(response, controller.signal, limit, bodyAbort);
        if (config.logger.enabled('debug')) {
          config.logger.log('debug', `← ${label} ${response.status} in ${Date.now() - started} ms`);
        }
        if (!response.ok) {
          const error = createApiError({
            method,
            path: spec.path,
            status: response.status,
            headers: response.headers,
            text: body.text,
            cut: body.cut,
            redactor: config.redactor,
          });
          const recovered = outcomeUnknown ? spec.recoverAfterUnknownOutcome?.(error) : undefined;
          if (recovered !== undefined) return { data: recovered, response };
          throw error;
        }
        if (body.cut) {
          throw new ResponseTooLargeError(label, {
            status: response.status,
            maxBytes: config.maxResponseBytes,
            requestId: response.headers.get('x-request-id') ?? undefined,
          });
        }
        return this.#parse(spec, label, response, body.text, idempotencyKey);
      } catch (error) {
        // Nothing more of a failed attempt is read or kept open.
        controller.abort();
        if (signal?.aborted) throw signal.reason;
        if (error instanceof MerchantGatewayError) throw error;
        if (timedOut) {
          throw new TimeoutError(`${label}: no complete response within ${timeoutMs} ms`);
        }
        const { reason, permanent } = diagnose(error);
        const failure = new ConnectionError(
          `${label}: connection failed: ${config.redactor.string(reason)}`,
          { cause: config.redactor.error(error) },
        );
        throw permanent ? markPermanent(failure) : failure;
      } finally {
        clearTimeout(timer);
        off?.();
      }
    };
    // telemetry: each attempt under a CLIENT span of its own, measured.
    const attempt = scope === undefined ? run : (n: number) => scope.attempt(n, run);

    try {
      // The first attempt runs outside p-retry: a call that succeeds at once (most of them) pays
      // for no retry machinery. A failure enters p-retry as its first attempt, so the policy and
      // every check that follows are the same as if p-retry had run it.
      signal?.throwIfAborted();
      let first: unknown;
      try {
        const result = await attempt(1);
        signal?.throwIfAborted();
        return result;
      } catch (error) {
        first = error;
      }
      return await pRetry((n) => (n === 1 ? Promise.reject(first) : attempt(n)), {
        retries: maxRetries,
        // p-retry's own wait stays zero: the wait is chosen per error (Retry-After or backoff)
        // and slept in shouldRetry, where the caller's signal can cut it short.
        minTimeout: 0,
        // Every option p-retry reads, given: it reads a missing one through Object.prototype.
        factor: 2,
        maxTimeout: Number.POSITIVE_INFINITY,
        maxRetryTime: Number.POSITIVE_INFINITY,
        randomize: false,
        unref: false,
        onFailedAttempt: () => {},
        shouldConsumeRetry: () => true,
        signal: signal ?? (null as unknown as undefined),
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
      // The key lets the caller repeat the call later and get the original result.
      if (error instanceof MerchantGatewayError && idempotencyKey !== undefined) {
        (error as { idempotencyKey?: string }).idempotencyKey = idempotencyKey;
      }
      throw error;
    }
  }

  #parse<S extends z.ZodMiniType, T>(
    spec: RequestSpec<S, T>,
    label: string,
    response: Response,
    text: string,
    idempotencyKey: string | undefined,
  ): WithResponse<T> {
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const fail = (issues: ValidationIssue[], body: unknown) =>
      new ResponseValidationError(label, {
        issues,
        body: this.config.redactor.value(body, MAX_VALUE_DEPTH),
        status: response.status,
        requestId,
        changesState: spec.method !== 'GET' && spec.readOnly !== true,
        idempotencyKey,
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
