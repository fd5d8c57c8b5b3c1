// The retry policy, in one place: which failure may be repeated and after how long (`retryDelay`),
// and the retries of one call (`retryCall`): the first decision here, the attempts after it
// through p-retry, which loads (`import()`) at the first retry a process needs.
import type * as z from 'zod/mini';
import type { WithResponse } from '../api-promise';
import { ApiError, RateLimitedError } from '../errors/api-error';
import { ConnectionError } from '../errors/base';
import { isPermanent, isUnknownOutcome } from '../errors/failure';
import { sleep } from '../timers';
import type { PreparedCall } from './prepare';
import type { TransportConfig } from './spec';

const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** Spread added on top of a service-requested wait: a fifth of it, at least this much. */
const MIN_RETRY_AFTER_SPREAD_MS = 250;

/** Exponential backoff with jitter: about 0.5 s, 1 s, 2 s, … capped at 8 s, each shortened by up to 25 %. */
export function backoffMs(retry: number): number {
  const base = Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** (retry - 1));
  return Math.round(base * (1 - Math.random() * 0.25));
}

/**
 * How long to wait before retrying after `error`, or undefined when it must not be retried.
 * Rate limiting is always retried (the service did not act); connection failures, timeouts and
 * 5xx only when repeating the request is safe (`repeatable`). A requested wait longer than
 * `maxDelayMs` is not slept: the error is thrown at once with its `retryAfterMs`. A wait the
 * service asked for gets jitter on top (never below it, never past `maxDelayMs`), so clients told
 * the same HTTP date do not all come back in the same millisecond.
 */
export function retryDelay(
  error: unknown,
  retry: number,
  repeatable: boolean,
  maxDelayMs: number,
): number | undefined {
  if (error instanceof RateLimitedError) {
    const asked = error.retryAfterMs;
    if (asked === undefined) return backoffMs(retry);
    if (asked > maxDelayMs) return undefined;
    const spread = Math.max(MIN_RETRY_AFTER_SPREAD_MS, asked * 0.2);
    return Math.min(maxDelayMs, Math.ceil(asked + Math.random() * spread));
  }
  if (!repeatable) return undefined;
  if (error instanceof ConnectionError) return isPermanent(error) ? undefined : backoffMs(retry);
  if (error instanceof ApiError && error.status >= 500) return backoffMs(retry);
  return undefined;
}

type PRetry = typeof import('p-retry');

let loading: Promise<PRetry> | undefined;

/**
 * p-retry, loaded at the first retry of the process and kept: a call that succeeds at once, or
 * fails with nothing to retry, never loads it. A failed load is forgotten, so a later retry tries
 * again.
 */
export function loadRetries(): Promise<PRetry> {
  loading ??= import('p-retry');
  return loading.catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
}

/**
 * Whether `error`, the failure of retry number `retry` - 1's attempt, is retried: records an
 * unknown outcome, asks the policy, logs the retry and sleeps its wait (the caller's signal cuts
 * it short). Undefined when it is not retried; else the sleep.
 */
function decide<S extends z.ZodMiniType, T>(
  call: PreparedCall<S, T>,
  error: Error,
  retry: number,
  config: TransportConfig,
): Promise<void> | undefined {
  call.outcomeUnknown ||= isUnknownOutcome(error);
  const wait = retryDelay(error, retry, call.repeatable, config.maxRetryDelayMs);
  if (wait === undefined) return undefined;
  // Every SDK error message already starts with the method and path.
  config.logger.log('warn', `${error.message}; retry ${retry} of ${call.maxRetries} in ${wait} ms`);
  return sleep(wait, call.signal);
}

/**
 * Step "decide a retry": after a call's first attempt failed with `first`, the attempts its
 * `maxRetries` and the policy allow. The first decision is taken here, without p-retry: a failure
 * the policy does not retry (or `maxRetries: 0`) is thrown as it is and p-retry never loads. A
 * retry starts loading p-retry at once, before its wait, and the attempts after the first run
 * through it (retries: `maxRetries` - 1, so 1 + `maxRetries` attempts in all). Each wait is chosen
 * per error (Retry-After or backoff, `retryDelay`) and slept in `shouldRetry`, where the caller's
 * signal can cut it short; p-retry's own delay is therefore zero.
 */
export async function retryCall<S extends z.ZodMiniType, T>(
  call: PreparedCall<S, T>,
  first: unknown,
  attempt: (n: number) => Promise<WithResponse<T>>,
  config: TransportConfig,
): Promise<WithResponse<T>> {
  const { signal, maxRetries } = call;
  // As p-retry would before its `shouldRetry`: the caller's abort is final, and nothing is retried
  // at `maxRetries: 0`. The policy retries SDK errors only (never a non-Error or a TypeError).
  signal?.throwIfAborted();
  if (maxRetries === 0 || !(first instanceof Error)) throw first;
  const waited = decide(call, first, 1, config);
  if (waited === undefined) throw first;
  // Loading starts before the wait, so it overlaps it. Retries that cannot load (a chunk the
  // network lost) leave the call with its own error.
  const loaded = loadRetries().catch(() => undefined);
  await waited;
  signal?.throwIfAborted();
  const pRetry = (await loaded)?.default;
  if (pRetry === undefined) throw first;
  return pRetry((n) => attempt(n + 1), {
    retries: maxRetries - 1,
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
      const waited = decide(call, error, retriesConsumed + 2, config);
      if (waited === undefined) return false;
      await waited;
      return true;
    },
  });
}
