import type { KnownPaymentStatus } from '../../../rules/payments';
import { fiatInfo } from '../../state/catalog';
import { feeOf, settledValue } from '../../state/events';
import {
  accountOn,
  isFinalStatus,
  isoTime as iso,
  type MerchantRecord,
  type PaymentRecord,
  statusAt,
  updatedAt,
} from '../../state/records';
import type { MockFee } from '../../types';
import { buyerJson, tokenAmountJson, tokenAmountOf } from './payments';

const INT32_MAX = 2_147_483_647n;

/**
 * Which statuses a list shows: `six` with `cancelled` (the replacement lists under
 * 2026-02-19.preview, and without `WCP-Version`), or `five` without it (the deprecated list, and
 * the replacement lists to a client that sent `WCP-Version: 2026-02-18`, whose status enum has no
 * `cancelled`).
 */
export type ListStatuses = 'six' | 'five';

/**
 * The status a list shows. Where `cancelled` is not a list status, a cancelled payment reads as
 * `failed`: it ended without being paid, as a 2026-02-18 service showed it.
 */
export function listStatus(
  payment: PaymentRecord,
  nowMs: number,
  statuses: ListStatuses = 'five',
): KnownPaymentStatus {
  const status = statusAt(payment, nowMs);
  return status === 'cancelled' && statuses === 'five' ? 'failed' : status;
}

/** An item of GET /v1/merchants/payments. */
export function paymentItem(
  payment: PaymentRecord,
  merchant: MerchantRecord,
  nowMs: number,
  statuses: ListStatuses = 'six',
  fee: MockFee | null = null,
) {
  const status = listStatus(payment, nowMs, statuses);
  const fiat = fiatInfo(payment.currency);
  const { tx, settlement } = payment;
  const buyer = buyerJson(payment);
  return {
    paymentId: payment.id,
    merchant: { id: merchant.id, name: merchant.name, iconUrl: merchant.iconUrl },
    referenceId: payment.referenceId,
    status,
    isTerminal: isFinalStatus(status),
    createdAt: iso(payment.createdAt),
    lastUpdatedAt: iso(updatedAt(payment, nowMs)),
    fiatAmount: {
      unit: `iso4217/${payment.currency}`,
      value: payment.fiatMinor.toString(),
      display: { assetName: fiat.name, assetSymbol: payment.currency, decimals: fiat.decimals },
    },
    tokenAmount: tokenAmountJson(payment),
    ...(buyer ? { buyer } : {}),
    ...(tx
      ? { transaction: { networkId: payment.token.network.id, hash: tx.hash, nonce: tx.nonce } }
      : {}),
    ...(feesJson(payment, fee) ?? {}),
    ...(settlement
      ? {
          settlement: {
            settled: settlement.settled,
            // The contract's settled amount is a fiat or a token amount, each with its display,
            // net of fees: what the webhook's `settled.amount` says too.
            ...(settlement.settled
              ? { amount: tokenAmountOf(payment.token, settledValue(payment, fee)) }
              : {}),
            ...(settlement.txHash ? { txHash: settlement.txHash } : {}),
          },
        }
      : {}),
    ...(settlement?.at ? { settledAt: iso(settlement.at) } : {}),
  };
}

/**
 * `fees` of a paid payment when the mock takes a fee: the total and fixed part in the paying
 * token, the percentage as a decimal string of percent (`"2.9"`), as the contract writes it.
 */
function feesJson(payment: PaymentRecord, fee: MockFee | null) {
  const charged = feeOf(fee, '', payment.tokenValue);
  if (!charged || payment.stages?.processingAt === undefined) return undefined;
  const { numerator, denominator } = charged.percent;
  const percent = denominator === '0' ? 0 : (Number(numerator) / Number(denominator)) * 100;
  return {
    fees: {
      total: tokenAmountOf(payment.token, BigInt(charged.total_amount.value)),
      fixed: tokenAmountOf(payment.token, BigInt(charged.base_amount.value)),
      percentage: String(Number(percent.toFixed(6))),
    },
  };
}

/** An item of the deprecated GET /v1/merchants/{merchant_id}/payments: every key, null where allowed. */
export function legacyPaymentItem(payment: PaymentRecord, nowMs: number) {
  const status = listStatus(payment, nowMs);
  const { token, buyer, tx, settlement } = payment;
  const fitsInt32 = payment.fiatMinor <= INT32_MAX;
  return {
    payment_id: payment.id,
    merchant_id: payment.merchantId,
    reference_id: payment.referenceId,
    status,
    is_terminal: isFinalStatus(status),
    wallet_name: buyer?.wallet.name ?? '',
    token_symbol: token.symbol,
    token_decimals: token.decimals,
    token_logo: token.iconUrl,
    chain_logo: token.network.iconUrl,
    wallet_logo: buyer?.wallet.iconUrl ?? null,
    chain_id: token.network.id,
    buyer_caip10: buyer ? accountOn(payment, buyer.address) : null,
    token_caip19: token.asset,
    tx_hash: tx?.hash ?? null,
    nonce: tx?.nonce ?? null,
    token_amount: payment.tokenValue.toString(),
    fiat_amount: fitsInt32 ? Number(payment.fiatMinor) : null,
    fiat_currency: payment.currency,
    created_at: iso(payment.createdAt),
    last_updated_at: iso(updatedAt(payment, nowMs)),
    settled_at: settlement?.at ? iso(settlement.at) : null,
    settlement_status: settlement ? (settlement.settled ? 'settled' : 'pending') : null,
    settlement_tx_hash: settlement?.txHash ?? null,
  };
}
