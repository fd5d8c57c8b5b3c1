import { ApiError, parseRetryAfter, RateLimitedError } from '../core/errors/api-error';
import { ConnectionError } from '../core/errors/base';
import { isPermanent } from '../core/errors/failure';
import { withJitter } from '../core/timers';

/** The longest wait between two reads of a follow, failures included. */
export const MAX_FOLLOW_WAIT_MS = 30_000;
/** The shortest wait between two reads of a follow, whatever `pollInMs` says. */
export const MIN_FOLLOW_WAIT_MS = 100;
/** The longest `maxPollMs` a held read asks for. */
export const MAX_HOLD_MS = 30_000;
/** The shortest `maxPollMs` a held read asks for once an intermediary has cut one. */
export const MIN_HOLD_MS = 1_000;

/** A wait between reads kept within [100 ms, 30 s]. */
export function clampWait(ms: number): number {
  return Math.min(MAX_FOLLOW_WAIT_MS, Math.max(MIN_FOLLOW_WAIT_MS, ms));
}

/** A `pollInMs` hint, or undefined when it is not a finite number (it must not become a 0 ms loop). */
export function pollHint(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * A held read that answers this much before its `maxPollMs` without a change shows a service that
 * does not hold reads (a slack for clocks and the network, up to 1 s).
 */
export function answeredEarly(elapsedMs: number, maxPollMs: number): boolean {
  return elapsedMs < maxPollMs - Math.min(1000, maxPollMs / 10);
}

/**
 * Whether a failed status or list read leaves a follow alive: no answer, a timeout, rate limiting
 * or a 5xx (after the transport's own retries). Anything else (400, 401, 403, 404, 409, a response
 * that breaks the schema, a connection failure no retry can change) is permanent and ends it.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof RateLimitedError) return true;
  if (error instanceof ConnectionError) return !isPermanent(error);
  return error instanceof ApiError && error.status >= 500;
}

/**
 * The wait before the next read after `failures` consecutive failed reads: the wait the read would
 * have had (`paceMs`), doubled per failure, jittered, at most 30 s; never shorter than a
 * `Retry-After` the service gave (a 429's, or a 503's), which may be longer than 30 s.
 */
export function failureWaitMs(paceMs: number, failures: number, error: unknown): number {
  const doubled = Math.min(MAX_FOLLOW_WAIT_MS, paceMs * 2 ** Math.max(0, failures - 1));
  const jittered = Math.min(MAX_FOLLOW_WAIT_MS, withJitter(doubled, 0.25));
  return Math.max(jittered, askedWaitMs(error));
}

/** How long the failed answer asked the client to wait: `retry-after-ms` or `Retry-After`. */
function askedWaitMs(error: unknown): number {
  if (error instanceof RateLimitedError) return error.retryAfterMs ?? 0;
  // A 503 may carry Retry-After too (a service in maintenance, a proxy shedding load).
  if (error instanceof ApiError) return parseRetryAfter(new Headers(error.headers)) ?? 0;
  return 0;
}
