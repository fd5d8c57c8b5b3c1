// Issue 41, item 4: the mock's own deliveries (verified by `unwrap`) and a relay's events fed into
// one follower and one guard. The two senders number a payment's events in two sequences, so a
// relay's final numbered 1 can follow the service's processing numbered 1: it is still news, at
// once (not through a sweep), and the guard runs it once.
import {
  MerchantGateway,
  type PaymentCreated,
  type PaymentFollower,
  type PaymentStatusChange,
} from 'merchant-gateway';
import { createMockGateway, type MockGateway, type MockServer } from 'merchant-gateway/testing';
import { createWebhookGuard, memoryStore, Webhooks } from 'merchant-gateway/webhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type EventType, paymentEvent } from '../../support/payment-events';
import { collect, createOrders } from '../following/follower-helpers';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const FINALS = ['failed', 'succeeded', 'expired'] as const;

/** A relay's event: the service's shape, the relay's own id and its own sequence number. */
const relayEvent = (paymentId: string, type: EventType, version: number) =>
  paymentEvent(paymentId, type, version, { id: `evt_relay_${paymentId}_${version}_${type}` });

describe('finals from two senders, into one follower.ingest', () => {
  let mock: MockGateway;
  let server: MockServer;
  let follower: PaymentFollower | undefined;
  const ingested: string[] = [];

  beforeAll(async () => {
    const webhooks = new Webhooks({ secret: SECRET });
    mock = createMockGateway({
      pollInMs: 100,
      // The service's (the mock's) own deliveries: processing only, so the finals come by relay.
      webhooks: [
        { url: 'http://receiver.test/hooks', secret: SECRET, types: ['payment.processing'] },
      ],
      webhookFetch: async (url, init) => {
        const event = await webhooks.unwrap(new Request(url, init));
        ingested.push((await follower?.ingest(event)) ?? 'no follower');
        return new Response(null, { status: 204 });
      },
    });
    server = await mock.listen();
  });
  afterAll(async () => {
    await server.close();
    mock.close();
  });
  afterEach(() => follower?.close());

  it('a relay payment.failed numbered 1 after the mock payment.processing numbered 1 is yielded at once; 60 payments, every final by ingest, none by the sweep', async () => {
    const gateway = new MerchantGateway({
      baseUrl: server.url,
      apiKey: mock.credentials.apiKey,
      merchantId: mock.sample.merchantId,
    });
    const payments: PaymentCreated[] = await createOrders(gateway, 60);
    // No held read, a sweep a minute: a final that ingest refused would wait for that sweep.
    follower = gateway.payments.follower({ maxHeldReads: 0, sweepIntervalMs: 60_000 });
    for (const payment of payments) follower.add(payment);
    const seen = collect(follower);
    // Its first sweep done (the next is a minute away), only webhooks can tell a change.
    const lists = () =>
      mock.requests.filter((r) => r.method === 'GET' && r.path === '/v1/payments');
    await seen.until(() => lists().length >= 1, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 200));

    // The service's payment.processing, v1 in its sequence, delivered by the mock and verified.
    for (const payment of payments) mock.setPaymentStatus(payment.paymentId, 'processing');
    await seen.until(() => seen.changes.length === 60, 60_000);
    expect(await mock.webhooks.idle(30_000)).toBe(true);
    expect(ingested.filter((outcome) => outcome === 'yielded')).toHaveLength(60);
    expect(seen.changes.filter((change) => change.source !== 'webhook')).toEqual([]);

    // The relay saw only created (v0) and the final: its final is its v1.
    const outcomes: string[] = [];
    for (const [i, payment] of payments.entries()) {
      const status = FINALS[i % FINALS.length] as (typeof FINALS)[number];
      mock.setPaymentStatus(payment.paymentId, status);
      outcomes.push(await follower.ingest(relayEvent(payment.paymentId, `payment.${status}`, 1)));
    }
    expect(outcomes).toEqual(payments.map(() => 'yielded'));
    await seen.until(() => seen.changes.length === 120, 30_000);
    const finals = seen.changes.filter((change: PaymentStatusChange) => change.isFinal);
    expect(finals).toHaveLength(60);
    expect(finals.filter((change) => change.source !== 'webhook')).toEqual([]);
    expect(finals.map((change) => change.status)).toEqual(
      payments.map((_, i) => FINALS[i % FINALS.length]),
    );
    expect(follower.size).toBe(0);
  }, 120_000);

  it('a final is news once: the other sender’s copy of it afterwards, numbered higher or lower, yields nothing', async () => {
    const gateway = new MerchantGateway({
      baseUrl: server.url,
      apiKey: mock.credentials.apiKey,
      merchantId: mock.sample.merchantId,
    });
    const [a, b] = (await createOrders(gateway, 2)) as [PaymentCreated, PaymentCreated];
    follower = gateway.payments.follower({ maxHeldReads: 0, sweepIntervalMs: 60_000 });
    follower.add(a);
    follower.add(b);
    const seen = collect(follower);
    expect(await follower.ingest(paymentEvent(a.paymentId, 'payment.processing', 1))).toBe(
      'yielded',
    );
    // A processing from the relay numbered lower is not news: only finals cross the sequences.
    expect(await follower.ingest(paymentEvent(b.paymentId, 'payment.processing', 2))).toBe(
      'yielded',
    );
    expect(await follower.ingest(relayEvent(b.paymentId, 'payment.processing', 1))).toBe('stale');
    expect(await follower.ingest(relayEvent(a.paymentId, 'payment.succeeded', 1))).toBe('yielded');
    await seen.until(() => seen.changes.filter((c) => c.isFinal).length === 1);
    expect(await follower.ingest(paymentEvent(a.paymentId, 'payment.succeeded', 2))).toBe(
      'not-followed',
    );
    expect(seen.changes.map((c) => [c.paymentId, c.status, c.source])).toEqual([
      [a.paymentId, 'processing', 'webhook'],
      [b.paymentId, 'processing', 'webhook'],
      [a.paymentId, 'succeeded', 'webhook'],
    ]);
  }, 60_000);
});

