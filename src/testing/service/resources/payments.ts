import { DEFAULT_TOKEN, fiatToToken, type Token } from '../../state/catalog';
import { accountOn, isFinalStatus, type PaymentRecord, statusAt } from '../../state/records';
import { DEFAULT_EXPIRY_S } from '../../state/sample-data';
import type { Store } from '../../state/store';
import { checkCheckout, setCheckout } from '../buyer/checkout';
import { checkAmount, checkExpiresAt } from '../http/field-checks';
import {
  idempotent,
  jsonObjectBody,
  type RequestContext,
  throwIfIssues,
} from '../http/request-context';
import { type Issue, json, ServiceError } from '../http/responses';
import { recordCreated } from './lifecycle';

/** `{ accountCaip10, accountProviderIcon, accountProviderName }`, or null before a buyer acted. */
export function buyerJson(payment: PaymentRecord) {
  const { buyer } = payment;
  if (!buyer) return null;
  return {
    accountCaip10: accountOn(payment, buyer.address),
    accountProviderIcon: buyer.wallet.iconUrl,
    accountProviderName: buyer.wallet.name,
  };
}

/** The token side of a payment: `{ unit: 'caip19/…', value, display }`. */
export function tokenAmountJson(payment: PaymentRecord) {
  return tokenAmountOf(payment.token, payment.tokenValue);
}

/** `value` (the token's smallest unit) of `token` as the service writes an amount. */
export function tokenAmountOf(token: Token, value: bigint) {
  return {
    unit: `caip19/${token.asset}`,
    value: value.toString(),
    display: {
      assetName: token.name,
      assetSymbol: token.symbol,
      decimals: token.decimals,
      iconUrl: token.iconUrl,
      networkIconUrl: token.network.iconUrl,
      networkName: token.network.name,
    },
  };
}

/** POST /v1/payments */
export function createPayment(ctx: RequestContext): Response {
  const merchantId = ctx.request.headers.get('merchant-id');
  if (!merchantId) {
    throw new ServiceError(400, 'missing_merchant_id', 'Merchant-Id header is required');
  }
  // A soft-deleted merchant takes no new payments. The contract declares no 404 here: a
  // Merchant-Id naming no merchant is a bad request (400, a code of its shared list).
  const merchant = ctx.store.merchants.get(merchantId);
  if (!merchant || merchant.deletedAt !== undefined) {
    throw new ServiceError(400, 'merchant_not_found', `Merchant ${merchantId} not found`, {
      details: { merchantId },
    });
  }
  const body = jsonObjectBody(ctx);
  return idempotent(ctx, { required: false, request: { merchantId, body } }, () => {
    const issues: Issue[] = [];
    if (typeof body.referenceId !== 'string' || body.referenceId === '') {
      issues.push({ field: 'referenceId', message: 'must be a non-empty string' });
    }
    checkAmount(issues, body.amount);
    checkExpiresAt(issues, body.expiresAt, ctx.now);
    const checkout = checkCheckout(issues, body.checkout, ctx.request.headers.get('wcp-version'));
    throwIfIssues(issues);
    const amount = body.amount as { unit: string; value: string };
    const currency = amount.unit.slice('iso4217/'.length);
    const fiatMinor = BigInt(amount.value);
    const payment: PaymentRecord = {
      id: ctx.store.rng.id('pay'),
      merchantId,
      referenceId: body.referenceId as string,
      status: 'requires_action',
      createdAt: ctx.now,
      updatedAt: ctx.now,
      expiresAt:
        (body.expiresAt as number | null | undefined) ??
        Math.floor(ctx.now / 1000) + DEFAULT_EXPIRY_S,
      currency,
      fiatMinor,
      token: DEFAULT_TOKEN,
      tokenValue: fiatToToken(fiatMinor, currency, DEFAULT_TOKEN),
      buyer: null,
      tx: null,
      settlement: null,
    };
    ctx.store.payments.set(payment.id, payment);
    setCheckout(payment, checkout);
    recordCreated(ctx.store, payment);
    return {
      status: 201,
      body: {
        paymentId: payment.id,
        status: payment.status,
        isFinal: false,
        pollInMs: ctx.store.config.pollInMs,
        expiresAt: payment.expiresAt,
        // Beside `/v1/` under the same prefix, so the page works behind a proxy's base path too.
        gatewayUrl: `${ctx.url.origin}${basePath(ctx.url)}/pay/${encodeURIComponent(payment.id)}`,
      },
    };
  });
}

/** The path prefix before `/v1/` (`''` or e.g. `/api`): where the mock's other pages live too. */
export function basePath(url: URL): string {
  const v1 = url.pathname.indexOf('/v1/');
  return v1 === -1 ? '' : url.pathname.slice(0, v1);
}

/** The payment, or 404 `payment_not_found`. */
export function findPayment(store: Store, id: string): PaymentRecord {
  const payment = store.payments.get(id);
  if (!payment) throw paymentNotFound(id);
  return payment;
}

export function paymentNotFound(id: string): ServiceError {
  return new ServiceError(404, 'payment_not_found', `Payment ${id} not found`, {
    details: { paymentId: id },
  });
}

/** GET /v1/gateway/payment/{id} */
export function getPaymentView(ctx: RequestContext): Response {
  const payment = findPayment(ctx.store, ctx.params[0] ?? '');
  return json(200, paymentViewJson(ctx.store, payment, ctx.now));
}

/** The buyer's view of a payment (`GetPaymentResponse`): also the `info` of the options answer. */
export function paymentViewJson(store: Store, payment: PaymentRecord, now: number) {
  const status = statusAt(payment, now);
  const merchant = store.merchants.get(payment.merchantId);
  const { config } = store;
  const final = isFinalStatus(status);
  return {
    status,
    expiresAt: payment.expiresAt,
    amount: tokenAmountJson(payment),
    buyer: status === 'requires_action' ? null : buyerJson(payment),
    merchant: { iconUrl: merchant?.iconUrl ?? null, name: merchant?.name ?? '' },
    ...(config.viewPollHints ? { isFinal: final } : {}),
    ...(config.viewPollHints && !final ? { pollInMs: config.pollInMs } : {}),
  };
}
