// What `follower.ingest` reads of a webhook event: the payment, its version and the status result
// its snapshot amounts to. Read structurally, so the follower carries no webhook schema.
import { RequestValidationError } from '../core/errors/base';
import { FINAL_PAYMENT_STATUSES } from '../rules/payments';
import type { PaymentStatusResult } from '../schemas/payment-status';

/**
 * What `follower.ingest` takes: a verified webhook event (`webhooks.unwrap`'s result). Only payment
 * events (whose `data` is a payment snapshot) are about a followed payment.
 */
export interface IngestibleEvent {
  id: string;
  type: string;
  data: unknown;
}

/**
 * What `follower.ingest` answers: `'yielded'` when the event told a status change of a followed
 * payment (the iterator yields it, `source: 'webhook'`); `'stale'` when the payment is followed but
 * the event tells nothing new (an older or equal `payment_state_version`, or a status the follower
 * already knows, by webhook or poll); `'not-followed'` for a payment the follower does not follow
 * (never added, removed, timed out, or gone after its final change) and for events without a
 * payment snapshot (a payout, a type this SDK does not know).
 */
export type FollowerIngestOutcome = 'yielded' | 'stale' | 'not-followed';

/** A payment snapshot as the follower takes it in. */
export interface IngestedSnapshot {
  paymentId: string;
  version: number;
  result: PaymentStatusResult;
}

const FINAL: ReadonlySet<string> = new Set(FINAL_PAYMENT_STATUSES);

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The snapshot of a payment event, or undefined for an event without one. The status result has
 * `status` and `isFinal` (unknown statuses are not final) only, as a list sweep's does: no
 * `failureCode` (a snapshot has `failed.failure_reason`, text for people), no `info` (its amount
 * needs a display a snapshot lacks), no `pollInMs`.
 * @throws {RequestValidationError} when `event` is not an event at all (no `id` or `type`).
 */
export function snapshotOf(event: IngestibleEvent): IngestedSnapshot | undefined {
  const given = record(event);
  if (given === undefined || typeof given.id !== 'string' || typeof given.type !== 'string') {
    throw new RequestValidationError('follower.ingest', [
      {
        field: 'event',
        message: 'must be a verified webhook event (what webhooks.unwrap returns)',
      },
    ]);
  }
  const data = record(given.data);
  const paymentId = data?.payment_id;
  const version = data?.payment_state_version;
  const status = data?.status;
  if (
    data === undefined ||
    typeof paymentId !== 'string' ||
    paymentId === '' ||
    typeof status !== 'string' ||
    status === '' ||
    typeof version !== 'number' ||
    !Number.isSafeInteger(version) ||
    version < 0
  ) {
    return undefined;
  }
  // No `info`: its `optionAmount` needs the asset's display (name, symbol, decimals), which a
  // snapshot does not carry; `success.tx_id` is in the event itself.
  const result: PaymentStatusResult = { status, isFinal: FINAL.has(status) };
  return { paymentId, version, result };
}
