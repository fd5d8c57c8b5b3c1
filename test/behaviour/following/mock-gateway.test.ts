import { MerchantGateway } from 'merchant-gateway';
import {
  createMockGateway,
  type MockGateway,
  type MockGatewayOptions,
  type MockServer,
} from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayment as create, statusReads, until } from './real-http';

const POLL_IN_MS = 100;

/** Serves a fresh mock over real HTTP on loopback for one describe block. */
function useServedMock(options: MockGatewayOptions = {}) {
  const mock = createMockGateway({ pollInMs: POLL_IN_MS, ...options });
  let server: MockServer | undefined;
  beforeAll(async () => {
    server = await mock.listen();
  });
  afterAll(() => server?.close());
  return {
    mock,
    client: ({ withMerchant = true } = {}) =>
      new MerchantGateway({
        baseUrl: server?.url,
        apiKey: mock.credentials.apiKey,
        ...(withMerchant ? { merchantId: mock.sample.merchantId } : {}),
      }),
  };
}

/** Moves every open payment one step towards succeeded every `ms`, until the returned stop(). */
function advanceEvery(mock: MockGateway, ms: number): () => void {
  const timer = setInterval(() => mock.advancePayments(), ms);
  return () => clearInterval(timer);
}

describe('long polling the mock service over real HTTP', () => {
  const { mock, client } = useServedMock();

  it('hears of a change during a held read within about 100 ms', async () => {
    const gateway = client();
    const payment = await create(gateway, 'order-1042');
    const done = gateway.payments.waitForFinal(payment, { timeoutMs: 10_000 });
    // Wait until the held read is in the mock's hands, then let some time pass inside it.
    await until(() => statusReads(mock, payment.paymentId).some((r) => r.query.maxPollMs));
    await new Promise((resolve) => setTimeout(resolve, 200));

    const changedAt = performance.now();
    mock.setPaymentStatus(payment.paymentId, 'succeeded');
    const result = await done;
    const latency = performance.now() - changedAt;

    expect(result).toMatchObject({ status: 'succeeded', isFinal: true, pollInMs: null });
    expect(result.info?.txId).toMatch(/^test:pay_[A-Za-z0-9]+$/);
    expect(latency).toBeLessThan(100);
    const reads = statusReads(mock, payment.paymentId);
    expect(reads.map((r) => r.path)).toEqual([
      `/v1/payments/${payment.paymentId}/status`,
      `/v1/payments/${payment.paymentId}/status`,
    ]);
    expect(reads[0]?.query).toEqual({});
    // The smaller of 30 s and the time left of the 10 s timeout.
    expect(Number(reads[1]?.query.maxPollMs)).toBeGreaterThan(9000);
    expect(Number(reads[1]?.query.maxPollMs)).toBeLessThanOrEqual(10_000);
  });

  it('follows a payment the buyer moves along, one result per status, reading the gateway side without a merchant id', async () => {
    const gateway = client({ withMerchant: false });
    const payment = await create(client(), 'order-1043');
    const statuses: string[] = [];
    const stop = advanceEvery(mock, 150);
    const started = Date.now();
    try {
      for await (const update of gateway.payments.watch(payment.paymentId, { timeoutMs: 5000 })) {
        statuses.push(update.status);
      }
    } finally {
      stop();
    }
    const elapsed = Date.now() - started;
    expect(statuses).toEqual(['requires_action', 'processing', 'succeeded']);
    const reads = statusReads(mock, payment.paymentId);
    expect(reads.every((r) => r.path.startsWith('/v1/gateway/payment/'))).toBe(true);
    // At most two reads per change plus two per 30 s of waiting.
    expect(reads.length).toBeLessThanOrEqual(2 * 2 + 2 * Math.ceil(elapsed / 30_000));
  });
});

describe('polling a mock that answers held reads at once', () => {
  const { mock, client } = useServedMock({ holdStatusReads: false });

  it('reads once per pollInMs after the first held read comes back early', async () => {
    const gateway = client();
    const payment = await create(gateway, 'order-1044');
    const outcome = gateway.payments.waitForFinal(payment, { timeoutMs: 1050 });
    const error = await outcome.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PollTimeoutError' });
    const reads = statusReads(mock, payment.paymentId);
    expect(reads.map((r) => (r.query.maxPollMs ? 'h' : 'i')).join('')).toMatch(/^ihi{8,10}$/);
  });
});
