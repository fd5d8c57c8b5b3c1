import {
  InvalidRequestError,
  type PaymentCancellation,
  RequestValidationError,
  ServerError,
} from 'merchant-gateway';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { useMock } from './support';

const { mock, gateway, create, requestsTo } = useMock();
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('payments.cancel', () => {
  it('cancels an open payment, always with a generated Idempotency-Key', async () => {
    const payment = await create();
    const cancellation = await gateway().payments.cancel(payment.paymentId);
    expectTypeOf(cancellation).toEqualTypeOf<PaymentCancellation>();
    expect(cancellation).toEqual({
      paymentId: payment.paymentId,
      status: 'cancelled',
      cancelledReason: 'cancelled_by_merchant',
      cancelledAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    const [sent] = requestsTo('POST', `/v1/payments/${payment.paymentId}/cancel`);
    expect(sent?.headers['idempotency-key']).toMatch(UUID_V4);
    expect(sent?.headers['merchant-id']).toBe(mock.sample.merchantId);
    expect(sent?.body).toBeUndefined();
    expect(mock.getPayment(payment.paymentId)?.status).toBe('cancelled');
    await expect(gateway().payments.status(payment.paymentId)).resolves.toMatchObject({
      status: 'cancelled',
      isFinal: true,
    });
  });

  it('sends the caller key, and the same key replays the first answer', async () => {
    const payment = await create();
    const first = await gateway().payments.cancel(payment.paymentId, {}, { idempotencyKey: 'c-1' });
    const again = await gateway().payments.cancel(payment.paymentId, {}, { idempotencyKey: 'c-1' });
    expect(again).toEqual(first);
    const sent = requestsTo('POST', `/v1/payments/${payment.paymentId}/cancel`);
    expect(sent.map((r) => r.headers['idempotency-key'])).toEqual(['c-1', 'c-1']);
  });

  it('is an InvalidRequestError (400) once the payment is final, and nothing changes', async () => {
    const payment = await create();
    mock.setPaymentStatus(payment.paymentId, 'succeeded');
    const error = await gateway()
      .payments.cancel(payment.paymentId)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_state' });
    expect(mock.getPayment(payment.paymentId)?.status).toBe('succeeded');
    // A second cancel without the first key meets the final status too.
    await gateway()
      .payments.cancel(payment.paymentId)
      .catch(() => {});
    expect(requestsTo('POST', `/v1/payments/${payment.paymentId}/cancel`)).toHaveLength(2);
  });

  it('retries a 5xx and a dropped connection with the same key, cancelling exactly once', async () => {
    const payment = await create();
    const path = `/v1/payments/${payment.paymentId}/cancel`;
    mock.failNext({ status: 500, match: { path } });
    mock.failNext({ networkError: true, match: { path } });
    const cancellation = await gateway({ maxRetries: 2 }).payments.cancel(payment.paymentId);
    expect(cancellation.status).toBe('cancelled');
    const keys = requestsTo('POST', path).map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(
      mock.payments().filter((p) => p.status === 'cancelled' && p.id === payment.paymentId),
    ).toHaveLength(1);
  });

  it('gives up after maxRetries, and the caller repeating it with its key cancels once', async () => {
    const payment = await create();
    mock.failNext({ status: 502, times: 2 });
    const error = await gateway({ maxRetries: 1 })
      .payments.cancel(payment.paymentId, {}, { idempotencyKey: 'c-9' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(
      mock.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel')),
    ).toHaveLength(2);
    await expect(
      gateway().payments.cancel(payment.paymentId, {}, { idempotencyKey: 'c-9' }),
    ).resolves.toMatchObject({ status: 'cancelled' });
  });

  it.each([
    ['an empty key', ''],
    ['a 256-character key', 'k'.repeat(256)],
    ['a key with a space', 'a b'],
  ])('refuses %s before sending', async (_label, idempotencyKey) => {
    await expect(gateway().payments.cancel('pay_1', {}, { idempotencyKey })).rejects.toMatchObject({
      issues: [{ field: 'idempotencyKey' }],
    });
    expect(mock.requests).toHaveLength(0);
  });

  it('accepts a 255-character key', async () => {
    const payment = await create();
    await expect(
      gateway().payments.cancel(payment.paymentId, {}, { idempotencyKey: 'k'.repeat(255) }),
    ).resolves.toMatchObject({ status: 'cancelled' });
  });

  it('refuses, before sending, a call with no merchant id anywhere, or an id of ".."', async () => {
    await expect(gateway({ merchantId: undefined }).payments.cancel('pay_1')).rejects.toMatchObject(
      { issues: [{ field: 'merchantId' }] },
    );
    await expect(gateway().payments.cancel('..')).rejects.toBeInstanceOf(RequestValidationError);
    expect(mock.requests).toHaveLength(0);
  });
});
