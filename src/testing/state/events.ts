/**
 * The service's webhook events as the mock makes them: one per state change of a payment, each
 * with the payment's full snapshot at that moment (`docs/webhooks.md`: snake_case, every
 * stage key present, `null` until reached). The mock is in test mode: `live: false`, and the
 * synthetic transaction id `test:{paymentId}`.
 */
import { IMPLIED_STAGES } from '../../rules/webhooks';
import type { MockFee } from '../types';
import { isoTime, type PaymentRecord } from './records';
import { serviceJson } from './service-json';

/** The payload contract's version, unrelated to the REST versions. */
export const WEBHOOK_API_VERSION = '2026-05-18';

export type PaymentEventType =
  | 'payment.created'
  | 'payment.processing'
  | 'payment.succeeded'
  | 'payment.failed'
  | 'payment.expired'
  | 'payment.cancelled'
  | 'payment.settled';

// One table with the SDK's: what the mock sends is what the SDK's types promise.
export { IMPLIED_STAGES };

export interface WireAmount {
  unit: string;
  value: string;
}

/** One event, its body serialised once: every attempt to every endpoint sends these bytes. */
export interface PaymentEvent {
  id: string;
  type: PaymentEventType;
  paymentId: string;
  version: number;
  /** Epoch ms of the change. */
  at: number;
  body: string;
}

/** The synthetic transaction id of a test-mode payment (the service's test mode uses the same). */
export function testTxId(paymentId: string): string {
  return `test:${paymentId}`;
}

const toBig = (value: string | number | bigint | undefined): bigint => {
  if (value === undefined) return 0n;
  return BigInt(value);
};

/** The fee object of the snapshot for `optionValue` (the token's smallest units), or null. */
export function feeOf(fee: MockFee | null, unit: string, optionValue: bigint) {
  if (!fee) return null;
  const base = toBig(fee.base);
  const numerator = toBig(fee.percent?.numerator);
  const denominator = toBig(fee.percent?.denominator ?? 1);
  const percentAmount = denominator === 0n ? 0n : (optionValue * numerator) / denominator;
  const total = base + percentAmount;
  return {
    kind: 'base_plus_percent',
    base_amount: { unit, value: base.toString() },
    percent: { numerator: numerator.toString(), denominator: denominator.toString() },
    percent_amount: { unit, value: percentAmount.toString() },
    total_amount: { unit, value: total.toString() },
  };
}

/** What settles for a paid payment: the option's amount less the fee (never below zero). */
export function settledValue(payment: PaymentRecord, fee: MockFee | null): bigint {
  const charged = feeOf(fee, '', payment.tokenValue);
  const rest = payment.tokenValue - (charged ? BigInt(charged.total_amount.value) : 0n);
  return rest < 0n ? 0n : rest;
}

/** The payment's snapshot (`data`) as it stands, with `status` as the event states it. */
export function snapshotOf(payment: PaymentRecord, status: string, fee: MockFee | null) {
  const stages = payment.stages ?? {};
  const unit = `caip19/${payment.token.asset}`;
  const tx = payment.tx ? testTxId(payment.id) : null;
  const settlement = payment.settlement;
  return {
    payment_id: payment.id,
    merchant_id: payment.merchantId,
    live: false,
    payment_state_version: payment.version ?? 0,
    reference_id: payment.referenceId,
    status,
    amount: { unit: `iso4217/${payment.currency}`, value: payment.fiatMinor.toString() },
    created_at: isoTime(payment.createdAt),
    expires_at: isoTime(payment.expiresAt * 1000),
    processing:
      stages.processingAt === undefined
        ? null
        : {
            processing_at: isoTime(stages.processingAt),
            option_amount: { unit, value: payment.tokenValue.toString() },
            fee: feeOf(fee, unit, payment.tokenValue),
            settlement_amount: { unit, value: settledValue(payment, fee).toString() },
            buyer_caip10: payment.buyer
              ? `${payment.token.network.id}:${payment.buyer.address}`
              : null,
            chain_caip2: payment.token.network.id,
          },
    success:
      stages.succeededAt === undefined
        ? null
        : { succeeded_at: isoTime(stages.succeededAt), tx_id: tx },
    failed:
      stages.failedAt === undefined
        ? null
        : { failed_at: isoTime(stages.failedAt), failure_reason: stages.failureReason ?? null },
    cancelled:
      stages.cancelledAt === undefined
        ? null
        : {
            cancelled_at: isoTime(stages.cancelledAt),
            cancellation_reason: stages.cancellationReason ?? null,
          },
    expired: stages.expiredAt === undefined ? null : { expired_at: isoTime(stages.expiredAt) },
    settled:
      settlement?.settled && settlement.at !== null
        ? {
            settled_at: isoTime(settlement.at),
            tx_id: settlement.txHash,
            amount: { unit, value: settledValue(payment, fee).toString() },
          }
        : null,
  };
}

type Snapshot = ReturnType<typeof snapshotOf>;

/**
 * The envelope `{ id, type, api_version, created_at, data }`, serialised as the service does.
 * Throws, sending nothing, when `data` lacks a stage `type` implies: the mock never sends one.
 */
export function eventBody(id: string, type: PaymentEventType, at: number, data: Snapshot): string {
  const missing = IMPLIED_STAGES[type].find((stage) => data[stage] === null);
  if (missing !== undefined) {
    throw new Error(`mock webhooks: ${type} for ${data.payment_id} lacks its ${missing} stage`);
  }
  return serviceJson({
    id,
    type,
    api_version: WEBHOOK_API_VERSION,
    created_at: isoTime(at),
    data,
  });
}
