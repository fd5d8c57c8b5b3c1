import type { ApiPromise, CreatedPayment, PaymentCreated } from 'merchant-gateway';
import { describe, expectTypeOf, it } from 'vitest';
import { typesGateway } from '../support/types-client';

const gateway = typesGateway;

describe('what a new integrator writes compiles', () => {
  it('an ApiPromise takes .catch((e: Error) => …) and .then(ok, (e: Error) => …) as any Promise does', () => {
    const call = (): ApiPromise<{ id: string }> =>
      gateway.merchants.get('m_1') as unknown as ApiPromise<{ id: string }>;
    const caught = () => call().catch((e: Error) => e.message);
    expectTypeOf(caught).returns.toEqualTypeOf<Promise<{ id: string } | string>>();
    const both = () =>
      call().then(
        (m) => m.id.length,
        (e: Error) => e.name,
      );
    expectTypeOf(both).returns.toEqualTypeOf<Promise<number | string>>();
    // The same handlers on a plain Promise of the same value: the two agree.
    const plain = () => Promise.resolve({ id: 'm_1' }).catch((e: Error) => e.message);
    expectTypeOf(plain).returns.toEqualTypeOf<ReturnType<typeof caught>>();
  });

  it('what payments.create returns has merchantId: string', () => {
    const created = async () => {
      const payment = await gateway.payments.create({
        merchantId: 'm_1',
        amount: { unit: 'iso4217/USD', value: '100' },
        referenceId: 'order-1',
      });
      const m: string = payment.merchantId;
      return m;
    };
    expectTypeOf(created).returns.toEqualTypeOf<Promise<string>>();
    expectTypeOf(gateway.payments.create).returns.toEqualTypeOf<ApiPromise<CreatedPayment>>();
    // Still a PaymentCreated: every method that takes one takes it.
    expectTypeOf<CreatedPayment>().toExtend<PaymentCreated>();
  });
});
