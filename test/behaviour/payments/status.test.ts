import { type PaymentStatusResult, ResponseValidationError, TimeoutError } from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { issuesOf } from '../../support';
import { BASE_URL, useMock } from './support';

const { mock, server, gateway, create, requestsTo } = useMock({ pollInMs: 700 });

describe('payments.status', () => {
  it('reads the status at once without maxPollMs, with the service pollInMs', async () => {
    const payment = await create();
    const result = await gateway().payments.status(payment.paymentId);
    expectTypeOf(result).toEqualTypeOf<PaymentStatusResult>();
    expect(result).toEqual({ status: 'requires_action', isFinal: false, pollInMs: 700 });
    const [sent] = requestsTo('GET', `/v1/payments/${payment.paymentId}/status`);
    expect(sent?.headers['merchant-id']).toBe(mock.sample.merchantId);
    expect(sent?.query).toEqual({});
  });

  it('shows failureCode when failed and info.txId when succeeded, with a null pollInMs once final', async () => {
    const failed = await create('a');
    const succeeded = await create('b');
    mock.setPaymentStatus(failed.paymentId, 'failed');
    mock.setPaymentStatus(succeeded.paymentId, 'succeeded');
    await expect(gateway().payments.status(failed.paymentId)).resolves.toEqual({
      status: 'failed',
      isFinal: true,
      pollInMs: null,
      failureCode: 'declined_user',
    });
    const done = await gateway().payments.status(succeeded.paymentId);
    expect(done).toMatchObject({ status: 'succeeded', isFinal: true, pollInMs: null });
    expect(done.info?.txId).toMatch(/^test:pay_[A-Za-z0-9]+$/);
  });

  it('sends maxPollMs and is answered as soon as the status changes', async () => {
    const payment = await create();
    const started = Date.now();
    const read = gateway().payments.status(payment.paymentId, { maxPollMs: 5000 });
    setTimeout(() => mock.setPaymentStatus(payment.paymentId, 'processing'), 50);
    await expect(read).resolves.toMatchObject({ status: 'processing' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(requestsTo('GET', `/v1/payments/${payment.paymentId}/status`)[0]?.query).toEqual({
      maxPollMs: '5000',
    });
  });

  it('accepts the longest maxPollMs, 60,000', async () => {
    const payment = await create();
    const read = gateway().payments.status(payment.paymentId, { maxPollMs: 60_000 });
    setTimeout(() => mock.setPaymentStatus(payment.paymentId, 'processing'), 100);
    await expect(read).resolves.toMatchObject({ status: 'processing' });
    expect(requestsTo('GET', `/v1/payments/${payment.paymentId}/status`)[0]?.query).toEqual({
      maxPollMs: '60000',
    });
  });

  it('sends no maxPollMs for 0, an immediate read', async () => {
    const payment = await create();
    await gateway().payments.status(payment.paymentId, { maxPollMs: 0 });
    expect(requestsTo('GET', `/v1/payments/${payment.paymentId}/status`)[0]?.query).toEqual({});
  });

  it('stretches the attempt timeout by maxPollMs, so a held read is not cut short', async () => {
    vi.useFakeTimers();
    try {
      const payment = await create();
      const client = gateway({ timeoutMs: 1000, maxRetries: 0 });
      const held = client.payments.status(payment.paymentId, { maxPollMs: 20_000 });
      held.catch(() => {});
      await vi.advanceTimersByTimeAsync(19_999);
      mock.setPaymentStatus(payment.paymentId, 'processing');
      await vi.advanceTimersByTimeAsync(1);
      await expect(held).resolves.toMatchObject({ status: 'processing' });
      // A read the service holds past maxPollMs + timeoutMs does time out.
      server.use(http.get(`${BASE_URL}/v1/payments/:id/status`, () => new Promise(() => {})));
      const stuck = client.payments.status(payment.paymentId, { maxPollMs: 2000 });
      let settled = false;
      stuck.then(
        () => {
          settled = true;
        },
        () => {
          settled = true;
        },
      );
      await vi.advanceTimersByTimeAsync(2999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await expect(stuck).rejects.toBeInstanceOf(TimeoutError);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each<[unknown, string]>([
    [-1, 'a negative number'],
    [1.5, 'a fraction'],
    [Number.NaN, 'NaN'],
    ['100', 'a string'],
    [60_001, 'past 60,000'],
    [1e9, 'a billion'],
  ])('refuses maxPollMs %s (%s) before sending', async (maxPollMs) => {
    expect(
      await issuesOf(gateway().payments.status('pay_1', { maxPollMs: maxPollMs as number })),
    ).toEqual([
      { field: 'maxPollMs', message: 'must be a whole number of milliseconds from 0 to 60000' },
    ]);
    expect(mock.requests).toHaveLength(0);
  });

  it('refuses, before sending, a call with no merchant id anywhere', async () => {
    await expect(gateway({ merchantId: undefined }).payments.status('pay_1')).rejects.toMatchObject(
      { issues: [{ field: 'merchantId' }] },
    );
    expect(mock.requests).toHaveLength(0);
  });

  it.each([
    ['absent', {}],
    ['null', { pollInMs: null, failureCode: null, info: null }],
  ])('accepts pollInMs %s once final', async (_label, extra) => {
    const body = { status: 'expired', isFinal: true, ...extra };
    server.use(http.get(`${BASE_URL}/v1/payments/:id/status`, () => HttpResponse.json(body)));
    await expect(gateway().payments.status('pay_1')).resolves.toEqual(body);
  });

  it('is a ResponseValidationError without isFinal', async () => {
    server.use(
      http.get(`${BASE_URL}/v1/payments/:id/status`, () => HttpResponse.json({ status: 'x' })),
    );
    await expect(gateway().payments.status('pay_1')).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
  });
});
