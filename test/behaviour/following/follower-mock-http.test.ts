import {
  ConnectionError,
  MerchantGateway,
  type PaymentCreated,
  type PaymentFollowerCheckpoint,
} from 'merchant-gateway';
import { createMockGateway, type MockServer } from 'merchant-gateway/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { partnerOverFetch } from '../../support';
import { collect, countingFetch, countingProxy, createOrders } from './follower-helpers';

// Over real HTTP on loopback: the mock serves, a counting TCP proxy sits in front of it.
const mock = createMockGateway({ pollInMs: 100 });
let server: MockServer;
let port: number;

beforeAll(async () => {
  server = await mock.listen();
  port = Number(new URL(server.url).port);
});
afterAll(() => server.close());
beforeEach(() => mock.reset());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client that creates payments in-process (fast); the followers read over HTTP. */
function creator() {
  return partnerOverFetch(mock);
}

function client(baseUrl: string, fetch?: typeof globalThis.fetch) {
  return new MerchantGateway({
    baseUrl,
    apiKey: mock.credentials.apiKey,
    merchantId: mock.sample.merchantId,
    ...(fetch ? { fetch } : {}),
  });
}

function createPayments(n: number): Promise<PaymentCreated[]> {
  return createOrders(creator(), n);
}

const FINALS = ['succeeded', 'failed', 'cancelled', 'expired'] as const;

