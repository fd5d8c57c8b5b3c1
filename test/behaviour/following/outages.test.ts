// Follows over real sockets through what production puts in their way: a proxy that cuts requests
// idle for 2 s (so held reads of up to 30 s are cut), and the service restarting on its port.
import {
  ConnectionError,
  type FollowReadError,
  type LogData,
  type MerchantGateway,
  ServerError,
} from 'merchant-gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from './helpers';
import {
  clientOf,
  createPayment,
  heldFor,
  type IdleProxy,
  idleCuttingProxy,
  type ServedMock,
  serveMock,
  sleep,
  statusReads,
  until,
} from './real-http';

const IDLE_MS = 2000;

/** Failures as onError saw them, and the warn lines the client logged. */
function observe() {
  const errors: FollowReadError[] = [];
  const warnings: string[] = [];
  const keep = (data: LogData) => {
    if (/still following/.test(data.message)) warnings.push(data.message);
  };
  return {
    errors,
    warnings,
    onError: (error: FollowReadError) => errors.push(error),
    logger: { debug() {}, info() {}, warn: keep, error: keep },
  };
}

describe('behind a proxy that answers 504 to requests idle for 2 s', () => {
  let served: ServedMock;
  let proxy: IdleProxy;
  beforeAll(async () => {
    served = await serveMock();
    proxy = await idleCuttingProxy(served.url, IDLE_MS);
  });
  afterAll(async () => {
    await proxy.close();
    await served.close();
  });

  /** A fresh client behind the proxy: it has not learned the proxy's limit yet. */
  function behindProxy(seen: ReturnType<typeof observe>): MerchantGateway {
    return clientOf(served.mock, proxy.url, { logger: seen.logger, logLevel: 'warn' });
  }

  it('waitForFinal learns the cut once a 504 repeats at the same length, and reaches the final status', async () => {
    const seen = observe();
    const gateway = behindProxy(seen);
    const payment = await createPayment(gateway, 'order-proxy-1');
    const cutsBefore = proxy.cuts;
    const done = gateway.payments.waitForFinal(payment, {
      timeoutMs: 20_000,
      onError: seen.onError,
    });

    // The first two held reads ask for ~20 s and are cut at 2 s: a cut that repeats at the same
    // length is the proxy's, so later ones ask for less than it lasted.
    const reads = () => statusReads(served.mock, payment.paymentId);
    await until(() => reads().filter((r) => heldFor(r) !== undefined).length >= 4);
    served.mock.setPaymentStatus(payment.paymentId, 'succeeded');
    const result = await done;

    expect(result).toMatchObject({ status: 'succeeded', isFinal: true });
    expect(proxy.cuts - cutsBefore).toBe(2);
    expect(seen.errors).toHaveLength(2);
    for (const error of seen.errors) {
      expect(error).toBeInstanceOf(ServerError);
      expect(error).toMatchObject({ status: 504 });
    }
    expect(seen.warnings).toHaveLength(2);
    const held = reads().flatMap((r) => heldFor(r) ?? []);
    expect(held[0]).toBeGreaterThan(IDLE_MS);
    expect(held[1]).toBeGreaterThan(IDLE_MS);
    for (const later of held.slice(2)) expect(later).toBeLessThan(IDLE_MS);
  }, 90_000);

  it('raises the hold again once held reads of the learned length go through', async () => {
    const own = await idleCuttingProxy(served.url, IDLE_MS);
    try {
      const seen = observe();
      const gateway = clientOf(served.mock, own.url, { logger: seen.logger, logLevel: 'warn' });
      const payment = await createPayment(gateway, 'order-proxy-raise');
      const done = gateway.payments.waitForFinal(payment, {
        timeoutMs: 30_000,
        onError: seen.onError,
      });
      const held = () =>
        statusReads(served.mock, payment.paymentId).flatMap((r) => heldFor(r) ?? []);

      await until(() => own.cuts === 2);
      // The proxy is gone (say, the app moved behind another): nothing is cut any more.
      own.cutting = false;
      await until(
        () =>
          held()
            .slice(2)
            .some((ms) => ms > IDLE_MS),
        15_000,
      );
      served.mock.setPaymentStatus(payment.paymentId, 'succeeded');
      await expect(done).resolves.toMatchObject({ status: 'succeeded' });

      const later = held().slice(2);
      // First the learned 1 s, then a longer hold once a few of those went through uncut.
      expect(later[0]).toBeLessThan(IDLE_MS);
      expect(Math.max(...later)).toBeGreaterThan(IDLE_MS);
      expect(seen.errors).toHaveLength(2);
    } finally {
      await own.close();
    }
  }, 120_000);

  it('watch yields every status through the cuts and ends after the final one', async () => {
    const seen = observe();
    const gateway = behindProxy(seen);
    const payment = await createPayment(gateway, 'order-proxy-2');
    const cutsBefore = proxy.cuts;
    const watched = collect(gateway.payments.watch(payment, { onError: seen.onError }));

    await until(() => seen.errors.length === 2);
    served.mock.setPaymentStatus(payment.paymentId, 'processing');
    await until(() => watched.statuses.length === 2);
    await sleep(1500); // a held read or two of the learned length, none cut
    served.mock.setPaymentStatus(payment.paymentId, 'succeeded');
    await watched.done;

    expect(watched.statuses).toEqual(['requires_action', 'processing', 'succeeded']);
    expect(proxy.cuts - cutsBefore).toBe(2);
    expect(seen.errors).toHaveLength(2);
    expect(seen.warnings).toHaveLength(2);
  }, 90_000);
});

