// A call's retries. Its first attempt runs outside (transport.ts); when that fails, `shouldRetry`
// decides, and only a retry loads p-retry (`import()`, once per process). p-retry then runs the
// attempts after the first with its own backoff; a longer wait the service asked for
// (Retry-After) is topped up in `onFailedAttempt`, so no wait is shorter than the service's.
import type * as z from 'zod/mini';
import type { WithResponse } from '../api-promise';
import { ApiError, RateLimitedError } from '../errors/api-error';
import { ConnectionError } from '../errors/base';
import { isPermanent, isUnknownOutcome } from '../errors/failure';
import { loadOnce } from '../load-once';
import { onAbort, sleep } from '../timers';
import type { PreparedCall } from './prepare';
import type { TransportConfig } from './spec';

/**
 * p-retry's backoff between attempts: 0.5 s, 1 s, 2 s, 4 s, then 8 s, each stretched by a random
 * factor from 1 to 2 (capped at 8 s) so clients that failed together do not retry together.
 */
const BACKOFF = { minTimeout: 500, factor: 2, maxTimeout: 8_000, randomize: true } as const;

/** Spread added on top of a service-requested wait: a fifth of it, at least this much. */
const MIN_RETRY_AFTER_SPREAD_MS = 250;

/**
 * Whether a failed attempt is retried, from the service's answer. Rate limiting always (the
 * service did not act), unless the wait it asks for is longer than `maxRetryDelayMs`: that error
 * is thrown at once, with its `retryAfterMs`. A connection failure, a timeout or a 5xx only when
 * repeating the request is safe (`repeatable`); no other error.
 */
export function shouldRetry(error: unknown, repeatable: boolean, maxRetryDelayMs: number): boolean {
  if (error instanceof RateLimitedError) return (error.retryAfterMs ?? 0) <= maxRetryDelayMs;
  if (!repeatable) return false;
  if (error instanceof ConnectionError) return !isPermanent(error);
  return error instanceof ApiError && error.status >= 500;
}

/**
 * The wait, in ms, a rate-limited answer asked for (Retry-After or retry-after-ms), with up to a
 * fifth more on top (at least 250 ms of spread, never past `maxRetryDelayMs`), so clients told
 * the same HTTP date do not all come back in the same millisecond; 0 when it asked for none.
 */
export function requestedWaitMs(error: Error, maxRetryDelayMs: number): number {
  if (!(error instanceof RateLimitedError) || error.retryAfterMs === undefined) return 0;
  const asked = error.retryAfterMs;
  const spread = Math.max(MIN_RETRY_AFTER_SPREAD_MS, asked * 0.2);
  return Math.min(maxRetryDelayMs, Math.ceil(asked + Math.random() * spread));
}

/** p-retry, loaded at the first retry of the process; a failed load is tried again at the next. */
const loadPRetry = loadOnce(() => import('p-retry'));

/**
 * After a call's first attempt failed with `first`: the retries its `maxRetries` and the policy
 * allow, or `first` thrown as it is (a failure not retried, `maxRetries: 0`, or p-retry failing
 * to load; p-retry then never loads). p-retry is handed `first` as its attempt 1, so it counts,
 * waits and decides every retry alike, then runs attempt 2 onwards (1 + `maxRetries` in all).
 */
export async function retryCall<S extends z.ZodMiniType, T>(
  call: PreparedCall<S, T>,
  first: unknown,
  attempt: (n: number) => Promise<WithResponse<T>>,
  config: TransportConfig,
): Promise<WithResponse<T>> {
  const { signal, maxRetries, repeatable } = call;
  const { maxRetryDelayMs, logger } = config;
  // The caller's abort is final. Only the SDK's errors are retried (never a non-Error).
  signal?.throwIfAborted();
  if (maxRetries === 0 || !(first instanceof Error)) throw first;
  if (!shouldRetry(first, repeatable, maxRetryDelayMs)) throw first;
  const pRetry = (await loadPRetry().catch(() => undefined))?.default;
  if (pRetry === undefined) throw first;
  signal?.throwIfAborted();
  // p-retry's waits listen on a signal of this call's own, tied to the caller's through onAbort:
  // 1,000 calls sharing one signal add one listener to it, not 1,000.
  const retrySignal = signal === undefined ? undefined : new AbortController();
  const off =
    signal && retrySignal ? onAbort(signal, () => retrySignal.abort(signal.reason)) : undefined;
  try {
    return await pRetry((n) => (n === 1 ? Promise.reject(first) : attempt(n)), {
      ...BACKOFF,
      retries: maxRetries,
      // Every option p-retry reads, given: it reads a missing one through Object.prototype.
      maxRetryTime: Number.POSITIVE_INFINITY,
      unref: false,
      signal: retrySignal?.signal ?? (null as unknown as undefined),
      shouldConsumeRetry: () => true,
      shouldRetry: ({ error }) => shouldRetry(error, repeatable, maxRetryDelayMs),
      onFailedAttempt: ({ error, attemptNumber, retryDelay }) => {
        call.outcomeUnknown ||= isUnknownOutcome(error);
        // A retryDelay of 0: no retry follows (none left). p-retry asks shouldRetry after this.
        if (retryDelay === 0 || !shouldRetry(error, repeatable, maxRetryDelayMs)) return;
        const asked = requestedWaitMs(error, maxRetryDelayMs);
        const wait = Math.max(retryDelay, asked);
        // Every SDK error message already starts with the method and path.
        logger.log(
          'warn',
          `${error.message}; retry ${attemptNumber} of ${maxRetries} in ${wait} ms`,
        );
        // p-retry sleeps its retryDelay after this; the rest of a longer requested wait, here.
        return asked > retryDelay ? sleep(asked - retryDelay, retrySignal?.signal) : undefined;
      },
    });
  } finally {
    off?.();
  }
}
