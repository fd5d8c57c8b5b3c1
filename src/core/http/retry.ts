import { ApiError, RateLimitedError } from '../errors/api-error';
import { ConnectionError } from '../errors/base';

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
 * `ms` plus a random share of up to `ratio` of it (never less than `ms`): spreads waits that would
 * otherwise end together, e.g. 1,000 pollers started at once. For polling: `sleep(withJitter(ms))`.
 */
export function withJitter(ms: number, ratio = 0.1): number {
  return Math.round(ms + Math.random() * ms * ratio);
}

/** Connection failures that fail the same way however often they are tried. */
const permanent = new WeakSet<Error>();

/** Whether `error` was marked by `markPermanent`: no retry can change its outcome. */
export function isPermanent(error: Error): boolean {
  return permanent.has(error);
}

/** Marks a ConnectionError whose cause a retry cannot change (a TLS certificate, an invalid URL, …). */
export function markPermanent<E extends Error>(error: E): E {
  permanent.add(error);
  return error;
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
  if (error instanceof ConnectionError) return permanent.has(error) ? undefined : backoffMs(retry);
  if (error instanceof ApiError && error.status >= 500) return backoffMs(retry);
  return undefined;
}

type AbortListener = () => void;
interface SignalListeners {
  set: Set<AbortListener>;
  fire: () => void;
}
const listenersBySignal = new WeakMap<AbortSignal, SignalListeners>();

/**
 * Runs `listener` once when `signal` aborts; returns the unsubscribe. However many calls share one
 * signal (one per inbound request is common), the signal gets a single listener of ours, so no
 * MaxListenersExceededWarning appears for 11 or 1,000 of them; and once the last of them
 * unsubscribes that listener is removed too, so a long-lived shared signal keeps none of ours.
 */
export function onAbort(signal: AbortSignal, listener: AbortListener): () => void {
  let entry = listenersBySignal.get(signal);
  if (entry === undefined) {
    const set = new Set<AbortListener>();
    const fire = () => {
      listenersBySignal.delete(signal);
      for (const run of set) run();
    };
    entry = { set, fire };
    listenersBySignal.set(signal, entry);
    signal.addEventListener('abort', fire, { once: true });
  }
  const current = entry;
  current.set.add(listener);
  return () => {
    if (!current.set.delete(listener) || current.set.size > 0) return;
    if (listenersBySignal.get(signal) !== current) return;
    listenersBySignal.delete(signal);
    signal.removeEventListener('abort', current.fire);
  };
}

/** Waits `ms`, or rejects with the signal's reason the moment it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const off = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          reject(signal.reason);
        })
      : undefined;
    const timer = setTimeout(() => {
      off?.();
      resolve();
    }, ms);
  });
}
