import {
  NotFoundError,
  type PaymentDetails,
  RequestValidationError,
  ResponseValidationError,
} from 'merchant-gateway';
import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { issuesOf } from '../../support';
import { BASE_URL, useMock } from './support';

const { mock, server, gateway, create, requestsTo } = useMock();

describe('payments.details', () => {
  it('reads the merchant view of a new payment, adding the paymentId asked for', async () => {
    const payment = await create('order-7');
    const details = await gateway().payments.details(payment.paymentId);
    expectTypeOf(details).toEqualTypeOf<PaymentDetails>();
    expect(details).toEqual({
      paymentId: payment.paymentId,
      status: 'requires_action',
      referenceId: 'order-7',
      settlement: null,
    });
    const [sent] = requestsTo('GET', `/v1/payments/${payment.paymentId}`);
    expect(sent?.headers['merchant-id']).toBe(mock.sample.merchantId);
    expect(sent?.headers['idempotency-key']).toBeUndefined();
  });

  it('shows failureCode once the payment failed', async () => {
    const payment = await create();
    mock.setPaymentStatus(payment.paymentId, 'failed');
    const details = await gateway().payments.details(payment.paymentId);
    expect(details).toMatchObject({ status: 'failed', failureCode: 'declined_user' });
    expect(details.info).toBeUndefined();
  });

  it('shows info (txId and the token amount) and the settlement once the payment succeeded', async () => {
    const payment = await create();
    mock.setPaymentStatus(payment.paymentId, 'succeeded');
    const details = await gateway().payments.details(payment.paymentId);
    expect(details.status).toBe('succeeded');
    expect(details.info?.txId).toBe(`test:${payment.paymentId}`);
    expect(details.info?.optionAmount).toMatchObject({
      unit: expect.stringMatching(/^caip19\//),
      value: expect.stringMatching(/^\d+$/),
      display: { assetSymbol: 'USDC', decimals: 6 },
    });
    // The payout comes settleAfterMs (1 s by default) after success.
    expect(details.settlement).toEqual({ successful: null });
    await vi.waitFor(
      async () => {
        const settled = await gateway().payments.details(payment.paymentId);
        expect(settled.settlement?.successful).toBeTruthy();
      },
      { timeout: 5000, interval: 100 },
    );
    const paidOut = await gateway().payments.details(payment.paymentId);
    expect(paidOut.settlement?.successful).toEqual({
      txId: `test:${payment.paymentId}`,
      amount: { unit: expect.stringMatching(/^caip19\//) },
    });
  });

  it('uses the merchantId given in the call over the client default', async () => {
    const payment = await create();
    const other = mock.sample.otherMerchantIds[0] as string;
    await expect(
      gateway().payments.details(payment.paymentId, { merchantId: other }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(requestsTo('GET', `/v1/payments/${payment.paymentId}`)[0]?.headers['merchant-id']).toBe(
      other,
    );
  });

  it('refuses, before sending, a call with no merchant id in the call or the client', async () => {
    expect(await issuesOf(gateway({ merchantId: undefined }).payments.details('pay_1'))).toEqual([
      { field: 'merchantId', message: expect.stringContaining('required') },
    ]);
    expect(mock.requests).toHaveLength(0);
  });

  it('refuses, before sending, a merchantId with a space, an unknown option and an empty id', async () => {
    const payments = gateway().payments;
    await expect(payments.details('pay_1', { merchantId: 'm 1' })).rejects.toMatchObject({
      issues: [{ field: 'merchantId' }],
    });
    await expect(payments.details('pay_1', { merchantID: 'm' } as never)).rejects.toMatchObject({
      issues: [{ field: 'merchantID' }],
    });
    await expect(payments.details('')).rejects.toBeInstanceOf(RequestValidationError);
    expect(mock.requests).toHaveLength(0);
  });

  it('is a NotFoundError for an unknown payment', async () => {
    const error = await gateway()
      .payments.details('pay_nope')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'payment_not_found' });
  });

  it.each([
    ['absent', {}],
    ['null', { settlement: null }],
    ['empty', { settlement: {} }],
    ['with successful null', { settlement: { successful: null } }],
    [
      'paid out, no value',
      { settlement: { successful: { txId: '0xab', amount: { unit: 'caip19/x' } } } },
    ],
    [
      'paid out, with a value',
      { settlement: { successful: { txId: '0xab', amount: { unit: 'caip19/x', value: '5' } } } },
    ],
  ])('accepts a settlement that is %s', async (_label, extra) => {
    const body = { status: 'succeeded', referenceId: 'r', failureCode: null, info: null, ...extra };
    server.use(http.get(`${BASE_URL}/v1/payments/:id`, () => HttpResponse.json(body)));
    await expect(gateway().payments.details('pay_1')).resolves.toEqual({
      ...body,
      paymentId: 'pay_1',
    });
  });

  it('is a ResponseValidationError when referenceId is missing or info lacks optionAmount', async () => {
    server.use(
      http.get(`${BASE_URL}/v1/payments/:id`, () =>
        HttpResponse.json({ status: 'succeeded', info: { txId: '0x1' } }),
      ),
    );
    const error = await gateway()
      .payments.details('pay_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((i) => i.field).sort()).toEqual([
      'info.optionAmount',
      'referenceId',
    ]);
  });

  it('is retried on a 5xx, as a read', async () => {
    const payment = await create();
    mock.failNext({ status: 503, match: { path: `/v1/payments/${payment.paymentId}` } });
    await expect(gateway().payments.details(payment.paymentId)).resolves.toMatchObject({
      status: 'requires_action',
    });
    expect(requestsTo('GET', `/v1/payments/${payment.paymentId}`)).toHaveLength(2);
  });
});
