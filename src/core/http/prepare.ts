// Step "prepare the request" of a call: every option checked (the rules a client's options share
// too), the idempotency key, every header and the URL built once, before the first attempt; what
// the attempts and the retry policy share.
import type * as z from 'zod/mini';
import { IDEMPOTENCY_KEY_PATTERN, SAFE_HEADER_VALUE } from '../../rules/headers';
import { RequestValidationError, type ValidationIssue } from '../errors/base';
import { ownProperties } from '../safety/own-properties';
import { MAX_TIMER_MS } from '../timers';
import type { RequestSpec, TransportConfig } from './spec';

/** One call, ready to send: what every attempt of it sends, and how it may be retried. */
export interface PreparedCall<S extends z.ZodMiniType, T> {
  spec: RequestSpec<S, T>;
  /** `GET /v1/…`: how messages and logs name the call. */
  label: string;
  /** The whole URL, query included: ky then joins no prefix and merges no query. */
  url: string;
  /** Lowercase name → value, checked. */
  headers: Record<string, string>;
  /** The SDK's own headers, set again after the user's beforeRequest hooks (when there are some). */
  pinned: [string, string][] | undefined;
  bodyText: string | undefined;
  /** Per attempt, capped where setTimeout still works. */
  timeoutMs: number;
  maxRetries: number;
  idempotencyKey: string | undefined;
  /**
   * A POST without an idempotency key may have been acted on: only rate limiting retries it,
   * unless the call can tell from a retry's answer that an earlier attempt acted.
   */
  repeatable: boolean;
  signal: AbortSignal | undefined;
  /** Set once an attempt ended with no response, a timeout or a 5xx. */
  outcomeUnknown: boolean;
  /** Attempts started so far. */
  attempts: number;
}

function numericOption(operation: string, name: NumericOption, value: number): number {
  const problem = numericOptionProblem(name, value);
  if (problem !== undefined)
    throw new RequestValidationError(operation, [{ field: name, message: problem }]);
  return value;
}

