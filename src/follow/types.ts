import type { PaymentStatusResult } from '../schemas/payment-status';
import type { PaymentCreated, PaymentStatus } from '../schemas/payments';
import type { FollowerIngestOutcome, IngestibleEvent } from './ingest';

/**
 * What `follower.add` takes: the result of `payments.create`, a payment id, or the id with its
 * merchant. Without a merchant (a bare id, or `merchantId` left out) the client's `merchantId`
 * is used; with neither, `add` throws a `RequestValidationError`.
 */
export type FollowedPayment =
  | PaymentCreated
  | string
  | { paymentId: string; merchantId?: string | undefined };

/** How the follower learned a change: a status read or list sweep, or `follower.ingest(event)`. */
export type PaymentStatusChangeSource = 'poll' | 'webhook';

/** One status change of a followed payment, as `for await (const change of follower)` yields it. */
export interface PaymentStatusChange {
  paymentId: string;
  /** The merchant the payment belongs to (the one it was added with). */
  merchantId: string;
  /** The new status: `result.status`. */
  status: PaymentStatus;
  /** True once the status can no longer change: the payment has left the follower. */
  isFinal: boolean;
  /**
   * The status before this change; undefined for the first status read of a payment added by id
   * (or resumed before any change of it was yielded).
   */
  previousStatus: PaymentStatus | undefined;
  /**
   * The status result the change was learned from. From a status read it is whole (`pollInMs`,
   * `failureCode` when failed, `info.txId` when succeeded); a change seen in the partner-wide list
   * carries only `status` and `isFinal` (call `payments.details` for the rest). A `failed` status
   * polled always comes from a status read, with its `failureCode`. From a webhook's snapshot it
   * carries only `status` and `isFinal`, as a list item's does: the event itself has the rest
   * (`data.success.tx_id`, `data.failed.failure_reason`).
   */
  result: PaymentStatusResult;
  /**
   * How the change was learned: `'poll'` (a status read or a list sweep) or `'webhook'`
   * (`follower.ingest`). Each change is yielded once, by whichever source told it first.
   */
  source: PaymentStatusChangeSource;
}

/** One followed payment in a checkpoint. Plain JSON: store it anywhere. */
export interface PaymentFollowerCheckpointEntry {
  paymentId: string;
  merchantId: string;
  /** The last status yielded for it; absent when none was yielded yet (nor given by a PaymentCreated). */
  status?: string;
  /** When the payment was created, epoch milliseconds, once the list has shown it. */
  createdAt?: number;
  /** The earliest it can have been created, epoch milliseconds (for the list sweep's `startTs`). */
  notBefore?: number;
  /** When it leaves with a `PollTimeoutError`, epoch milliseconds. */
  deadlineAt: number;
}

/**
 * What `follower.checkpoint()` returns: every payment still followed, with the last status the
 * iterator yielded for it. JSON-serializable; pass it (or its parsed JSON) as `resumeFrom`.
 */
export interface PaymentFollowerCheckpoint {
  version: 1;
  payments: PaymentFollowerCheckpointEntry[];
}

/** What `onError` is told besides the error and the payment id. */
export interface FollowerErrorInfo {
  /**
   * True when the payment named has left the follower with this error: it timed out
   * (`PollTimeoutError`) or its status read failed permanently (400, 403, 404, 409, a response
   * that breaks the schema). False for a transient failure (the payment stays, read again after a
   * backoff) and for a sweep's failure (`paymentId` undefined).
   */
  left: boolean;
}

