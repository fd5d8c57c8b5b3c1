// One payment's failing deliveries wait out their own backoff, whatever other payments do: a
// receiver that fails one payment for 6 s while other payments change every second.
import { afterEach, describe, expect, it } from 'vitest';
import {
  type MockService,
  newSecret,
  openPayments,
  type Receiver,
  relayArgs,
  runInProcess,
  sleep,
  startMockService,
  startReceiver,
  until,
} from './helpers';

let service: MockService | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  await service?.close();
  receiver = undefined;
  service = undefined;
});

describe('merchant-gateway relay: per-payment backoff', () => {
  it("keeps one payment's spacing through a 6 s receiver blip while others change every second, and delivers its final event without a restart", async () => {
    service = await startMockService({ settleAfterMs: 2_147_483_647 });
    const secret = newSecret();
    receiver = await startReceiver(secret);
    const [blipped, ...others] = await openPayments(service, 9, 'backoff');
    const target = blipped as string;
    // The default schedule (5, 10, 20, 40, 80 s) divided by 5 through the test knob.
    const delays = [1_000, 2_000, 4_000, 8_000, 16_000];
    const relay = runInProcess(relayArgs(receiver.url, secret), {
      ...service.env,
      MERCHANT_GATEWAY_RELAY_RETRY_DELAYS_MS: delays.join(','),
    });
    await until(() => /following \d+ open payments/.test(relay.stderr), {
      what: () => relay.stderr,
    });
    const attempts: number[] = [];
    let failUntil = Number.POSITIVE_INFINITY;
    receiver.answer = (_n, delivery) => {
      if (delivery.paymentId !== target) return 204;
      const now = Date.now();
      attempts.push(now);
      if (failUntil === Number.POSITIVE_INFINITY) failUntil = now + 6_000;
      return now < failUntil ? 500 : 204;
    };
    service.mock.setPaymentStatus(target, 'processing');
    await until(() => attempts.length > 0, { what: () => relay.stderr });
    service.mock.setPaymentStatus(target, 'succeeded');
    // Other payments' traffic: one new event every second through the blip and after it.
    for (const id of others) {
      await sleep(1_000);
      service.mock.setPaymentStatus(id, 'processing');
    }
    await receiver.until(
      (d) =>
        d.some((x) => x.paymentId === target && x.type === 'payment.succeeded') &&
        others.every((id) => d.some((x) => x.paymentId === id)),
      15_000,
    );
    relay.stop();
    expect(await relay.done).toBe(0);
    expect(receiver.rejected).toBe(0);
    expect(relay.stderr).not.toContain('kept for the next start');
    const mine = receiver.deliveries.filter((d) => d.paymentId === target).map((d) => d.type);
    expect(mine).toEqual(['payment.processing', 'payment.succeeded']);
    // The failed attempts of its first event, each gap at least 75 % of its scheduled delay.
    const failed = attempts.filter((at) => at < failUntil);
    expect(failed.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < failed.length; i++) {
      const gap = (failed[i] as number) - (failed[i - 1] as number);
      expect(gap).toBeGreaterThanOrEqual(0.75 * (delays[i - 1] as number) - 50);
    }
  }, 240_000);
});
