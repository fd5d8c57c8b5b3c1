import type { KnownPaymentStatus } from '../../rules/payments';
import { fiatInfo } from '../state/catalog';
import {
  accountOn,
  isFinalStatus,
  isoTime as iso,
  type MerchantRecord,
  type PaymentRecord,
  statusAt,
  updatedAt,
} from '../state/records';
import type { ListKind } from './list-query';
import { buyerJson, tokenAmountJson } from './payments';

const INT32_MAX = 2_147_483_647n;

/**
 * The status a list shows. The replacement lists show `cancelled` (as the 2026-02-19 contract
 * does); the deprecated list knows five statuses, so there a cancelled payment reads as failed.
 */
export function listStatus(
  payment: PaymentRecord,
  nowMs: number,
  kind: ListKind = 'legacy',
): KnownPaymentStatus {
  const status = statusAt(payment, nowMs);
  return status === 'cancelled' && kind === 'legacy' ? 'failed' : status;
}

/** An item of GET /v1/merchants/payments. */
export function paymentItem(payment: PaymentRecord, merchant: MerchantRecord, nowMs: number) {
  const status = listStatus(payment, nowMs, 'payments');
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
    ...(settlement
      ? {
          settlement: {
            settled: settlement.settled,
            ...(settlement.settled
              ? {
                  amount: {
                    unit: `caip19/${payment.token.asset}`,
                    value: payment.tokenValue.toString(),
                  },
                }
              : {}),
            ...(settlement.txHash ? { txHash: settlement.txHash } : {}),
          },
        }
      : {}),
    ...(settlement?.at ? { settledAt: iso(settlement.at) } : {}),
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
