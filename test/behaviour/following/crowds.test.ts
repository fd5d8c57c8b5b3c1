import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { gateway, useScriptedGateway } from './helpers';

const mock = useScriptedGateway();

describe('many pollers at once', () => {
  it('1,000 watchers sharing one AbortSignal add one abort listener to it, and leave none', async () => {
    mock.statuses('requires_action');
    const client = gateway({ timeoutMs: 60_000 });
    const controller = new AbortController();
    const { signal } = controller;
    const waits = Array.from({ length: 1000 }, (_, i) =>
      client.payments
        .waitForFinal(`pay_${i}`, { signal, intervalMs: 1000 })
        .catch((error: unknown) => error),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(getEventListeners(signal, 'abort').length).toBe(1);

    controller.abort('done');
    await expect(Promise.all(waits)).resolves.toEqual(waits.map(() => 'done'));
    expect(getEventListeners(signal, 'abort').length).toBe(0);
    // 7.8 s idle under coverage (1,000 reads through the SDK); a full `npm test` timed out at 30 s.
  }, 120_000);

  it('pollers started together spread their later reads instead of reading in lockstep', async () => {
    vi.mocked(Math.random).mockRestore(); // the real jitter
    mock.statuses('requires_action');
    const client = gateway();
    const stop = new AbortController();
    for (let i = 0; i < 50; i++) {
      client.payments
        .waitForFinal(`pay_${i}`, { signal: stop.signal, intervalMs: 1000 })
        .catch(() => {});
    }
    // Each reads at once, then holds; the service here answers held reads at once, so from the
    // second read on every poller reads on its own pace, jittered.
    await vi.advanceTimersByTimeAsync(5000);
    stop.abort();
    const later = mock.reads.filter((at) => at >= 1000);
    expect(later.length).toBeGreaterThan(50);
    expect(Math.min(...later)).toBeGreaterThanOrEqual(1000); // never sooner than the pace
    expect(new Set(later).size).toBeGreaterThan(25); // not all on the same millisecond
  }, 30_000);
});
