import { MerchantGateway, type PaymentCreated } from 'merchant-gateway';
import { createMockGateway, type MockGateway, type MockServer } from 'merchant-gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const POLL_IN_MS = 100;

/** Serves a fresh mock over real HTTP on loopback for one describe block. */
function useServedMock(options: { viewPollHints?: boolean } = {}) {
  const mock = createMockGateway({ pollInMs: POLL_IN_MS, ...options });
  let server: MockServer | undefined;
  beforeAll(async () => {
    server = await mock.listen();
  });
  afterAll(() => server?.close());
  return {
    mock,
    client: () =>
      new MerchantGateway({
        baseUrl: server?.url,
        apiKey: mock.credentials.apiKey,
        merchantId: mock.sample.merchantId,
      }),
  };
}

/** Moves every open payment one step towards succeeded every `ms`, until the returned stop(). */
function advanceEvery(mock: MockGateway, ms: number): () => void {
  const timer = setInterval(() => mock.advancePayments(), ms);
  return () => clearInterval(timer);
}

function create(gateway: MerchantGateway, referenceId: string): Promise<PaymentCreated> {
  return gateway.payments.create({ amount: { unit: 'iso4217/USD', value: '1250' }, referenceId });
}

function readsOf(mock: MockGateway, paymentId: string): number {
  return mock.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/${paymentId}`)).length;
}

describe('polling the mock service over real HTTP', () => {
  const { mock, client } = useServedMock();

  it('waits for a new payment to succeed, reading no faster than pollInMs', async () => {
    const gateway = client();
    const payment = await create(gateway, 'order-1042');
    expect(payment).toMatchObject({ isFinal: false, pollInMs: POLL_IN_MS });
    const updates: string[] = [];
    const started = Date.now();
    const stop = advanceEvery(mock, 150);
    try {
      const view = await gateway.payments.waitForFinal(payment, {
        timeoutMs: 5000,
        onUpdate: (update) => updates.push(update.status),
      });
      expect(view.status).toBe('succeeded');
    } finally {
      stop();
    }
    const elapsed = Date.now() - started;
    expect(updates.at(-1)).toBe('succeeded');
    expect(new Set(updates).size).toBe(updates.length);
    // The first read waits pollInMs too, so at most one read per 100 ms elapsed.
    expect(readsOf(mock, payment.paymentId)).toBeLessThanOrEqual(Math.floor(elapsed / POLL_IN_MS));
  });
});

describe('watching the mock service when its view carries poll hints', () => {
  const { mock, client } = useServedMock({ viewPollHints: true });

  it('yields each status once and ends on the view the service marks final', async () => {
    const gateway = client();
    const payment = await create(gateway, 'order-1043');
    const statuses: string[] = [];
    let last: unknown;
    const stop = advanceEvery(mock, 150);
    try {
      for await (const view of gateway.payments.watch(payment.paymentId, { timeoutMs: 5000 })) {
        statuses.push(view.status);
        last = view;
      }
    } finally {
      stop();
    }
    expect(last).toMatchObject({ status: 'succeeded', isFinal: true });
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(statuses.every((s) => ['requires_action', 'processing', 'succeeded'].includes(s))).toBe(
      true,
    );
  });
});
