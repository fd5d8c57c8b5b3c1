import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  type Refund,
  RequestValidationError,
  ServerError,
  TimeoutError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { issuesOf } from '../../support';
import { BASE_URL, useMock } from './support';

const { mock, server, gateway, create, requestsTo } = useMock();

async function succeededPayment(): Promise<string> {
  const payment = await create();
  mock.setPaymentStatus(payment.paymentId, 'succeeded');
  return payment.paymentId;
}

/** Lets the mock act on the next refund, then loses its answer the way `lose` says. */
function actThenLose(lose: 'drop' | 'hang' | 502) {
  server.use(
    http.post(
      `${BASE_URL}/v1/refunds`,
      async ({ request }) => {
        await mock.fetch(request);
        if (lose === 'drop') return HttpResponse.error();
        if (lose === 'hang') return new Promise<Response>(() => {});
        return HttpResponse.json({ code: 'bad_gateway', message: 'upstream' }, { status: 502 });
      },
      { once: true },
    ),
  );
}

const refunded = () => mock.payments().filter((p) => p.refundedAt !== null);

describe('refunds.create', () => {
  it('refunds a succeeded payment once, with Merchant-Id and no Idempotency-Key', async () => {
    const paymentId = await succeededPayment();
    const refund = await gateway().refunds.create({ paymentId });
    expectTypeOf(refund).toEqualTypeOf<Refund>();
    expect(refund).toEqual({ paymentId });
    const [sent] = requestsTo('POST', '/v1/refunds');
    expect(sent?.body).toEqual({ paymentId });
    expect(sent?.headers['merchant-id']).toBe(mock.sample.merchantId);
    expect(sent?.headers['idempotency-key']).toBeUndefined();
    expect(refunded().map((p) => p.id)).toEqual([paymentId]);
  });

  it('is a ConflictError already_refunded on a first attempt that meets an earlier refund', async () => {
    const paymentId = await succeededPayment();
    await gateway().refunds.create({ paymentId });
    const error = await gateway()
      .refunds.create({ paymentId })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'already_refunded' });
    expect(requestsTo('POST', '/v1/refunds')).toHaveLength(2);
    expect(refunded()).toHaveLength(1);
  });

  it('is a ConflictError when the 409 follows only rate limiting (the service did not act)', async () => {
    const paymentId = await succeededPayment();
    await gateway().refunds.create({ paymentId });
    mock.failNext({ status: 429, retryAfter: 0, times: 2, match: { path: '/v1/refunds' } });
    const error = await gateway({ maxRetries: 3 })
      .refunds.create({ paymentId })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(requestsTo('POST', '/v1/refunds')).toHaveLength(4);
    expect(refunded()).toHaveLength(1);
  });

  it.each([
    ['a dropped connection', 'drop' as const],
    ['a 502', 502 as const],
  ])(
    'resolves when a retry after %s that refunded meets already_refunded: two attempts, one refund',
    async (_label, lose) => {
      const paymentId = await succeededPayment();
      actThenLose(lose);
      await expect(gateway().refunds.create({ paymentId })).resolves.toEqual({ paymentId });
      expect(requestsTo('POST', '/v1/refunds')).toHaveLength(2);
      expect(refunded().map((p) => p.id)).toEqual([paymentId]);
    },
  );

  it('resolves when a retry after a timeout that refunded meets already_refunded', async () => {
    const paymentId = await succeededPayment();
    actThenLose('hang');
    await expect(gateway({ timeoutMs: 200 }).refunds.create({ paymentId })).resolves.toEqual({
      paymentId,
    });
    expect(requestsTo('POST', '/v1/refunds')).toHaveLength(2);
    expect(refunded()).toHaveLength(1);
  });

  it('retries a 500 the service answered without acting, and refunds once', async () => {
    const paymentId = await succeededPayment();
    mock.failNext({ status: 500, match: { path: '/v1/refunds' } });
    await expect(gateway().refunds.create({ paymentId })).resolves.toEqual({ paymentId });
    expect(requestsTo('POST', '/v1/refunds')).toHaveLength(2);
    expect(refunded()).toHaveLength(1);
  });

  it('gives up after maxRetries on repeated timeouts, still refunding at most once', async () => {
    const paymentId = await succeededPayment();
    mock.failNext({ delayMs: 1000, times: 2, match: { path: '/v1/refunds' } });
    const error = await gateway({ timeoutMs: 100, maxRetries: 1 })
      .refunds.create({ paymentId })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(requestsTo('POST', '/v1/refunds')).toHaveLength(2);
    expect(refunded().length).toBeLessThanOrEqual(1);
  });

  it('is a ServerError after the retries when every attempt meets a 5xx', async () => {
    const paymentId = await succeededPayment();
    mock.failNext({ status: 503, times: 3 });
    await expect(gateway({ maxRetries: 2 }).refunds.create({ paymentId })).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(requestsTo('POST', '/v1/refunds')).toHaveLength(3);
    expect(refunded()).toHaveLength(0);
  });

  it('is an InvalidRequestError payment_not_succeeded for an open payment, which stays unrefunded', async () => {
    const payment = await create();
    const error = await gateway()
      .refunds.create({ paymentId: payment.paymentId })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ code: 'payment_not_succeeded' });
    expect(requestsTo('POST', '/v1/refunds')).toHaveLength(1);
    expect(refunded()).toHaveLength(0);
  });

  it('is a NotFoundError for another merchant payment', async () => {
    const paymentId = await succeededPayment();
    const other = mock.sample.otherMerchantIds[0] as string;
    await expect(gateway().refunds.create({ paymentId, merchantId: other })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(requestsTo('POST', '/v1/refunds')[0]?.headers['merchant-id']).toBe(other);
  });

  it('accepts a paymentId of exactly 64 characters (sent) and refuses 65 (not sent)', async () => {
    const at64 = `pay_${'a'.repeat(60)}`;
    await expect(gateway().refunds.create({ paymentId: at64 })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(requestsTo('POST', '/v1/refunds')).toHaveLength(1);
    expect(await issuesOf(gateway().refunds.create({ paymentId: `${at64}a` }))).toEqual([
      { field: 'paymentId', message: 'must be 1 to 64 characters' },
    ]);
    expect(requestsTo('POST', '/v1/refunds')).toHaveLength(1);
  });

  it.each([
    ['without the pay_ prefix', 'abc123'],
    ['with nothing after pay_', 'pay_'],
    ['with a dash', 'pay_a-b'],
    ['empty', ''],
    ['not a string', 42],
  ])('refuses a paymentId %s before sending', async (_label, paymentId) => {
    const error = await gateway()
      .refunds.create({ paymentId: paymentId as string })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.field).toBe('paymentId');
    expect(mock.requests).toHaveLength(0);
  });

  it('accepts the shortest paymentId, pay_ and one character', async () => {
    await expect(gateway().refunds.create({ paymentId: 'pay_1' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('refuses no merchant id, an unknown field and an idempotency key, before sending', async () => {
    await expect(
      gateway({ merchantId: undefined }).refunds.create({ paymentId: 'pay_1' }),
    ).rejects.toMatchObject({ issues: [{ field: 'merchantId' }] });
    await expect(
      gateway().refunds.create({ paymentId: 'pay_1', amount: '5' } as never),
    ).rejects.toMatchObject({ issues: [{ field: 'amount' }] });
    await expect(
      gateway().refunds.create({ paymentId: 'pay_1' }, { idempotencyKey: 'k' } as never),
    ).rejects.toMatchObject({ issues: [{ field: 'idempotencyKey' }] });
    expect(mock.requests).toHaveLength(0);
  });
});
