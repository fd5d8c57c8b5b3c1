import type {
  ApiPromise,
  CryptoSettlement,
  CryptoSettlementDeletion,
  CryptoSettlementUpdateParams,
  Merchant,
  MerchantDeletion,
  MerchantListParams,
  MerchantPayment,
  MerchantPaymentsPage,
  MerchantsPage,
  PagePromise,
  PartnerPaymentListParams,
  RequestOptions,
  SettlementList,
} from 'merchant-gateway';
import { describe, expectTypeOf, it } from 'vitest';
import { typesGateway } from '../support/types-client';

const gateway = typesGateway;
const { merchants, settlements, partnerPayments } = gateway;

describe('list and management method signatures', () => {
  it('partnerPayments.list takes one merchant id or many and pages MerchantPayment', () => {
    expectTypeOf(partnerPayments.list).returns.toEqualTypeOf<
      PagePromise<MerchantPayment, MerchantPaymentsPage>
    >();
    expectTypeOf(partnerPayments.list).toBeCallableWith({ merchantId: 'mer_1' });
    expectTypeOf(partnerPayments.list).toBeCallableWith({
      merchantId: ['mer_1', 'mer_2'],
      status: ['succeeded', 'cancelled'],
    });
    expectTypeOf(partnerPayments.list).toBeCallableWith();
    // @ts-expect-error a merchant id is a string
    expectTypeOf(partnerPayments.list).toBeCallableWith({ merchantId: 7 });
    expectTypeOf<PartnerPaymentListParams['merchantId']>().toEqualTypeOf<
      string | string[] | undefined
    >();
  });

  it('merchants.list pages Merchant with totalCount, and merchants.delete returns MerchantDeletion', () => {
    expectTypeOf(merchants.list).parameters.toEqualTypeOf<
      [(MerchantListParams | undefined)?, (RequestOptions | undefined)?]
    >();
    expectTypeOf(merchants.list).returns.toEqualTypeOf<PagePromise<Merchant, MerchantsPage>>();
    // @ts-expect-error status is one of active, inactive, suspended
    expectTypeOf(merchants.list).toBeCallableWith({ status: 'deleted' });
    expectTypeOf<MerchantsPage['totalCount']>().toEqualTypeOf<number>();
    expectTypeOf<MerchantsPage['nextCursor']>().toEqualTypeOf<string | null>();
    expectTypeOf(merchants.delete).returns.toEqualTypeOf<ApiPromise<MerchantDeletion>>();
    expectTypeOf<MerchantDeletion>().toEqualTypeOf<{ id: string; deleted: boolean }>();
  });

  it('settlement methods take ids and return named types', () => {
    expectTypeOf(settlements.list).returns.toEqualTypeOf<ApiPromise<SettlementList>>();
    expectTypeOf(settlements.updateCrypto).parameters.toEqualTypeOf<
      [string, string, CryptoSettlementUpdateParams, (RequestOptions | undefined)?]
    >();
    expectTypeOf(settlements.updateCrypto).returns.toEqualTypeOf<ApiPromise<CryptoSettlement>>();
    expectTypeOf(settlements.deleteCrypto).returns.toEqualTypeOf<
      ApiPromise<CryptoSettlementDeletion>
    >();
    // @ts-expect-error an idempotency key is only for create calls
    expectTypeOf(settlements.deleteCrypto).toBeCallableWith('m', 's', { idempotencyKey: 'k' });
  });

  it('the new result types are closed: a misspelt field does not compile', () => {
    const page = {} as MerchantsPage;
    const list = {} as SettlementList;
    const deletion = {} as CryptoSettlementDeletion;
    // @ts-expect-error totalcount is not a field
    void page.totalcount;
    // @ts-expect-error Crypto is not a field
    void list.Crypto;
    // @ts-expect-error deleteed is not a field
    void deletion.deleteed;
    expectTypeOf<SettlementList['fiat'][number]['bankType']>().toEqualTypeOf<string>();
  });
});
