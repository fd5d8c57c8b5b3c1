import type { FinalPaymentStatusResult, PaymentStatusResult } from 'merchant-gateway';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  created,
  gateway,
  MERCHANT_ID,
  PAYMENT_ID,
  type Read,
  useScriptedGateway,
} from './helpers';

const mock = useScriptedGateway();

/** Resolves the wait and records, on the fake clock, when the caller got the result. */
function timed(promise: Promise<PaymentStatusResult>) {
  const out = { at: -1, value: undefined as PaymentStatusResult | undefined };
  const start = Date.now();
  promise.then(
    (value) => {
      out.at = Date.now() - start;
      out.value = value;
    },
    () => {},
  );
  return out;
}

/** Every immediate read after the first starts at least `pollInMs` after the read before it. */
function immediateGaps(reads: readonly Read[]): number[] {
  return reads.flatMap((read, i) => {
    const before = reads[i - 1];
    return i > 0 && read.maxPollMs === undefined && before ? [read.at - before.at] : [];
  });
}

describe('long polling on the status reads', () => {
  it('alternates an immediate read with a held one, and a change while held reaches the caller at once', async () => {
    mock.timeline([
      [0, 'requires_action'],
      [7000, 'succeeded'],
    ]);
    const done = timed(gateway({ timeoutMs: 2000 }).payments.waitForFinal(PAYMENT_ID));

    await vi.advanceTimersByTimeAsync(60_000);

    expect(done.value).toMatchObject({ status: 'succeeded', isFinal: true });
    expect(mock.kinds).toBe('ih');
    expect(mock.state.reads.map((r) => [r.at, r.maxPollMs])).toEqual([
      [0, undefined],
      [0, 30_000],
    ]);
    // The held read outlived the client's 2 s attempt timeout: its timeout covers maxPollMs.
    expect(done.at - 7000).toBeGreaterThanOrEqual(0);
    expect(done.at - 7000).toBeLessThanOrEqual(100);
  });

  it('sees a change that happens between reads within one pollInMs', async () => {
    mock.timeline([
      [0, { status: 'requires_action', pollInMs: 2000 }],
      [500, { status: 'processing', pollInMs: 2000 }],
      [1200, 'succeeded'],
    ]);
    const done = timed(gateway().payments.waitForFinal(PAYMENT_ID));

    await vi.advanceTimersByTimeAsync(60_000);

    expect(done.value?.status).toBe('succeeded');
    // Held read answered at 500 with the change; the next (immediate) read waits until 0 + 2000.
    expect(mock.kinds).toBe('ihi');
    expect(mock.reads).toEqual([0, 0, 2000]);
    expect(done.at - 1200).toBeLessThanOrEqual(2000);
  });

  it('makes at most two reads per change plus two per 30 s of waiting', async () => {
    mock.timeline([
      [0, { status: 'requires_action', pollInMs: 1000 }],
      [95_000, { status: 'processing', pollInMs: 1000 }],
      [200_000, 'succeeded'],
    ]);
    const done = timed(gateway().payments.waitForFinal(created()));

    await vi.advanceTimersByTimeAsync(300_000);

    expect(done.value?.status).toBe('succeeded');
    expect(done.at).toBe(200_000);
    expect(mock.reads).toEqual([
      0, 0, 30_000, 30_000, 60_000, 60_000, 90_000, 90_000, 95_000, 95_000, 125_000, 125_000,
      155_000, 155_000, 185_000, 185_000,
    ]);
    expect(mock.kinds).toBe('ih'.repeat(8));
    const changes = 2;
    expect(mock.reads.length).toBeLessThanOrEqual(2 * changes + 2 * Math.ceil(200_000 / 30_000));
  });

  it('never starts an immediate read sooner than pollInMs after the read before it', async () => {
    mock.timeline([
      [0, { status: 'requires_action', pollInMs: 1500 }],
      [100, { status: 'processing', pollInMs: 1500 }],
      [200, { status: 'requires_action', pollInMs: 1500 }],
      [300, { status: 'processing', pollInMs: 1500 }],
      [3100, { status: 'on_hold', pollInMs: 1500 }],
      [3200, 'failed'],
    ]);
    const done = timed(gateway().payments.waitForFinal(PAYMENT_ID));

    await vi.advanceTimersByTimeAsync(60_000);

    expect(done.value).toMatchObject({ status: 'failed' });
    const gaps = immediateGaps(mock.state.reads);
    expect(gaps.length).toBeGreaterThan(0);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1500);
  });

  it('reads a service that ignores maxPollMs once per pollInMs', async () => {
    mock.timeline(
      [
        [0, { status: 'requires_action', pollInMs: 1000 }],
        [5500, 'succeeded'],
      ],
      { holds: false },
    );
    const done = timed(gateway().payments.waitForFinal(PAYMENT_ID));

    await vi.advanceTimersByTimeAsync(60_000);

    expect(done.value?.status).toBe('succeeded');
    // One held read answered at once gives the service away; then one immediate read per second.
    expect(mock.kinds).toBe('ihiiiiii');
    expect(mock.reads).toEqual([0, 0, 1000, 2000, 3000, 4000, 5000, 6000]);
  });

  it('asks to hold no longer than the time left before timeoutMs', async () => {
    mock.timeline([[0, 'requires_action']]);
    const done = gateway().payments.waitForFinal(PAYMENT_ID, { timeoutMs: 12_000 });
    done.catch(() => {});

    await vi.advanceTimersByTimeAsync(20_000);

    await expect(done).rejects.toMatchObject({ name: 'PollTimeoutError' });
    expect(mock.state.reads.map((r) => r.maxPollMs)).toEqual([undefined, 12_000]);
  });

  it('returns the status result: failureCode when failed', async () => {
    mock.timeline([
      [0, 'requires_action'],
      [3000, { status: 'failed', failureCode: 'declined_user', pollInMs: null }],
    ]);
    const done = gateway().payments.waitForFinal(PAYMENT_ID);
    expectTypeOf(done).toEqualTypeOf<Promise<FinalPaymentStatusResult>>();

    await vi.advanceTimersByTimeAsync(10_000);

    await expect(done).resolves.toEqual({
      status: 'failed',
      isFinal: true,
      failureCode: 'declined_user',
      pollInMs: null,
    });
  });
});

