import { isFinalStatus, type PaymentRecord, statusAt } from '../../state/records';
import type { RequestContext } from '../http/request-context';
import { json, ServiceError } from '../http/responses';
import { findPayment, paymentNotFound, tokenAmountJson } from './payments';
import { waiters } from './status-waiters';

/**
 * The longest the mock holds a status read, whatever `maxPollMs` asks: the published contract
 * sets no maximum (**silent**), so the mock picks one a real server plausibly has.
 */
export const MAX_STATUS_HOLD_MS = 60_000;

/** The Merchant-Id header (401 `missing_merchant_id` without it) and that merchant's payment. */
export function merchantPayment(ctx: RequestContext, id: string): PaymentRecord {
  const merchantId = merchantIdHeader(ctx);
  const payment = findPayment(ctx.store, id);
  // Another merchant's payment is as unknown as a missing one: its existence is not revealed.
  if (payment.merchantId !== merchantId) throw paymentNotFound(id);
  return payment;
}

/** The Merchant-Id header, required by the merchant-side payment operations. */
export function merchantIdHeader(ctx: RequestContext): string {
  const merchantId = ctx.request.headers.get('merchant-id');
  if (!merchantId) {
    throw new ServiceError(401, 'missing_merchant_id', 'Merchant-Id header is required');
  }
  return merchantId;
}

/** `failureCode` once failed, `info` once succeeded (the paying transaction and token amount). */
export function outcomeJson(payment: PaymentRecord, now: number) {
  const status = statusAt(payment, now);
  return {
    ...(status === 'failed' ? { failureCode: 'declined_user' } : {}),
    ...(status === 'succeeded' && payment.tx
      ? { info: { txId: payment.tx.hash, optionAmount: tokenAmountJson(payment) } }
      : {}),
  };
}

function statusJson(ctx: RequestContext, payment: PaymentRecord, finalPollInMs: null | undefined) {
  const now = Date.now();
  const status = statusAt(payment, now);
  const final = isFinalStatus(status);
  return {
    status,
    isFinal: final,
    ...(final
      ? finalPollInMs === null
        ? { pollInMs: null }
        : {}
      : { pollInMs: ctx.store.config.pollInMs }),
    ...outcomeJson(payment, now),
  };
}

/** `maxPollMs` of the query: absent, or a whole number >= 0 (else 400 `params_validation`). */
export function maxPollMs(ctx: RequestContext): number {
  const raw = ctx.url.searchParams.get('maxPollMs');
  if (raw === null || raw === '') return 0;
  if (!/^\d+$/.test(raw)) {
    throw new ServiceError(400, 'params_validation', 'maxPollMs must be an integer >= 0', {
      issues: [{ field: 'maxPollMs', message: 'must be an integer >= 0' }],
    });
  }
  return Number(raw);
}

/**
 * Holds the read until the payment's status changes, `maxPollMs` passes (at most
 * {@link MAX_STATUS_HOLD_MS}), the payment expires, or the client goes away.
 */
export async function hold(ctx: RequestContext, payment: PaymentRecord): Promise<void> {
  const limit = Math.min(maxPollMs(ctx), MAX_STATUS_HOLD_MS);
  if (limit === 0 || !ctx.store.config.holdStatusReads) return;
  const initial = statusAt(payment, Date.now());
  if (isFinalStatus(initial)) return;
  const byPayment = waiters.get(ctx.store) ?? new Map<string, Set<() => void>>();
  waiters.set(ctx.store, byPayment);
  const set = byPayment.get(payment.id) ?? new Set();
  byPayment.set(payment.id, set);
  const { signal } = ctx.request;
  await new Promise<void>((resolve) => {
    const untilExpiry = payment.expiresAt * 1000 - Date.now();
    const timer = setTimeout(done, Math.max(0, Math.min(limit, untilExpiry)));
    const wake = () => {
      if (ctx.store.payments.get(payment.id) !== payment) return done();
      if (statusAt(payment, Date.now()) !== initial) done();
    };
    set.add(wake);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      set.delete(wake);
      if (set.size === 0 && byPayment.get(payment.id) === set) byPayment.delete(payment.id);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** GET /v1/payments/{id}/status: the merchant side; `pollInMs` is null once final. */
export async function getPaymentStatus(ctx: RequestContext): Promise<Response> {
  const payment = merchantPayment(ctx, ctx.params[0] ?? '');
  await hold(ctx, payment);
  return json(200, statusJson(ctx, payment, null));
}

/** GET /v1/gateway/payment/{id}/status: the buyer side; `pollInMs` is absent once final. */
export async function getGatewayPaymentStatus(ctx: RequestContext): Promise<Response> {
  const payment = findPayment(ctx.store, ctx.params[0] ?? '');
  await hold(ctx, payment);
  return json(200, statusJson(ctx, payment, undefined));
}
