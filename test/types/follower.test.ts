import type {
  FollowerErrorInfo,
  FollowerIngestOutcome,
  PaymentFollower,
  PaymentFollowerCheckpoint,
  PaymentStatus,
  PaymentStatusChange,
  PaymentStatusResult,
} from 'merchant-gateway';
import { describe, expectTypeOf, it } from 'vitest';
import { typesGateway } from '../support/types-client';

// Types only: each `@ts-expect-error` fails the typecheck if the line below it compiles.
const gateway = typesGateway;
const value = <T>(): T => ({}) as T;

describe('payments.follower types', () => {
  it('returns a PaymentFollower that iterates PaymentStatusChange', () => {
    expectTypeOf(gateway.payments.follower).returns.toEqualTypeOf<PaymentFollower>();
    expectTypeOf<PaymentFollower>().toExtend<AsyncIterable<PaymentStatusChange>>();
  });

  it('a change is closed and names its parts', () => {
    const change = value<PaymentStatusChange>();
    expectTypeOf(change.status).toEqualTypeOf<PaymentStatus>();
    expectTypeOf(change.previousStatus).toEqualTypeOf<PaymentStatus | undefined>();
    expectTypeOf(change.result).toEqualTypeOf<PaymentStatusResult>();
    expectTypeOf(change.source).toEqualTypeOf<'poll' | 'webhook'>();
    // @ts-expect-error a misspelt field
    void change.previous_status;
  });

  it('ingest takes an event and says what it did with it', () => {
    const follower = value<PaymentFollower>();
    expectTypeOf(follower.ingest).returns.toEqualTypeOf<Promise<FollowerIngestOutcome>>();
    expectTypeOf<FollowerIngestOutcome>().toEqualTypeOf<'yielded' | 'stale' | 'not-followed'>();
    // @ts-expect-error a payment id is no event
    const ingest = () => follower.ingest('pay_1');
    expectTypeOf(ingest).toBeFunction();
  });

  it('add takes a PaymentCreated, an id or { paymentId, merchantId? }, nothing else', () => {
    const follower = value<PaymentFollower>();
    expectTypeOf(follower.add).toBeCallableWith('pay_1');
    expectTypeOf(follower.add).toBeCallableWith({ paymentId: 'pay_1', merchantId: 'm_1' });
    // @ts-expect-error a number is no payment
    const add = () => follower.add(42);
    expectTypeOf(add).toBeFunction();
  });

  it('a checkpoint is plain JSON data that resumeFrom takes back', () => {
    const checkpoint = value<PaymentFollowerCheckpoint>();
    expectTypeOf(checkpoint.version).toEqualTypeOf<1>();
    expectTypeOf(gateway.payments.follower).toBeCallableWith({ resumeFrom: checkpoint });
    // Never called: only its type is checked.
    const resume = () =>
      // @ts-expect-error not a checkpoint
      gateway.payments.follower({ resumeFrom: { payments: [] } });
    expectTypeOf(resume).toBeFunction();
  });

  it('onError is told whether the payment left, and has() answers a boolean', () => {
    expectTypeOf(gateway.payments.follower).toBeCallableWith({
      onError: (error: Error, paymentId: string | undefined, { left }: FollowerErrorInfo) => {
        expectTypeOf(left).toEqualTypeOf<boolean>();
        void [error, paymentId];
      },
    });
    expectTypeOf(value<PaymentFollower>().has).toEqualTypeOf<(paymentId: string) => boolean>();
    // @ts-expect-error left is a boolean, not a string
    const info: FollowerErrorInfo = { left: 'yes' };
    void info;
  });
});
