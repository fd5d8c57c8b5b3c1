import { ApiError, RateLimitedError } from './api-error';
import { ConnectionError } from './errors';

const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/** Exponential backoff with jitter: about 0.5 s, 1 s, 2 s, … capped at 8 s, each shortened by up to 25 %. */
export function backoffMs(retry: number): number {
  const base = Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** (retry - 1));
  return Math.round(base * (1 - Math.random() * 0.25));
}

/**
 * How long to wait before retrying after `error`, or undefined when it must not be retried.
 * Rate limiting is always retried (the service did not act); connection failures, timeouts and
 * 5xx only when repeating the request is safe (`repeatable`). A requested wait longer than
 * `maxDelayMs` is not slept: the error is thrown at once with its `retryAfterMs`.
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
    return asked <= maxDelayMs ? asked : undefined;
  }
  if (!repeatable) return undefined;
  if (error instanceof ConnectionError) return backoffMs(retry);
  if (error instanceof ApiError && error.status >= 500) return backoffMs(retry);
  return undefined;
}

/** Waits `ms`, or rejects with the signal's reason the moment it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
