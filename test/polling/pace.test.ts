import { describe, expect, it, vi } from 'vitest';
import { created, gateway, PAYMENT_ID, useScriptedGateway } from './helpers';

const mock = useScriptedGateway();

describe('polling pace', () => {
  it('reads exactly as often as pollInMs says, and stops at the final status', async () => {
    mock.statuses('requires_action', 'processing', 'succeeded');
    const done = gateway().payments.waitForFinal(created({ pollInMs: 2000 }));

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.state.reads).toEqual([2000, 4000, 6000]);
  });

  it('reads once, without waiting, when the creation result is already final', async () => {
    mock.statuses('succeeded');
    const done = gateway().payments.waitForFinal(
      created({ status: 'succeeded', isFinal: true, pollInMs: null }),
    );

    await vi.advanceTimersByTimeAsync(0);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.state.reads).toEqual([0]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(mock.state.reads).toEqual([0]);
  });

  it('given only an id, reads at once and then every second by default', async () => {
    mock.statuses('requires_action', 'processing', 'succeeded');
    const done = gateway().payments.waitForFinal(PAYMENT_ID);

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.state.reads).toEqual([0, 1000, 2000]);
  });

  it('given only an id, waits intervalMs between reads', async () => {
    mock.statuses('requires_action', 'processing', 'succeeded');
    const done = gateway().payments.waitForFinal(PAYMENT_ID, { intervalMs: 250 });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.state.reads).toEqual([0, 250, 500]);
  });

  it('prefers the pollInMs of the creation result to intervalMs', async () => {
    mock.statuses('requires_action', 'succeeded');
    const done = gateway().payments.waitForFinal(created({ pollInMs: 3000 }), { intervalMs: 500 });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.state.reads).toEqual([3000, 6000]);
  });

  it('falls back to intervalMs when the creation result carries no pollInMs', async () => {
    mock.statuses('requires_action', 'succeeded');
    const done = gateway().payments.waitForFinal(created({ pollInMs: null }), { intervalMs: 700 });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.state.reads).toEqual([700, 1400]);
  });

  it('follows a pollInMs carried by the view, and keeps it when later views carry none', async () => {
    mock.statuses(
      { status: 'requires_action', pollInMs: 5000 },
      { status: 'processing', pollInMs: null },
      'processing',
      'succeeded',
    );
    const done = gateway().payments.waitForFinal(created({ pollInMs: 1000 }));

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.state.reads).toEqual([1000, 6000, 11_000, 16_000]);
  });

  it('never waits less than 100 ms, even when the service asks for 0', async () => {
    mock.statuses('requires_action', 'processing', 'succeeded');
    const done = gateway().payments.waitForFinal(created({ pollInMs: 0 }));

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.state.reads).toEqual([100, 200, 300]);
  });

  it('never waits more than 30 s, even when the service asks for two minutes', async () => {
    mock.statuses({ status: 'requires_action', pollInMs: 120_000 }, 'processing', 'succeeded');
    const done = gateway().payments.waitForFinal(created({ pollInMs: 120_000 }));

    await vi.advanceTimersByTimeAsync(200_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.state.reads).toEqual([30_000, 60_000, 90_000]);
  });

  it('keeps a tiny intervalMs to at least 100 ms between reads', async () => {
    mock.statuses('requires_action', 'succeeded');
    const done = gateway().payments.waitForFinal(PAYMENT_ID, { intervalMs: 1 });

    await vi.advanceTimersByTimeAsync(10_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.state.reads).toEqual([0, 100]);
  });

  it('treats a pollInMs that is not a finite number as absent, so it never spins', async () => {
    mock.statuses('requires_action', 'succeeded');
    const hand = created({ pollInMs: Number.NaN });
    const done = gateway().payments.waitForFinal(hand, { intervalMs: 400 });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.state.reads).toEqual([400, 800]);
  });
});
