import type {
  CryptoSettlement,
  CryptoSettlementListParamsSchema,
  CryptoSettlementParams,
  CryptoSettlementParamsSchema,
  CryptoSettlementSchema,
  FiatSettlement,
  FiatSettlementSchema,
  FiatSettlementStatus,
  Merchant,
  MerchantCreateParams,
  MerchantCreateParamsSchema,
  MerchantSchema,
  MerchantStatus,
  MerchantUpdateParams,
  MerchantUpdateParamsSchema,
  MerchantWithSettlements,
  MerchantWithSettlementsSchema,
  PaymentCreated,
  PaymentCreatedSchema,
  PaymentCreateParams,
  PaymentCreateParamsSchema,
  PaymentStatus,
  PaymentView,
  PaymentViewSchema,
} from 'merchant-gateway';
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';

describe('exported types are the ones their schemas infer', () => {
  it('response types are their schema outputs', () => {
    expectTypeOf<Merchant>().toEqualTypeOf<z.output<typeof MerchantSchema>>();
    expectTypeOf<MerchantWithSettlements>().toEqualTypeOf<
      z.output<typeof MerchantWithSettlementsSchema>
    >();
    expectTypeOf<FiatSettlement>().toEqualTypeOf<z.output<typeof FiatSettlementSchema>>();
    expectTypeOf<CryptoSettlement>().toEqualTypeOf<z.output<typeof CryptoSettlementSchema>>();
    expectTypeOf<PaymentCreated>().toEqualTypeOf<z.output<typeof PaymentCreatedSchema>>();
    expectTypeOf<PaymentView>().toEqualTypeOf<z.output<typeof PaymentViewSchema>>();
  });

  it('request types are their schema inputs', () => {
    expectTypeOf<MerchantCreateParams>().toEqualTypeOf<
      z.input<typeof MerchantCreateParamsSchema>
    >();
    expectTypeOf<MerchantUpdateParams>().toEqualTypeOf<
      z.input<typeof MerchantUpdateParamsSchema>
    >();
    expectTypeOf<CryptoSettlementParams>().toEqualTypeOf<
      z.input<typeof CryptoSettlementParamsSchema>
    >();
    expectTypeOf<CryptoSettlementParams[]>().toEqualTypeOf<
      z.input<typeof CryptoSettlementListParamsSchema>
    >();
    expectTypeOf<PaymentCreateParams>().toEqualTypeOf<z.input<typeof PaymentCreateParamsSchema>>();
  });

  it('status types are the type of their schema field', () => {
    expectTypeOf<MerchantStatus>().toEqualTypeOf<Merchant['status']>();
    expectTypeOf<FiatSettlementStatus>().toEqualTypeOf<FiatSettlement['status']>();
    expectTypeOf<PaymentStatus>().toEqualTypeOf<PaymentView['status']>();
    expectTypeOf<PaymentStatus>().toEqualTypeOf<PaymentCreated['status']>();
  });
});
