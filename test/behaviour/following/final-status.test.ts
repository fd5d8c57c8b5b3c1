import { describe, expect, it, vi } from 'vitest';
import { gateway, PAYMENT_ID, useScriptedGateway } from './helpers';

const mock = useScriptedGateway();

describe('what counts as final', () => {
  it.each(['succeeded', 'failed', 'expired', 'cancelled'])(
    'ends the wait when the status becomes %s',
    async (status) => {
      mock.statuses('requires_action', status, 'requires_action');
      const done = gateway().payments.waitForFinal(PAYMENT_ID);

      await vi.advanceTimersByTimeAsync(60_000);

      await expect(done).resolves.toMatchObject({ status });
      expect(mock.state.reads).toHaveLength(2);
    },
  );

  it('ends the wait on an unknown status the result marks isFinal', async () => {
    mock.statuses('requires_action', { status: 'refunded', isFinal: true }, 'requires_action');
    const done = gateway().payments.waitForFinal(PAYMENT_ID);

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'refunded', isFinal: true });
    expect(mock.state.reads).toHaveLength(2);
  });

  it('keeps polling through an unknown status that carries no isFinal', async () => {
    mock.statuses('on_hold', 'on_hold', 'succeeded');
    const done = gateway().payments.waitForFinal(PAYMENT_ID);

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(mock.reads).toEqual([0, 0, 1000]);
  });

  it('believes a result that says isFinal false, even on a usually final status', async () => {
    mock.statuses({ status: 'succeeded', isFinal: false }, { status: 'succeeded', isFinal: true });
    const done = gateway().payments.waitForFinal(PAYMENT_ID);

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded', isFinal: true });
    expect(mock.state.reads).toHaveLength(2);
  });

  it('reports each status change to onUpdate once, the final one included', async () => {
    mock.statuses('requires_action', 'requires_action', 'processing', 'processing', 'succeeded');
    const seen: string[] = [];
    const done = gateway().payments.waitForFinal(PAYMENT_ID, {
      onUpdate: (update) => seen.push(update.status),
    });

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(done).resolves.toMatchObject({ status: 'succeeded' });
    expect(seen).toEqual(['requires_action', 'processing', 'succeeded']);
  });
});
