import { isFinalStatus, isoTime, type PaymentRecord, statusAt } from '../../state/records';
import { idempotent, jsonObjectBody, type RequestContext } from '../http/request-context';
import { json, ServiceError, validationError } from '../http/responses';
import { changeStatus } from './lifecycle';
import { merchantIdHeader, merchantPayment, outcomeJson } from './status-polling';

/** Why and when a payment was cancelled; kept beside the records, so `reset()` forgets them. */
const cancellations = new WeakMap<PaymentRecord, { reason: string; at: number }>();
/** When a payment was refunded. */
const refunds = new WeakMap<PaymentRecord, number>();

/** When the payment was refunded, if it was. */
export function refundedAt(payment: PaymentRecord): number | undefined {
  return refunds.get(payment);
}

/**
 * `settlement` of the details: null before success, `{ successful: null }` once succeeded but not
 * yet paid out, `{ successful: { txId, amount: { unit } } }` after the payout.
 */
function settlementJson(payment: PaymentRecord, now: number) {
  if (statusAt(payment, now) !== 'succeeded') return null;
  const { settlement } = payment;
  if (!settlement?.settled || !settlement.txHash) return { successful: null };
  // The published contract's amount has a unit and no value: the mock sends what it publishes.
  return {
    successful: { txId: settlement.txHash, amount: { unit: `caip19/${payment.token.asset}` } },
  };
}

/** GET /v1/payments/{id} */
export function getPaymentDetails(ctx: RequestContext): Response {
  const payment = merchantPayment(ctx, ctx.params[0] ?? '');
  return json(200, {
    status: statusAt(payment, ctx.now),
    referenceId: payment.referenceId,
    ...outcomeJson(payment, ctx.now),
    settlement: settlementJson(payment, ctx.now),
  });
}

/** POST /v1/payments/{id}/cancel: only before a final status; a key replays the first answer. */
export function mockCancelPayment(ctx: RequestContext): Response {
  const id = ctx.params[0] ?? '';
  const payment = merchantPayment(ctx, id);
  return idempotent(
    ctx,
    { required: false, request: { merchantId: payment.merchantId, paymentId: id } },
    () => {
      const status = statusAt(payment, ctx.now);
      if (isFinalStatus(status)) {
        throw new ServiceError(
          400,
          'invalid_state',
          `Payment ${id} cannot be cancelled: ${status}`,
          {
            details: { paymentId: id, status },
          },
        );
      }
      const cancellation = { reason: 'cancelled_by_merchant', at: ctx.now };
      changeStatus(ctx.store, payment, 'cancelled', ctx.now, cancellation);
      cancellations.set(payment, cancellation);
      return {
        status: 200,
        body: {
          paymentId: id,
          status: 'cancelled',
          cancelledReason: cancellation.reason,
          cancelledAt: isoTime(cancellation.at),
        },
      };
    },
  );
}

/** POST /v1/refunds: a full refund, only of a succeeded payment, and only once. */
export function createRefund(ctx: RequestContext): Response {
  const merchantId = merchantIdHeader(ctx);
  const body = jsonObjectBody(ctx);
  const { paymentId } = body;
  if (
    typeof paymentId !== 'string' ||
    paymentId.length > 64 ||
    !/^pay_[A-Za-z0-9]+$/.test(paymentId)
  ) {
    throw validationError([
      { field: 'paymentId', message: 'must be 1 to 64 characters matching ^pay_[A-Za-z0-9]+$' },
    ]);
  }
  const payment = ctx.store.payments.get(paymentId);
  if (!payment || payment.merchantId !== merchantId) {
    throw new ServiceError(404, 'not_found', `Payment ${paymentId} not found`);
  }
  if (refunds.has(payment)) {
    throw new ServiceError(409, 'already_refunded', `Payment ${paymentId} was already refunded`);
  }
  if (statusAt(payment, ctx.now) !== 'succeeded') {
    throw new ServiceError(
      400,
      'payment_not_succeeded',
      `Payment ${paymentId} has not succeeded: only a succeeded payment can be refunded`,
    );
  }
  refunds.set(payment, ctx.now);
  return json(200, { paymentId });
}
