/**
 * The held status reads of each mock, by payment id, and the wake-up a change sends them: apart
 * from `status-polling.ts` so the lifecycle, which every change goes through, can wake them
 * without importing the resources.
 */
import type { Store } from '../../state/store';

/**
 * Wakes held status reads, by payment id: one map per mock, so two mocks never wake each other,
 * and a change wakes only the reads of its payment however many thousands are held.
 */
export const waiters = new WeakMap<Store, Map<string, Set<() => void>>>();

/**
 * Tells held status reads of this mock that a payment may have changed: the reads of
 * `paymentId`, or every held read when no id is given (a reset, a bulk move).
 */
export function notifyStatusChange(store: Store, paymentId?: string): void {
  const byPayment = waiters.get(store);
  if (byPayment === undefined) return;
  const sets = paymentId === undefined ? [...byPayment.values()] : [byPayment.get(paymentId)];
  for (const set of sets) for (const wake of [...(set ?? [])]) wake();
}
