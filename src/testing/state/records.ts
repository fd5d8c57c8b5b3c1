import { FINAL_PAYMENT_STATUSES, type KnownPaymentStatus } from '../../rules/payments';
import { type Token, WALLETS, type Wallet } from './catalog';
import type { Rng } from './rng';

const FINAL: ReadonlySet<KnownPaymentStatus> = new Set(FINAL_PAYMENT_STATUSES);

export function isFinalStatus(status: KnownPaymentStatus): boolean {
  return FINAL.has(status);
}

export interface CryptoSettlementRecord {
  id: string;
  asset: string;
  destination: string;
}

export interface FiatSettlementRecord {
  id: string;
  status: string;
  bankType: string;
}

export interface MerchantRecord {
  id: string;
  name: string;
  email: string;
  status: string;
  iconUrl: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds of the soft delete; such a merchant answers 404 everywhere but DELETE. */
  deletedAt?: number;
  crypto: CryptoSettlementRecord[];
  fiat: FiatSettlementRecord[];
}

export interface PaymentRecord {
  id: string;
  merchantId: string;
  referenceId: string;
  /** The stored status; read it through `statusAt`, which applies expiry. */
  status: KnownPaymentStatus;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds. */
  updatedAt: number;
  /** Epoch seconds. */
  expiresAt: number;
  currency: string;
  /** Fiat amount in the currency's minor units. */
  fiatMinor: bigint;
  token: Token;
  /** Token amount in the token's smallest unit. */
  tokenValue: bigint;
  buyer: { address: string; wallet: Wallet } | null;
  tx: { hash: string; nonce: number } | null;
  settlement: { settled: boolean; txHash: string | null; at: number | null } | null;
  /**
   * When each stage of a payment created while the mock runs was reached (epoch ms), what its
   * webhook snapshots show; absent on the seeded history, which sends no events.
   */
  stages?: PaymentStages;
  /** `payment_state_version`: 0 at creation, one more per change; absent on the seeded history. */
  version?: number;
}

/** The stage times and reasons a payment's webhook snapshot shows (`processing`, `success`, …). */
export interface PaymentStages {
  processingAt?: number;
  succeededAt?: number;
  failedAt?: number;
  failureReason?: string;
  cancelledAt?: number;
  cancellationReason?: string;
  expiredAt?: number;
}

/** Epoch milliseconds as the service writes times: ISO 8601 with milliseconds and `Z`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** A CAIP-10 account: `address` on the payment's network. */
export function accountOn(payment: PaymentRecord, address: string): string {
  return `${payment.token.network.id}:${address}`;
}

/** The status a reader sees at `nowMs`: a payment still awaiting its buyer past its expiry is expired. */
export function statusAt(payment: PaymentRecord, nowMs: number): KnownPaymentStatus {
  if (payment.status === 'requires_action' && nowMs >= payment.expiresAt * 1000) return 'expired';
  return payment.status;
}

/** When the payment last changed, as a reader sees it at `nowMs`. */
export function updatedAt(payment: PaymentRecord, nowMs: number): number {
  return statusAt(payment, nowMs) === payment.status ? payment.updatedAt : payment.expiresAt * 1000;
}

/**
 * Moves a payment to `status` at `at` (epoch ms), filling what that status implies: a buyer and a
 * transaction once the buyer has acted, a settlement once it succeeded.
 */
export function moveTo(
  payment: PaymentRecord,
  status: KnownPaymentStatus,
  at: number,
  rng: Rng,
): void {
  const buyerActed = status === 'processing' || status === 'succeeded' || status === 'failed';
  if (buyerActed) {
    payment.buyer ??= { address: rng.hex(40), wallet: rng.pick(WALLETS) };
    payment.tx ??= { hash: rng.hex(64), nonce: rng.int(0, 5000) };
  }
  if (status === 'succeeded') payment.settlement ??= { settled: true, txHash: rng.hex(64), at };
  payment.status = status;
  payment.updatedAt = at;
}
