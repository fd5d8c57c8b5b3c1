/**
 * Where every change of a payment created while the mock runs is recorded, however it happened (a
 * wallet's confirm, the checkout page, a control call, auto-advance, a cancel, expiry, the
 * settlement): the stage times its snapshot shows, its `payment_state_version`, one webhook event,
 * and a wake-up for the status reads held on it.
 */
import { MAX_TIMER_MS } from '../../../core/timers';
import type { KnownPaymentStatus } from '../../../rules/payments';
import { eventBody, type PaymentEventType, snapshotOf, testTxId } from '../../state/events';
import { moveTo, type PaymentRecord } from '../../state/records';
import type { Store } from '../../state/store';
import { notifyStatusChange } from './status-waiters';

/** What a status is reached for, shown to people in the snapshot (never to branch on). */
export interface ChangeReason {
  reason?: string;
}

/** A payment was created: `payment.created` (version 0), and its expiry is watched. */
export function recordCreated(store: Store, payment: PaymentRecord): void {
  payment.stages = {};
  payment.version = 0;
  send(store, payment, 'payment.created', payment.createdAt);
  const untilExpiry = payment.expiresAt * 1000 - Date.now();
  // Past what a timer keeps (about 24.8 days), the expiry sends no event.
  if (untilExpiry > MAX_TIMER_MS) return;
  store.later(Math.max(0, untilExpiry), () => {
    // A reset() replaced the record, or the buyer acted first: nothing expires.
    if (store.payments.get(payment.id) !== payment || payment.status !== 'requires_action') return;
    changeStatus(store, payment, 'expired', payment.expiresAt * 1000);
  });
}

/**
 * Moves a payment to `status` at `at`, filling what that status implies (a buyer and the
 * test-mode transaction id once the buyer acted, a pending settlement once it succeeded), and
 * records the change. Returns false, changing nothing, when the payment already has that status.
 */
export function changeStatus(
  store: Store,
  payment: PaymentRecord,
  status: KnownPaymentStatus,
  at: number,
  { reason }: ChangeReason = {},
): boolean {
  if (payment.status === status) return false;
  payment.stages ??= {};
  const { stages } = payment;
  if (status === 'processing' || status === 'succeeded' || status === 'failed') {
    payment.tx ??= { hash: testTxId(payment.id), nonce: store.rng.int(0, 5000) };
  }
  // The buyer had committed (a seeded payment too): its snapshots show processing from then on.
  if (payment.status === 'processing' || payment.status === 'succeeded') {
    stages.processingAt ??= payment.updatedAt;
  }
  if (status === 'processing') stages.processingAt ??= at;
  if (status === 'succeeded') {
    // Straight to succeeded (a control call) still went through processing, at the same moment.
    stages.processingAt ??= at;
    stages.succeededAt = at;
    payment.settlement ??= { settled: false, txHash: null, at: null };
  }
  if (status === 'failed') {
    stages.failedAt = at;
    stages.failureReason = reason ?? 'declined by the buyer';
  }
  if (status === 'cancelled') {
    stages.cancelledAt = at;
    stages.cancellationReason = reason ?? 'cancelled_by_merchant';
  }
  if (status === 'expired') stages.expiredAt = at;
  moveTo(payment, status, at, store.rng);
  // Back to requires_action (a control call) is no event the service documents.
  if (status !== 'requires_action') send(store, payment, `payment.${status}`, at);
  notifyStatusChange(store, payment.id);
  if (status === 'succeeded') settleLater(store, payment);
  return true;
}

/** `payment.settled` `settleAfterMs` after success (at once for 0), and the REST side shows it. */
function settleLater(store: Store, payment: PaymentRecord): void {
  const settle = () => {
    if (store.payments.get(payment.id) !== payment || payment.status !== 'succeeded') return;
    if (payment.settlement?.settled) return;
    const now = Date.now();
    payment.settlement = { settled: true, txHash: testTxId(payment.id), at: now };
    send(store, payment, 'payment.settled', now);
  };
  if (store.config.settleAfterMs === 0) settle();
  else store.later(store.config.settleAfterMs, settle);
}

/** Raises the payment's version and hands the event to the webhook sender, if it wants one. */
function send(store: Store, payment: PaymentRecord, type: PaymentEventType, at: number): void {
  // The seeded history has no created event: its first change is version 1.
  if (type !== 'payment.created') payment.version = (payment.version ?? 0) + 1;
  const sink = store.events;
  if (!sink?.wanted()) return;
  const id = store.eventRng.id('evt');
  // The snapshot's status is the payment's own (created: requires_action; settled: succeeded).
  const status = payment.status;
  sink.send({
    id,
    type,
    paymentId: payment.id,
    version: payment.version ?? 0,
    at,
    body: eventBody(id, type, at, snapshotOf(payment, status, store.config.fee)),
  });
}