function checkedKey(
  operation: string,
  idempotency: RequestSpec<z.ZodMiniType, unknown>['idempotency'],
  given: string | undefined,
): string | undefined {
  if (given === undefined) {
    // Generated once per call, so every attempt carries the same key.
    return idempotency === 'always' ? uuidv4() : undefined;
  }
  if (idempotency === undefined) {
    throw new RequestValidationError(operation, [
      { field: 'idempotencyKey', message: 'is only accepted by create calls' },
    ]);
  }
  if (typeof given !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(given)) {
    throw new RequestValidationError(operation, [
      { field: 'idempotencyKey', message: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  return given;
}

/** Checks a call's options and builds what it sends; throws a RequestValidationError, sending nothing. */
export function prepare<S extends z.ZodMiniType, T>(
  spec: RequestSpec<S, T>,
  config: TransportConfig,
  scheme: SchemeHeaders,
  pin: boolean,
): PreparedCall<S, T> {
  const { operation, method } = spec;
  // Own properties only: a polluted Object.prototype must not change what is sent. Without
  // options the client's timeout and retries hold, checked when the client was made.
  const options = spec.options === undefined ? undefined : ownProperties(spec.options);
  const badSignal = signalProblem(options?.signal);
  if (badSignal !== undefined) {
    throw new RequestValidationError(operation, [{ field: 'signal', message: badSignal }]);
  }
  const timeoutMs = Math.min(
    (options?.timeoutMs === undefined
      ? config.timeoutMs
      : numericOption(operation, 'timeoutMs', options.timeoutMs)) + (spec.extraTimeoutMs ?? 0),
    MAX_TIMER_MS,
  );
  const maxRetries =
    options?.maxRetries === undefined
      ? config.maxRetries
      : numericOption(operation, 'maxRetries', options.maxRetries);
  const idempotencyKey = checkedKey(operation, spec.idempotency, options?.idempotencyKey);
  const headers = callHeaders(config, scheme, spec, options?.headers, idempotencyKey);
  return {
    spec,
    label: `${method} ${spec.path}`,
    url: `${config.baseUrl}${spec.path}${spec.query?.size ? `?${spec.query}` : ''}`,
    headers,
    pinned: pin ? pinnedHeaders(headers) : undefined,
    bodyText: spec.body === undefined ? undefined : JSON.stringify(spec.body),
    timeoutMs,
    maxRetries,
    idempotencyKey,
    repeatable:
      method !== 'POST' ||
      spec.readOnly === true ||
      idempotencyKey !== undefined ||
      spec.recoverAfterUnknownOutcome !== undefined,
    signal: options?.signal,
    outcomeUnknown: false,
    attempts: 0,
  };
}

/**
 * Why a call's `signal` cannot be used, or undefined when it can (absent, or an AbortSignal). A
 * look-alike object would be read as aborted with an `undefined` reason, or never abort at all.
 */
export function signalProblem(signal: unknown): string | undefined {
  if (signal === undefined) return undefined;
  return typeof AbortSignal === 'function' && signal instanceof AbortSignal
    ? undefined
    : 'must be an AbortSignal (e.g. AbortSignal.timeout(5000) or an AbortController().signal)';
}

/** The numeric options a client sets and a call may override. */
export type NumericOption = 'timeoutMs' | 'maxRetries' | 'maxRetryDelayMs';

/**
 * Why a numeric option's value is not allowed, or undefined when it is. The client's constructor
 * and every call check the same rule; each throws its own error class.
 */
export function numericOptionProblem(name: NumericOption, value: number): string | undefined {
  if (name === 'maxRetries') {
    return Number.isInteger(value) && value >= 0 ? undefined : 'must be a non-negative integer';
  }
  if (name === 'maxRetryDelayMs') {
    return Number.isFinite(value) && value >= 0 ? undefined : 'must be a non-negative number';
  }
  return Number.isFinite(value) && value >= 1 ? undefined : 'must be at least 1 (milliseconds)';
}

/** Headers only the SDK sets: a custom header or a hook never changes them. */
export const SDK_OWNED = [
  'api-key',
  'x-api-key',
  'app-id',
  'client-id',
  'merchant-id',
  'idempotency-key',
];

export function checkHeaders(operation: string, headers: Record<string, string>): void {
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      issues.push({ field: 'headers', message: 'a header name is not a valid token' });
    } else if (typeof value !== 'string' || !SAFE_HEADER_VALUE.test(value)) {
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
export interface SchemeHeaders {
  /** `accept`, the client's headers, then the scheme's auth: lowercase name → value. */
  base: Record<string, string>;
  /** The auth headers' lowercase names: a call's own headers never replace them. */
  auth: ReadonlySet<string>;
  /** False when the client's headers break a rule: every call then takes the full check, which names it. */
  clean: boolean;
}

export function schemeHeaders(
  config: TransportConfig,
  auth: Record<string, string>,
): SchemeHeaders {
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
 * The headers a call sends (lowercase names), checked. Without headers of the call's own and
 * with clean client headers, only what changes per call is merged and checked.
 */
export function callHeaders(
  config: TransportConfig,
  scheme: SchemeHeaders,
  spec: Pick<RequestSpec<z.ZodMiniType, unknown>, 'operation' | 'headers' | 'auth' | 'body'>,
  headersOfCall: Record<string, string> | undefined,
  idempotencyKey: string | undefined,
): Record<string, string> {
  const { operation } = spec;
  let headers: Record<string, string>;
  if (headersOfCall === undefined && scheme.clean) {
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
      headersOfCall,
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

/** The SDK's own headers as a call sends them: set again after every beforeRequest hook. */
export function pinnedHeaders(headers: Record<string, string>): [string, string][] {
  return SDK_OWNED.flatMap((name): [string, string][] => {
    // Own names only: an inherited `merchant-id` is no header of this call.
    const value = Object.hasOwn(headers, name) ? headers[name] : undefined;
    return value === undefined ? [] : [[name, value]];
  });
}

/** A random UUID v4: `crypto.randomUUID` where present (it is not in insecure browser contexts). */
export function uuidv4(): string {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
