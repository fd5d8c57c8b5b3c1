import { RequestValidationError } from 'merchant-gateway';
import { describe, expect, it, vi } from 'vitest';
import { collect, created, gateway, PAYMENT_ID, useScriptedGateway } from './helpers';

const mock = useScriptedGateway();

describe('watch', () => {
  it('yields the first result and then only status changes, ending after the final one', async () => {
    mock.statuses(
      'requires_action',
      'requires_action',
      'requires_action',
      'processing',
      'processing',
      'succeeded',
    );
    const seen = collect(gateway().payments.watch(PAYMENT_ID));

    await vi.advanceTimersByTimeAsync(60_000);

    await expect(seen.done).resolves.toBeUndefined();
    expect(seen.statuses).toEqual(['requires_action', 'processing', 'succeeded']);
    expect(mock.reads).toEqual([0, 0, 1000, 2000, 3000, 4000]);
  });

  it('stops reading and leaves no timer when the loop breaks', async () => {
    mock.statuses('requires_action', 'processing', 'succeeded');
    const statuses: string[] = [];
    const done = (async () => {
      for await (const update of gateway().payments.watch(created({ pollInMs: 2000 }))) {
        statuses.push(update.status);
        break;
      }
    })();

    await vi.advanceTimersByTimeAsync(0);
    await done;

    expect(statuses).toEqual(['requires_action']);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(mock.reads).toEqual([0]);
  });

  it('yields one result for a payment that was final when created', async () => {
    mock.statuses('failed');
    const seen = collect(
      gateway().payments.watch(created({ status: 'failed', isFinal: true, pollInMs: null })),
    );

    await vi.advanceTimersByTimeAsync(60_000);

    await seen.done;
    expect(seen.statuses).toEqual(['failed']);
    expect(mock.reads).toEqual([0]);
  });

  it('calls onUpdate once per yielded result', async () => {
    mock.statuses('requires_action', 'requires_action', 'succeeded');
    const updates: string[] = [];
    const seen = collect(
      gateway().payments.watch(PAYMENT_ID, { onUpdate: (update) => updates.push(update.status) }),
    );

    await vi.advanceTimersByTimeAsync(60_000);

    await seen.done;
    expect(updates).toEqual(['requires_action', 'succeeded']);
    expect(seen.statuses).toEqual(updates);
  });

  it('rejects bad input on the first step, before any read', async () => {
    const seen = collect(gateway().payments.watch(PAYMENT_ID, { timeoutMs: -1 }));

    await expect(seen.done).rejects.toBeInstanceOf(RequestValidationError);
    expect(mock.reads).toEqual([]);
  });
});
