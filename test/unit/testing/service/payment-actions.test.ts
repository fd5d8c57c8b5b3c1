import { describe, expect, it, vi } from 'vitest';
import { type ErrorBody, TRANSPORTS, useMockGateway } from '../../../support/mock-harness';

describe.each(TRANSPORTS)('the mock payment actions over %s', (transport) => {
  const h = useMockGateway(transport, { pollInMs: 500 });
  const merchant = () => ({ ...h.auth, 'Merchant-Id': h.mock.sample.merchantId });
  const createPayment = async () => {
    const res = await h.call<{ paymentId: string }>('/v1/payments', {
      method: 'POST',
      headers: merchant(),
      body: { amount: { unit: 'iso4217/USD', value: '100' }, referenceId: 'r-1' },
    });
    return res.body.paymentId;
  };

  it.each([
    ['GET', '/v1/payments/pay_x'],
    ['GET', '/v1/payments/pay_x/status'],
    ['POST', '/v1/payments/pay_x/cancel'],
    ['POST', '/v1/refunds'],
  ])('%s %s without Merchant-Id is 401 missing_merchant_id', async (method, path) => {
    const res = await h.call<ErrorBody>(path, {
      method,
      headers: h.auth,
      ...(method === 'POST' ? { body: { paymentId: 'pay_x' } } : {}),
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('missing_merchant_id');
  });

  it('serves the gateway status read without Merchant-Id, pollInMs absent once final', async () => {
    const id = await createPayment();
    const open = await h.call(`/v1/gateway/payment/${id}/status`, { headers: h.auth });
    expect(open.body).toEqual({ status: 'requires_action', isFinal: false, pollInMs: 500 });
    h.mock.setPaymentStatus(id, 'expired');
    const done = await h.call(`/v1/gateway/payment/${id}/status`, { headers: h.auth });
    expect(done.body).toEqual({ status: 'expired', isFinal: true });
    const merchantSide = await h.call(`/v1/payments/${id}/status`, { headers: merchant() });
    expect(merchantSide.body).toEqual({ status: 'expired', isFinal: true, pollInMs: null });
  });

  it('answers 404 payment_not_found for a payment of another merchant', async () => {
    const id = await createPayment();
    const other = { ...h.auth, 'Merchant-Id': h.mock.sample.otherMerchantIds[0] as string };
    const res = await h.call<ErrorBody>(`/v1/payments/${id}`, { headers: other });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('payment_not_found');
  });

  it('refuses a maxPollMs that is not a whole number >= 0 with 400 params_validation', async () => {
    const id = await createPayment();
    const res = await h.call<ErrorBody>(`/v1/payments/${id}/status?maxPollMs=-5`, {
      headers: merchant(),
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ field: 'maxPollMs', message: 'must be an integer >= 0' }]);
  });

  it('settles the details of a succeeded sample payment: settlement.successful after payout', async () => {
    const id = h.mock.payments(h.mock.sample.merchantId).find((p) => p.status === 'succeeded')?.id;
    const res = await h.call<Record<string, unknown>>(`/v1/payments/${id}`, {
      headers: merchant(),
    });
    expect(res.body.status).toBe('succeeded');
    expect(res.body).toHaveProperty('info.txId');
    expect(res.body).toHaveProperty('settlement');
  });

  it('cancels once: a replay with the same key repeats the answer, another key meets 400', async () => {
    const id = await createPayment();
    const headers = { ...merchant(), 'Idempotency-Key': 'k-1' };
    const first = await h.call(`/v1/payments/${id}/cancel`, { method: 'POST', headers });
    const replay = await h.call(`/v1/payments/${id}/cancel`, { method: 'POST', headers });
    expect(first.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const again = await h.call<ErrorBody>(`/v1/payments/${id}/cancel`, {
      method: 'POST',
      headers: { ...merchant(), 'Idempotency-Key': 'k-2' },
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_state');
  });

  it.each([
    [
      'refuses a refund body whose paymentId breaks the pattern with 400 params_validation',
      'abc',
      400,
      'params_validation',
    ],
    ['answers 404 not_found for a refund of an unknown payment', 'pay_unknown', 404, 'not_found'],
  ])('%s', async (_, paymentId, status, code) => {
    const res = await h.call<ErrorBody>('/v1/refunds', {
      method: 'POST',
      headers: merchant(),
      body: { paymentId },
    });
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
  });
});

describe('held status reads in the mock', () => {
  const h = useMockGateway('fetch', { pollInMs: 500 });
  const merchant = () => ({ ...h.auth, 'Merchant-Id': h.mock.sample.merchantId });

  async function withFakeTimers(run: () => Promise<void>) {
    vi.useFakeTimers();
    try {
      await run();
    } finally {
      vi.useRealTimers();
    }
  }

  const newPayment = async (expiresAt?: number) => {
    const res = await h.call<{ paymentId: string }>('/v1/payments', {
      method: 'POST',
      headers: merchant(),
      body: {
        amount: { unit: 'iso4217/USD', value: '100' },
        referenceId: 'r-1',
        ...(expiresAt === undefined ? {} : { expiresAt }),
      },
    });
    return res.body.paymentId;
  };

  /** A held status read of `id`, and whether it has been answered yet. */
  const heldRead = (id: string, maxPollMs: number) => {
    let answered = false;
    const read = h
      .call(`/v1/payments/${id}/status?maxPollMs=${maxPollMs}`, { headers: merchant() })
      .then((res) => {
        answered = true;
        return res;
      });
    return { read, answered: () => answered };
  };

  it('holds a read no longer than 60 s, whatever maxPollMs asks', () =>
    withFakeTimers(async () => {
      const id = await newPayment(Math.floor(Date.now() / 1000) + 3600);
      const { read, answered } = heldRead(id, 600_000);
      await vi.advanceTimersByTimeAsync(59_999);
      expect(answered()).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await read).body).toMatchObject({ status: 'requires_action' });
    }));

  it('ends a held read when the payment expires', () =>
    withFakeTimers(async () => {
      const id = await newPayment(Math.floor(Date.now() / 1000) + 5);
      const read = h.call(`/v1/payments/${id}/status?maxPollMs=30000`, { headers: merchant() });
      await vi.advanceTimersByTimeAsync(6000);
      expect((await read).body).toMatchObject({ status: 'expired', isFinal: true });
    }));

  it('ends a held read at a cancel, and another mock change does not wake it', () =>
    withFakeTimers(async () => {
      const id = await newPayment();
      const other = await newPayment();
      const { read, answered } = heldRead(id, 30_000);
      await vi.advanceTimersByTimeAsync(1000);
      h.mock.setPaymentStatus(other, 'processing');
      await vi.advanceTimersByTimeAsync(1000);
      expect(answered()).toBe(false);
      await h.call(`/v1/payments/${id}/cancel`, { method: 'POST', headers: merchant() });
      await vi.advanceTimersByTimeAsync(0);
      expect((await read).body).toMatchObject({ status: 'cancelled', isFinal: true });
    }));

  it('answers a held read at once for a final payment', async () => {
    const id = await newPayment();
    h.mock.setPaymentStatus(id, 'failed');
    const res = await h.call(`/v1/payments/${id}/status?maxPollMs=30000`, { headers: merchant() });
    expect(res.body).toEqual({
      status: 'failed',
      isFinal: true,
      pollInMs: null,
      failureCode: 'declined_user',
    });
  });

  it('ends a held read when the mock is reset', () =>
    withFakeTimers(async () => {
      const id = await newPayment();
      const read = h.call(`/v1/payments/${id}/status?maxPollMs=30000`, { headers: merchant() });
      await vi.advanceTimersByTimeAsync(10);
      h.mock.reset();
      h.mock.advancePayments();
      await vi.advanceTimersByTimeAsync(0);
      expect((await read).status).toBe(200);
    }));
});

describe('a mock with holdStatusReads: false', () => {
  const h = useMockGateway('fetch', { holdStatusReads: false });

  it('answers a read with maxPollMs at once', async () => {
    const id = h.mock.payments(h.mock.sample.merchantId).find((p) => p.status === 'processing')?.id;
    const started = Date.now();
    const res = await h.call(`/v1/gateway/payment/${id}/status?maxPollMs=5000`, {
      headers: h.auth,
    });
    expect(res.body).toMatchObject({ status: 'processing', isFinal: false });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