describe('which status read polling uses', () => {
  it('reads GET /v1/payments/{id}/status with the client merchant id for an API-key client', async () => {
    mock.statuses('succeeded');
    await Promise.all([
      gateway().payments.waitForFinal(PAYMENT_ID),
      vi.advanceTimersByTimeAsync(0),
    ]);
    expect(mock.state.reads).toMatchObject([
      { path: `/v1/payments/${PAYMENT_ID}/status`, merchantId: MERCHANT_ID },
    ]);
  });

  it('prefers the merchantId option to the client default', async () => {
    mock.statuses('succeeded');
    await Promise.all([
      gateway().payments.waitForFinal(PAYMENT_ID, { merchantId: 'mer_other' }),
      vi.advanceTimersByTimeAsync(0),
    ]);
    expect(mock.state.reads[0]?.merchantId).toBe('mer_other');
  });

  it('reads the gateway status without Merchant-Id when no merchant id is known', async () => {
    mock.statuses('succeeded');
    await Promise.all([
      gateway({ merchantId: undefined }).payments.waitForFinal(PAYMENT_ID),
      vi.advanceTimersByTimeAsync(0),
    ]);
    expect(mock.state.reads).toMatchObject([
      { path: `/v1/gateway/payment/${PAYMENT_ID}/status`, merchantId: null },
    ]);
  });

  it('reads the gateway status for an app-scheme client, even with a merchant id', async () => {
    mock.statuses('succeeded');
    const app = gateway({ apiKey: undefined, appId: 'app_1', clientId: 'client_1' });
    await Promise.all([
      app.payments.waitForFinal(PAYMENT_ID, { merchantId: 'mer_other' }),
      vi.advanceTimersByTimeAsync(0),
    ]);
    expect(mock.state.reads).toMatchObject([
      { path: `/v1/gateway/payment/${PAYMENT_ID}/status`, merchantId: null },
    ]);
  });

  it('refuses a merchantId option with a space before any read', async () => {
    const error = await gateway()
      .payments.waitForFinal(PAYMENT_ID, { merchantId: 'mer 1' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'RequestValidationError',
      issues: [{ field: 'merchantId' }],
    });
    expect(mock.state.reads).toEqual([]);
  });
});
