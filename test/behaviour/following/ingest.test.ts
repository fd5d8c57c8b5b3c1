// follower.ingest: webhooks and following as one stream. The follower reads the mock over real
// HTTP (sweeps, held reads) while the test hands it the service's payment events, in either order
// or at once: each status change is yielded once, with the source that told it first.
import {
  MerchantGateway,
  type PaymentCreated,
  type PaymentFollower,
  RequestValidationError,
} from 'merchant-gateway';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EventType, paymentEvent } from '../../support/payment-events';
import { collect, createOrders } from './follower-helpers';

const mock = createMockGateway({ pollInMs: 100 });
let server: MockServer;
const followers: PaymentFollower[] = [];

beforeAll(async () => {
  server = await mock.listen();
});
afterAll(() => server.close());
beforeEach(() => mock.reset());
afterEach(() => {
  for (const follower of followers.splice(0)) follower.close();
});

function gateway() {
  return new MerchantGateway({
    baseUrl: server.url,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
  });
}

function follower(options: Parameters<MerchantGateway['payments']['follower']>[0]) {
  const made = gateway().payments.follower(options);
  followers.push(made);
  return made;
}

function create(n: number): Promise<PaymentCreated[]> {
  return createOrders(gateway(), n);
}

/** One new payment, followed by a follower made with `options`, and what that follower yields. */
async function followOne(options: Parameters<typeof follower>[0]) {
  const [payment] = (await create(1)) as [PaymentCreated];
  const f = follower(options);
  f.add(payment);
  return { payment, f, seen: collect(f) };
}

/** The event the service sends for `type` at `version`, for a payment of the mock. */
const event = (payment: PaymentCreated, type: EventType, version: number) =>
  paymentEvent(payment.paymentId, type, version, { merchantId: mock.sample.merchantId });

/** An event whose snapshot shows `status`, one this SDK may not know. */
function statusEvent(payment: PaymentCreated, status: string, version: number) {
  const made = event(payment, 'payment.processing', version);
  return { ...made, type: 'payment.on_hold', data: { ...made.data, status } };
}

/** Resolves once the follower has read the partner-wide list `n` more times. */
async function sweeps(n: number, until: ReturnType<typeof collect>['until']): Promise<void> {
  const lists = () => mock.requests.filter((r) => r.method === 'GET' && r.path === '/v1/payments');
  const target = lists().length + n;
  await until(() => lists().length >= target);
}

