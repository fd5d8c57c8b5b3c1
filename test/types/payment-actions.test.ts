import type {
  ApiPromise,
  ConnectionError,
  CreateRequestOptions,
  FinalPaymentStatusResult,
  FollowReadError,
  PaymentActionParams,
  PaymentCancellation,
  PaymentCreated,
  PaymentDetails,
  PaymentStatusParams,
  PaymentStatusResult,
  PollOptions,
  PollTimeoutError,
  Refund,
  RefundCreateParams,
  RequestOptions,
  ServerError,
} from 'merchant-gateway';
import { describe, expectTypeOf, it } from 'vitest';
import { typesGateway } from '../support/types-client';

const gateway = typesGateway;
const { payments, refunds } = gateway;

describe('payment action signatures', () => {
  it('details, status and cancel take an id, optional params and options', () => {
    expectTypeOf(payments.details).parameters.toEqualTypeOf<
      [string, (PaymentActionParams | undefined)?, (RequestOptions | undefined)?]
    >();
    expectTypeOf(payments.details).returns.toEqualTypeOf<ApiPromise<PaymentDetails>>();
    expectTypeOf(payments.status).parameters.toEqualTypeOf<
      [string, (PaymentStatusParams | undefined)?, (RequestOptions | undefined)?]
    >();
    expectTypeOf(payments.status).returns.toEqualTypeOf<ApiPromise<PaymentStatusResult>>();
    expectTypeOf(payments.cancel).parameters.toEqualTypeOf<
      [string, (PaymentActionParams | undefined)?, (CreateRequestOptions | undefined)?]
    >();
    expectTypeOf(payments.cancel).returns.toEqualTypeOf<ApiPromise<PaymentCancellation>>();
  });

  it('refunds.create takes params without an idempotency key and returns ApiPromise<Refund>', () => {
    expectTypeOf(refunds.create).parameters.toEqualTypeOf<
      [RefundCreateParams, (RequestOptions | undefined)?]
    >();
    expectTypeOf(refunds.create).returns.toEqualTypeOf<ApiPromise<Refund>>();
    // Never called: only the compiler looks at these.
    const misuse = () => {
      // @ts-expect-error refunds take no idempotency key
      void refunds.create({ paymentId: 'pay_1' }, { idempotencyKey: 'k' });
      // @ts-expect-error a refund is always in full: no amount
      void refunds.create({ paymentId: 'pay_1', amount: '5' });
    };
    expectTypeOf(misuse).toBeFunction();
  });

  it('polling returns status results, waitForFinal a final one', () => {
    expectTypeOf(payments.waitForFinal('pay_1')).toEqualTypeOf<Promise<FinalPaymentStatusResult>>();
    expectTypeOf<FinalPaymentStatusResult['isFinal']>().toEqualTypeOf<true>();
    expectTypeOf<FinalPaymentStatusResult>().toExtend<PaymentStatusResult>();
    expectTypeOf(payments.watch('pay_1')).toEqualTypeOf<AsyncIterable<PaymentStatusResult>>();
    expectTypeOf<PollTimeoutError['lastStatus']>().toEqualTypeOf<PaymentStatusResult | undefined>();
    expectTypeOf<PollTimeoutError['paymentId']>().toEqualTypeOf<string>();
  });

  it('a final result is closed, and its isFinal is narrowed', () => {
    const check = (result: FinalPaymentStatusResult) => {
      // @ts-expect-error failureCOde is not a field (failureCode is)
      void result.failureCOde;
      // @ts-expect-error a final result is never isFinal: false
      const open: FinalPaymentStatusResult = { ...result, isFinal: false };
      void open;
    };
    expectTypeOf(check).toBeFunction();
  });

  it('a created payment carries the merchant it was created for', () => {
    expectTypeOf<PaymentCreated['merchantId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf(payments.waitForFinal).parameter(0).toEqualTypeOf<PaymentCreated | string>();
  });

  it('onError receives the failures a follow outlives', () => {
    expectTypeOf<NonNullable<PollOptions['onError']>>()
      .parameter(0)
      .toEqualTypeOf<FollowReadError>();
    expectTypeOf<ConnectionError>().toExtend<FollowReadError>();
    expectTypeOf<ServerError>().toExtend<FollowReadError>();
  });
});

describe('payment action result types', () => {
  it('are closed: a misspelt field does not compile', () => {
    const check = (details: PaymentDetails, result: PaymentStatusResult) => {
      // @ts-expect-error referenceID is not a field (referenceId is)
      void details.referenceID;
      // @ts-expect-error pollInMS is not a field (pollInMs is)
      void result.pollInMS;
    };
    expectTypeOf(check).toBeFunction();
  });

  it('types the nulls and absences the service is known to send', () => {
    expectTypeOf<PaymentStatusResult['pollInMs']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<null>().toExtend<PaymentDetails['settlement']>();
    expectTypeOf<null>().toExtend<NonNullable<PaymentDetails['settlement']>['successful']>();
    expectTypeOf<
      NonNullable<NonNullable<PaymentDetails['settlement']>['successful']>['amount']['value']
    >().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<PaymentStatusResult['info']>['txId']>().toEqualTypeOf<string>();
    expectTypeOf<'declined_user'>().toExtend<PaymentStatusResult['failureCode']>();
    expectTypeOf<PaymentDetails['paymentId']>().toEqualTypeOf<string>();
    expectTypeOf<PaymentCancellation['cancelledAt']>().toEqualTypeOf<string>();
  });
});
