import {
  ConflictError,
  InvalidRequestError,
  MerchantGateway,
  RequestValidationError,
} from 'merchant-gateway';
import { createMockGateway } from 'merchant-gateway/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useListeningMock } from '../../support';

const mock = createMockGateway({ pollInMs: 200 });
const server = useListeningMock(mock);
afterEach(() => mock.reset());

const gateway = (options: { maxRetries?: number } = {}) =>
  new MerchantGateway({
    baseUrl: server.url,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
    ...options,
  });
const create = (referenceId: string) =>
  gateway().payments.create({ amount: { unit: 'iso4217/USD', value: '700' }, referenceId });
const posts = (path: string) => mock.requests.filter((r) => r.method === 'POST' && r.path === path);

describe('the payment actions over real HTTP', () => {
  it('reads details and status of a payment as it moves to succeeded', async () => {
    const payment = await create('order-h1');
    await expect(gateway().payments.details(payment.paymentId)).resolves.toEqual({
      paymentId: payment.paymentId,
      status: 'requires_action',
      referenceId: 'order-h1',
      settlement: null,
    });
    const held = gateway().payments.status(payment.paymentId, { maxPollMs: 5000 });
    setTimeout(() => mock.setPaymentStatus(payment.paymentId, 'succeeded'), 100);
    const result = await held;
    expect(result).toMatchObject({ status: 'succeeded', isFinal: true, pollInMs: null });
    expect(result.info?.optionAmount.display.assetSymbol).toBe('USDC');
    const details = await gateway().payments.details(payment.paymentId);
    expect(details.settlement).toEqual({ successful: null }); // settleAfterMs later
    await vi.waitFor(
      async () =>
        expect(
          (await gateway().payments.details(payment.paymentId)).settlement?.successful?.txId,
        ).toBe(`test:${payment.paymentId}`),
      { timeout: 5000, interval: 100 },
    );
  });

  it('cancels once across a retried 502, all attempts with one key', async () => {
    const payment = await create('order-h2');
    const path = `/v1/payments/${payment.paymentId}/cancel`;
    mock.failNext({ status: 502, match: { path } });
    const cancellation = await gateway().payments.cancel(payment.paymentId);
    expect(cancellation).toMatchObject({
      status: 'cancelled',
      cancelledReason: 'cancelled_by_merchant',
    });
    const keys = posts(path).map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    await expect(gateway().payments.cancel(payment.paymentId)).rejects.toBeInstanceOf(
      InvalidRequestError,
    );
  });

  it('refunds once across a retried 500, then a second refund is a ConflictError', async () => {
    const payment = await create('order-h3');
    mock.setPaymentStatus(payment.paymentId, 'succeeded');
    mock.failNext({ status: 500, match: { path: '/v1/refunds' } });
    await expect(gateway().refunds.create({ paymentId: payment.paymentId })).resolves.toEqual({
      paymentId: payment.paymentId,
    });
    expect(posts('/v1/refunds')).toHaveLength(2);
    expect(mock.getPayment(payment.paymentId)?.refundedAt).toMatch(/^\d{4}-/);
    await expect(gateway().refunds.create({ paymentId: payment.paymentId })).rejects.toBeInstanceOf(
      ConflictError,
    );
    expect(mock.payments().filter((p) => p.refundedAt !== null)).toHaveLength(1);
  });

  it('sends nothing for a refund of a paymentId outside the pattern', async () => {
    await expect(gateway().refunds.create({ paymentId: 'pay-1' })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    expect(mock.requests).toHaveLength(0);
  });
});