describe('follower.ingest', () => {
  it('webhook first, then polls: the change is yielded at once by the webhook, and the sweeps that show it add nothing', async () => {
    const { payment, f, seen } = await followOne({ maxHeldReads: 0, sweepIntervalMs: 100 });
    // The service's state and its event in one tick: no read can see the change first.
    mock.setPaymentStatus(payment.paymentId, 'processing');
    expect(await f.ingest(event(payment, 'payment.processing', 1))).toBe('yielded');
    await seen.until(() => seen.changes.length === 1);
    await sweeps(3, seen.until);
    expect(seen.changes).toEqual([
      expect.objectContaining({
        paymentId: payment.paymentId,
        status: 'processing',
        previousStatus: 'requires_action',
        isFinal: false,
        source: 'webhook',
        result: { status: 'processing', isFinal: false },
      }),
    ]);
    // A change no event told (the event is late) is learned by the sweeps, the backstop.
    mock.setPaymentStatus(payment.paymentId, 'succeeded');
    await seen.until(() => seen.changes.length === 2);
    expect(seen.changes[1]).toMatchObject({ status: 'succeeded', source: 'poll', isFinal: true });
    // The late event tells nothing new: the payment left with its final change.
    expect(await f.ingest(event(payment, 'payment.succeeded', 2))).toBe('not-followed');
    expect(seen.changes).toHaveLength(2);
    expect(f.size).toBe(0);
  });

  it('poll first, then the webhook: the event is stale and yields nothing', async () => {
    const { payment, f, seen } = await followOne({ maxHeldReads: 1, sweepIntervalMs: 100 });
    mock.setPaymentStatus(payment.paymentId, 'processing');
    await seen.until(() => seen.changes.length === 1);
    expect(seen.changes[0]).toMatchObject({ status: 'processing', source: 'poll' });
    expect(await f.ingest(event(payment, 'payment.created', 0))).toBe('stale');
    expect(await f.ingest(event(payment, 'payment.processing', 1))).toBe('stale');
    // The same event again (the service delivers at least once) changes nothing either.
    expect(await f.ingest(event(payment, 'payment.processing', 1))).toBe('stale');
    await sweeps(2, seen.until);
    expect(seen.changes).toHaveLength(1);
  });

  it('webhook and held read at once, for 12 payments through their lives: every status change once, whichever told it first', async () => {
    const payments = await create(12);
    const f = follower({ maxHeldReads: 4, sweepIntervalMs: 100 });
    for (const payment of payments) f.add(payment);
    const seen = collect(f);
    const paths: [EventType, 'processing' | 'succeeded' | 'failed' | 'expired' | 'cancelled'][][] =
      [
        [
          ['payment.processing', 'processing'],
          ['payment.succeeded', 'succeeded'],
        ],
        [
          ['payment.processing', 'processing'],
          ['payment.failed', 'failed'],
        ],
        [['payment.cancelled', 'cancelled']],
        [['payment.expired', 'expired']],
      ];
    const outcomes: string[] = [];
    for (let step = 0; step < 2; step++) {
      await Promise.all(
        payments.map(async (payment, i) => {
          const path = paths[i % paths.length] ?? [];
          const move = path[step];
          if (move === undefined) return;
          // The service changes, its held read answers, and its event arrives, all at once;
          // other events a little or a lot later, while the read's answer is on its way or in.
          mock.setPaymentStatus(payment.paymentId, move[1]);
          const lag = [0, 10, 60][i % 3] as number;
          if (lag > 0) await new Promise((resolve) => setTimeout(resolve, lag));
          outcomes.push(await f.ingest(event(payment, move[0], step + 1)));
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await seen.until(() => f.size === 0 && seen.changes.filter((c) => c.isFinal).length === 12);
    for (const [i, payment] of payments.entries()) {
      const path = paths[i % paths.length] ?? [];
      const changes = seen.changes.filter((c) => c.paymentId === payment.paymentId);
      expect(
        changes.map((c) => c.status),
        payment.paymentId,
      ).toEqual(path.map(([, status]) => status));
    }
    const sources = new Set(seen.changes.map((c) => c.source));
    const yielded = outcomes.filter((o) => o === 'yielded').length;
    expect(seen.changes.filter((c) => c.source === 'webhook')).toHaveLength(yielded);
    expect([...sources].every((s) => s === 'poll' || s === 'webhook')).toBe(true);
  });

  it('settled before succeeded: one succeeded change, by the settled event; the succeeded event after it yields nothing', async () => {
    const { payment, f, seen } = await followOne({ maxHeldReads: 0, sweepIntervalMs: 60_000 });
    expect(await f.ingest(event(payment, 'payment.processing', 1))).toBe('yielded');
    expect(await f.ingest(event(payment, 'payment.settled', 3))).toBe('yielded');
    await seen.until(() => seen.changes.length === 2);
    expect(seen.changes.map((c) => [c.status, c.isFinal, c.source])).toEqual([
      ['processing', false, 'webhook'],
      ['succeeded', true, 'webhook'],
    ]);
    expect(await f.ingest(event(payment, 'payment.succeeded', 2))).toBe('not-followed');
    expect(f.has(payment.paymentId)).toBe(false);
    expect(seen.changes).toHaveLength(2);
  });

  it('an older version after a newer one is stale even when its status would be news', async () => {
    const { payment, f, seen } = await followOne({ maxHeldReads: 0, sweepIntervalMs: 60_000 });
    // Its first sweep made (it shows what the follower knows), no read comes for a minute.
    await sweeps(1, seen.until);
    // A created event (v0) that arrives after processing (v1) must not look like a step back.
    expect(await f.ingest(event(payment, 'payment.processing', 1))).toBe('yielded');
    expect(await f.ingest(event(payment, 'payment.created', 0))).toBe('stale');
    // A status this SDK does not know yet (a newer version) is news; the late v1 then is not.
    expect(await f.ingest(statusEvent(payment, 'on_hold', 3))).toBe('yielded');
    expect(await f.ingest(event(payment, 'payment.processing', 2))).toBe('stale');
    await seen.until(() => seen.changes.length === 2);
    expect(seen.changes[1]).toMatchObject({ status: 'on_hold', previousStatus: 'processing' });
    // The change learned by webhook is in the checkpoint: a resumed follower does not repeat it.
    expect(f.checkpoint().payments).toEqual([
      expect.objectContaining({ paymentId: payment.paymentId, status: 'on_hold' }),
    ]);
  });

  it('events for payments not followed, and events without a payment, are not-followed; a non-event is refused', async () => {
    const [payment, other] = (await create(2)) as [PaymentCreated, PaymentCreated];
    const f = follower({ maxHeldReads: 0, sweepIntervalMs: 60_000 });
    expect(await f.ingest(event(other, 'payment.processing', 1))).toBe('not-followed');
    f.add(payment);
    expect(await f.ingest({ id: 'evt_po', type: 'payout.paid', data: { payout_id: 'po_1' } })).toBe(
      'not-followed',
    );
    await expect(f.ingest(null as never)).rejects.toBeInstanceOf(RequestValidationError);
    f.remove(payment.paymentId);
    expect(await f.ingest(event(payment, 'payment.processing', 1))).toBe('not-followed');
    f.close();
    expect(await f.ingest(event(payment, 'payment.processing', 1))).toBe('not-followed');
  });
});
