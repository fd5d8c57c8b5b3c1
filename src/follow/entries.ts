import type { PaymentStatusResult } from '../schemas/payment-status';
import { clampWait, pollHint } from './policy';
import type { Seed } from './seeds';
import type { PaymentStatusChange } from './types';

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
export const OPEN = new Set(['requires_action', 'processing']);
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