describe('payments.follower over real HTTP against the mock', () => {
  it('reports every change of 300 payments once, with at most maxHeldReads held reads and maxHeldReads + 2 sockets, sweeping one list page per 200', async () => {
    const payments = await createPayments(300);
    const proxy = await countingProxy(port);
    const counting = countingFetch();
    const errors: unknown[] = [];
    const follower = client(proxy.url, counting.fetch).payments.follower({
      maxHeldReads: 4,
      sweepIntervalMs: 250,
      onError: (error) => errors.push(error),
    });
    // Half as the result of payments.create (status known), half by id (first read yielded).
    payments.forEach((p, i) => {
      follower.add(i % 2 === 0 ? p : p.paymentId);
    });
    follower.add(payments[0] as PaymentCreated); // adding again changes nothing
    expect(follower.size).toBe(300);
    const run = collect(follower);
    try {
      await run.until(() => run.changes.length >= 150); // the first reads of those added by id
      const moved = payments.filter((_, i) => i % 3 === 0);
      for (const p of moved) mock.setPaymentStatus(p.paymentId, 'processing');
      await run.until(() => run.changes.filter((c) => c.status === 'processing').length >= 100);
      payments.forEach((p, i) => {
        mock.setPaymentStatus(p.paymentId, FINALS[i % FINALS.length] ?? 'succeeded');
      });
      await run.until(() => follower.size === 0);

      // Each payment: its first read (if added by id), processing (if moved), its final status.
      const byPayment = new Map<string, string[]>();
      for (const c of run.changes) {
        byPayment.set(c.paymentId, [...(byPayment.get(c.paymentId) ?? []), c.status]);
      }
      payments.forEach((p, i) => {
        const expected = [
          ...(i % 2 === 1 ? ['requires_action'] : []),
          ...(i % 3 === 0 ? ['processing'] : []),
          FINALS[i % FINALS.length],
        ];
        expect(byPayment.get(p.paymentId), p.paymentId).toEqual(expected);
      });
      for (const c of run.changes) {
        expect(c.merchantId).toBe(mock.sample.merchantId);
        expect(c.result.status).toBe(c.status);
        if (c.status === 'failed') expect(c.result.failureCode).toBe('declined_user');
      }
      const finals = run.changes.filter((c) => c.isFinal);
      expect(finals.map((c) => c.previousStatus)).not.toContain(undefined);

      expect(counting.stats.maxHeld).toBeLessThanOrEqual(4);
      expect(counting.stats.maxHeld).toBeGreaterThan(0);
      expect(proxy.stats.maxOpen).toBeLessThanOrEqual(4 + 2);
      // Every sweep asks for 200 a page, and pages at most ceil(300 / 200) of them.
      expect(counting.stats.lists.length).toBeGreaterThan(0);
      for (const url of counting.stats.lists) expect(url.searchParams.get('limit')).toBe('200');
      const sweeps = counting.stats.lists.filter((url) => !url.searchParams.has('cursor')).length;
      expect(counting.stats.lists.length).toBeLessThanOrEqual(2 * sweeps);
      expect(errors).toEqual([]);
    } finally {
      follower.close();
      await run.done;
      await proxy.close();
    }
  }, 60_000);

  it('resumes from a checkpoint in a new follower: changes yielded before it are not yielded again', async () => {
    const payments = await createPayments(40);
    const gateway = client(server.url);
    const first = gateway.payments.follower({ sweepIntervalMs: 200, maxHeldReads: 2 });
    for (const p of payments) first.add(p);
    const run = collect(first);
    const early = payments.slice(0, 15);
    for (const p of early) mock.setPaymentStatus(p.paymentId, 'processing');
    await run.until(() => run.changes.length >= 15);
    const saved = JSON.stringify(first.checkpoint());
    first.close();
    await run.done;
    expect(run.state.error).toBeUndefined();
    expect(run.changes.map((c) => c.status)).toEqual(early.map(() => 'processing'));

    for (const p of early) mock.setPaymentStatus(p.paymentId, 'succeeded');
    for (const p of payments.slice(30)) mock.setPaymentStatus(p.paymentId, 'failed');

    const checkpoint = JSON.parse(saved) as PaymentFollowerCheckpoint;
    expect(checkpoint.payments).toHaveLength(40);
    const second = client(server.url).payments.follower({
      sweepIntervalMs: 200,
      maxHeldReads: 2,
      resumeFrom: checkpoint,
    });
    expect(second.size).toBe(40);
    const resumed = collect(second);
    try {
      await resumed.until(() => resumed.changes.length >= 25);
      await sleep(600); // three more sweeps: nothing else may come
      const seen = resumed.changes.map((c) => `${c.paymentId} ${c.previousStatus} ${c.status}`);
      expect(seen.sort()).toEqual(
        [
          ...early.map((p) => `${p.paymentId} processing succeeded`),
          ...payments.slice(30).map((p) => `${p.paymentId} requires_action failed`),
        ].sort(),
      );
      expect(second.size).toBe(15);
    } finally {
      second.close();
      await resumed.done;
    }
  }, 60_000);

  it('close() stops every read and timer at once: the iteration ends and nothing more is sent', async () => {
    const payments = await createPayments(20);
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const proxy = await countingProxy(port);
    const counting = countingFetch();
    const follower = client(proxy.url, counting.fetch).payments.follower({
      sweepIntervalMs: 100,
      maxHeldReads: 3,
    });
    for (const p of payments) follower.add(p);
    const run = collect(follower);
    await run.until(() => counting.stats.lists.length >= 2 && counting.stats.maxHeld === 3);
    follower.close();
    await run.done;
    expect(run.state).toEqual({ ended: true, error: undefined });
    expect(follower.closed).toBe(true);
    await sleep(50); // aborted requests settle
    const sent = counting.stats.lists.length;
    expect(counting.stats.inFlight).toBe(0);
    await sleep(500); // five sweep intervals
    expect(counting.stats.lists.length).toBe(sent);
    expect(counting.stats.inFlight).toBe(0);
    expect(timers()).toBeLessThanOrEqual(before);
    await proxy.close();
  }, 30_000);

  it('outlives an outage (the mock stopped, then restarted on the same port), reporting it to onError', async () => {
    const payments = await createPayments(20);
    const errors: unknown[] = [];
    const follower = new MerchantGateway({
      baseUrl: server.url,
      apiKey: mock.credentials.apiKey,
      merchantId: mock.sample.merchantId,
      maxRetries: 0,
    }).payments.follower({
      sweepIntervalMs: 200,
      maxHeldReads: 2,
      onError: (error) => errors.push(error),
    });
    for (const p of payments) follower.add(p);
    const run = collect(follower);
    try {
      await sleep(300);
      await server.close();
      for (const p of payments) mock.setPaymentStatus(p.paymentId, 'succeeded');
      await sleep(1500);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((e) => e instanceof ConnectionError)).toBe(true);
      expect(run.state.ended).toBe(false);
      server = await mock.listen({ port });
      await run.until(() => follower.size === 0);
      expect(run.changes.map((c) => c.status)).toEqual(payments.map(() => 'succeeded'));
      expect(run.state.error).toBeUndefined();
    } finally {
      follower.close();
      await run.done;
    }
  }, 60_000);
});
