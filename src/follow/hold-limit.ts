import { ApiError } from '../core/errors/api-error';
import { ConnectionError, TimeoutError } from '../core/errors/base';
import { answeredEarly, MAX_HOLD_MS, MIN_HOLD_MS } from './policy';

/** A held read shorter than this when it failed says nothing about an intermediary. */
const MIN_CUT_MS = MIN_HOLD_MS + 1_000;
/** Full holds at the learned limit before asking for more again; doubles per confirmed cut. */
const FIRST_PROBE_AFTER = 2;
const MAX_PROBE_AFTER = 64;

/**
 * Whether a failed held read looks like an intermediary cutting an idle request: a 504 (a proxy's
 * gateway timeout) or a connection dropped without an answer. Not a 502 or another 5xx (the
 * service answered, or crashed behind the proxy), nor this client's own attempt timeout.
 */
export function isIdleCut(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 504;
  return error instanceof ConnectionError && !(error instanceof TimeoutError);
}

/** Two cut durations are alike within 1 s or 10 % of the longer, whichever is more. */
function alike(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(1_000, Math.max(a, b) / 10);
}

/**
 * How long a held read may ask the service to hold, learned per client.
 *
 * - Lowered only by a cut idle read that repeats: two held reads cut (`isIdleCut`) after lasting
 *   alike durations (within 1 s or 10 %), each at least 2 s. A proxy or load balancer that cuts
 *   idle requests cuts every one at its idle timeout, so its cut repeats; a service that crashes
 *   once after 6 s, or a 502 after 12 s, does not teach anything. The limit becomes 1 s less than
 *   the shorter cut, never below 1 s.
 * - A held read that lasted longer than a remembered cut (plus the same margin) forgets it: the
 *   path now carries idle requests past it (the proxy is gone, or it was a crash).
 * - Raised again when holds succeed: after a few held reads that idled up to the lowered limit
 *   without being cut, the limit rises halfway back to 30 s (at least 1 s). If the intermediary is
 *   still there, its next cut is alike the remembered one and lowers the limit at once, and the
 *   next raise waits twice as many full holds (at most 64).
 */
export class HoldLimit {
  readonly #maxMs: number;
  #limitMs: number;
  /** The duration of the last idle cut seen, until a longer hold or a raise refutes it. */
  #cutMs: number | undefined;
  #fullHolds = 0;
  #probeAfter = FIRST_PROBE_AFTER;

  constructor(maxMs: number = MAX_HOLD_MS) {
    this.#maxMs = maxMs;
    this.#limitMs = maxMs;
  }

  /** The current limit in milliseconds. */
  get limitMs(): number {
    return this.#limitMs;
  }

  /** The `maxPollMs` to ask for when `wantedMs` would be asked otherwise (at least 1). */
  cap(wantedMs: number): number {
    return Math.max(1, Math.min(wantedMs, this.#limitMs));
  }

  /** A held read that failed transiently after `lastedMs`: learns a limit from a repeated cut. */
  failed(lastedMs: number, error: unknown): void {
    if (!isIdleCut(error) || lastedMs < MIN_CUT_MS) return;
    const previous = this.#cutMs;
    this.#cutMs = lastedMs;
    if (previous === undefined || !alike(previous, lastedMs)) return;
    const learned = Math.max(MIN_HOLD_MS, Math.floor(Math.min(previous, lastedMs)) - 1_000);
    this.#limitMs = Math.min(this.#limitMs, learned);
    this.#fullHolds = 0;
    this.#probeAfter = Math.min(MAX_PROBE_AFTER, this.#probeAfter * 2);
  }

  /** A held read the service answered after `lastedMs`, having asked for `maxPollMs`. */
  held(lastedMs: number, maxPollMs: number): void {
    const cut = this.#cutMs;
    if (cut !== undefined && lastedMs > cut && !alike(cut, lastedMs)) this.#cutMs = undefined;
    if (this.#limitMs >= this.#maxMs) return;
    // Only a hold that idled up to the limit shows the limit holds; an answer on a change does not.
    if (maxPollMs < this.#limitMs || answeredEarly(lastedMs, maxPollMs)) return;
    this.#fullHolds += 1;
    if (this.#fullHolds < this.#probeAfter) return;
    this.#fullHolds = 0;
    const step = Math.max(MIN_HOLD_MS, Math.ceil((this.#maxMs - this.#limitMs) / 2));
    this.#limitMs = Math.min(this.#maxMs, this.#limitMs + step);
  }
}
