import type {
  ApiPromise,
  CreatedPayment,
  CreateRequestOptions,
  CryptoSettlement,
  CryptoSettlementParams,
  Merchant,
  MerchantCreateParams,
  MerchantUpdateParams,
  MerchantWithSettlements,
  PaymentCheckoutParams,
  PaymentCreated,
  PaymentCreateParams,
  PaymentView,
  RequestOptions,
} from 'merchant-gateway';
import { describe, expectTypeOf, it } from 'vitest';
import { typesGateway } from '../support/types-client';

const gateway = typesGateway;
const { merchants, settlements, payments } = gateway;
const usdc = {
  asset: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  destination: 'eip155:8453:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb',
};
const amount = { unit: 'iso4217/USD', value: '100' };

describe('resource method signatures', () => {
  it('merchants.create takes params and create options and returns ApiPromise<Merchant>', () => {
    expectTypeOf(merchants.create).parameters.toEqualTypeOf<
      [MerchantCreateParams, (CreateRequestOptions | undefined)?]
    >();
    expectTypeOf(merchants.create).returns.toEqualTypeOf<ApiPromise<Merchant>>();
    expectTypeOf(merchants.create).toBeCallableWith(
      { merchantName: 'Acme', merchantEmail: 'pay@acme.io', iconUrl: null },
      { idempotencyKey: 'k-1' },
    );
    // @ts-expect-error merchantEmail is required
    expectTypeOf(merchants.create).toBeCallableWith({ merchantName: 'Acme' });
    expectTypeOf<keyof MerchantCreateParams>().toEqualTypeOf<
      'merchantName' | 'merchantEmail' | 'iconUrl'
    >();
    const typo: MerchantCreateParams = {
      merchantName: 'A',
      merchantEmail: 'a@b.io',
      // @ts-expect-error a misspelt field is not a field
      merchantNmae: 'B',
    };
    expectTypeOf(typo).toEqualTypeOf<MerchantCreateParams>();
  });

  it('merchants.update takes an id, params and plain options and returns ApiPromise<Merchant>', () => {
    expectTypeOf(merchants.update).parameters.toEqualTypeOf<
      [string, MerchantUpdateParams, (RequestOptions | undefined)?]
    >();
    expectTypeOf(merchants.update).returns.toEqualTypeOf<ApiPromise<Merchant>>();
    expectTypeOf(merchants.update).toBeCallableWith('mer_1', { iconUrl: null });
    expectTypeOf<keyof MerchantUpdateParams>().toEqualTypeOf<
      'merchantName' | 'merchantEmail' | 'iconUrl'
    >();
    expectTypeOf(merchants.update).toBeCallableWith(
      'mer_1',
      { iconUrl: null },
      // @ts-expect-error only creates take an idempotency key
      { idempotencyKey: 'k' },
    );
  });

  it('merchants.get returns ApiPromise<MerchantWithSettlements>', () => {
    expectTypeOf(merchants.get).parameters.toEqualTypeOf<[string, (RequestOptions | undefined)?]>();
    expectTypeOf(merchants.get).returns.toEqualTypeOf<ApiPromise<MerchantWithSettlements>>();
  });

  it('settlements.createCrypto takes a readonly array and returns ApiPromise<CryptoSettlement[]>', () => {
    expectTypeOf(settlements.createCrypto).parameters.toEqualTypeOf<
      [string, readonly CryptoSettlementParams[], (CreateRequestOptions | undefined)?]
    >();
    expectTypeOf(settlements.createCrypto).returns.toEqualTypeOf<ApiPromise<CryptoSettlement[]>>();
    expectTypeOf(settlements.createCrypto).toBeCallableWith('mer_1', [usdc] as const);
  });

  it('payments.create accepts string, number or bigint minor units and returns ApiPromise<PaymentCreated>', () => {
    expectTypeOf<PaymentCreateParams['amount']['value']>().toEqualTypeOf<
      string | number | bigint
    >();
    expectTypeOf<PaymentCreateParams['expiresAt']>().toEqualTypeOf<
      number | Date | null | undefined
    >();
    expectTypeOf(payments.create).returns.toEqualTypeOf<ApiPromise<CreatedPayment>>();
    expectTypeOf(payments.create).toBeCallableWith({ amount, referenceId: 'r' });
    expectTypeOf(payments.create).toBeCallableWith(
      {
        merchantId: 'mer_1',
        amount: { ...amount, value: 100n },
        referenceId: 'r',
        expiresAt: new Date(),
      },
      { idempotencyKey: 'order-1' },
    );
    // @ts-expect-error referenceId is required
    expectTypeOf(payments.create).toBeCallableWith({ amount });
  });

  it('payments.create takes the preview checkout with both URLs, and no other field', () => {
    expectTypeOf<PaymentCreateParams['checkout']>().toEqualTypeOf<
      PaymentCheckoutParams | undefined
    >();
    expectTypeOf<PaymentCheckoutParams>().toEqualTypeOf<{ successUrl: string; errorUrl: string }>();
    const checkout = { successUrl: 'https://a.example/ok', errorUrl: 'https://a.example/no' };
    expectTypeOf(payments.create).toBeCallableWith({ amount, referenceId: 'r', checkout });
    expectTypeOf(payments.create).toBeCallableWith({
      amount,
      referenceId: 'r',
      // @ts-expect-error errorUrl is required
      checkout: { successUrl: 'https://a.example/ok' },
    });
  });

  it('payments.get returns ApiPromise<PaymentView>', () => {
    expectTypeOf(payments.get).parameters.toEqualTypeOf<[string, (RequestOptions | undefined)?]>();
    expectTypeOf(payments.get).returns.toEqualTypeOf<ApiPromise<PaymentView>>();
  });

  it('an ApiPromise awaits to its data and .withResponse() adds the response and request id', () => {
    expectTypeOf<Awaited<ApiPromise<Merchant>>>().toEqualTypeOf<Merchant>();
    expectTypeOf<ReturnType<ApiPromise<Merchant>['withResponse']>>().toEqualTypeOf<
      Promise<{ data: Merchant; response: Response; requestId?: string }>
    >();
  });
});

