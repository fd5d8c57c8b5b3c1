import type {
  Amount,
  AmountDisplay,
  ApiPromise,
  CreatedPayment,
  CryptoSettlement,
  FiatSettlement,
  LegacyPayment,
  LegacyPaymentsPage,
  LegacyPaymentsStats,
  ListAmount,
  Merchant,
  MerchantPayment,
  MerchantPaymentMerchant,
  MerchantPaymentsPage,
  MerchantPaymentsStats,
  MerchantSettlements,
  MerchantWithSettlements,
  PagePromise,
  PaymentBuyer,
  PaymentCreated,
  PaymentFees,
  PaymentSettlement,
  PaymentStatus,
  PaymentTransaction,
  PaymentView,
  PaymentViewMerchant,
  Revenue,
} from 'merchant-gateway';
import { describe, expectTypeOf, it } from 'vitest';
import { typesGateway } from '../support/types-client';

// Never sends a request: these tests only look at types. Each `@ts-expect-error` fails the
// typecheck (`tsc --noEmit`) if the line below it compiles, i.e. if the type were open again.
const gateway = typesGateway;
// Any property of it, at any depth, is itself: the checks below run without throwing.
const anything: unknown = new Proxy(() => anything, { get: () => anything });
const value = <T>(): T => anything as T;

describe('every result type is closed: a misspelt field does not compile', () => {
  it('PaymentCreated', () => {
    const payment = value<PaymentCreated>();
    // @ts-expect-error gatewayURL is not a field (gatewayUrl is)
    payment.gatewayURL;
    // @ts-expect-error paymentID is not a field
    payment.paymentID;
    // @ts-expect-error merchantID is not a field (merchantId, which the SDK adds, is)
    payment.merchantID;
    expectTypeOf(payment.gatewayUrl).toEqualTypeOf<string>();
    expectTypeOf(payment.merchantId).toEqualTypeOf<string | undefined>();
  });

  it('PaymentView and its amount, display, buyer and merchant', () => {
    const view = value<PaymentView>();
    // @ts-expect-error expiresIn is not a field
    view.expiresIn;
    // @ts-expect-error amount has no amount field
    view.amount.amount;
    // @ts-expect-error display has no symbol field (assetSymbol is)
    view.amount.display.symbol;
    // @ts-expect-error buyer has no address field
    view.buyer?.address;
    // @ts-expect-error merchant has no id in the buyer-facing view
    view.merchant.id;
    expectTypeOf(view.amount).toEqualTypeOf<Amount>();
    expectTypeOf(view.amount.display).toEqualTypeOf<AmountDisplay>();
    expectTypeOf(view.buyer).toEqualTypeOf<PaymentBuyer | null | undefined>();
    expectTypeOf(view.merchant).toEqualTypeOf<PaymentViewMerchant>();
  });

  it('Merchant, MerchantWithSettlements and their settlements', () => {
    const merchant = value<Merchant>();
    // @ts-expect-error settlement is not a field of Merchant
    merchant.settlement;
    // @ts-expect-error merchantName is the request's name, not the response's
    merchant.merchantName;
    const full = value<MerchantWithSettlements>();
    // @ts-expect-error settlement (singular) is not a field
    full.settlement;
    // @ts-expect-error there is no bank list
    full.settlements.bank;
    const settlements = value<MerchantSettlements>();
    expectTypeOf(full.settlements).toEqualTypeOf<MerchantSettlements>();
    expectTypeOf(settlements.crypto).toEqualTypeOf<CryptoSettlement[]>();
    expectTypeOf(settlements.fiat).toEqualTypeOf<FiatSettlement[]>();
    // @ts-expect-error a crypto settlement has no address (destination is)
    settlements.crypto[0]?.address;
    // @ts-expect-error a fiat settlement has no iban
    settlements.fiat[0]?.iban;
  });

  it('MerchantPayment and every nested shape', () => {
    const p = value<MerchantPayment>();
    // @ts-expect-error fiatAmmount is misspelt
    p.fiatAmmount;
    // @ts-expect-error merchant has no email
    p.merchant.email;
    // @ts-expect-error tokenAmount has no amount
    p.tokenAmount?.amount;
    // @ts-expect-error transaction has no txHash (hash is)
    p.transaction?.txHash;
    // @ts-expect-error fees has no percent (percentage is)
    p.fees?.percent;
    // @ts-expect-error settlement has no hash (txHash is)
    p.settlement?.hash;
    expectTypeOf(p.merchant).toEqualTypeOf<MerchantPaymentMerchant>();
    expectTypeOf(p.fiatAmount).toEqualTypeOf<Amount | null | undefined>();
    expectTypeOf(p.tokenAmount).toEqualTypeOf<ListAmount | null | undefined>();
    expectTypeOf(p.transaction).toEqualTypeOf<PaymentTransaction | null | undefined>();
    expectTypeOf(p.fees).toEqualTypeOf<PaymentFees | null | undefined>();
    expectTypeOf(p.settlement).toEqualTypeOf<PaymentSettlement | null | undefined>();
    expectTypeOf(p.buyer).toEqualTypeOf<PaymentBuyer | null | undefined>();
  });

  it('MerchantPaymentsPage and its stats', () => {
    const page = value<MerchantPaymentsPage>();
    // @ts-expect-error next_cursor is the legacy name
    page.next_cursor;
    // @ts-expect-error stats has no revenue (totalRevenue is)
    page.stats.revenue;
    // @ts-expect-error a revenue entry has no value (amount is)
    page.stats.totalRevenue[0]?.value;
    expectTypeOf(page.stats).toEqualTypeOf<MerchantPaymentsStats>();
    expectTypeOf(page.stats.totalRevenue).toEqualTypeOf<Revenue[]>();
  });

  it('LegacyPayment, LegacyPaymentsPage and its stats', () => {
    const item = value<LegacyPayment>();
    // @ts-expect-error paymentId is the replacement list's name
    item.paymentId;
    const page = value<LegacyPaymentsPage>();
    // @ts-expect-error nextCursor is the replacement list's name
    page.nextCursor;
    // @ts-expect-error totalRevenue is the replacement list's name
    page.stats.totalRevenue;
    expectTypeOf(page.stats).toEqualTypeOf<LegacyPaymentsStats>();
    expectTypeOf(page.stats.total_revenue).toEqualTypeOf<Revenue>();
  });
});

