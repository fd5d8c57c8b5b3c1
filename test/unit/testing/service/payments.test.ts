import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ErrorBody, TRANSPORTS, useMockGateway } from '../../../support/mock-harness';

interface Created {
  paymentId: string;
  status: string;
  isFinal: boolean;
  pollInMs?: number;
  expiresAt: number;
  gatewayUrl: string;
}
interface View {
  status: string;
  expiresAt: number;
  amount: { unit: string; value: string; display: Record<string, unknown> };
  buyer: Record<string, string> | null;
  merchant: { iconUrl: string | null; name: string };
  isFinal?: boolean;
  pollInMs?: number;
}

const USDC_BASE = 'caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const order = { referenceId: 'order-42', amount: { unit: 'iso4217/USD', value: '1250' } };

describe.each(TRANSPORTS)('payments over %s', (transport) => {
  const h = useMockGateway(transport, { pollInMs: 750 });
  const create = (body: unknown, headers: Record<string, string> = {}) =>
    h.call<Created & ErrorBody>('/v1/payments', {
      method: 'POST',
      headers: { ...h.auth, 'Merchant-Id': h.mock.sample.merchantId, ...headers },
      body,
    });
  const view = (id: string) =>
    h.call<View & ErrorBody>(`/v1/gateway/payment/${id}`, { headers: h.auth });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('creates a payment with 201, five minutes to pay and a gateway URL beside /v1/ (its prefix kept)', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await create(order);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      paymentId: expect.stringMatching(/^pay_/),
      status: 'requires_action',
      isFinal: false,
      pollInMs: 750,
      expiresAt: expect.any(Number),
      gatewayUrl: `${h.baseUrl}/pay/${res.body.paymentId}`,
    });
    expect(res.body.expiresAt - before).toBeGreaterThanOrEqual(300);
    expect(res.body.expiresAt - before).toBeLessThanOrEqual(301);
    expect(res.body.gatewayUrl).not.toContain(h.mock.credentials.apiKey);
  });

  it('shows a new payment in the gateway view, quoted in USDC on Base, with no buyer yet', async () => {
    const { body } = await create({ ...order, expiresAt: null });
    const res = await view(body.paymentId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'requires_action',
      expiresAt: body.expiresAt,
      amount: {
        unit: USDC_BASE,
        value: '12500000',
        display: {
          assetName: 'USD Coin',
          assetSymbol: 'USDC',
          decimals: 6,
          iconUrl: expect.any(String),
          networkIconUrl: expect.any(String),
          networkName: 'Base',
        },
      },
      buyer: null,
      merchant: { iconUrl: expect.any(String), name: h.mock.sample.merchantName },
    });
  });

  it('uses a given expiresAt and rejects one in the past', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    expect((await create({ ...order, expiresAt })).body.expiresAt).toBe(expiresAt);
    const past = await create({ ...order, expiresAt: 1_000_000 });
    expect(past.status).toBe(400);
    expect(past.body.issues).toEqual([{ field: 'expiresAt', message: expect.any(String) }]);
  });

  it('lists every invalid field of a payment as an issue', async () => {
    const res = await create({ referenceId: '', amount: { unit: 'USD', value: '12.50' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('params_validation');
    expect(res.body.issues?.map((i) => i.field)).toEqual([
      'referenceId',
      'amount.unit',
      'amount.value',
    ]);
    expect((await create({ referenceId: 'x' })).body.issues?.[0]?.field).toBe('amount');
  });

  it('requires a Merchant-Id of a known merchant', async () => {
    const missing = await h.call<ErrorBody>('/v1/payments', {
      method: 'POST',
      headers: h.auth,
      body: order,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('missing_merchant_id');
    const unknown = await create(order, { 'Merchant-Id': 'mer_unknown' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('merchant_not_found');
  });

  it('replays a payment for a repeated Idempotency-Key and rejects a different body', async () => {
    const count = h.mock.payments().length;
    const first = await create(order, { 'Idempotency-Key': 'pay-1' });
    const retry = await create(order, { 'Idempotency-Key': 'pay-1' });
    expect(retry.body).toEqual(first.body);
    expect(h.mock.payments()).toHaveLength(count + 1);
    const conflict = await create(
      { ...order, referenceId: 'other' },
      { 'Idempotency-Key': 'pay-1' },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('idempotency_conflict');
  });

  it('answers 404 payment_not_found for an unknown payment', async () => {
    const res = await view('pay_unknown');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('payment_not_found');
  });

  it('moves open payments one step per advancePayments() call until they succeed', async () => {
    const { body } = await create(order);
    const open = h.mock
      .payments()
      .filter((p) => p.status === 'requires_action' || p.status === 'processing').length;
    expect(h.mock.advancePayments()).toBe(open);
    const processing = await view(body.paymentId);
    expect(processing.body.status).toBe('processing');
    expect(processing.body.buyer).toEqual({
      accountCaip10: expect.stringMatching(/^eip155:8453:0x[0-9a-f]{40}$/),
      accountProviderIcon: expect.any(String),
      accountProviderName: expect.any(String),
    });
    h.mock.advancePayments();
    expect((await view(body.paymentId)).body.status).toBe('succeeded');
    h.mock.advancePayments();
    expect((await view(body.paymentId)).body.status).toBe('succeeded');
  });

  it('follows a custom advancePayments path and leaves payments off that path alone', async () => {
    const { body } = await create(order);
    const waiting = h.mock.payments().filter((p) => p.status === 'requires_action').length;
    expect(h.mock.advancePayments(['requires_action', 'failed'])).toBe(waiting);
    expect((await view(body.paymentId)).body.status).toBe('failed');
    expect(h.mock.payments().filter((p) => p.status === 'requires_action')).toHaveLength(0);
    expect(h.mock.advancePayments(['requires_action', 'failed'])).toBe(0);
    expect(() => h.mock.advancePayments(['succeeded'])).toThrow(TypeError);
  });

  it('sets any status with setPaymentStatus, including cancelled', async () => {
    const { body } = await create(order);
    h.mock.setPaymentStatus(body.paymentId, 'cancelled');
    expect((await view(body.paymentId)).body.status).toBe('cancelled');
    expect(h.mock.getPayment(body.paymentId)?.status).toBe('cancelled');
    expect(() => h.mock.setPaymentStatus('pay_unknown', 'failed')).toThrow(/pay_unknown/);
  });

  it('reads a payment still awaiting its buyer past expiresAt as expired, and never advances it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T12:00:00Z'));
    const { body } = await create(order);
    expect((await view(body.paymentId)).body.status).toBe('requires_action');
    vi.setSystemTime(new Date('2026-03-01T12:04:59Z'));
    expect((await view(body.paymentId)).body.status).toBe('requires_action');
    vi.setSystemTime(new Date('2026-03-01T12:05:00Z'));
    const expired = await view(body.paymentId);
    expect(expired.body.status).toBe('expired');
    expect(expired.body.buyer).toBeNull();
    h.mock.advancePayments(['requires_action', 'processing']);
    expect((await view(body.paymentId)).body.status).toBe('expired');
  });
});

describe('the gateway view of a newer service (viewPollHints)', () => {
  const h = useMockGateway('fetch', { viewPollHints: true, pollInMs: 250 });

  it('adds isFinal and pollInMs while open, and drops pollInMs once final', async () => {
    const { body } = await h.call<Created>('/v1/payments', {
      method: 'POST',
      headers: { ...h.auth, 'Merchant-Id': h.mock.sample.merchantId },
      body: order,
    });
    const path = `/v1/gateway/payment/${body.paymentId}`;
    const open = await h.call<View>(path, { headers: h.auth });
    expect(open.body).toMatchObject({ status: 'requires_action', isFinal: false, pollInMs: 250 });
    h.mock.setPaymentStatus(body.paymentId, 'succeeded');
    const done = await h.call<View>(path, { headers: h.auth });
    expect(done.body).toMatchObject({ status: 'succeeded', isFinal: true });
    expect(done.body).not.toHaveProperty('pollInMs');
  });
});