describe('while the service restarts on the same port', () => {
  let served: ServedMock;
  beforeAll(async () => {
    served = await serveMock();
  });
  afterAll(() => served.close());

  /** A client counting the attempts that got no response (refused or dropped): each is one failed read here. */
  function counting(seen: ReturnType<typeof observe>) {
    const unanswered = { count: 0 };
    const gateway = clientOf(served.mock, served.url, {
      // One attempt per read, so every refused connection is one failure the follow outlives.
      maxRetries: 0,
      logger: seen.logger,
      logLevel: 'warn',
      fetch: (input, init) =>
        globalThis.fetch(input, init).catch((error: unknown) => {
          if (!init?.signal?.aborted) unanswered.count += 1;
          throw error;
        }),
    });
    return { gateway, unanswered };
  }

  /** Stops the mock while a held read is open, keeps it down for `downMs`, starts it again. */
  async function restart(paymentId: string, downMs: number): Promise<void> {
    await until(() => statusReads(served.mock, paymentId).some((r) => heldFor(r) !== undefined));
    await sleep(200);
    await served.stop();
    await sleep(downMs);
    await served.start();
  }

  it('waitForFinal reaches the final status, reporting each unanswered read to onError', async () => {
    const seen = observe();
    const { gateway, unanswered } = counting(seen);
    const payment = await createPayment(gateway, 'order-restart-1');
    const done = gateway.payments.waitForFinal(payment, {
      timeoutMs: 20_000,
      onError: seen.onError,
    });

    await restart(payment.paymentId, 1500);
    served.mock.setPaymentStatus(payment.paymentId, 'succeeded');
    const result = await done;

    expect(result).toMatchObject({ status: 'succeeded', isFinal: true });
    expect(seen.errors.length).toBeGreaterThanOrEqual(2);
    for (const error of seen.errors) expect(error).toBeInstanceOf(ConnectionError);
    expect(seen.errors).toHaveLength(unanswered.count);
    expect(seen.warnings).toHaveLength(unanswered.count);
  }, 30_000);

  it('a held read dropped once by the restart, after lasting a while, leaves later holds as long', async () => {
    const seen = observe();
    const { gateway } = counting(seen);
    const payment = await createPayment(gateway, 'order-restart-hold');
    const done = gateway.payments.waitForFinal(payment, {
      timeoutMs: 20_000,
      onError: seen.onError,
    });
    const held = () => statusReads(served.mock, payment.paymentId).flatMap((r) => heldFor(r) ?? []);

    // The service goes down 2.5 s into a held read: a crash, not a proxy's idle cut.
    await until(() => held().length > 0);
    await sleep(2500);
    await served.stop();
    await sleep(300);
    await served.start();
    await until(() => held().length >= 2);
    served.mock.setPaymentStatus(payment.paymentId, 'succeeded');
    await expect(done).resolves.toMatchObject({ status: 'succeeded' });

    expect(seen.errors.length).toBeGreaterThanOrEqual(1);
    // Still the time left (about 17 s), not less than the 2.5 s the dropped one lasted.
    expect(held()[1]).toBeGreaterThan(10_000);
  }, 60_000);

  it('watch yields every status across a restart and ends after the final one', async () => {
    const seen = observe();
    const { gateway, unanswered } = counting(seen);
    const payment = await createPayment(gateway, 'order-restart-2');
    const watched = collect(gateway.payments.watch(payment, { onError: seen.onError }));

    await restart(payment.paymentId, 1000);
    served.mock.setPaymentStatus(payment.paymentId, 'processing');
    await until(() => watched.statuses.length === 2);
    await served.stop();
    await sleep(1000);
    served.mock.setPaymentStatus(payment.paymentId, 'succeeded');
    await served.start();
    await watched.done;

    expect(watched.statuses).toEqual(['requires_action', 'processing', 'succeeded']);
    expect(seen.errors.length).toBeGreaterThanOrEqual(2);
    expect(seen.errors).toHaveLength(unanswered.count);
  }, 60_000);
});