describe('every amount in a result has a type', () => {
  it('fees and settlement amounts are minor-unit amounts, not unknown', () => {
    const fees = value<PaymentFees>();
    expectTypeOf(fees.total).toEqualTypeOf<ListAmount>();
    expectTypeOf(fees.fixed).toEqualTypeOf<ListAmount | null | undefined>();
    expectTypeOf(fees.percentage).toEqualTypeOf<string | null | undefined>();
    expectTypeOf(value<PaymentSettlement>().amount).toEqualTypeOf<ListAmount | null | undefined>();
    expectTypeOf(value<ListAmount>().value).toEqualTypeOf<string>();
    expectTypeOf(value<ListAmount>().display).toEqualTypeOf<AmountDisplay | null | undefined>();
  });

  it('revenue stats are major-unit numbers', () => {
    expectTypeOf(value<Revenue>().amount).toEqualTypeOf<number>();
  });
});

describe('resource methods return the named types', () => {
  it('each method resolves to its named result', () => {
    expectTypeOf(gateway.merchants.create).returns.toEqualTypeOf<ApiPromise<Merchant>>();
    expectTypeOf(gateway.merchants.update).returns.toEqualTypeOf<ApiPromise<Merchant>>();
    expectTypeOf(gateway.merchants.get).returns.toEqualTypeOf<
      ApiPromise<MerchantWithSettlements>
    >();
    expectTypeOf(gateway.settlements.createCrypto).returns.toEqualTypeOf<
      ApiPromise<CryptoSettlement[]>
    >();
    expectTypeOf(gateway.payments.create).returns.toEqualTypeOf<ApiPromise<CreatedPayment>>();
    expectTypeOf(gateway.payments.get).returns.toEqualTypeOf<ApiPromise<PaymentView>>();
    expectTypeOf(gateway.payments.list).returns.toEqualTypeOf<
      PagePromise<MerchantPayment, MerchantPaymentsPage>
    >();
    expectTypeOf(gateway.legacyPayments.list).returns.toEqualTypeOf<
      PagePromise<LegacyPayment, LegacyPaymentsPage>
    >();
  });
});

describe('statuses stay open', () => {
  it('a status the SDK does not know is still a PaymentStatus', () => {
    expectTypeOf<'on_hold'>().toExtend<PaymentStatus>();
    expectTypeOf<'succeeded'>().toExtend<PaymentStatus>();
    // Known | (string & {}) also lets a misspelt literal compare (see docs/errors.md, Validation): a closed
    // union would reject it, but would then reject the statuses the service adds too.
    const status = value<PaymentStatus>();
    expectTypeOf(status === 'succeded').toEqualTypeOf<boolean>();
  });
});
