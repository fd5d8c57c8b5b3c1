import { describe, expect, it, vi } from 'vitest';
import { created, gateway, PAYMENT_ID, useScriptedGateway } from './helpers';

const mock = useScriptedGateway();

describe('polling pace', () => {
  it('reads exactly as often as pollInMs says, and stops at the final status', async () => {
    mock.statuses('requires_action', 'requires_action', 'processing', 'succeeded');
    const done = gateway().payments.waitForFinal(created({ pollInMs: 2000 }));

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    // This service answers held reads at once: after the first one, one immediate read per pollInMs.
    expect(mock.reads).toEqual([0, 0, 2000, 4000]);
    expect(mock.kinds).toBe('ihii');
  });

  it('reads once, without waiting, when the creation result is already final', async () => {
    mock.statuses('succeeded');
    const done = gateway().payments.waitForFinal(
      created({ status: 'succeeded', isFinal: true, pollInMs: null }),
    );

    await vi.advanceTimersByTimeAsync(0);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.reads).toEqual([0]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(mock.reads).toEqual([0]);
  });

  it('given only an id, reads at once and then every second by default', async () => {
    mock.statuses('requires_action', 'requires_action', 'processing', 'succeeded');
    const done = gateway().payments.waitForFinal(PAYMENT_ID);

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.reads).toEqual([0, 0, 1000, 2000]);
  });

  it('given only an id, waits intervalMs between reads', async () => {
    mock.statuses('requires_action', 'requires_action', 'processing', 'succeeded');
    const done = gateway().payments.waitForFinal(PAYMENT_ID, { intervalMs: 250 });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.reads).toEqual([0, 0, 250, 500]);
  });

  it('prefers the pollInMs of the creation result to intervalMs', async () => {
    mock.statuses('requires_action', 'requires_action', 'succeeded');
    const done = gateway().payments.waitForFinal(created({ pollInMs: 3000 }), { intervalMs: 500 });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.reads).toEqual([0, 0, 3000]);
  });

  it('falls back to intervalMs when the creation result carries no pollInMs', async () => {
    mock.statuses('requires_action', 'requires_action', 'succeeded');
    const done = gateway().payments.waitForFinal(created({ pollInMs: null }), { intervalMs: 700 });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.reads).toEqual([0, 0, 700]);
  });

  it('follows a pollInMs carried by a result, and keeps it when later results carry none', async () => {
    mock.statuses(
      { status: 'requires_action', pollInMs: 5000 },
      { status: 'processing', pollInMs: null },
      'processing',
      'succeeded',
    );
    const done = gateway().payments.waitForFinal(created({ pollInMs: 1000 }));

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    // The held read's change sends the next (immediate) read to 0 + 5000; it sees nothing new,
    // so a held read follows at once and ends with the final status.
    expect(mock.reads).toEqual([0, 0, 5000, 5000]);
    expect(mock.kinds).toBe('ihih');
  });

  it('never waits less than 100 ms, even when the service asks for 0', async () => {
    mock.statuses('requires_action', 'requires_action', 'processing', 'succeeded');
    const done = gateway().payments.waitForFinal(created({ pollInMs: 0 }));

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.reads).toEqual([0, 0, 100, 200]);
  });

  it('never waits more than 30 s, even when the service asks for two minutes', async () => {
    mock.statuses(
      { status: 'requires_action', pollInMs: 120_000 },
      'requires_action',
      'processing',
      'succeeded',
    );
    const done = gateway().payments.waitForFinal(created({ pollInMs: 120_000 }));

    await vi.advanceTimersByTimeAsync(200_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.reads).toEqual([0, 0, 30_000, 60_000]);
  });

  it('keeps a tiny intervalMs to at least 100 ms between reads', async () => {
    mock.statuses('requires_action', 'requires_action', 'succeeded');
    const done = gateway().payments.waitForFinal(PAYMENT_ID, { intervalMs: 1 });

    await vi.advanceTimersByTimeAsync(10_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.reads).toEqual([0, 0, 100]);
  });

  it('treats a pollInMs that is not a finite number as absent, so it never spins', async () => {
    mock.statuses('requires_action', 'requires_action', 'succeeded');
    const hand = created({ pollInMs: Number.NaN });
    const done = gateway().payments.waitForFinal(hand, { intervalMs: 400 });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.reads).toEqual([0, 0, 400]);
  });
});
