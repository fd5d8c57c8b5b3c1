import { PollTimeoutError } from 'merchant-gateway';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { created, gateway, PAYMENT_ID, result, settle, useScriptedGateway } from './helpers';

const mock = useScriptedGateway();

/** The n-th read from `hangFrom` on never answers. */
function hangFrom(hangFrom: number, status = 'processing') {
  mock.state.script = (_read, n) =>
    n < hangFrom ? HttpResponse.json(result(status)) : new Promise<Response>(() => {});
}

/** The follow `start(timeoutMs)` begins, run on the fake clock to its deadline: its rejection. */
async function timedOut(
  start: (timeoutMs: number) => Promise<unknown>,
  timeoutMs: number,
): Promise<PollTimeoutError> {
  const done = settle(start(timeoutMs));
  await vi.advanceTimersByTimeAsync(timeoutMs);
  const error = await done.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PollTimeoutError);
  return error as PollTimeoutError;
}

describe('timeout', () => {
  it('rejects with PollTimeoutError carrying the last result read, and reads no more', async () => {
    mock.statuses('requires_action', 'processing');
    const error = await timedOut(
      (timeoutMs) => gateway().payments.waitForFinal(PAYMENT_ID, { timeoutMs }),
      4500,
    );
    expect(error.lastStatus).toMatchObject({ status: 'processing' });
    expect(error.message).toMatch(/after 4500 ms.*last status: processing/);
    // The held read's change is followed by an immediate read at 1000; a held read answered at
    // once then shows a service that does not hold, read once a second until the deadline.
    expect(mock.reads).toEqual([0, 0, 1000, 1000, 2000, 3000, 4000]);
    expect(mock.state.reads.map((r) => r.maxPollMs)).toEqual([
      undefined,
      4500,
      undefined,
      3500,
      undefined,
      undefined,
      undefined,
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cuts a wait short at the deadline', async () => {
    mock.statuses('requires_action', 'processing');
    const error = await timedOut(
      (timeoutMs) => gateway().payments.waitForFinal(created({ pollInMs: 20_000 }), { timeoutMs }),
      3000,
    );
    expect(error.lastStatus).toMatchObject({ status: 'processing' });
    expect(mock.reads).toEqual([0, 0]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('carries no status when no read completed before the deadline', async () => {
    hangFrom(1);
    const error = await timedOut(
      (timeoutMs) => gateway().payments.waitForFinal(PAYMENT_ID, { timeoutMs }),
      3000,
    );
    expect(error.lastStatus).toBeUndefined();
    expect(error.message).toMatch(/no status read yet/);
    expect(mock.reads).toEqual([0]);
    // Past the keep-alive timer Node's fetch keeps on the aborted read's connection.
    await vi.advanceTimersByTimeAsync(5000);
    expect(mock.reads).toEqual([0]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborts a read still in flight at the deadline', async () => {
    hangFrom(2);
    const error = await timedOut(
      (timeoutMs) => gateway().payments.waitForFinal(PAYMENT_ID, { timeoutMs }),
      1500,
    );
    expect(error.lastStatus).toMatchObject({ status: 'processing' });
    expect(mock.reads).toEqual([0, 0]);
    // Node's fetch keeps timers of its own on the aborted read's connection (its 4 s keep-alive):
    // past them, nothing is left and nothing more is read.
    await vi.advanceTimersByTimeAsync(5000);
    expect(mock.reads).toEqual([0, 0]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('abort', () => {
  it('rejects at once during a wait with the signal’s own reason, leaving no timer', async () => {
    mock.statuses('requires_action');
    const controller = new AbortController();
    const reason = { why: 'buyer closed the page' };
    const done = settle(gateway().payments.waitForFinal(PAYMENT_ID, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(500);

    controller.abort(reason);

    await expect(done).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(mock.reads).toEqual([0, 0]);
  });

  it('rejects at once during a held read with the signal’s own reason, leaving no timer', async () => {
    hangFrom(2);
    const controller = new AbortController();
    const reason = new Error('shutting down');
    const done = settle(gateway().payments.waitForFinal(PAYMENT_ID, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(mock.kinds).toBe('ih');

    controller.abort(reason);

    await expect(done).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reads nothing when the signal is already aborted', async () => {
    const reason = { why: 'too late' };
    const done = gateway().payments.waitForFinal(PAYMENT_ID, { signal: AbortSignal.abort(reason) });

    await expect(done).rejects.toBe(reason);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(mock.reads).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