describe('response field types', () => {
  it('Merchant status takes any string but keeps the known ones for completion', () => {
    expectTypeOf<'active'>().toExtend<Merchant['status']>();
    expectTypeOf<string>().toExtend<Merchant['status']>();
    expectTypeOf<Extract<Merchant['status'], 'active' | 'inactive' | 'suspended'>>().toEqualTypeOf<
      'active' | 'inactive' | 'suspended'
    >();
    expectTypeOf<Merchant['status']>().not.toEqualTypeOf<string>();
  });

  it('payment statuses take any string but keep the known ones', () => {
    type Known =
      | 'requires_action'
      | 'processing'
      | 'succeeded'
      | 'failed'
      | 'expired'
      | 'cancelled';
    expectTypeOf<Extract<PaymentView['status'], Known>>().toEqualTypeOf<Known>();
    expectTypeOf<Extract<PaymentCreated['status'], Known>>().toEqualTypeOf<Known>();
    expectTypeOf<string>().toExtend<PaymentView['status']>();
  });

  it('types the nulls the service is known to send', () => {
    expectTypeOf<null>().toExtend<PaymentView['buyer']>();
    expectTypeOf<NonNullable<PaymentView['buyer']>['accountCaip10']>().toEqualTypeOf<string>();
    expectTypeOf<Merchant['email']>().toEqualTypeOf<string | null>();
    expectTypeOf<Merchant['iconUrl']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<PaymentCreated['pollInMs']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<PaymentView['amount']['display']['decimals']>().toEqualTypeOf<number>();
    expectTypeOf<PaymentView['amount']['display']['iconUrl']>().toEqualTypeOf<
      string | null | undefined
    >();
  });

  it('names only the declared fields: an unknown one is not in the type', () => {
    expectTypeOf<Merchant>().not.toHaveProperty('partnerId');
    expectTypeOf<MerchantWithSettlements['settlements']['crypto']>().toEqualTypeOf<
      CryptoSettlement[]
    >();
  });
});
