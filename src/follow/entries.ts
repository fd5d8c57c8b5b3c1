import type { LevelLogger } from '../core/logger';
import { OPEN_PAYMENT_STATUSES } from '../rules/payments';
import type { PaymentStatusResult } from '../schemas/payment-status';
import { entryOf, type FollowerSettings, OPERATION, type Seed } from './follower-input';
import { differs } from './held-read';
import { clampWait, pollHint } from './policy';
import type { PaymentFollowerCheckpoint, PaymentStatusChange } from './types';

const DEFAULT_PACE_MS = 1_000;

/**
 * How far a status has moved along a payment's life; a source showing a lower rank than the one
 * known is behind (a list page older than a read), never a change. Unknown statuses have none.
 */
export const RANK: Readonly<Record<string, number>> = {
  requires_action: 0,
  processing: 1,
  succeeded: 2,
  failed: 2,
  expired: 2,
  cancelled: 2,
};
/** The statuses a list item is trusted for without a status read: known and not final. */
export const OPEN: ReadonlySet<string> = new Set(OPEN_PAYMENT_STATUSES);
/**
 * Final statuses a list item is trusted for. Not `failed`: a 2026-02-18 list has no `cancelled`
 * and shows a cancelled payment as failed, so a failed item is confirmed by a status read (which
 * also gives its `failureCode`).
 */
export const TRUSTED_FINAL = new Set(['succeeded', 'expired', 'cancelled']);

/** One followed payment, as the engine tracks it. */
export interface Entry {
  seed: Seed;
  /** The status last learned (yielded or waiting in the queue). */
  known: PaymentStatusResult | undefined;
  /** The highest `payment_state_version` taken in from a webhook; undefined before any. */
  version: number | undefined;
  /** The status last yielded, what a checkpoint records. */
  yielded: string | undefined;
  /** When the source of `known` looked (a read's or page request's start), epoch ms. */
  learnedAt: number;
  createdAt: number | undefined;
  /** Final status learned: no more reads; it leaves once that change is yielded. */
  done: boolean;
  held: boolean;
  queued: boolean;
  /** The sweep number that last saw it in the list. */
  seenIn: number;
  /** Not found by a sweep that reached the end of the list: it is read directly each sweep. */
  unlisted: boolean;
  /** The sweep count when it was added: sweeps after it look for it. */
  since: number;
}

/** A change waiting to be yielded, with the entry it is about. */
export interface Change {
  entry: Entry;
  change: PaymentStatusChange;
}

/** A new entry for `seed`, added while `sweeps` sweeps had started. */
/**
 * Whether `result` is news for `entry`: a status it does not know and not behind the known one
 * (statuses only move forward). Without a rank on both, a read's fresher look wins (`lookedAt`),
 * and a newer webhook snapshot (no `lookedAt`) is news.
 */
export function isNews(entry: Entry, result: PaymentStatusResult, lookedAt?: number): boolean {
  if (!differs(entry.known, result)) return false;
  const known = entry.known && RANK[entry.known.status];
  const now = RANK[result.status];
  if (known !== undefined && now !== undefined) return now > known;
  return lookedAt === undefined || lookedAt >= entry.learnedAt;
}

export function newEntry(seed: Seed, sweeps: number): Entry {
  return {
    seed,
    known: seed.known,
    version: undefined,
    yielded: seed.known?.status,
    learnedAt: 0,
    createdAt: seed.createdAt,
    done: false,
    held: false,
    queued: false,
    seenIn: 0,
    unlisted: false,
    since: sweeps,
  };
}

/**
 * The payment a free held-read slot should hold next: one in `processing` (the buyer has paid,
 * the chain confirms within seconds), else the most recently added with a known status.
 */
export function pickHeld(
  processing: Iterable<Entry>,
  order: readonly Entry[],
  entries: ReadonlyMap<string, Entry>,
): Entry | undefined {
  for (const entry of processing) {
    if (!entry.held && !entry.done) return entry;
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const entry = order[i] as Entry;
    if (!entry.held && !entry.done && entry.known !== undefined) {
      if (entries.get(entry.seed.paymentId) === entry) return entry;
    }
  }
  return undefined;
}

/**
 * Logs a failure the follower outlives as one warn line and hands it to `onError`, whose own
 * exception is logged and ignored. `left` says whether the payment left with it.
 */
export function reportFailure(
  logger: LevelLogger,
  onError: FollowerSettings['onError'],
  error: unknown,
  paymentId: string | undefined,
  left: boolean,
): void {
  const err = error instanceof Error ? error : new Error(String(error));
  logger.log(
    'warn',
    `${OPERATION}: ${paymentId ? `payment ${paymentId}: ` : 'sweep: '}${err.message}`,
  );
  try {
    onError?.(err, paymentId, { left });
  } catch (thrown) {
    logger.log(
      'warn',
      `${OPERATION}: onError threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
    );
  }
}

/** The wait between two reads of a payment: its `pollInMs`, else 1 s, within [100 ms, 30 s]. */
export function paceOf(result: PaymentStatusResult | undefined): number {
  return clampWait(pollHint(result?.pollInMs) ?? DEFAULT_PACE_MS);
}

/** A binary min-heap of entries by deadline: the next timeout in O(log n), whatever the size. */
export class Deadlines {
  readonly #heap: Entry[] = [];

  get size(): number {
    return this.#heap.length;
  }

  peek(): Entry | undefined {
    return this.#heap[0];
  }

  push(entry: Entry): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as Entry).seed.deadlineAt <= entry.seed.deadlineAt) break;
      heap[i] = heap[parent] as Entry;
      i = parent;
    }
    heap[i] = entry;
  }

  pop(): Entry | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length &&
        (heap[right] as Entry).seed.deadlineAt < (heap[left] as Entry).seed.deadlineAt
          ? right
          : left;
      if ((heap[child] as Entry).seed.deadlineAt >= last.seed.deadlineAt) break;
      heap[i] = heap[child] as Entry;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}

/** The follower's checkpoint: each payment it follows, with the last status yielded for it. */
export function checkpointOf(entries: Iterable<Entry>): PaymentFollowerCheckpoint {
  const payments = [];
  for (const entry of entries) {
    payments.push(entryOf({ ...entry.seed, createdAt: entry.createdAt }, entry.yielded));
  }
  return { version: 1, payments };
}
