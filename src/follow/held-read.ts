import type { PaymentStatusResult } from '../schemas/payment-status';
import { answeredEarly, failureWaitMs, isTransient, MAX_HOLD_MS } from './policy';
import type { FollowContext } from './reader';

/** What a follow believes about its service: false once a held read came back early unchanged. */
export interface ServiceHolds {
  holds: boolean;
}

/** What one status read of a follow gave. */
export type ReadOutcome =
  | { ok: true; result: PaymentStatusResult; started: number; maxPollMs: number | undefined }
  | { ok: false; error: unknown; transient: boolean; started: number };

/** Whether `result` tells something new about `known` (a first result always does). */
export function differs(
  known: PaymentStatusResult | undefined,
  result: PaymentStatusResult,
): boolean {
  return known === undefined || known.status !== result.status || known.isFinal !== result.isFinal;
}

/**
 * The held-read step of every follow, the single one and the follower's, written once: cap the
 * hold (30 s, the time left, the client's learned limit), read, learn the intermediary's limit from
 * a cut (and raise it again from full holds), notice a service that answers early. `holdForMs`
 * undefined (or a service that does not hold) makes an immediate read. Never throws: the caller
 * decides what a failure ends, and backs off with `Backoff`.
 */
export async function readStatus(
  context: FollowContext,
  { paymentId, merchantId }: { paymentId: string; merchantId: string | undefined },
  holdForMs: number | undefined,
  known: PaymentStatusResult | undefined,
  service: ServiceHolds,
  signal: AbortSignal,
): Promise<ReadOutcome> {
  const started = Date.now();
  const maxPollMs =
    holdForMs !== undefined && service.holds
      ? context.holdLimit.cap(Math.min(MAX_HOLD_MS, holdForMs))
      : undefined;
  try {
    const result = await context.reader.status(paymentId, merchantId, maxPollMs, signal);
    if (maxPollMs !== undefined) {
      const lasted = Date.now() - started;
      context.holdLimit.held(lasted, maxPollMs);
      // Answered early with nothing new: this service does not hold reads.
      if (!differs(known, result) && answeredEarly(lasted, maxPollMs)) service.holds = false;
    }
    return { ok: true, result, started, maxPollMs };
  } catch (error) {
    const transient = !signal.aborted && isTransient(error);
    if (transient && maxPollMs !== undefined) context.holdLimit.failed(Date.now() - started, error);
    return { ok: false, error, transient, started };
  }
}

/** Consecutive failures of one reader, and the wait before its next read. */
export class Backoff {
  #failures = 0;

  get failures(): number {
    return this.#failures;
  }

  /** Counts a failure; the wait before the next read (`paceMs` doubled per failure, see policy). */
  failed(paceMs: number, error: unknown): number {
    this.#failures += 1;
    return failureWaitMs(paceMs, this.#failures, error);
  }

  succeeded(): void {
    this.#failures = 0;
  }
}
