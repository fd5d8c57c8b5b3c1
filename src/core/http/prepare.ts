// Step "prepare the request" of a call: every option checked, every header and the URL built once,
// before the first attempt; what the attempts and the retry policy share.
import type * as z from 'zod/mini';
import { IDEMPOTENCY_KEY_PATTERN } from '../../rules/headers';
import { RequestValidationError } from '../errors/base';
import { type NumericOption, numericOptionProblem, signalProblem } from '../options';
import { own } from '../safety/own';
import { MAX_TIMER_MS } from '../timers';
import { callHeaders, pinnedHeaders, type SchemeHeaders } from './headers';
import type { RequestSpec, TransportConfig } from './spec';
import { uuidv4 } from './uuid';

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
  const options = spec.options === undefined ? undefined : own(spec.options);
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