describe('finals from two senders, into one guard', () => {
  /** One payment's events as a receiver gets them from the service and a relay, interleaved. */
  function interleaved(paymentId: string) {
    return [
      paymentEvent(paymentId, 'payment.created', 0),
      paymentEvent(paymentId, 'payment.processing', 1),
      // The relay saw created, then the final: its v1.
      relayEvent(paymentId, 'payment.failed', 1),
      // The service's own copy of the final, numbered in its sequence: not run again.
      paymentEvent(paymentId, 'payment.failed', 2),
    ];
  }

  for (const [name, store] of [
    ['the default store', undefined],
    ['memoryStore()', () => memoryStore()],
  ] as const) {
    it(`${name}: a relay final numbered below the highest handled runs, once; the service's copy after it is stale`, async () => {
      const guard = createWebhookGuard(store === undefined ? undefined : { store: store() });
      const ran: string[] = [];
      const outcomes: string[] = [];
      for (const event of interleaved('pay_two_senders')) {
        outcomes.push(
          await guard.handle(event, (e) => {
            ran.push(`${e.data.status} v${e.data.payment_state_version}`);
          }),
        );
      }
      expect(outcomes).toEqual(['handled', 'handled', 'handled', 'stale']);
      expect(ran).toEqual(['requires_action v0', 'processing v1', 'failed v1']);
    });
  }

  it('settled is its own news: a settled after the succeeded runs, and either final again does not', async () => {
    const guard = createWebhookGuard();
    const run = (event: ReturnType<typeof paymentEvent>) => guard.handle(event, () => {});
    const id = 'pay_settles';
    expect(await run(paymentEvent(id, 'payment.processing', 1))).toBe('handled');
    expect(await run(relayEvent(id, 'payment.succeeded', 1))).toBe('handled');
    expect(await run(paymentEvent(id, 'payment.succeeded', 2))).toBe('stale');
    expect(await run(relayEvent(id, 'payment.settled', 2))).toBe('handled');
    expect(await run(paymentEvent(id, 'payment.settled', 3))).toBe('stale');
  });

  it('settled before succeeded, from one sender: the succeeded after it is stale (the status is handled)', async () => {
    const guard = createWebhookGuard();
    const run = (event: ReturnType<typeof paymentEvent>) => guard.handle(event, () => {});
    expect(await run(paymentEvent('pay_order', 'payment.settled', 3))).toBe('handled');
    expect(await run(paymentEvent('pay_order', 'payment.succeeded', 2))).toBe('stale');
  });

  it('a second final of another status runs once (the handler sees the contradiction), and not again', async () => {
    const guard = createWebhookGuard();
    const ran: string[] = [];
    const run = (event: ReturnType<typeof paymentEvent>) =>
      guard.handle(event, (e) => {
        ran.push(e.data.status);
      });
    expect(await run(paymentEvent('pay_x', 'payment.succeeded', 2))).toBe('handled');
    expect(await run(relayEvent('pay_x', 'payment.failed', 1))).toBe('handled');
    expect(await run(paymentEvent('pay_x', 'payment.failed', 3))).toBe('stale');
    expect(ran).toEqual(['succeeded', 'failed']);
  });
});