/** Options of `payments.follower()`. */
export interface PaymentFollowerOptions {
  /**
   * At most this many held status reads (`maxPollMs` up to 30 s) at once, however many payments
   * are followed: each is one open connection. They go to the payments most likely to change
   * next (in `processing` first, then the most recently added). 0: sweeps only.
   * A whole number from 0 to 1000.
   * @default 8
   */
  maxHeldReads?: number | undefined;
  /**
   * Milliseconds between the starts of two sweeps of the partner-wide list (`GET /v1/payments`,
   * 200 a page), which learn the changes of every payment without a held read. From 100 to
   * 2147483647.
   * @default 5000
   */
  sweepIntervalMs?: number | undefined;
  /**
   * How long each payment is followed, in milliseconds from when it was added. Past it the
   * payment leaves the follower and `onError` gets a `PollTimeoutError` whose `paymentId` names
   * it. At most 2147483647 (about 24.8 days).
   * @default 900000 (15 minutes)
   */
  timeoutMs?: number | undefined;
  /**
   * Called with every failure that does not end the follower: a read or sweep that failed
   * transiently (it is retried after a backoff), a payment that timed out (`PollTimeoutError`), or
   * a payment whose status read failed permanently (e.g. `NotFoundError`). `paymentId` names the
   * payment concerned, undefined for a sweep. `info.left` says whether that payment has left the
   * follower with this error (timed out, or a permanent answer): no change of it will be yielded,
   * so settle the order yourself. An exception it throws is logged and ignored.
   * @example
   * ```ts
   * const follower = gateway.payments.follower({
   *   onError: (error, paymentId, { left }) => {
   *     if (paymentId !== undefined && left) markOrderUnknown(paymentId, error);
   *   },
   * });
   * ```
   */
  onError?:
    | ((error: Error, paymentId: string | undefined, info: FollowerErrorInfo) => void)
    | undefined;
  /** Aborting it closes the follower; the iterator then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** A `checkpoint()` of an earlier follower (this process or another): follows its payments on. */
  resumeFrom?: PaymentFollowerCheckpoint | undefined;
}

/**
 * Follows many payments at once with a bounded number of reads: a few held status reads plus a
 * periodic sweep of the partner-wide list. Iterate it for one `PaymentStatusChange` per status
 * change of any followed payment; the iteration ends only after `close()`.
 */
export interface PaymentFollower extends AsyncIterable<PaymentStatusChange> {
  /**
   * Starts following a payment. Adding one already followed changes nothing. A `PaymentCreated`'s
   * own status is not yielded again (one already final is not followed at all); a payment added
   * by id yields its first status read.
   * @throws {RequestValidationError} for a bad id or merchant id, or no merchant id at all.
   */
  add(payment: FollowedPayment): void;
  /**
   * Takes in a verified webhook event (`webhooks.unwrap`'s result): when it is about a followed
   * payment and its snapshot is newer than what the follower knows, the change is yielded at once,
   * with `source: 'webhook'`. Each status change is yielded once whether it comes by webhook, by
   * poll or both, in any order; a final status by webhook ends the payment's following as a final
   * read does. Polling and sweeps go on as the backstop for events that are late or never come.
   * Resolves once the follower has taken the event in (its engine is loaded on first use).
   * @throws {RequestValidationError} (rejects) for something that is not an event.
   */
  ingest(event: IngestibleEvent): Promise<FollowerIngestOutcome>;
  /** Stops following a payment; changes of it not yet yielded are dropped. Unknown ids are ignored. */
  remove(paymentId: string): void;
  /**
   * Whether the payment is followed: added and not yet yielded as final, removed, timed out or
   * dropped after a permanent failure (`onError` then said `left: true`).
   */
  has(paymentId: string): boolean;
  /** How many payments are followed: added and not yet yielded as final, removed or timed out. */
  readonly size: number;
  /**
   * The payments followed and the last status yielded for each, as JSON-serializable data. Resume
   * with `payments.follower({ resumeFrom })`: delivery is at least once, a change yielded before
   * the checkpoint is not yielded again.
   */
  checkpoint(): PaymentFollowerCheckpoint;
  /** Stops every read and timer at once; the iterator ends (changes not yet yielded are dropped). */
  close(): void;
  /** Whether `close()` was called, the signal aborted, or a permanent failure ended it. */
  readonly closed: boolean;
}
